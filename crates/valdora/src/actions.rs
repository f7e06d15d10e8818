//! The atomic decisions of a Valdora turn (V-T1..V-A6), as a small `Copy` enum whose
//! JSON form is what clients send.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::board::Space;
use crate::components::{Gem, Item, Side};

/// A set of equipment items, as a bitset; JSON: a list of item names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Items(pub u8);

impl Items {
    pub fn contains(self, item: Item) -> bool {
        self.0 & item.bit() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Item> {
        Item::ALL.into_iter().filter(move |i| self.contains(*i))
    }

    /// Whether every bit names an item (`Items` is a bare bitset: a stray bit is no item).
    pub fn names_items_only(self) -> bool {
        self.iter().collect::<Items>() == self
    }
}

impl FromIterator<Item> for Items {
    fn from_iter<I: IntoIterator<Item = Item>>(items: I) -> Self {
        Items(items.into_iter().fold(0, |m, i| m | i.bit()))
    }
}

impl Serialize for Items {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Items {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Item>::deserialize(d)?;
        Ok(items.into_iter().collect())
    }
}

/// One decision. Compound actions (buy, load, complete) are sequences of steps closed by
/// `End`; the first step commits the turn's action (V-T4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// V-T1: move the pawn to a space.
    Move { to: Space },
    /// V-A6: no action this turn.
    Pass,
    /// V-A5, at a city.
    TakeProvisions,
    /// V-A4, at a silver mine.
    RefillSilver,
    /// V-A1: the top card of `from` moves to the other pile.
    Turn { from: Side },
    /// V-A1: buy the visible equipment face of `side`, paying the gold on `gold_from`.
    BuyEquipment { side: Side, gold_from: Item },
    /// V-A1: buy the visible commission face of `side` for 1 coin.
    BuyCommission { side: Side },
    /// V-A1: put back incomplete commission number `commission` on `side`.
    Return { commission: u8, side: Side },
    /// V-A2: load one gem from the space (or the discard area) onto an empty item.
    Load { gem: Gem, onto: Item },
    /// V-A2: horse or cart only: its gem goes to the discard area.
    Unload { from: Item },
    /// V-A3: complete incomplete commission number `commission`, paying with the gems on
    /// `pay_from` (empty for a silver coin).
    Complete {
        commission: u8,
        #[ts(as = "Vec<Item>")]
        pay_from: Items,
    },
    /// Closes a buy, load or complete action.
    End,
}
