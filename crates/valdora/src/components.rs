//! The fixed vocabulary of the game: gems, colours, equipment items, book sides, faces.
//! How many of each exist, and what is printed on them, is data (`data/valdora.toml`).

use serde::{Deserialize, Serialize};

/// The five gems; the rules count gold as a gem (V-C2).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
    ts_rs::TS,
)]
#[ts(export_to = "valdora/")]
#[serde(rename_all = "snake_case")]
pub enum Gem {
    #[default]
    Gold,
    Ruby,
    Sapphire,
    Amethyst,
    Emerald,
}

impl Gem {
    pub const ALL: [Gem; 5] = [
        Gem::Gold,
        Gem::Ruby,
        Gem::Sapphire,
        Gem::Amethyst,
        Gem::Emerald,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        ["gold", "ruby", "sapphire", "amethyst", "emerald"][self.index()]
    }
}

/// Gem counts by kind.
pub type Gems = [u8; 5];

/// The seven patron / craftsman / workshop colours (V-C8).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "valdora/")]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Grey,
    Yellow,
    White,
    Violet,
    Red,
    Blue,
    Green,
}

impl Color {
    pub const ALL: [Color; 7] = [
        Color::Grey,
        Color::Yellow,
        Color::White,
        Color::Violet,
        Color::Red,
        Color::Blue,
        Color::Green,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        ["grey", "yellow", "white", "violet", "red", "blue", "green"][self.index()]
    }
}

/// The seven equipment item types (V-C5); a player owns at most one of each. Tools are
/// named by the gem they load: which tool picture (shovel, pick, hammer, chisel) loads
/// which gem is data.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "valdora/")]
#[serde(rename_all = "snake_case")]
pub enum Item {
    GoldPan,
    RubyTool,
    SapphireTool,
    AmethystTool,
    EmeraldTool,
    Horse,
    Cart,
}

impl Item {
    pub const ALL: [Item; 7] = [
        Item::GoldPan,
        Item::RubyTool,
        Item::SapphireTool,
        Item::AmethystTool,
        Item::EmeraldTool,
        Item::Horse,
        Item::Cart,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The pan or tool that loads exactly `gem`.
    pub fn for_gem(gem: Gem) -> Item {
        Item::ALL[gem.index()]
    }

    /// Horse and cart load any gem for a coin cost; the others load one gem kind for free.
    pub fn loads_any(self) -> bool {
        matches!(self, Item::Horse | Item::Cart)
    }

    pub fn accepts(self, gem: Gem) -> bool {
        self.loads_any() || self.index() == gem.index()
    }

    pub fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// The two piles of a book (V-C6): the right pile shows rectos, the left pile versos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(rename_all = "snake_case")]
pub enum Side {
    #[default]
    Left,
    Right,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a commission asks for (V-C7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct Requirement {
    /// Gems by kind (one gem, or a multiset of three for white patrons).
    pub gems: Gems,
    /// Silver coins (the grey patrons ask for one).
    pub coins: u8,
}

/// The printed content of one commission face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct CommissionFace {
    pub color: Color,
    pub wants: Requirement,
    pub points: u8,
}

/// The printed content of one equipment face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct EquipmentFace {
    pub item: Item,
    /// Coins to load one gem (horse and cart only; 0 otherwise).
    pub load_cost: u8,
}

/// A face of a book card, as anyone who sees it reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Face {
    Equipment(EquipmentFace),
    Commission(CommissionFace),
}
