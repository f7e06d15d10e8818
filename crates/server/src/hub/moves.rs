//! The one path of every step (a move or an undo), top to bottom: check it and reserve the
//! table, store it, make each watcher's update while it is stored, then install it and
//! broadcast the update, or let the table go again.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use engine::{DynGame, LoggedEvent, ObservedView, Seat};
use serde_json::value::RawValue;
use serde_json::Value;

use super::lifecycle::closed_error;
use super::stand_in::check_mover;
use super::table::{
    legal_actions, AfterWrite, LoggedMove, Mover, Reservation, Step, StepRecord, Stored, Table,
    TableState, Writing,
};
use super::undo::undo_seat_after;
use super::{json_text, now_ms, Broadcast, Hub};
use crate::error::ApiError;
use crate::patch::ViewPatcher;
use crate::protocol::{event_entries, ErrorKind, UpdateText};
use crate::store::{Commit, MoveRow, Status, StoreError};

/// The refusal of anything but a running game: one that waits for players, is over, or
/// was cancelled or expired.
pub(super) fn check_running(status: Status) -> Result<(), ApiError> {
    match status {
        Status::Running => Ok(()),
        Status::Open => Err(ApiError::new(
            ErrorKind::NotStarted,
            "the game has not started: some seats are still free",
        )),
        Status::Over => Err(ApiError::new(ErrorKind::GameOver, "the game is over")),
        Status::Cancelled | Status::Expired => Err(closed_error(status)),
    }
}

/// The refusal of a step (a move or an undo) for position `seq` of the table in `st`: a
/// table that takes no step, a stale `seq`, or another step being stored.
pub(super) fn check_position(st: &TableState, seq: u64) -> Result<(), ApiError> {
    check_running(st.row().status)?;
    if seq != st.seq() {
        return Err(ApiError {
            seq: Some(st.seq()),
            ..ApiError::new(
                ErrorKind::Stale,
                format!(
                    "the game is at seq {}, not {seq}: here is the current state",
                    st.seq()
                ),
            )
        });
    }
    if st.writing().is_some() {
        return Err(conflict());
    }
    Ok(())
}

fn conflict() -> ApiError {
    ApiError::new(
        ErrorKind::Conflict,
        "another move for this position, or a change of seats, is being stored",
    )
}

/// A checked step, with the table reserved for it: what is stored ([`Commit`]), and the
/// position it leads to with its events.
pub(super) struct CheckedStep {
    reservation: Reservation,
    step: Step,
    next: Box<dyn DynGame>,
    events: Vec<LoggedEvent>,
    commit: Commit,
}

impl CheckedStep {
    /// Step `step`, checked on the table in `st` (by [`check_position`] and the step's own
    /// rules): reserves the table for it.
    pub(super) fn reserve(
        st: &mut TableState,
        step: Step,
        (next, events): (Box<dyn DynGame>, Vec<LoggedEvent>),
        commit: Commit,
    ) -> Result<Self, ApiError> {
        let reservation = st.reserve(Writing::Move).ok_or_else(conflict)?;
        Ok(CheckedStep {
            reservation,
            step,
            next,
            events,
            commit,
        })
    }
}

