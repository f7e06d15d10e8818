//! Why a well-formed action breaks a rule, as the checks of [`crate::checks`] find it: an
//! [`engine::Fault`] (a small `Copy` value, no allocation, so listing the legal actions
//! through the same checks allocates nothing) with Valley's argument keys; "why not?"
//! ([`crate::explain`]) turns it into an [`engine::Refusal`].

use engine::{FaultKey, FaultValue};

/// The name of a value a reason's sentence needs: its placeholder in the catalogues
/// (`{{need}}`; `docs/contract.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Allowed,
    Have,
    Need,
}

impl FaultKey for Key {
    fn name(self) -> &'static str {
        match self {
            Key::Allowed => "allowed",
            Key::Have => "have",
            Key::Need => "need",
        }
    }
}

/// The rule an action breaks and the reason: the engine's fault with Valley's keys.
pub(crate) type Fault = engine::Fault<Key, FaultValue>;
