//! Clocks: each seat's time bank, which runs while its person is to move, and what happens
//! when it runs out (a bot of the table's stand-in strength plays the seat until its
//! person takes it back).
//!
//! A table's clocks are worked out from what is stored, never stored themselves: the time
//! the game started (`games.started`), each step's time and seat events' times. The
//! process that stored a step and a process rebuilding the table after a restart (or
//! following it on a shared database) so reach the same banks and the same deadline, and a
//! deadline passed while no process ran is honoured as soon as one loads the table.

use std::sync::Arc;
use std::time::Duration;

use engine::Seat;
use tokio::task::JoinHandle;

use super::table::{Rebuilt, Table};
use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::model::NotificationKind;
use crate::protocol::{Clock, ClockChoices, ClockTimes, SecondsRange};
use crate::store::{GameRow, MoveRow, SeatChange, SeatEvent, SeatKind, SeatRecord};

/// How often the hub looks for clocks that ran out.
pub(super) const CLOCK_TICK: Duration = Duration::from_millis(100);
/// A person away from their table is told when their clock has this long left.
const LOW_CLOCK_MS: i64 = 60_000;

const MINUTE: u32 = 60;
const HOUR: u32 = 60 * MINUTE;
const DAY: u32 = 24 * HOUR;

/// The most time a seat gets back with its seat after its clock ran out, on a real-time
/// table without increment: time to look at the board, but never more than the table's
/// whole bank (on a 5 s table, 30 s a take back would be six banks a run-out).
const TAKE_BACK_GRACE_MS: i64 = 30_000;

/// The clocks this server offers; `shortest_secs` lowers the least bank (tests and
/// benchmarks run clocks of seconds; 60 s and one hour otherwise).
pub fn clock_choices(shortest_secs: Option<u32>) -> ClockChoices {
    let realtime_least = shortest_secs.unwrap_or(MINUTE).min(MINUTE);
    let turn_based_least = shortest_secs.unwrap_or(HOUR).min(HOUR);
    ClockChoices {
        presets: vec![
            Clock::None,
            Clock::Realtime {
                initial_secs: 5 * MINUTE,
                increment_secs: 5,
            },
            Clock::Realtime {
                initial_secs: 10 * MINUTE,
                increment_secs: 10,
            },
            Clock::Realtime {
                initial_secs: 20 * MINUTE,
                increment_secs: 20,
            },
            Clock::TurnBased {
                per_move_secs: DAY,
                bank_secs: 3 * DAY,
            },
            Clock::TurnBased {
                per_move_secs: 3 * DAY,
                bank_secs: 7 * DAY,
            },
        ],
        realtime_initial_secs: SecondsRange {
            min: realtime_least,
            max: 2 * HOUR,
        },
        realtime_increment_secs: SecondsRange { min: 0, max: 120 },
        turn_based_per_move_secs: SecondsRange {
            min: turn_based_least,
            max: 14 * DAY,
        },
        turn_based_bank_secs: SecondsRange {
            min: turn_based_least,
            max: 30 * DAY,
        },
    }
}

/// Clock `clock` if `choices` offer it; `malformed` naming the setting out of bounds.
pub(super) fn check_clock(clock: Clock, choices: &ClockChoices) -> Result<Clock, ApiError> {
    let check = |name: &str, secs: u32, range: &SecondsRange| {
        if range.contains(secs) {
            Ok(())
        } else {
            Err(ApiError::malformed(format!(
                "clock {name} {secs}: from {} to {} seconds",
                range.min, range.max
            )))
        }
    };
    match clock {
        Clock::None => {}
        Clock::Realtime {
            initial_secs,
            increment_secs,
        } => {
            check("initial_secs", initial_secs, &choices.realtime_initial_secs)?;
            check(
                "increment_secs",
                increment_secs,
                &choices.realtime_increment_secs,
            )?;
        }
        Clock::TurnBased {
            per_move_secs,
            bank_secs,
        } => {
            check(
                "per_move_secs",
                per_move_secs,
                &choices.turn_based_per_move_secs,
            )?;
            check("bank_secs", bank_secs, &choices.turn_based_bank_secs)?;
            if bank_secs < per_move_secs {
                return Err(ApiError::malformed(format!(
                    "clock bank_secs {bank_secs}: at least per_move_secs ({per_move_secs})"
                )));
            }
        }
    }
    Ok(clock)
}

/// The seat whose clock runs when `to_move` is to move with seats `seats`: a seat its
/// person plays (a bot's own seat has no clock; a stand-in's seat waits for its person).
pub(super) fn running_seat(seats: &[SeatRecord], to_move: Option<Seat>) -> Option<Seat> {
    to_move.filter(|&seat| {
        seats
            .get(usize::from(seat))
            .is_some_and(|s| s.played_by_bot().is_none())
    })
}