impl Hub {
    /// The one path of every move, human or bot: check, store, then broadcast. The move is
    /// acknowledged (broadcast) only after its transaction has committed.
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        seq: u64,
        action: &Value,
        mover: Mover,
    ) -> Result<(), ApiError> {
        table.after_catch_up().await;
        let started = Instant::now();
        let checked = {
            let mut st = table.lock();
            check_position(&st, seq)?;
            let to_move = st.game().to_move();
            if to_move != Some(seat) {
                return Err(ApiError::new(
                    ErrorKind::NotYourTurn,
                    match to_move {
                        Some(s) => format!("seat {s} is to move, not seat {seat}"),
                        None => "nobody is to move".to_string(),
                    },
                ));
            }
            if let Some(record) = st.row().seats.get(usize::from(seat)) {
                check_mover(record, mover)?;
            }
            // What is stored and broadcast is what the game read, written back: never
            // fields it did not read (they are refused).
            let action = st.game().canonical_action(action)?;
            let (next, events) = st.game().play_logged(&action)?;
            let commit = Commit {
                ends_game: next.to_move().is_none(),
                mv: MoveRow {
                    game_id: table.id.clone(),
                    seq,
                    seat,
                    action,
                    at: now_ms(),
                    undoes: None,
                },
            };
            CheckedStep::reserve(&mut st, Step::Move { mover }, (next, events), commit)?
        };
        self.store_step(table, checked, started).await
    }

    /// Stores a checked move or undo, then installs and broadcasts it: the one way a step
    /// reaches the watchers, after it has committed.
    pub(super) async fn store_step(
        self: &Arc<Self>,
        table: &Arc<Table>,
        checked: CheckedStep,
        started: Instant,
    ) -> Result<(), ApiError> {
        let CheckedStep {
            reservation,
            step,
            next,
            events,
            commit,
        } = checked;
        let made = (commit.mv.seat, commit.mv.at);
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        // Stored and installed in a task of its own, so that a client going away mid-way
        // cannot leave the table half-updated (nor reserved).
        let hub = self.clone();
        let table = table.clone();
        let finished = tokio::spawn(async move {
            let outcome = match hub.committer.queue(commit).await {
                Ok(stored) => {
                    // The watchers' messages are made while the writer stores the step;
                    // they are sent once it is stored.
                    let update = prepare_update(&table, made, step, next.as_ref(), events);
                    let stored = stored.await.map(|()| update);
                    hub.finish_step(&table, reservation, next, stored)
                }
                Err(e) => hub.finish_step(&table, reservation, next, Err(e)),
            };
            hub.in_flight.fetch_sub(1, Ordering::SeqCst);
            outcome
        })
        .await
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("the move task failed: {e}")))?;
        if finished.is_ok() {
            metrics::counter!("tabletop_moves_total").increment(1);
            metrics::histogram!("tabletop_move_latency_seconds")
                .record(started.elapsed().as_secs_f64());
        }
        finished
    }
}

/// What a step sends, made before it is stored: each watched slot's message (`None`: the
/// slot's watchers resync from the whole state), and what the table keeps of it.
pub(super) struct PreparedUpdate {
    messages: Vec<Option<Utf8Bytes>>,
    record: StepRecord,
}

/// The update of the step `seat` made at `at`, leading to `next` (not yet installed): each
/// watched slot's view of `next` and its patch from the view the slot was sent last. Public
/// members are recorded once, and a change alike in several views is worked out once.
pub(super) fn prepare_update(
    table: &Table,
    (seat, at): (Seat, i64),
    step: Step,
    next: &dyn DynGame,
    events: Vec<LoggedEvent>,
) -> PreparedUpdate {
    let st = table.lock();
    let seq = st.seq() + 1;
    let barrier = LoggedEvent::is_barrier(&events);
    // The one seat that may take back its last decision once this step is installed.
    let undo_seat = undo_seat_after(&st, seat, step, barrier);
    let undid = match step {
        Step::Undo { undid } => Some(undid),
        Step::Move { .. } => None,
    };
    let to_move = next.to_move();
    let status = if to_move.is_none() {
        Status::Over
    } else {
        st.row().status
    };
    let slots = st.slots();
    let seats = st.row().seats.len();
    let slot_seat = |index: usize| (index < seats).then_some(index as Seat);
    // The parts of the update alike for every watcher, written once; the events once per
    // slot when the game keeps a part of them from some viewers (V-I1).
    let events_text = json_text(&event_entries(&events));
    let hides = status != Status::Over && events.iter().any(|e| e.seen_by.is_some());
    let slot_events: Option<Vec<Box<RawValue>>> = hides.then(|| {
        (0..slots.len())
            .map(|index| {
                let viewer = slot_seat(index);
                json_text(&event_entries(events.iter().map(|e| e.for_viewer(viewer))))
            })
            .collect()
    });
    let legal_text = to_move.map(|_| json_text(&legal_actions(next)));
    // The clocks as the step leaves them (installed with it, on the table as it is then).
    let times = st.clocks().cloned().map(|mut clocks| {
        clocks.after_step(&st.row().seats, at, seat, undid.is_some(), to_move);
        clocks.times(at)
    });
    let times_text = json_text(&times);
    let outcome_text = json_text(&next.outcome());
    let watched: Vec<usize> = (0..slots.len())
        .filter(|&index| slots[index].watchers() > 0)
        .collect();
    let observers: Vec<Option<Seat>> = watched.iter().map(|&index| slot_seat(index)).collect();
    let mut views: Vec<Option<Box<dyn ObservedView>>> = (0..slots.len()).map(|_| None).collect();
    // `st.game()` is the position a move reached `next` from (no other move is in flight):
    // what it left alike is known; an undo goes back, and every member is looked at.
    let before = st
        .public()
        .filter(|_| matches!(step, Step::Move { .. }))
        .map(|public| (st.game(), public));
    let mut public = None;
    if let Ok(observed) = next.observe(&observers, before) {
        for (index, view) in watched.into_iter().zip(observed.views) {
            views[index] = Some(view);
        }
        public = observed.public;
    }
    let mut patcher = ViewPatcher::default();
    // Most watchers get the same update (the seats not to move, whose own members the
    // move left alike, and spectators): each distinct one is written once.
    let mut written: Vec<(json_patch::Patch, (bool, bool), &str, Utf8Bytes)> = Vec::new();
    let messages = slots
        .iter()
        .zip(&views)
        .enumerate()
        .map(|(index, (slot, view))| {
            // No base to patch (not so while watched): the watchers resync.
            let (Some(sent), Some(view)) = (slot.view(), view) else {
                return None;
            };
            let view_patch = patcher.patch(sent, view.as_ref());
            let to_act = slot_seat(index).is_some_and(|s| Some(s) == to_move);
            let can_undo = slot_seat(index).is_some_and(|s| Some(s) == undo_seat);
            let events = slot_events
                .as_ref()
                .map_or(&*events_text, |told| &*told[index]);
            if let Some((.., text)) = written.iter().find(|(patch, acts, told, _)| {
                *acts == (to_act, can_undo) && *told == events.get() && *patch == view_patch
            }) {
                return Some(text.clone());
            }
            let message = UpdateText {
                kind: "update",
                seq,
                seat,
                events,
                view_patch: &view_patch,
                to_move,
                legal: legal_text.as_deref().filter(|_| to_act),
                status,
                outcome: &outcome_text,
                can_undo,
                times: &times_text,
                undid,
            };
            let text = Utf8Bytes::from(message.to_text());
            written.push((view_patch, (to_act, can_undo), events.get(), text.clone()));
            Some(text)
        })
        .collect();
    drop(patcher);
    PreparedUpdate {
        messages,
        record: StepRecord {
            seat,
            at,
            step,
            barrier,
            views,
            public,
            log: LoggedMove {
                seq,
                seat,
                events,
                undid,
            },
        },
    }
}

