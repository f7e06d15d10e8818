//! What happened: ids, seats and slots, never text (K-Z14). Draws carry only a count, so
//! the log never shows a card before its owner may reveal it.

use serde::Serialize;

use crate::actions::Slot;
use crate::data::CardId;
use engine::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TurnStarted {
        seat: Seat,
    },
    Drew {
        seat: Seat,
        count: u8,
    },
    Reshuffled {
        seat: Seat,
        count: u8,
    },
    PurchaseBegun {
        seat: Seat,
        card: CardId,
        slot: Slot,
    },
    Paid {
        seat: Seat,
        card: CardId,
        gold: u8,
    },
    Bought {
        seat: Seat,
        card: CardId,
        slot: Slot,
        paid: u8,
        lost: u8,
    },
    ActionPlayed {
        seat: Seat,
        card: CardId,
    },
    PharaohUsed {
        seat: Seat,
    },
    Entombed {
        seat: Seat,
        card: CardId,
    },
    Crumbled {
        from: Slot,
        to: Slot,
    },
    Sacrificed {
        seat: Seat,
        card: CardId,
    },
    Taken {
        seat: Seat,
        card: CardId,
    },
    Revealed {
        seat: Seat,
        card: CardId,
    },
    /// K-E16: a private look; only the count is public.
    Looked {
        seat: Seat,
        count: u8,
    },
    Discarded {
        seat: Seat,
        card: CardId,
    },
    /// K-E16: a looked-at card put back on the deck, as the next from the top.
    Arranged {
        seat: Seat,
    },
    Given {
        from: Seat,
        to: Seat,
        card: CardId,
    },
    Reserved {
        seat: Seat,
        slot: Slot,
    },
    Executed {
        seat: Seat,
        card: CardId,
    },
    PartSkipped {
        seat: Seat,
    },
    Reacted {
        seat: Seat,
        card: CardId,
    },
    Declined {
        seat: Seat,
    },
    Refilled {
        slot: Slot,
        card: CardId,
    },
    /// K-T10, K-T11: the seat ends its play; its in-play and hand cards go face up to its
    /// discard pile (the view shows them), before any rebuild decision.
    PlayEnded {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
    },
    GameOver,
}