/// The banks of a table with a clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Clocks {
    clock: Clock,
    /// Each seat's time left (milliseconds) as of `since` for the running seat, as of its
    /// last stop for the others.
    left: Vec<i64>,
    running: Option<Seat>,
    /// When the running seat's clock was last charged (Unix milliseconds).
    since: i64,
    /// The game started: its clocks run.
    started: bool,
}

impl Clocks {
    /// The clocks of a table of `seats` seats with clock `clock`, none running yet; `None`
    /// for a table without a clock.
    pub(super) fn new(clock: Clock, seats: usize) -> Option<Self> {
        let initial_secs = match clock {
            Clock::None => return None,
            Clock::Realtime { initial_secs, .. } => initial_secs,
            Clock::TurnBased { per_move_secs, .. } => per_move_secs,
        };
        Some(Clocks {
            clock,
            left: vec![i64::from(initial_secs) * 1000; seats],
            running: None,
            since: 0,
            started: false,
        })
    }

    /// What each decision of a person adds to their bank.
    fn increment_ms(&self) -> i64 {
        1000 * i64::from(match self.clock {
            Clock::None => 0,
            Clock::Realtime { increment_secs, .. } => increment_secs,
            Clock::TurnBased { per_move_secs, .. } => per_move_secs,
        })
    }

    /// The most a bank holds.
    fn bank_ms(&self) -> i64 {
        match self.clock {
            Clock::TurnBased { bank_secs, .. } => 1000 * i64::from(bank_secs),
            _ => i64::MAX,
        }
    }

    /// Takes the time since the last charge off the running seat's bank (never below
    /// zero), and runs `seat`'s clock from `at` on.
    fn run(&mut self, at: i64, seat: Option<Seat>) {
        if let Some(bank) = self.running.and_then(|s| self.left.get_mut(usize::from(s))) {
            *bank = (*bank - (at - self.since).max(0)).max(0);
        }
        self.since = self.since.max(at);
        self.running = seat;
    }

    /// The game started at `at` (its seats all taken), `running` to move.
    pub(super) fn start(&mut self, at: i64, running: Option<Seat>) {
        self.since = at;
        self.running = running;
        self.started = true;
    }

    /// Seat `seat` made a step at `at` with seats `seats` (a decision, or with `undo` the
    /// undo of one); `to_move` is to move after it.
    pub(super) fn after_step(
        &mut self,
        seats: &[SeatRecord],
        at: i64,
        seat: Seat,
        undo: bool,
        to_move: Option<Seat>,
    ) {
        let timed = running_seat(seats, Some(seat)).is_some();
        self.step(at, seat, undo, timed, running_seat(seats, to_move));
    }

    /// Seat `seat` made a step at `at` (a decision, or the undo of one) while its person
    /// played it (`timed`); `running` is to move after it.
    pub(super) fn step(
        &mut self,
        at: i64,
        seat: Seat,
        undo: bool,
        timed: bool,
        running: Option<Seat>,
    ) {
        self.run(at, running);
        let (increment, most) = (self.increment_ms(), self.bank_ms());
        if let Some(bank) = self.left.get_mut(usize::from(seat)).filter(|_| timed) {
            // An undo takes back its decision's increment: undoing and deciding again
            // never adds time.
            *bank = match undo {
                false => bank.saturating_add(increment).min(most),
                true => (*bank - increment).max(0),
            };
        }
    }

    /// Seat event `event` changed who plays a seat; `running` is to move after it.
    pub(super) fn seat_event(&mut self, event: &SeatEvent, running: Option<Seat>) {
        self.run(event.at, running);
        let grace = self.increment_ms().max(match self.clock {
            Clock::Realtime { initial_secs, .. } => {
                TAKE_BACK_GRACE_MS.min(1000 * i64::from(initial_secs))
            }
            _ => 0,
        });
        if let Some(bank) = self.left.get_mut(usize::from(event.seat)) {
            match event.what {
                SeatChange::TimedOut => *bank = 0,
                // A person taking their seat back gets at least a decision's time.
                SeatChange::TookBack => *bank = (*bank).max(grace),
                SeatChange::HandedOver | SeatChange::Left | SeatChange::Hinted => {}
            }
        }
    }

    /// Whether the game started: its clocks run.
    pub(super) fn is_started(&self) -> bool {
        self.started
    }

    /// When the running clock runs out (Unix milliseconds).
    pub(super) fn deadline(&self) -> Option<i64> {
        let seat = usize::from(self.running?);
        Some(self.since.saturating_add(*self.left.get(seat)?))
    }

