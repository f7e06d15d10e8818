//! What a table keeps of its stored steps: the log, and the decisions that may still be
//! taken back (docs/server.md, "Undo of misclicks").

use engine::{DynGame, LoggedEvent, Seat};

use crate::hub::clock::Clocks;
use crate::protocol::{event_entries, LogEntry};
use crate::store::MoveRow;

/// Who a move comes from: the seat's person, or the bot that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    Person,
    Bot,
}

/// What a stored step of a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::hub) enum Step {
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

/// A stored move and its events as the game logged them (each viewer's form included).
#[derive(Clone)]
pub(in crate::hub) struct LoggedMove {
    /// The number of moves once this one was made (the first move is 1).
    pub(in crate::hub) seq: u64,
    pub(in crate::hub) seat: Seat,
    pub(in crate::hub) events: Vec<LoggedEvent>,
    /// Set on an undo: the seq of the entry it took back.
    pub(in crate::hub) undid: Option<u64>,
}

impl LoggedMove {
    /// The entry `viewer` (`None`: a spectator) may read; once the game is over, every
    /// event as it happened (nothing is hidden any more).
    pub(in crate::hub) fn entry_for(&self, viewer: Option<Seat>, over: bool) -> LogEntry {
        LogEntry {
            seq: self.seq,
            seat: self.seat,
            events: if over {
                event_entries(&self.events)
            } else {
                event_entries(self.events.iter().map(|e| e.for_viewer(viewer)))
            },
            undid: self.undid,
            seat_event: None,
        }
    }
}

/// A decision that may be taken back: the position before it.
pub(in crate::hub) struct UndoPoint {
    pub(in crate::hub) before: Box<dyn DynGame>,
    pub(in crate::hub) seat: Seat,
    /// The seq of the decision's update (the number of steps stored once it was).
    pub(in crate::hub) seq: u64,
}

/// Keeps (or forgets) a move just installed as a decision its seat may take back: only a
/// person's move that revealed nothing, after moves of the same seat alone. `seq`: the
/// move's update seq; `before`: the position it was made in.
pub(in crate::hub) fn record_decision(
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
pub(in crate::hub) fn keeps_decision(barrier: bool, mover: Mover) -> bool {
    !barrier && mover == Mover::Person
}

/// The undo point stored undo `row` takes back: the last one, which must be its seat's
/// decision at the seq it names.
pub(in crate::hub) fn point_undone_by<'a>(
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
pub(in crate::hub) fn take_back(
    undoable: &mut Vec<UndoPoint>,
    log: &mut Vec<LoggedMove>,
    undid: u64,
) -> Option<UndoPoint> {
    log.retain(|entry| entry.seq != undid);
    undoable.pop()
}

/// A game rebuilt from its stored steps: the position, the log, and the decisions that
/// may still be taken back.
pub(in crate::hub) struct Rebuilt {
    pub(in crate::hub) game: Box<dyn DynGame>,
    pub(in crate::hub) log: Vec<LoggedMove>,
    pub(in crate::hub) undoable: Vec<UndoPoint>,
    /// Steps stored (moves and undos).
    pub(in crate::hub) seq: u64,
    /// The table's clocks ([`Rebuilt::with_clocks`]).
    pub(in crate::hub) clocks: Option<Clocks>,
    /// The seat to move at the start and after each step (for the clocks).
    pub(in crate::hub) to_move: Vec<Option<Seat>>,
}
