//! Why a well-formed action breaks a rule, as the checks of [`crate::legal`] find it: an
//! [`engine::Fault`] (a small `Copy` value, no allocation, so listing the legal actions
//! through the same checks allocates nothing) with Valdora's argument keys and values;
//! "why not?" ([`crate::explain`]) turns it into an [`engine::Refusal`].

use engine::{FaultArg, FaultKey};
use serde_json::Value;

/// The name of a value a reason's sentence needs: its placeholder in the catalogues
/// (`{{need}}`; `docs/contract.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Have,
    Max,
    Need,
    Ships,
    Step,
}

impl FaultKey for Key {
    fn name(self) -> &'static str {
        match self {
            Key::Have => "have",
            Key::Max => "max",
            Key::Need => "need",
            Key::Ships => "ships",
            Key::Step => "step",
        }
    }
}

/// A value a reason's sentence needs: a number (coins, a limit) or a name (a step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg {
    Number(i32),
    /// A thin pointer, so that a [`Fault`] stays small.
    Name(&'static &'static str),
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

impl From<&'static &'static str> for Arg {
    fn from(name: &'static &'static str) -> Self {
        Arg::Name(name)
    }
}

impl FaultArg for Arg {
    fn value(self) -> Value {
        match self {
            Arg::Number(n) => Value::from(n),
            Arg::Name(s) => Value::from(*s),
        }
    }
}

/// The rule an action breaks and the reason: the engine's fault with Valdora's keys.
pub(crate) type Fault = engine::Fault<Key, Arg>;
