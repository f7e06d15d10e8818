//! Undo of misclicks, never past new information: a seat takes back its own decisions made
//! since the last barrier (a move after which something was revealed or chance drawn, as
//! the game says: `Game::reveals`), and only while no other seat acted since. An undo is a
//! stored row of its own (moves are never deleted or rewritten), a new version that every
//! watcher is told as an update. Bots never undo, and a decision a bot made for a person
//! is not theirs to take back.

use std::sync::Arc;
use std::time::Instant;

use engine::{DynGame, LoggedEvent, Seat};
use serde_json::Value;

use super::moves::{check_position, CheckedStep};
use super::stand_in::check_mover;
use super::table::{
    keeps_decision, point_undone_by, record_decision, take_back, LoggedMove, Mover, Rebuilt, Step,
    Table, TableState, UndoPoint,
};
use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::protocol::UndoRefusal;
use crate::store::{Commit, MoveRow, SeatRecord, Status};

/// Whether `seat` may take back its last decision now.
pub(super) fn can_undo(st: &TableState, seat: Seat) -> bool {
    st.row().status == Status::Running
        && st.undoable().last().is_some_and(|p| p.seat == seat)
        && st
            .row()
            .seats
            .get(usize::from(seat))
            .is_some_and(|s| s.played_by_bot().is_none())
}

/// The one seat that may take back its last decision once step `step` of `seat` is
/// installed (a move that was a barrier or not, or an undo).
pub(super) fn undo_seat_after(
    st: &TableState,
    seat: Seat,
    step: Step,
    barrier: bool,
) -> Option<Seat> {
    let undoable = match step {
        Step::Move { mover } => keeps_decision(barrier, mover),
        Step::Undo { .. } => st.undoable().len() >= 2,
    };
    undoable.then_some(seat)
}

/// Why `seat` may not take back a decision now (when [`can_undo`] says so).
fn refusal(st: &TableState, seat: Seat) -> ApiError {
    let mut moves = st.log().iter().filter(|m| m.undid.is_none()).rev();
    match moves.next() {
        Some(last) if last.seat != seat => {
            if moves.any(|m| m.seat == seat) {
                ApiError::undo_refused(
                    UndoRefusal::OthersActed,
                    "another seat acted after your last decision: it stands",
                )
            } else {
                ApiError::undo_refused(UndoRefusal::NotYours, "the last decision is not yours")
            }
        }
        Some(_) => ApiError::undo_refused(
            UndoRefusal::Barrier,
            "your last decision revealed information or drew chance (or a bot made it): it \
             stands",
        ),
        None => ApiError::undo_refused(UndoRefusal::NotYours, "no decision was made yet"),
    }
}

impl Hub {
    /// Takes back `seat`'s last decision, seen at `seq`: stored as an undo row, then every
    /// watcher is sent the position before it.
    pub async fn undo(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        seq: u64,
    ) -> Result<(), ApiError> {
        table.after_catch_up().await;
        let started = Instant::now();
        let checked = {
            let mut st = table.lock();
            check_position(&st, seq)?;
            if let Some(record) = st.row().seats.get(usize::from(seat)) {
                check_mover(record, Mover::Person)?;
            }
            if !can_undo(&st, seat) {
                return Err(refusal(&st, seat));
            }
            let point = st.undoable().last().ok_or_else(|| refusal(&st, seat))?;
            let next = point.before.box_clone();
            let commit = Commit {
                mv: MoveRow {
                    game_id: table.id.clone(),
                    seq,
                    seat,
                    action: Value::Null,
                    at: now_ms(),
                    // The row of the move taken back: its update's seq less one.
                    undoes: Some(point.seq - 1),
                },
                ends_game: false,
            };
            let step = Step::Undo { undid: point.seq };
            CheckedStep::reserve(&mut st, step, (next, Vec::new()), commit)?
        };
        self.store_step(table, checked, started).await
    }
}

/// Plays stored steps `rows` from `game` (the start position), moves and undos alike, as
/// they were played: the same position, log and undo points as the process that stored
/// them had. `stand_ins`: the seats a bot plays now (their trailing moves are not taken
/// back: who made them is not stored).
pub(super) fn rebuild(
    game: Box<dyn DynGame>,
    rows: &[MoveRow],
    seats: &[SeatRecord],
) -> Result<Rebuilt, String> {
    let mut to_move = Vec::with_capacity(rows.len() + 1);
    to_move.push(game.to_move());
    let mut st = Rebuilding {
        game,
        log: Vec::with_capacity(rows.len()),
        undoable: Vec::new(),
    };
    for row in rows {
        st.step(row)?;
        to_move.push(st.game.to_move());
    }
    if let Some(last) = st.undoable.last() {
        let played_by_bot = seats
            .get(usize::from(last.seat))
            .is_some_and(|s| s.played_by_bot().is_some());
        if played_by_bot {
            st.undoable.clear();
        }
    }
    Ok(Rebuilt {
        game: st.game,
        log: st.log,
        undoable: st.undoable,
        seq: rows.len() as u64,
        clocks: None,
        to_move,
    })
}

/// The state [`rebuild`] keeps while it plays the stored steps.
struct Rebuilding {
    game: Box<dyn DynGame>,
    log: Vec<LoggedMove>,
    undoable: Vec<UndoPoint>,
}

impl Rebuilding {
    /// Plays stored row `row` (its seq follows the last one's: `load_moves` checks it).
    fn step(&mut self, row: &MoveRow) -> Result<(), String> {
        let seq = row.seq + 1;
        if row.undoes.is_some() {
            let undid = point_undone_by(&self.undoable, row)?.seq;
            let point = take_back(&mut self.undoable, &mut self.log, undid)
                .ok_or_else(|| format!("undo {} has no decision to take back", row.seq))?;
            self.game = point.before;
            self.log.push(LoggedMove {
                seq,
                seat: row.seat,
                events: Vec::new(),
                undid: Some(undid),
            });
        } else {
            let (next, events) = self
                .game
                .play_logged(&row.action)
                .map_err(|e| format!("stored move {} does not replay: {e}", row.seq))?;
            let before = std::mem::replace(&mut self.game, next);
            let barrier = LoggedEvent::is_barrier(&events);
            record_decision(
                &mut self.undoable,
                before,
                (row.seat, seq),
                barrier,
                Mover::Person,
            );
            self.log.push(LoggedMove {
                seq,
                seat: row.seat,
                events,
                undid: None,
            });
        }
        Ok(())
    }
}
