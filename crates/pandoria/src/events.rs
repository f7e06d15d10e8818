//! What happened (P-Z9): ids and numbers, never text. Events go to every seat, so none
//! names a hidden card or tile (P-Z6): draws say only who drew.

use serde::Serialize;

use crate::actions::TileId;
use crate::cards::CardId;
use crate::components::Resource;
use crate::hex::{Cell, Dir};
use engine::Seat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TurnBegan {
        seat: Seat,
        turn: u32,
    },
    TilePlaced {
        seat: Seat,
        tile: TileId,
        at: Cell,
        dir: Dir,
    },
    CastlePlaced {
        seat: Seat,
        at: Cell,
    },
    PlacementImpossible {
        seat: Seat,
    },
    /// A region closed; `root` is one of its cells.
    RegionClosed {
        root: Cell,
    },
    FigureReturned {
        seat: Seat,
        at: Cell,
        leader: bool,
    },
    FigurePlaced {
        seat: Seat,
        at: Cell,
        leader: bool,
    },
    FigureMoved {
        seat: Seat,
        from: Cell,
        to: Cell,
    },
    FigureRemoved {
        seat: Seat,
        at: Cell,
        leader: bool,
    },
    SpellCast {
        seat: Seat,
        card: CardId,
        cost: u8,
    },
    /// P-SP2: the spell of `from`'s last card resolves for `seat`.
    SpellAdopted {
        seat: Seat,
        from: Seat,
        card: CardId,
    },
    CardTaken {
        seat: Seat,
        card: CardId,
        market: u8,
    },
    ResourceSet {
        seat: Seat,
        resource: Resource,
        value: u8,
    },
    RageOn {
        seat: Seat,
        at: Cell,
        weight: u8,
    },
    /// P-SP13: the drawn tile is shown to all.
    TerrainDrawn {
        seat: Seat,
        single: bool,
        tile: u8,
    },
    BuildingBuilt {
        seat: Seat,
        card: CardId,
        slot: u8,
        cost: u8,
    },
    MonumentBuilt {
        seat: Seat,
        slot: u8,
        value: u8,
        cost: u8,
    },
    /// P-R5: what one seat gained from this turn's closed regions, before the cap.
    RegionScored {
        seat: Seat,
        crystal: u8,
        gold: u8,
        wood: u8,
        points: u16,
    },
    ResourceChanged {
        seat: Seat,
        resource: Resource,
        value: u8,
    },
    PointsGained {
        seat: Seat,
        points: u16,
        reason: Reason,
    },
    CardBought {
        seat: Seat,
        card: CardId,
        market: u8,
        cost: u8,
    },
    MarketRefilled {
        market: u8,
        card: CardId,
    },
    TileDrawn {
        seat: Seat,
    },
    EndTriggered {
        seat: Seat,
    },
    FinalScored {
        seat: Seat,
        points: u16,
        leftovers: u8,
    },
    GameOver,
}

/// Why points were scored (the P-R11 categories).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    CityRegions,
    Overflow,
    Monuments,
    Shrine,
    Statue,
    Store,
    EndCards,
    EndResources,
}

impl Reason {
    pub const ALL: [Reason; 8] = [
        Reason::CityRegions,
        Reason::Overflow,
        Reason::Monuments,
        Reason::Shrine,
        Reason::Statue,
        Reason::Store,
        Reason::EndCards,
        Reason::EndResources,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Reason::CityRegions => "city regions",
            Reason::Overflow => "overflow",
            Reason::Monuments => "monuments",
            Reason::Shrine => "Shrine",
            Reason::Statue => "Statue",
            Reason::Store => "Store",
            Reason::EndCards => "end-game cards",
            Reason::EndResources => "end-game resources",
        }
    }
}
