//! "Why not?": the rule an action follows, and why one that is well formed is not legal
//! now. A person may point at anything the board draws; the engine answers with the id of
//! the rule (the numbered ids of the game's spec, `V-T1`) and a reason a client puts
//! into words in its own language.

use serde::Serialize;
use serde_json::{Map, Value};

/// Why a well-formed action is not legal now.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct Refusal {
    /// The rule the action would break: an id of the game's spec ([`crate::Game::RULES`]).
    #[ts(type = "string")]
    pub rule: &'static str,
    /// What a client translates.
    pub reason: Reason,
}

/// A reason as a stable code plus the numbers and names its sentence needs: a client
/// looks the code up in its message catalogue (`why.<code>`) and fills in `args`.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct Reason {
    /// `snake_case`, stable: `"not_your_turn"`, `"gold_pan_empty"`.
    #[ts(type = "string")]
    pub code: &'static str,
    /// Named values for the sentence (`{"needed": 2, "have": 1}`); numbers or ids.
    #[ts(type = "Record<string, number | string | boolean>")]
    pub args: Map<String, Value>,
}

impl Refusal {
    /// A refusal with no arguments.
    pub fn new(rule: &'static str, code: &'static str) -> Self {
        Self {
            rule,
            reason: Reason {
                code,
                args: Map::new(),
            },
        }
    }

    /// Adds a named value to the reason (`.with("needed", 2)`).
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.reason.args.insert(name.to_owned(), value.into());
        self
    }
}

/// The answer to "why?" for one action: legal, or refused with a rule; either way the
/// rule the action follows, for the link into the rules panel.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct Explanation {
    pub legal: bool,
    /// The rule the action follows when legal, the one it breaks when not.
    #[ts(type = "string")]
    pub rule: &'static str,
    /// Why not; absent when legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<Reason>,
}
