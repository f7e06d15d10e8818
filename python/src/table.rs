//! A game of any kind behind one object-safe trait: the engine's [`DynGame`] for
//! everything JSON, plus what needs the concrete game type (a determinized sample, a bot
//! playing a seat). Games are opened by name through the one list, `tabletop::games`.

use std::any::Any;
use std::path::Path;

use bots::{Bot, BotSpec};
use engine::{DynGame, ErasedGame, Game, GameError, GameErrorKind, Seat};
use serde_json::Value;
use tabletop::games::{self, ConfigSpec, GameVisitor};

/// One game of whichever kind.
pub trait Table: Send + Sync {
    fn game(&self) -> &dyn DynGame;
    fn game_mut(&mut self) -> &mut dyn DynGame;
    fn box_clone(&self) -> Box<dyn Table>;
    /// A sample of the positions `seat` cannot tell from this one.
    fn determinize(&self, seat: Option<Seat>, seed: u64) -> Box<dyn Table>;
    /// A bot of this game, built from `spec` and seeded with `seed`.
    fn bot(&self, spec: &BotSpec, seed: u64) -> Box<dyn SeatBot>;
    /// For a bot, which knows the concrete game: downcast to `Native<G>`.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A bot of some game, driven through a [`Table`] of that game.
pub trait SeatBot: Send {
    /// The bot's action for the seat to move, applied; its JSON.
    fn play(&mut self, table: &mut dyn Table) -> Result<Value, GameError>;
    /// The bot's action for the seat to move, as JSON, without applying it.
    fn choose(&mut self, table: &dyn Table) -> Result<Value, GameError>;
}

struct Native<G: Game>(ErasedGame<G>);

impl<G: Game> Table for Native<G> {
    fn game(&self) -> &dyn DynGame {
        &self.0
    }

    fn game_mut(&mut self) -> &mut dyn DynGame {
        &mut self.0
    }

    fn box_clone(&self) -> Box<dyn Table> {
        Box::new(Native(self.0.clone()))
    }

    fn determinize(&self, seat: Option<Seat>, seed: u64) -> Box<dyn Table> {
        Box::new(Native(self.0.determinized(seat, seed)))
    }

    fn bot(&self, spec: &BotSpec, seed: u64) -> Box<dyn SeatBot> {
        Box::new(TypedBot::<G> {
            bot: spec.build::<G>(seed),
            spec: spec.to_string(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

struct TypedBot<G: Game> {
    bot: Box<dyn Bot<G>>,
    spec: String,
}

impl<G: Game> TypedBot<G> {
    fn decide(&mut self, table: &dyn Table) -> Result<G::Action, GameError> {
        let Native(game) = table
            .as_any()
            .downcast_ref::<Native<G>>()
            .ok_or_else(|| wrong_game::<G>(table.game().name()))?;
        if game.state().to_move().is_none() {
            return Err(GameError::new(
                GameErrorKind::GameOver,
                "the game is over: no seat is to move",
            ));
        }
        self.bot.choose(game.state()).ok_or_else(|| {
            GameError::new(
                GameErrorKind::Illegal,
                format!("{} found no action in a running game", self.spec),
            )
        })
    }
}

impl<G: Game> SeatBot for TypedBot<G> {
    fn play(&mut self, table: &mut dyn Table) -> Result<Value, GameError> {
        let action = self.decide(&*table)?;
        let json = serde_json::to_value(action).unwrap_or(Value::Null);
        let name = table.game().name();
        let Native(game) = table
            .as_any_mut()
            .downcast_mut::<Native<G>>()
            .ok_or_else(|| wrong_game::<G>(name))?;
        game.apply(action)?;
        Ok(json)
    }

    fn choose(&mut self, table: &dyn Table) -> Result<Value, GameError> {
        let action = self.decide(table)?;
        Ok(serde_json::to_value(action).unwrap_or(Value::Null))
    }
}

fn wrong_game<G: Game>(name: &str) -> GameError {
    GameError::new(
        GameErrorKind::Malformed,
        format!("this bot plays {}, not {name}", G::NAME),
    )
}

/// The settings of a new game, as `tabletop.new_game` takes them.
pub struct NewGame<'a> {
    pub players: Option<u64>,
    pub seed: u64,
    pub config: Option<&'a Value>,
    pub data: Option<&'a Path>,
}

/// Opens the game called `name`; the outer error is an unknown name.
pub fn open(
    name: &str,
    settings: &NewGame<'_>,
) -> Result<Result<Box<dyn Table>, GameError>, games::UnknownGame> {
    struct Open<'a, 'b>(&'a NewGame<'b>);
    impl GameVisitor for Open<'_, '_> {
        type Output = Result<Box<dyn Table>, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let spec = ConfigSpec {
                overrides: self.0.config,
                players: self.0.players,
                turn_cap: None,
                data: self.0.data,
                data_toml: None,
            };
            let config = games::build_config::<G>(&spec)?;
            Ok(Box::new(Native(ErasedGame::<G>::new(
                &config,
                self.0.seed,
            )?)))
        }
    }
    games::with_game(name, Open(settings))
}

/// A record's game replayed: `(config, seed, actions)` as `record()` writes them, with
/// the record's `data_toml` (a record of the server's) when it has one.
pub fn replay(record: &Value) -> Result<Result<Box<dyn Table>, GameError>, games::UnknownGame> {
    struct Replay<'a>(&'a Value);
    impl GameVisitor for Replay<'_> {
        type Output = Result<Box<dyn Table>, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let malformed =
                |what: &str| GameError::new(GameErrorKind::Malformed, format!("record: {what}"));
            let seed =
                self.0.get("seed").and_then(Value::as_u64).ok_or_else(|| {
                    malformed("\"seed\" is missing or not a non-negative integer")
                })?;
            let actions = self
                .0
                .get("actions")
                .and_then(Value::as_array)
                .ok_or_else(|| malformed("\"actions\" is missing or not a list"))?;
            let data_toml = match self.0.get("data_toml") {
                None | Some(Value::Null) => None,
                Some(Value::String(text)) => Some(text.as_str()),
                Some(_) => return Err(malformed("\"data_toml\" is not a string")),
            };
            let spec = ConfigSpec {
                overrides: self.0.get("config").filter(|c| !c.is_null()),
                data_toml,
                ..ConfigSpec::default()
            };
            let config = games::build_config::<G>(&spec)?;
            let (game, _) = ErasedGame::<G>::replay_json(&config, seed, actions)?;
            Ok(Box::new(Native(game)))
        }
    }
    let name = record.get("game").and_then(Value::as_str).unwrap_or("");
    games::with_game(name, Replay(record))
}