    /// The running seat, if its clock runs out after `now` but within `within_ms`.
    pub(super) fn running_low(&self, now: i64, within_ms: i64) -> Option<Seat> {
        let left = self.deadline()?.saturating_sub(now);
        self.running.filter(|_| left > 0 && left <= within_ms)
    }

    /// The seat whose clock runs out by `now`.
    pub(super) fn ran_out(&self, now: i64) -> Option<Seat> {
        self.running.filter(|_| self.deadline() <= Some(now))
    }

    /// The clocks as of `now`, for a message.
    pub(super) fn times(&self, now: i64) -> ClockTimes {
        let mut left_ms = self.left.clone();
        if let Some(bank) = self.running.and_then(|s| left_ms.get_mut(usize::from(s))) {
            *bank = (*bank - (now - self.since).max(0)).max(0);
        }
        ClockTimes {
            left_ms,
            running: self.running,
            deadline: self.deadline(),
        }
    }
}

impl Rebuilt {
    /// With the clocks stored steps `rows` and seat events `events` of game `row` leave.
    pub(super) fn with_clocks(
        mut self,
        row: &GameRow,
        rows: &[MoveRow],
        events: &[SeatEvent],
    ) -> Self {
        self.clocks = replay_clocks(row, rows, &self.to_move, events);
        self
    }
}

/// The clocks of game `row` after steps `rows` (`to_move`: the seat to move at the start
/// and after each step) and seat events `events`, worked out as the process that made
/// them did.
fn replay_clocks(
    row: &GameRow,
    rows: &[MoveRow],
    to_move: &[Option<Seat>],
    events: &[SeatEvent],
) -> Option<Clocks> {
    let mut clocks = Clocks::new(row.settings.clock, row.seats.len())?;
    let Some(started) = row.started else {
        return Some(clocks);
    };
    // Each seat as the game started: a person's played by its person.
    let mut seats: Vec<SeatRecord> = row.seats.clone();
    for seat in seats.iter_mut().filter(|s| s.kind == SeatKind::Human) {
        seat.stand_in = None;
        seat.left = false;
        seat.run_outs = 0;
    }
    let stand_in = &row.settings.stand_in;
    let to_move_after = |step: usize| to_move.get(step).copied().flatten();
    clocks.start(started, running_seat(&seats, to_move_after(0)));
    // Who plays the seat after seat event `event`, and the clocks, `step` steps in.
    let seat_event = |clocks: &mut Clocks, seats: &mut [SeatRecord], event: &SeatEvent, step| {
        if let Some(seat) = seats.get_mut(usize::from(event.seat)) {
            seat.apply(event.what, stand_in);
        }
        clocks.seat_event(event, running_seat(seats, to_move_after(step)));
    };
    let mut events = events.iter().peekable();
    for (step, mv) in rows.iter().enumerate() {
        // A seat event follows the steps stored when it was made (its seq).
        while let Some(event) = events.next_if(|e| e.seq <= mv.seq) {
            seat_event(&mut clocks, &mut seats, event, step);
        }
        let next = to_move_after(step + 1);
        clocks.after_step(&seats, mv.at, mv.seat, mv.undoes.is_some(), next);
    }
    for event in events {
        seat_event(&mut clocks, &mut seats, event, rows.len());
    }
    Some(clocks)
}

