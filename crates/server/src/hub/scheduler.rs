//! The bots' side of the hub: who thinks for which bot, on which worker, until when, and
//! what happens when its move is refused.
//!
//! - A decision runs on a blocking thread, within a deadline enforced inside the search
//!   (the bot then moves its best move so far), and stops at once when the server shuts
//!   down (its move is not made).
//! - Games with no human seat queue for at most all workers but one; when too many of their
//!   decisions wait, new such games are refused (`busy`), never games with people.
//! - A move refused for a passing reason (the table catching up, storage failing) is tried
//!   again; one that finds the position moved on (`stale`) is dropped: whoever moved it
//!   moves the next bot.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bots::Stop;
use tokio::sync::Semaphore;

use super::table::{Mover, Table};
use super::Hub;
use crate::bots::{BotPolicy, BotSeat};
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::{bots_only, Status};

/// The first wait before a refused bot move is tried again; it doubles up to the most.
const RETRY_FIRST: Duration = Duration::from_millis(50);
const RETRY_MOST: Duration = Duration::from_secs(2);
/// What a `busy` refusal tells the client to wait.
const BUSY_RETRY_AFTER_SECONDS: u64 = 5;

/// How the bots are run.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// Bot decisions computed at once (each on a blocking thread).
    pub workers: usize,
    /// The least time between two moves of a game whose seats are all bots: such a game is
    /// there to be watched.
    pub pace: Duration,
    /// The least time between a bot's turn coming and its move being made in a game with a
    /// human seat, so that the people can follow each bot move on the board (the bot still
    /// decides at once; only making the move waits).
    pub pace_with_people: Duration,
    /// Which bots clients may ask for, and each decision's deadline.
    pub policy: BotPolicy,
    /// Decisions of games with no human seat that may wait for a worker; while that many
    /// wait, new games with no human seat are refused (`busy`).
    pub queue_limit: usize,
}

/// The bot workers and what is waiting for them.
pub(super) struct BotScheduler {
    permits: Arc<Semaphore>,
    /// Taken before `permits` by games with no human seat: one fewer than the workers (at
    /// least one), so that a bot playing people waits behind at most that many decisions
    /// of bots-only games, however many of those run.
    bots_only_permits: Arc<Semaphore>,
    /// Decisions of games with no human seat waiting for a worker.
    bots_only_waiting: AtomicUsize,
    /// Raised when the server shuts down: thinking bots stop, waiting ones never start.
    stopping: Arc<AtomicBool>,
    config: BotConfig,
}

impl BotScheduler {
    pub(super) fn new(config: BotConfig) -> Self {
        BotScheduler {
            permits: Arc::new(Semaphore::new(config.workers.max(1))),
            bots_only_permits: Arc::new(Semaphore::new(config.workers.max(2) - 1)),
            bots_only_waiting: AtomicUsize::new(0),
            stopping: Arc::new(AtomicBool::new(false)),
            config,
        }
    }

    pub(super) fn policy(&self) -> &BotPolicy {
        &self.config.policy
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// A bot worker for a computation that is not a bot's move (a hint), waited for like
    /// a decision of a game with people; `None` once the server shuts down.
    pub(super) async fn worker(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.permits.clone().acquire_owned().await.ok()
    }

    /// The stop of a search that starts now: the decision deadline, or the server
    /// shutting down.
    pub(super) fn decision_stop(&self) -> Stop {
        Stop::at(Instant::now() + self.config.policy.deadline).or_flag(self.stopping.clone())
    }

    /// `busy` when a new game with no human seat would only lengthen a full queue.
    pub(super) fn admit_bots_only(&self) -> Result<(), ApiError> {
        let waiting = self.bots_only_waiting.load(Ordering::SeqCst);
        if waiting >= self.config.queue_limit {
            return Err(ApiError::busy(
                format!(
                    "{waiting} decisions of games with no human seat are waiting for the bots: \
                     no new game of bots only now (a game with a person is still welcome)"
                ),
                BUSY_RETRY_AFTER_SECONDS,
            ));
        }
        Ok(())
    }
}

/// Whether a refused bot move may succeed if tried again at the same position: the table
/// was busy catching up with or storing another change, or storage failed.
fn transient(error: &ApiError) -> bool {
    matches!(error.kind, ErrorKind::Conflict | ErrorKind::Internal)
}

/// What a bot's turn needs, taken from the table under its lock.
struct BotTurn {
    snapshot: Box<dyn engine::DynGame>,
    seq: u64,
    seat: engine::Seat,
    bot: BotSeat,
    seed: u64,
    bots_only: bool,
}

impl Hub {
    /// Stops every thinking bot at once (their moves are not made) and every bot still
    /// waiting for a worker: the server is shutting down.
    pub fn stop_bots(&self) {
        let bots = &self.bots;
        bots.stopping.store(true, Ordering::SeqCst);
        bots.permits.close();
        bots.bots_only_permits.close();
    }

