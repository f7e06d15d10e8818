//! Why a well-formed action breaks a rule, as the legality predicates find it: an
//! [`engine::Fault`] (a small `Copy` value, no allocation, so the legal-action generators
//! may use it in their hot loops) with Pandoria's argument keys; "why not?"
//! turns it into an [`engine::Refusal`].

use engine::{FaultKey, FaultValue};

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

impl From<Resource> for FaultValue {
    /// A resource by its name (a thin pointer to a static one, so that a fault stays small).
    fn from(resource: Resource) -> Self {
        static CRYSTAL: &str = Resource::Crystal.name();
        static GOLD: &str = Resource::Gold.name();
        static WOOD: &str = Resource::Wood.name();
        FaultValue::Name(match resource {
            Resource::Crystal => &CRYSTAL,
            Resource::Gold => &GOLD,
            Resource::Wood => &WOOD,
        })
    }
}

/// The rule an action breaks and the reason, with up to [`engine::MAX_FAULT_ARGS`] named
/// values: the engine's fault with Pandoria's keys.
pub(crate) type Fault = engine::Fault<Key, FaultValue>;

impl FaultKey for Key {
    fn name(self) -> &'static str {
        Key::name(self)
    }
}
