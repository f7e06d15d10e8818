//! Why a well-formed action breaks a rule, as a game's legality checks find it: a small
//! `Copy` value (no allocation, so the checks that list the legal actions may produce it
//! in their hot loops) that "why not?" turns into a [`Refusal`] only when asked.
//!
//! A game names its own argument keys (`K`, the placeholders of its catalogues) and
//! values (`A`, numbers or names); both should be a word or two wide, so that a
//! `Result<_, Fault<K, A>>` stays well under clippy's `result_large_err` (128 bytes).

use serde_json::Value;

use crate::Refusal;

/// The name of a value a reason's sentence needs: its placeholder in the catalogues
/// (`{{need}}`).
pub trait FaultKey: Copy {
    fn name(self) -> &'static str;
}

/// A value a reason's sentence needs, as the reason's JSON carries it.
pub trait FaultArg: Copy {
    fn value(self) -> Value;
}

/// The values reasons need: a number (an amount, a limit, a cell) or a name (a step, a
/// resource), or a yes/no. A game converts its own values into it (`From`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultValue {
    Number(i32),
    /// A thin pointer, so that a fault stays small.
    Name(&'static &'static str),
    Flag(bool),
}

impl From<u8> for FaultValue {
    fn from(n: u8) -> Self {
        FaultValue::Number(i32::from(n))
    }
}

impl From<u16> for FaultValue {
    fn from(n: u16) -> Self {
        FaultValue::Number(i32::from(n))
    }
}

impl From<usize> for FaultValue {
    fn from(n: usize) -> Self {
        FaultValue::Number(i32::try_from(n).unwrap_or(i32::MAX))
    }
}

impl From<bool> for FaultValue {
    fn from(b: bool) -> Self {
        FaultValue::Flag(b)
    }
}

impl From<&'static &'static str> for FaultValue {
    fn from(name: &'static &'static str) -> Self {
        FaultValue::Name(name)
    }
}

impl FaultArg for FaultValue {
    fn value(self) -> Value {
        match self {
            FaultValue::Number(n) => Value::from(n),
            FaultValue::Name(s) => Value::from(*s),
            FaultValue::Flag(b) => Value::from(b),
        }
    }
}

/// The most named values a fault carries.
pub const MAX_FAULT_ARGS: usize = 3;

/// The rule an action breaks and the reason code, with up to [`MAX_FAULT_ARGS`] named
/// values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault<K, A> {
    pub rule: &'static str,
    pub code: &'static str,
    args: [Option<(K, A)>; MAX_FAULT_ARGS],
}

impl<K: Copy, A: Copy> Fault<K, A> {
    pub const fn new(rule: &'static str, code: &'static str) -> Self {
        Fault {
            rule,
            code,
            args: [None; MAX_FAULT_ARGS],
        }
    }

    /// Adds a named value; past [`MAX_FAULT_ARGS`] values the reason keeps the first ones.
    #[must_use]
    pub fn with(mut self, name: K, value: impl Into<A>) -> Self {
        if let Some(free) = self.args.iter_mut().find(|a| a.is_none()) {
            *free = Some((name, value.into()));
        }
        self
    }

    /// Cites another rule for the same reason (a shared check reached from another rule).
    #[must_use]
    pub const fn citing(mut self, rule: &'static str) -> Self {
        self.rule = rule;
        self
    }
}

impl<K: FaultKey, A: FaultArg> From<Fault<K, A>> for Refusal {
    fn from(fault: Fault<K, A>) -> Self {
        fault
            .args
            .into_iter()
            .flatten()
            .fold(Refusal::new(fault.rule, fault.code), |r, (name, arg)| {
                r.with(name.name(), arg.value())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Need;

    impl FaultKey for Need {
        fn name(self) -> &'static str {
            "need"
        }
    }

    #[test]
    fn a_fault_becomes_the_refusal_it_names_keeping_the_first_arguments() {
        let fault = Fault::<Need, FaultValue>::new("X-1", "short")
            .with(Need, 1u8)
            .with(Need, 2u8)
            .with(Need, 3u8)
            .with(Need, 4u8)
            .citing("X-2");
        let refusal = Refusal::from(fault);
        assert_eq!((refusal.rule, refusal.reason.code), ("X-2", "short"));
        // One key given four times: the map keeps the last of the three kept values.
        assert_eq!(refusal.reason.args.get("need"), Some(&Value::from(3)));
    }
}