    /// The bot turn of `table` if a bot is to move and nobody here thinks for it yet;
    /// marks it as thought about.
    fn take_bot_turn(&self, table: &Table) -> Option<BotTurn> {
        let mut st = table.lock();
        if st.row().status != Status::Running
            || st.bot_thinking() == Some(st.seq())
            || st.writing().is_some()
            || self.bots.stopping()
            || !self.runs(&table.id)
        {
            return None;
        }
        let seat = st.game().to_move()?;
        let record = st.row().seats.get(usize::from(seat))?;
        let spec = record.played_by_bot()?;
        // A stored spec plays even if the limits refuse it now: the deadline bounds it.
        let bot = match BotSeat::stored(spec) {
            Ok(bot) => bot,
            Err(e) => {
                tracing::error!(game = %table.id, error = %e, "stored bot spec is invalid");
                return None;
            }
        };
        st.think_for_bot();
        let row = st.row();
        Some(BotTurn {
            snapshot: st.game().box_clone(),
            seq: st.seq(),
            seat,
            bot,
            // Bot seeds follow from the game's seed and the position: a bot's games replay.
            seed: row.seed ^ (st.seq() + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            bots_only: bots_only(row.seats.iter().map(|s| s.kind)),
        })
    }

    /// If a bot is to move, decides on the bot pool and plays its move through
    /// [`Hub::act`].
    pub(super) fn schedule_bot(self: &Arc<Self>, table: &Arc<Table>) {
        let Some(turn) = self.take_bot_turn(table) else {
            return;
        };
        let hub = self.clone();
        let table = table.clone();
        // Decisions waiting for a worker.
        metrics::gauge!("tabletop_bot_queue_depth").increment(1.0);
        if turn.bots_only {
            self.bots.bots_only_waiting.fetch_add(1, Ordering::SeqCst);
        }
        tokio::spawn(async move {
            let seq = turn.seq;
            hub.play_bot_turn(&table, turn).await;
            table.lock().bot_done(seq);
        });
    }

    /// Waits for a worker, decides within the deadline, waits for the pace, then moves.
    async fn play_bot_turn(self: &Arc<Self>, table: &Arc<Table>, turn: BotTurn) {
        let BotTurn {
            snapshot,
            seq,
            seat,
            bot,
            seed,
            bots_only,
        } = turn;
        let bots = &self.bots;
        // The pause runs while the bot thinks: a move comes once both are done.
        let pace = match bots_only {
            true => bots.config.pace,
            false => bots.config.pace_with_people,
        };
        let not_before = tokio::time::Instant::now() + pace;
        let permits = async {
            let share = match bots_only {
                true => Some(bots.bots_only_permits.clone().acquire_owned().await?),
                false => None,
            };
            Ok::<_, tokio::sync::AcquireError>((bots.permits.clone().acquire_owned().await?, share))
        }
        .await;
        metrics::gauge!("tabletop_bot_queue_depth").decrement(1.0);
        if bots_only {
            bots.bots_only_waiting.fetch_sub(1, Ordering::SeqCst);
        }
        // Closed: the server is shutting down.
        let Ok(permits) = permits else {
            return;
        };
        let kind = table.kind.clone();
        let deadline = bots.config.policy.deadline;
        let stopping = bots.stopping.clone();
        let decided = tokio::task::spawn_blocking(move || {
            let _permits = permits;
            let started = Instant::now();
            let stop = Stop::at(started + deadline).or_flag(stopping);
            let action = kind.bot_action(snapshot.as_ref(), &bot.spec, seed, &stop);
            let took = started.elapsed();
            metrics::histogram!("tabletop_bot_decision_seconds").record(took.as_secs_f64());
            if let Some(overrun) = took.checked_sub(deadline) {
                metrics::histogram!("tabletop_bot_deadline_overrun_seconds")
                    .record(overrun.as_secs_f64());
            }
            action
        })
        .await;
        tokio::time::sleep_until(not_before).await;
        match decided {
            Ok(Some(action)) if !bots.stopping() => {
                self.move_bot(table, seat, seq, &action).await;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(game = %table.id, error = %e, "bot decision failed"),
        }
    }

    /// Plays a bot's move, trying again while it is refused for a passing reason and the
    /// position is still the one it was decided for.
    async fn move_bot(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: engine::Seat,
        seq: u64,
        action: &serde_json::Value,
    ) {
        let mut wait = RETRY_FIRST;
        loop {
            let refused = match self.act(table, seat, seq, action, Mover::Bot).await {
                Ok(()) => return,
                Err(e) => e,
            };
            // A table that left the cache is rebuilt with a bot of its own on next use.
            let cached = self
                .cache()
                .get(&table.id)
                .is_some_and(|t| Arc::ptr_eq(t, table));
            if !transient(&refused) || self.bots.stopping() || !cached {
                // `stale`, `not_your_turn`: the position moved on (another process stored
                // this bot's move), and whoever moved it moves the next bot.
                tracing::debug!(game = %table.id, seat, error = %refused, "bot move dropped");
                return;
            }
            tracing::warn!(game = %table.id, seat, error = %refused, "bot move refused; trying again");
            metrics::counter!("tabletop_bot_move_retries_total").increment(1);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(RETRY_MOST);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_passing_refusals_are_tried_again() {
        for kind in [ErrorKind::Conflict, ErrorKind::Internal] {
            assert!(transient(&ApiError::new(kind, "")), "{kind:?}");
        }
        for kind in [
            ErrorKind::Stale,
            ErrorKind::NotYourTurn,
            ErrorKind::GameOver,
            ErrorKind::Illegal,
            ErrorKind::Malformed,
            ErrorKind::NotStarted,
            ErrorKind::NotFound,
        ] {
            assert!(!transient(&ApiError::new(kind, "")), "{kind:?}");
        }
    }
}
