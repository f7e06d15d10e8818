//! Why a well-formed action breaks a rule, as the legality predicates find it: a small
//! `Copy` value (no allocation, so the legal-action generators may use it in their hot
//! loops) that "why not?" turns into an [`engine::Refusal`].

use engine::Refusal;
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

/// The most named values a reason carries.
const MAX_ARGS: usize = 3;

/// The rule an action breaks and the reason, with up to [`MAX_ARGS`] named values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fault {
    pub rule: &'static str,
    pub code: &'static str,
    args: [Option<(Key, Arg)>; MAX_ARGS],
}

impl Fault {
    pub(crate) const fn new(rule: &'static str, code: &'static str) -> Self {
        Fault {
            rule,
            code,
            args: [None; MAX_ARGS],
        }
    }

    /// Adds a named value; past [`MAX_ARGS`] values the reason keeps the first ones.
    #[must_use]
    pub(crate) fn with(mut self, name: Key, value: impl Into<Arg>) -> Self {
        if let Some(free) = self.args.iter_mut().find(|a| a.is_none()) {
            *free = Some((name, value.into()));
        }
        self
    }

    /// Cites another rule for the same reason (the cell rules of P-G6/P-G7 checked for
    /// a figure or a spell).
    #[must_use]
    pub(crate) const fn citing(mut self, rule: &'static str) -> Self {
        self.rule = rule;
        self
    }
}

impl From<Fault> for Refusal {
    fn from(fault: Fault) -> Self {
        fault.args.into_iter().flatten().fold(
            Refusal::new(fault.rule, fault.code),
            |r, (name, arg)| {
                r.with(
                    name.name(),
                    match arg {
                        Arg::Number(n) => Value::from(n),
                        Arg::Resource(resource) => Value::from(resource.name()),
                        Arg::Name(s) => Value::from(*s),
                        Arg::Flag(b) => Value::from(b),
                    },
                )
            },
        )
    }
}
