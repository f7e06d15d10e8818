//! The one place that names every game, and the generic helpers every subcommand uses
//! to build a game's config from the command line or from JSON.
//!
//! Adding a game is one line in the `games!` invocation below.

use std::fmt;
use std::path::Path;

use engine::{Game, GameError, GameErrorKind};
use serde_json::{Map, Value};

use crate::CliError;

/// Work that needs the concrete game type: `with_game` calls `visit::<G>()` for the game
/// picked by name at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// A game name that is not in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGame {
    pub name: String,
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game {:?}; known games: {}",
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

macro_rules! games {
    ($($game:ty),+ $(,)?) => {
        /// The names of every game, in the order they are listed.
        pub fn names() -> Vec<&'static str> {
            vec![$(<$game as Game>::NAME),+]
        }

        /// Every game as the server hosts it.
        pub fn catalog() -> server::Catalog {
            server::Catalog::new(vec![$(server::kind::<$game>()),+])
        }

        /// Runs `visitor` with the game called `name` (case-insensitive).
        pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(
                if name.eq_ignore_ascii_case(<$game as Game>::NAME) {
                    return Ok(visitor.visit::<$game>());
                }
            )+
            Err(UnknownGame { name: name.to_string(), known: names() })
        }
    };
}

games! {
    valdora::Valdora,
    valley::Valley,
    pandoria::Pandoria,
}

/// The canonical name and seat count of game `name` with `players` (the game's default
/// when `None`): what a client of the server needs to ask for one seat per player.
pub fn seat_count(name: &str, players: Option<u64>) -> Result<(&'static str, usize), CliError> {
    struct SeatCount(Option<u64>);
    impl GameVisitor for SeatCount {
        type Output = Result<(&'static str, usize), CliError>;
        fn visit<G: Game>(self) -> Self::Output {
            let spec = ConfigSpec {
                players: self.0,
                ..ConfigSpec::default()
            };
            let config = build_config::<G>(&spec).map_err(|e| CliError::usage(e.message))?;
            let game = G::new(&config, 0).map_err(|e| CliError::usage(e.to_string()))?;
            Ok((G::NAME, game.seats()))
        }
    }
    with_game(name, SeatCount(players)).map_err(|e| CliError::usage(e.to_string()))?
}

/// Merges `overrides` into `base`: objects merge key by key (recursively), anything else
/// replaces.
pub fn merge_json(base: &mut Value, overrides: &Value) {
    match (base, overrides) {
        (Value::Object(base), Value::Object(over)) => {
            for (k, v) in over {
                match base.get_mut(k) {
                    Some(slot) => merge_json(slot, v),
                    None => {
                        base.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (base, over) => *base = over.clone(),
    }
}

/// What shapes a config besides the game's defaults.
#[derive(Debug, Default, Clone)]
pub struct ConfigSpec<'a> {
    /// A JSON object merged into the default config.
    pub overrides: Option<&'a Value>,
    /// Sets the config's `players` field.
    pub players: Option<u64>,
    /// Sets the config's `turn_cap` field.
    pub turn_cap: Option<u64>,
    /// A component data file given to `Game::load_data`.
    pub data: Option<&'a Path>,
}

/// Builds `G::Config` generically: the default config as JSON, with the overrides, the
/// player count and the turn cap written in, deserialized back, then the data file loaded.
///
/// Errors are `malformed` (the JSON does not fit the config) or `setup` (the data file
/// cannot be read or is invalid).
pub fn build_config<G: Game>(spec: &ConfigSpec<'_>) -> Result<G::Config, GameError> {
    let malformed = |msg: String| GameError::new(GameErrorKind::Malformed, msg);
    let mut json = serde_json::to_value(G::Config::default()).map_err(|e| {
        malformed(format!(
            "{}: the default config does not serialize: {e}",
            G::NAME
        ))
    })?;
    if let Some(over) = spec.overrides {
        if !over.is_object() {
            return Err(malformed(format!(
                "the config must be a JSON object, not {over}"
            )));
        }
        merge_json(&mut json, over);
    }
    let obj: &mut Map<String, Value> = json.as_object_mut().ok_or_else(|| {
        malformed(format!(
            "{}: the config is not a JSON object; --players and --turn-cap cannot be set",
            G::NAME
        ))
    })?;
    for (field, value) in [("players", spec.players), ("turn_cap", spec.turn_cap)] {
        if let Some(v) = value {
            if !obj.contains_key(field) {
                return Err(malformed(format!(
                    "{} has no {field:?} setting in its config",
                    G::NAME
                )));
            }
            obj.insert(field.to_string(), Value::from(v));
        }
    }
    let mut config: G::Config = serde_json::from_value(json)
        .map_err(|e| malformed(format!("bad {} config: {e}", G::NAME)))?;
    if let Some(path) = spec.data {
        let text = std::fs::read_to_string(path).map_err(|e| {
            GameError::new(
                GameErrorKind::Setup,
                format!("cannot read data file {}: {e}", path.display()),
            )
        })?;
        G::load_data(&mut config, &text).map_err(|e| {
            GameError::new(
                GameErrorKind::Setup,
                format!("data file {}: {e}", path.display()),
            )
        })?;
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn dispatch_by_name() {
        assert_eq!(with_game("valdora", Name), Ok("valdora"));
        assert_eq!(with_game("Valdora", Name), Ok("valdora"));
        let err = with_game("chess", Name).unwrap_err();
        assert!(err.to_string().contains("known games: valdora"), "{err}");
    }

    #[test]
    fn merge_is_deep() {
        let mut base = serde_json::json!({"a": 1, "b": {"c": 2, "d": 3}});
        merge_json(&mut base, &serde_json::json!({"b": {"c": 5}, "e": true}));
        assert_eq!(
            base,
            serde_json::json!({"a": 1, "b": {"c": 5, "d": 3}, "e": true})
        );
    }

    #[test]
    fn config_fields() {
        let spec = ConfigSpec {
            players: Some(3),
            turn_cap: Some(40),
            ..Default::default()
        };
        let c = build_config::<valdora::Valdora>(&spec).unwrap();
        assert_eq!((c.players, c.turn_cap), (3, Some(40)));
        let bad = serde_json::json!({"colour": 1});
        let spec = ConfigSpec {
            overrides: Some(&bad),
            ..Default::default()
        };
        let err = build_config::<valdora::Valdora>(&spec).unwrap_err();
        assert_eq!(err.kind, GameErrorKind::Malformed);
    }
}
