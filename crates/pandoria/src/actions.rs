//! The atomic decisions of a turn (docs/contract.md §4). Each is a small `Copy` value.

use serde::{Deserialize, Serialize};

use crate::cards::CardId;
use crate::components::Resource;
use crate::hex::{Cell, Dir};

/// A physical double tile, 0..48 in data order (P-K2: dwarves holding two tiles never
/// produce duplicate actions).
pub type TileId = u8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// P-T1 with a hand double tile: half a on `at`, half b on its neighbour `dir`.
    PlaceTile {
        tile: TileId,
        at: Cell,
        dir: Dir,
    },
    /// P-T1 with a reserve castle; also the castle of Enchanted Castle.
    PlaceCastle {
        at: Cell,
    },
    /// P-T3a: a reserve figure (or the leader) onto the piece just placed.
    PlaceFigure {
        at: Cell,
        leader: bool,
    },
    /// P-T3b: take an own figure back.
    RemoveFigure {
        at: Cell,
    },
    /// P-P1: cast a hand card's spell; `pay` names the other resource of a Market.
    CastSpell {
        card: CardId,
        pay: Option<Resource>,
    },
    /// P-T5: a hand card into building slot `slot`.
    Build {
        card: CardId,
        slot: u8,
        pay: Option<Resource>,
    },
    /// P-T6: the top monument onto the building in `slot`.
    Monument {
        slot: u8,
        pay: Option<Resource>,
    },
    /// P-K3 (elves-B) and Teleport picks.
    MoveFigure {
        from: Cell,
        to: Cell,
    },
    /// P-SP1: take market card `market` for free.
    TakeCard {
        market: u8,
    },
    /// P-SP2: copy this seat's last spell.
    AdoptFrom {
        seat: u8,
    },
    /// P-SP5: set this resource to the spell's value.
    SetResource {
        resource: Resource,
    },
    /// P-SP11: this own figure counts m in this turn's scoring.
    RageOn {
        at: Cell,
    },
    /// P-SP13: draw the top of the single (or double) stack.
    DrawFrom {
        single: bool,
    },
    /// P-SP13: place the drawn tile; `dir` is 0 for a single tile.
    PlaceDrawn {
        at: Cell,
        dir: Dir,
    },
    /// P-T9: buy market card `market`.
    Buy {
        market: u8,
        pay: Option<Resource>,
    },
    Skip,
    Done,
}

/// Where legal-action generation writes: the caller's buffer, or a [`Count`] when only
/// the number matters (so the automatic steps never allocate).
pub trait ActionSink {
    fn push(&mut self, action: Action);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ActionSink for Vec<Action> {
    #[inline]
    fn push(&mut self, action: Action) {
        Vec::push(self, action);
    }

    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

/// Counts actions instead of storing them.
#[derive(Debug, Default, Clone, Copy)]
pub struct Count(pub usize);

impl ActionSink for Count {
    #[inline]
    fn push(&mut self, _action: Action) {
        self.0 += 1;
    }

    #[inline]
    fn len(&self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/contract.md §4: an action fits in four bytes.
    #[test]
    fn action_is_small() {
        assert!(std::mem::size_of::<Action>() <= 4);
    }
}
