//! Why a well-formed action breaks a rule, as the legality predicates find it: an
//! [`engine::Fault`] (a small `Copy` value, no allocation, so the legal-action generators
//! may use it in their hot loops) with Pandoria's argument keys and values; "why not?"
//! turns it into an [`engine::Refusal`].

use engine::{FaultArg, FaultKey};
use serde_json::Value;

use crate::components::Resource;

/// The name of a value a reason's sentence needs: its placeholder in the catalogues
/// (`{{need}}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Card,
    Cell,
    Dir,
    Distance,
    Figures,
    Have,
    Market,
    Need,
    Resource,
    Seat,
    Single,
    Slot,
    Spell,
    Step,
    Tile,
    ToMove,
    Value,
}

impl Key {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Key::Card => "card",
            Key::Cell => "cell",
            Key::Dir => "dir",
            Key::Distance => "distance",
            Key::Figures => "figures",
            Key::Have => "have",
            Key::Market => "market",
            Key::Need => "need",
            Key::Resource => "resource",
            Key::Seat => "seat",
            Key::Single => "single",
            Key::Slot => "slot",
            Key::Spell => "spell",
            Key::Step => "step",
            Key::Tile => "tile",
            Key::ToMove => "to_move",
            Key::Value => "value",
        }
    }
}

/// A value a reason's sentence needs: a number (a cell, a slot, an amount) or a name (a
/// resource, a step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg {
    Number(i32),
    Resource(Resource),
    /// A thin pointer, so that a [`Fault`] stays small.
    Name(&'static &'static str),
    Flag(bool),
}

impl From<u8> for Arg {
    fn from(n: u8) -> Self {
        Arg::Number(i32::from(n))
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Self {
        Arg::Number(i32::try_from(n).unwrap_or(i32::MAX))
    }
}

impl From<Resource> for Arg {
    fn from(r: Resource) -> Self {
        Arg::Resource(r)
    }
}

impl From<bool> for Arg {
    fn from(b: bool) -> Self {
        Arg::Flag(b)
    }
}

impl From<&'static &'static str> for Arg {
    fn from(name: &'static &'static str) -> Self {
        Arg::Name(name)
    }
}

/// The rule an action breaks and the reason, with up to [`engine::MAX_FAULT_ARGS`] named
/// values: the engine's fault with Pandoria's keys and values.
pub(crate) type Fault = engine::Fault<Key, Arg>;

impl FaultKey for Key {
    fn name(self) -> &'static str {
        Key::name(self)
    }
}

impl FaultArg for Arg {
    fn value(self) -> Value {
        match self {
            Arg::Number(n) => Value::from(n),
            Arg::Resource(resource) => Value::from(resource.name()),
            Arg::Name(s) => Value::from(*s),
            Arg::Flag(b) => Value::from(b),
        }
    }
}
