//! Undo of misclicks, never past new information: a seat takes back its own decisions made
//! since the last barrier (a move after which something was revealed or chance drawn, as
//! the game says: `Game::reveals`), and only while no other seat acted since. An undo is a
//! stored row of its own (moves are never deleted or rewritten), a new version that every
//! watcher is told as an update. Bots never undo, and a decision a bot made for a person
//! is not theirs to take back.

use super::*;
use crate::protocol::UndoRefusal;

/// What a stored step of a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// A move, and who made it.
    Move { mover: Mover },
    /// An undo of the move whose update had seq `undid`.
    Undo { undid: u64 },
}

impl Default for Step {
    fn default() -> Self {
        Step::Move {
            mover: Mover::Person,
        }
    }
}

/// A decision that may be taken back: the position before it.
pub(super) struct UndoPoint {
    pub(super) before: Box<dyn DynGame>,
    pub(super) seat: Seat,
    /// The seq of the decision's update (the number of steps stored once it was).
    pub(super) seq: u64,
}

/// Keeps (or forgets) a move just installed as a decision its seat may take back: only a
/// person's move that revealed nothing, after moves of the same seat alone. `seq`: the
/// move's update seq; `before`: the position it was made in.
pub(super) fn record_decision(
    undoable: &mut Vec<UndoPoint>,
    before: Box<dyn DynGame>,
    (seat, seq): (Seat, u64),
    barrier: bool,
    mover: Mover,
) {
    let others_acted = undoable.last().is_some_and(|p| p.seat != seat);
    if keeps_decision(barrier, mover) {
        if others_acted {
            undoable.clear();
        }
        undoable.push(UndoPoint { before, seat, seq });
    } else {
        undoable.clear();
    }
}

/// Whether a move may be taken back by its seat: a person's that revealed nothing.
fn keeps_decision(barrier: bool, mover: Mover) -> bool {
    !barrier && mover == Mover::Person
}

/// The undo point stored undo `row` takes back: the last one, which must be its seat's
/// decision at the seq it names.
pub(super) fn point_undone_by<'a>(
    undoable: &'a [UndoPoint],
    row: &MoveRow,
) -> Result<&'a UndoPoint, String> {
    undoable
        .last()
        .filter(|p| Some(p.seq) == row.undoes.map(|undone| undone + 1) && p.seat == row.seat)
        .ok_or_else(|| format!("undo {} has no decision of its seat to take back", row.seq))
}

/// Takes back the last undo point, the decision with seq `undid`: gone from the log too.
/// Returns the point (the position before the decision).
pub(super) fn take_back(
    undoable: &mut Vec<UndoPoint>,
    log: &mut Vec<LoggedMove>,
    undid: u64,
) -> Option<UndoPoint> {
    log.retain(|entry| entry.seq != undid);
    undoable.pop()
}

/// Whether `seat` may take back its last decision now.
pub(super) fn can_undo(st: &TableState, seat: Seat) -> bool {
    st.row.status == Status::Running
        && st.undoable.last().is_some_and(|p| p.seat == seat)
        && st
            .row
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
        Step::Undo { .. } => st.undoable.len() >= 2,
    };
    undoable.then_some(seat)
}

/// Why `seat` may not take back a decision now (when [`can_undo`] says so).
fn refusal(st: &TableState, seat: Seat) -> ApiError {
    let mut moves = st.log.iter().filter(|m| m.undid.is_none()).rev();
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
        let started = Instant::now();
        let (next, step, commit) = {
            let mut st = table.lock();
            check_position(&st, seq)?;
            if let Some(record) = st.row.seats.get(usize::from(seat)) {
                check_mover(record, Mover::Person)?;
            }
            if !can_undo(&st, seat) {
                return Err(refusal(&st, seat));
            }
            let point = st.undoable.last().ok_or_else(|| refusal(&st, seat))?;
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
            st.writing = Some(Writing::Move);
            (next, step, commit)
        };
        self.store_step(table, step, next, Vec::new(), commit, started)
            .await
    }
}

/// A game rebuilt from its stored steps: the position, the log, and the decisions that
/// may still be taken back.
pub(super) struct Rebuilt {
    pub(super) game: Box<dyn DynGame>,
    pub(super) log: Vec<LoggedMove>,
    pub(super) undoable: Vec<UndoPoint>,
    /// Steps stored (moves and undos).
    pub(super) seq: u64,
    /// The table's clocks ([`Rebuilt::with_clocks`]).
    pub(super) clocks: Option<Clocks>,
    /// The seat to move at the start and after each step (for the clocks).
    pub(super) to_move: Vec<Option<Seat>>,
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
