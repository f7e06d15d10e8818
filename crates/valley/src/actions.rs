//! The atomic decisions (docs/contract.md §3). A choice names a card kind (K-SC5) or a
//! pyramid slot, so every legal list has one entry per kind.

use serde::{Deserialize, Serialize};

use crate::data::CardId;

/// A pyramid slot: 0..=2 the base B0 B1 B2, 3 and 4 the middle row M0 M1, 5 the top (K-Z9).
pub type Slot = u8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// K-T4a: name the card to buy.
    BeginPurchase {
        slot: Slot,
    },
    /// K-T4b: pay with one hand card.
    Pay {
        card: CardId,
    },
    /// K-T6.
    PlayAction {
        card: CardId,
    },
    /// K-T8.
    Entomb {
        card: CardId,
    },
    /// K-T9.
    UsePharaoh,
    /// K-T10.
    #[default]
    EndPlay,
    /// K-T12 rebuild sacrifice.
    Sacrifice {
        slot: Slot,
    },
    /// K-T17: which middle card falls into the base centre.
    CrumbleFrom {
        slot: Slot,
    },
    /// K-R4.
    React {
        card: CardId,
    },
    Decline,
    /// A card choice inside a part (K-E0).
    Choose {
        card: CardId,
    },
    /// A slot choice inside a part.
    ChooseSlot {
        slot: Slot,
    },
    /// K-T7c.
    Accept,
    Skip,
    /// K-T7e: no more picks once the minimum of an "up to k" part is reached.
    Done,
}
