//! The settings a person may choose when starting a game, so that a client (the server's
//! "new game" form, the lobby) can offer them without knowing any game.

use serde::Serialize;
use serde_json::Value;

use crate::Game;

/// Whether `G`'s JSON config has a top-level `field` (e.g. `turn_cap`, which only some
/// games have), offered to people or not.
pub fn has_config_field<G: Game>(field: &str) -> bool {
    serde_json::to_value(G::Config::default())
        .is_ok_and(|json| json.as_object().is_some_and(|o| o.contains_key(field)))
}

/// One field of a game's JSON config that players choose: its accepted values and default.
///
/// Only options listed by [`crate::Game::config_options`] are offered to people; the other
/// config fields (simulation turn caps, explicit card lists) stay for tools.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigOption {
    /// The config field ("players", "mode").
    pub key: &'static str,
    /// What it changes, in a few words (English; clients translate by `key`).
    pub description: &'static str,
    /// Every accepted value. `null` stands for the game's own choice (e.g. a preset that
    /// follows from the player count).
    pub choices: Vec<Value>,
    pub default: Value,
    /// The player counts the option applies to; empty for all.
    pub players: Vec<u8>,
}

impl ConfigOption {
    /// An option with a list of values, for every player count.
    pub fn choice(
        key: &'static str,
        description: &'static str,
        choices: impl IntoIterator<Item = Value>,
        default: Value,
    ) -> Self {
        Self {
            key,
            description,
            choices: choices.into_iter().collect(),
            default,
            players: Vec::new(),
        }
    }

    /// An on/off option.
    pub fn flag(key: &'static str, description: &'static str, default: bool) -> Self {
        Self::choice(
            key,
            description,
            [Value::Bool(false), Value::Bool(true)],
            Value::Bool(default),
        )
    }

    /// The player count option: `min..=max`.
    pub fn players(min: u8, max: u8, default: u8) -> Self {
        Self::choice(
            "players",
            "number of players",
            (min..=max).map(Value::from),
            Value::from(default),
        )
    }

    /// Restricts the option to these player counts.
    pub fn only_with(mut self, players: impl IntoIterator<Item = u8>) -> Self {
        self.players = players.into_iter().collect();
        self
    }

    /// Whether `value` is one of the accepted values.
    pub fn accepts(&self, value: &Value) -> bool {
        self.choices.contains(value)
    }
}
