//! What happened: ids and numbers for logs, animations and replays (no sentences).

use serde::Serialize;

use crate::board::Space;
use crate::components::{Color, CommissionFace, EquipmentFace, Face, Gem, Item, Side};
use engine::Seat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TurnBegan {
        seat: Seat,
        turn: u32,
    },
    /// V-T3: no affordable destination; the turn ends without an action.
    Stuck {
        seat: Seat,
    },
    Moved {
        seat: Seat,
        from: Space,
        to: Space,
        provisions_spent: bool,
    },
    /// V-T2: one coin to `to`, or to the bank when `to` already has 6.
    MeetingFee {
        seat: Seat,
        to: Seat,
        banked: bool,
    },
    Passed {
        seat: Seat,
    },
    ProvisionsTaken {
        seat: Seat,
    },
    SilverRefilled {
        seat: Seat,
    },
    /// A page turned; the faces now on top of both piles.
    PageTurned {
        seat: Seat,
        book: u8,
        from: Side,
        cost: u8,
        left: Option<Face>,
        right: Option<Face>,
    },
    EquipmentBought {
        seat: Seat,
        book: u8,
        side: Side,
        face: EquipmentFace,
        other_face: Face,
        gold_from: Item,
    },
    CommissionBought {
        seat: Seat,
        book: u8,
        side: Side,
        face: CommissionFace,
        other_face: Face,
    },
    CommissionReturned {
        seat: Seat,
        book: u8,
        side: Side,
        shows: Face,
    },
    /// After a purchase or return, the faces now on top of both piles.
    BookTops {
        book: u8,
        left: Option<Face>,
        right: Option<Face>,
    },
    Loaded {
        seat: Seat,
        gem: Gem,
        onto: Item,
        cost: u8,
    },
    Unloaded {
        seat: Seat,
        gem: Gem,
        from: Item,
    },
    CommissionCompleted {
        seat: Seat,
        face: CommissionFace,
    },
    /// V-I1: what the other seats and spectators are told of a [`Event::CommissionCompleted`]
    /// while completed commissions are hidden: that one was completed, not which nor its
    /// points (`Game::event_seen_by`).
    CommissionCompletedHidden {
        seat: Seat,
    },
    BonusTile {
        seat: Seat,
    },
    CraftsmanHired {
        seat: Seat,
        color: Color,
    },
    WorkshopTaken {
        seat: Seat,
        color: Color,
    },
    /// V-E1: the last round has begun.
    EndTriggered {
        seat: Seat,
    },
    ActionEnded {
        seat: Seat,
    },
    GameOver,
    /// Simulation only: the turn cap ended the game, not the rules.
    TurnCapReached {
        turns: u32,
    },
    /// Every seat in a row had no legal move; nothing can change any more.
    Stalled,
}
