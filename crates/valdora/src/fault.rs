//! Why a well-formed action breaks a rule, as the checks of [`crate::legal`] find it: an
//! [`engine::Fault`] (a small `Copy` value, no allocation, so listing the legal actions
//! through the same checks allocates nothing) with Valdora's argument keys;
//! "why not?" ([`crate::explain`]) turns it into an [`engine::Refusal`].

use engine::{FaultKey, FaultValue};

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

/// The rule an action breaks and the reason: the engine's fault with Valdora's keys.
pub(crate) type Fault = engine::Fault<Key, FaultValue>;
