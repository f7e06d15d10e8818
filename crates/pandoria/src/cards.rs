//! Cards (P-D1): a spell on top, a building below, a gold price; realms.

use serde::{Deserialize, Serialize};

/// A card, by its index in the data file (0..54).
pub type CardId = u8;

/// A card as a bit of a card set (`u64`); out-of-range ids give the empty set.
#[inline]
pub fn card_bit(card: CardId) -> u64 {
    1u64.checked_shl(u32::from(card)).unwrap_or(0)
}

/// The 13 spells (P-SP1–P-SP13).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Spell {
    Acquire,
    Adopt,
    AstralShip,
    Clone,
    Conjure,
    Construct,
    EnchantedCastle,
    Flee,
    MasterBuilder,
    Muster,
    Rage,
    Teleport,
    Terrain,
}

impl Spell {
    /// The values printed cards may carry for this spell's parameter (P-D1); empty
    /// when the spell has none.
    pub fn allowed_values(self) -> &'static [u8] {
        match self {
            Spell::Acquire | Spell::Clone | Spell::Muster | Spell::Teleport => &[1, 2],
            Spell::Conjure => &[6, 8, 10],
            Spell::Rage => &[2, 3],
            _ => &[],
        }
    }
}

/// The 17 building ids (P-T5: all Bank cards share one id; large and small Saw Mill,
/// Tower and Treasury are separate ids).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Building {
    Bank,
    Carpenter,
    Lumberyard,
    Market,
    Poorhouse,
    Repository,
    SawMillLarge,
    SawMillSmall,
    SchoolOfWizardry,
    Shrine,
    Statue,
    Store,
    TowerLarge,
    TowerSmall,
    TreasuryLarge,
    TreasurySmall,
    Vault,
}

/// What a building's parameter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    None,
    /// One value from the list (Bank, Carpenter, School k; Shrine p; Market m).
    Value(&'static [u8]),
    /// An overflow rate (n, p): (2, 1) or (3, 2) (P-B3–P-B5).
    Rate,
}

impl Building {
    pub const COUNT: usize = 17;

    pub fn param(self) -> Param {
        match self {
            Building::Bank | Building::Carpenter | Building::SchoolOfWizardry => {
                Param::Value(&[1, 2, 3])
            }
            Building::Shrine | Building::Market => Param::Value(&[1, 2]),
            Building::Lumberyard | Building::Repository | Building::Vault => Param::Rate,
            _ => Param::None,
        }
    }
}

/// The overflow rates a rate building may carry (P-D1).
pub const RATES: [(u8, u8); 2] = [(2, 1), (3, 2)];

/// The five realms (P-SC3).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Realm {
    #[default]
    Humans,
    Dwarves,
    Elves,
    Mages,
    Halflings,
}

impl Realm {
    pub const ALL: [Realm; 5] = [
        Realm::Humans,
        Realm::Dwarves,
        Realm::Elves,
        Realm::Mages,
        Realm::Halflings,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One card as the engine uses it (and as the client's tables list it, `tables.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "camelCase")]
pub struct Card {
    pub spell: Spell,
    /// n, v or m of the spell (P-D1); 0 when it has none.
    pub spell_value: u8,
    pub crystal_cost: u8,
    pub building: Building,
    /// k, p or m of the building; 0 when it has none.
    pub building_value: u8,
    /// (n, p) of a rate building; (3, 1) otherwise.
    pub building_rate: (u8, u8),
    pub wood_cost: u8,
    pub gold_price: u8,
    /// The realm of a particular card, and whether it is the A-marked one (P-S8).
    pub realm: Option<Realm>,
    pub marked_a: bool,
}