impl Hub {
    /// Hands every seat whose clock ran out to a bot, every [`CLOCK_TICK`], for the tables
    /// whose clocks this process runs.
    pub fn run_clocks(self: &Arc<Self>) -> JoinHandle<()> {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(CLOCK_TICK);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                let tables: Vec<Arc<Table>> = hub.cache().values().cloned().collect();
                let now = now_ms();
                for table in tables {
                    if hub.runs(&table.id) {
                        let low = table.lock().tell_low_clock(now, LOW_CLOCK_MS);
                        if let Some(seat) = low {
                            hub.notify_seat(&table, seat, NotificationKind::ClockLow);
                        }
                    }
                    let seat = table.lock().begin_time_out(now);
                    let Some(seat) = seat else { continue };
                    if !hub.runs(&table.id) {
                        table.lock().end_time_out();
                        continue;
                    }
                    let hub = hub.clone();
                    tokio::spawn(async move {
                        let outcome = hub.time_out(&table, seat).await;
                        table.lock().end_time_out();
                        match outcome {
                            Ok(()) => {
                                tracing::info!(game = %table.id, seat, "clock ran out: a bot plays the seat");
                                metrics::counter!("tabletop_clocks_run_out_total").increment(1);
                            }
                            Err(e) => {
                                tracing::debug!(game = %table.id, seat, error = %e, "no time-out")
                            }
                        }
                    });
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorKind;

    fn realtime(initial_secs: u32, increment_secs: u32) -> Clocks {
        Clocks::new(
            Clock::Realtime {
                initial_secs,
                increment_secs,
            },
            2,
        )
        .expect("a clock")
    }

    fn event(what: SeatChange, seat: Seat, at: i64) -> SeatEvent {
        SeatEvent {
            what,
            seat,
            by: None,
            seq: 0,
            at,
            hint: None,
        }
    }

    #[test]
    fn a_fischer_clock_charges_the_seat_to_move_and_adds_the_increment() {
        let mut clocks = realtime(60, 5);
        clocks.start(1_000, Some(0));
        assert_eq!(clocks.deadline(), Some(61_000));
        // Seat 0 thinks 10 s, then seat 1 is to move.
        clocks.step(11_000, 0, false, true, Some(1));
        assert_eq!(clocks.times(11_000).left_ms, vec![55_000, 60_000]);
        assert_eq!(clocks.deadline(), Some(71_000));
        // Seat 1's time falls as it thinks; seat 0's stays.
        assert_eq!(clocks.times(31_000).left_ms, vec![55_000, 40_000]);
        assert_eq!(clocks.ran_out(70_999), None);
        assert_eq!(clocks.ran_out(71_000), Some(1));
    }

    #[test]
    fn an_undo_takes_its_increment_back() {
        let mut clocks = realtime(60, 5);
        clocks.start(0, Some(0));
        clocks.step(1_000, 0, false, true, Some(1));
        clocks.step(2_000, 0, true, true, Some(0));
        // One second thinking, one second on seat 1's clock, the increment gone again.
        assert_eq!(clocks.times(2_000).left_ms, vec![59_000, 59_000]);
    }

    #[test]
    fn a_bot_playing_a_seat_stops_its_clock_and_earns_nothing() {
        let mut clocks = realtime(60, 5);
        clocks.start(0, Some(0));
        clocks.seat_event(&event(SeatChange::TimedOut, 0, 60_000), None);
        assert_eq!(clocks.times(90_000).left_ms, vec![0, 60_000]);
        assert_eq!(clocks.deadline(), None);
        clocks.step(90_000, 0, false, false, Some(1));
        assert_eq!(clocks.times(90_000).left_ms, vec![0, 60_000]);
        // Back with their seat, the person has the grace to look at the board.
        clocks.step(95_000, 1, false, true, None);
        clocks.seat_event(&event(SeatChange::TookBack, 0, 96_000), Some(0));
        assert_eq!(clocks.deadline(), Some(96_000 + TAKE_BACK_GRACE_MS));
    }

    #[test]
    fn a_take_back_never_gives_more_than_the_whole_bank() {
        let mut clocks = realtime(5, 0);
        clocks.start(0, Some(0));
        clocks.seat_event(&event(SeatChange::TimedOut, 0, 5_000), None);
        clocks.step(6_000, 0, false, false, Some(0));
        clocks.seat_event(&event(SeatChange::TookBack, 0, 6_000), Some(0));
        assert_eq!(clocks.deadline(), Some(6_000 + 5_000));
    }

    #[test]
    fn a_turn_based_bank_carries_unused_time_over_up_to_its_most() {
        let day = i64::from(DAY) * 1000;
        let mut clocks = Clocks::new(
            Clock::TurnBased {
                per_move_secs: DAY,
                bank_secs: 2 * DAY,
            },
            2,
        )
        .expect("a clock");
        clocks.start(0, Some(0));
        clocks.step(day / 4, 0, false, true, Some(1));
        assert_eq!(clocks.times(day / 4).left_ms, vec![7 * day / 4, day]);
        clocks.step(day / 4, 1, false, true, Some(0));
        clocks.step(day / 4, 0, false, true, Some(1));
        assert_eq!(clocks.times(day / 4).left_ms[0], 2 * day);
    }

    #[test]
    fn clocks_outside_the_offered_bounds_are_malformed() {
        let choices = clock_choices(None);
        for preset in &choices.presets {
            assert_eq!(check_clock(*preset, &choices).ok(), Some(*preset));
        }
        for clock in [
            Clock::Realtime {
                initial_secs: 10,
                increment_secs: 0,
            },
            Clock::Realtime {
                initial_secs: 600,
                increment_secs: 3600,
            },
            Clock::TurnBased {
                per_move_secs: DAY,
                bank_secs: HOUR * 2,
            },
        ] {
            let refused = check_clock(clock, &choices).expect_err("out of bounds");
            assert_eq!(refused.kind, ErrorKind::Malformed, "{clock:?}");
        }
        let short = clock_choices(Some(1));
        let test_clock = Clock::Realtime {
            initial_secs: 1,
            increment_secs: 0,
        };
        assert!(check_clock(test_clock, &short).is_ok());
    }

    #[test]
    fn no_clock_has_no_banks() {
        assert_eq!(Clocks::new(Clock::None, 4), None);
    }
}