impl Hub {
    /// After the store answered: install the step and broadcast its update, or let the
    /// table go; then catch up or move the next bot, as the reservation's end says.
    fn finish_step(
        self: &Arc<Self>,
        table: &Arc<Table>,
        reservation: Reservation,
        next: Box<dyn DynGame>,
        stored: Result<PreparedUpdate, StoreError>,
    ) -> Result<(), ApiError> {
        let update = match stored {
            Ok(update) => update,
            Err(e) => {
                let answer = match e {
                    // Another server process stored this seq: our copy is behind.
                    StoreError::Conflict => Stored::Conflict,
                    // The move may be stored all the same (the answer was lost): read what
                    // is, and if it is this move, this process moves the next bot.
                    _ => Stored::Unknown,
                };
                let after = table.lock().end_step(reservation, answer);
                if after == AfterWrite::CatchUp {
                    self.catch_up(table);
                }
                return Err(e.into());
            }
        };
        // The step is stored: install it, and never return early from here.
        let (update, after) = {
            let mut st = table.lock();
            let update = install_update(&mut st, &reservation, next, update);
            (update, st.end_step(reservation, Stored::Yes))
        };
        let over = matches!(update, Broadcast::Update { over: true, .. });
        table.broadcast(update);
        if over {
            self.rate_when_over(table);
        } else {
            self.tell_turn(table);
        }
        match after {
            AfterWrite::CatchUp => self.catch_up(table),
            AfterWrite::MoveBot => self.schedule_bot(table),
        }
        Ok(())
    }
}

/// Installs stored step `next` (a move, or an undo, of this process or another) with its
/// prepared update, under the table's reservation; returns the update to broadcast.
pub(super) fn install_update(
    st: &mut TableState,
    writing: &Reservation,
    next: Box<dyn DynGame>,
    update: PreparedUpdate,
) -> Broadcast {
    let seq = st.install_step(writing, next, update.record);
    Broadcast::Update {
        seq,
        messages: update.messages,
        over: st.row().status == Status::Over,
    }
}
