//! The games the server offers, known only through the Game contract: the binary hands
//! the server one [`GameKind`] per game of its registry (`src/games.rs`), and everything
//! else is JSON through [`DynGame`].

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

use bots::{BotSpec, Hint, HintError, Stop};
use engine::{
    has_config_field, DynGame, ErasedGame, Game, GameError, GameErrorKind, LoggedEvent, Seat,
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::protocol::HintedAction;

/// A game rebuilt by replay, with the events of each of its actions.
pub type Replayed = (Box<dyn DynGame>, Vec<Vec<LoggedEvent>>);

/// What a game is set up from.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    pub config: &'a Value,
    pub seed: u64,
    /// The corrected component data it plays on (the TOML text of a data file,
    /// `tabletop serve --data`); `None`: the shipped data.
    pub data: Option<&'a str>,
}

/// One game the server can host, erased. `data` is the corrected component data a game
/// plays on, as in [`Setup`].
pub trait GameKind: Send + Sync + 'static {
    fn name(&self) -> &'static str;
    /// What a "new game" form offers, for games on `data`.
    fn info(&self, data: Option<&str>) -> KindInfo;
    /// Checks a corrected component data file of this game, and parses it for good.
    fn load_data(&self, data: &str) -> Result<ParsedData, GameError>;
    /// The component tables a client draws from ([`Game::components`]), on `data`;
    /// `Ok(None)` for a game whose views carry everything its board draws.
    fn components(&self, data: Option<&str>) -> Result<Option<Value>, GameError>;
    /// Whether a client's config object sets only offered options to offered values.
    fn check_config(&self, config: &Value) -> Result<(), GameError>;
    /// The game after `actions`, with each action's events.
    fn replay(&self, setup: Setup<'_>, actions: &[Value]) -> Result<Replayed, GameError>;
    /// A new game, or the one a record starts from: any config the game accepts (a
    /// record's config has every field, turn caps included), never a data file's path
    /// (configs name none).
    fn begin(&self, setup: Setup<'_>) -> Result<Box<dyn DynGame>, GameError>;
    /// `config` with a cap of `turns` turns in all, when the game's config has one
    /// (`turn_cap`: a game that reaches it ends, its outcome marked truncated); `None` for a
    /// game that has no turn cap.
    fn with_turn_cap(&self, config: &Value, turns: u32) -> Option<Value>;
    /// The bot's action for the seat to move of `game` (a game this kind started), decided
    /// from that seat's view only (the bots determinize first) and by `stop` at the latest
    /// (its best so far then); `None` once it is over.
    fn bot_action(
        &self,
        game: &dyn DynGame,
        bot: &BotSpec,
        seed: u64,
        stop: &Stop,
    ) -> Option<Value>;
    /// What the hard bot would do for `seat` of `game` (a game this kind started): the
    /// top [`bots::DEFAULT_TOP`] actions of its search from that seat's view only, best
    /// first, within `stop`. `None` for a game of another kind.
    fn hint(
        &self,
        game: &dyn DynGame,
        seat: Seat,
        seed: u64,
        stop: &Stop,
    ) -> Option<Result<Vec<HintedAction>, HintError>>;
    /// The bot levels' fixed ratings ([`Game::LEVEL_RATINGS`]).
    fn level_ratings(&self) -> &'static [(&'static str, f64)];
}

/// The component tables of `kind` on `data` (`None`: the shipped data), or `not_found` for
/// a game whose views carry everything its board draws.
pub(crate) fn components_of(kind: &dyn GameKind, data: Option<&str>) -> Result<Value, ApiError> {
    kind.components(data)?.ok_or_else(|| {
        ApiError::not_found(format!(
            "{} has no component tables: its views carry everything",
            kind.name()
        ))
    })
}

/// A hint's actions as the API shows them: each action's JSON and description.
pub fn hinted_actions<G: Game>(state: &G, hint: &Hint<G::Action>) -> Vec<HintedAction> {
    hint.actions
        .iter()
        .map(|a| HintedAction {
            // Actions serialize infallibly (they are plain data).
            action: serde_json::to_value(a.action).unwrap_or(Value::Null),
            description: state.describe_action(&a.action),
            value: a.value,
            visits: a.visits,
        })
        .collect()
}

/// A config option as the API lists it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct OptionInfo {
    /// The config field ("players", "mode").
    pub key: String,
    /// What it changes (English; clients translate by key).
    pub description: String,
    /// Every accepted value; `null` is the game's own choice.
    #[schema(value_type = Vec<Object>)]
    pub choices: Vec<Value>,
    #[schema(value_type = Object)]
    pub default: Value,
    /// The player counts it applies to; empty for all.
    pub players: Vec<u8>,
}

/// A game the server offers.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct KindInfo {
    /// The name used in the API ("valdora").
    pub game: String,
    /// The config options; the first is `players`.
    pub options: Vec<OptionInfo>,
    /// True when the game's component data is not all verified against the printed game.
    pub provisional_data: bool,
    /// The ids of the game's numbered rules, in its spec's order (`Game::RULES`): what each
    /// legal action's `rule` and each "why" answer cite.
    pub rules: Vec<String>,
}

/// The [`GameKind`] of a concrete game.
pub struct Kind<G>(PhantomData<fn() -> G>);

/// The kind of game `G`, for the server's catalog.
pub fn kind<G: Game>() -> Arc<dyn GameKind> {
    Arc::new(Kind::<G>(PhantomData))
}

fn malformed(message: String) -> GameError {
    GameError::new(GameErrorKind::Malformed, message)
}

impl<G: Game> Kind<G> {
    /// Refuses any config field that is not an offered option, or a value not offered:
    /// people choose among the options; other fields (turn caps, data) are for tools.
    fn offered_only(config: &Value) -> Result<(), GameError> {
        let Value::Object(fields) = config else {
            return Err(malformed(format!(
                "the config must be a JSON object, not {config}"
            )));
        };
        let options = G::config_options();
        let players = fields
            .get("players")
            .and_then(Value::as_u64)
            .or_else(|| options.first().and_then(|o| o.default.as_u64()));
        for (key, value) in fields {
            let Some(option) = options.iter().find(|o| o.key == key) else {
                let keys: Vec<&str> = options.iter().map(|o| o.key).collect();
                return Err(malformed(format!(
                    "{}: {:?} is not a config option; options: {}",
                    G::NAME,
                    truncate(key, 40),
                    keys.join(", ")
                )));
            };
            if !option.accepts(value) {
                return Err(malformed(format!(
                    "{}: {key} = {} is not offered; choices: {}",
                    G::NAME,
                    truncate(&value.to_string(), 40),
                    Value::Array(option.choices.clone())
                )));
            }
            let applies = option.players.is_empty()
                || players.is_some_and(|n| option.players.iter().any(|&p| u64::from(p) == n));
            if !applies {
                return Err(malformed(format!(
                    "{}: {key} is offered only with {:?} players",
                    G::NAME,
                    option.players
                )));
            }
        }
        Ok(())
    }

    /// The default config on `data` (`None`: the shipped data).
    fn default_config(data: Option<&str>) -> Result<G::Config, GameError> {
        ErasedGame::<G>::config_from_json(&Value::Object(Default::default()), data)
    }
}

/// At most `max` characters of client text echoed in a message.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

impl<G: Game> GameKind for Kind<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn info(&self, data: Option<&str>) -> KindInfo {
        let provisional = Self::default_config(data)
            .map_or(true, |config| !G::provisional_data(&config).is_empty());
        KindInfo {
            game: G::NAME.to_string(),
            options: G::config_options()
                .into_iter()
                .map(|o| OptionInfo {
                    key: o.key.to_string(),
                    description: o.description.to_string(),
                    choices: o.choices,
                    default: o.default,
                    players: o.players,
                })
                .collect(),
            provisional_data: provisional,
            rules: G::RULES.iter().map(|&rule| rule.to_owned()).collect(),
        }
    }

    fn load_data(&self, data: &str) -> Result<ParsedData, GameError> {
        let config = Self::default_config(Some(data))?;
        Ok(ParsedData {
            _held: Arc::new(config),
        })
    }

    fn components(&self, data: Option<&str>) -> Result<Option<Value>, GameError> {
        Self::default_config(data).map(|config| G::components(&config))
    }

    fn check_config(&self, config: &Value) -> Result<(), GameError> {
        Self::offered_only(config)
    }

    fn replay(&self, setup: Setup<'_>, actions: &[Value]) -> Result<Replayed, GameError> {
        let config = ErasedGame::<G>::config_from_json(setup.config, setup.data)?;
        let (game, log) = ErasedGame::<G>::replay_json(&config, setup.seed, actions)?;
        Ok((Box::new(game), log))
    }

    fn begin(&self, setup: Setup<'_>) -> Result<Box<dyn DynGame>, GameError> {
        let config = ErasedGame::<G>::config_from_json(setup.config, setup.data)?;
        Ok(Box::new(ErasedGame::<G>::new(&config, setup.seed)?))
    }

    fn with_turn_cap(&self, config: &Value, turns: u32) -> Option<Value> {
        if !has_config_field::<G>(TURN_CAP) {
            return None;
        }
        let mut capped = config.clone();
        capped
            .as_object_mut()?
            .insert(TURN_CAP.into(), Value::from(turns));
        Some(capped)
    }

    fn bot_action(
        &self,
        game: &dyn DynGame,
        bot: &BotSpec,
        seed: u64,
        stop: &Stop,
    ) -> Option<Value> {
        let game = game.as_any().downcast_ref::<ErasedGame<G>>()?;
        let action = bot.build::<G>(seed).decide(game.state(), stop)?;
        serde_json::to_value(action).ok()
    }

    fn hint(
        &self,
        game: &dyn DynGame,
        seat: Seat,
        seed: u64,
        stop: &Stop,
    ) -> Option<Result<Vec<HintedAction>, HintError>> {
        let state = game.as_any().downcast_ref::<ErasedGame<G>>()?.state();
        let hint = bots::hard_hint(state, usize::from(seat), seed, stop, bots::DEFAULT_TOP);
        Some(hint.map(|h| hinted_actions(state, &h)))
    }

    fn level_ratings(&self) -> &'static [(&'static str, f64)] {
        G::LEVEL_RATINGS
    }
}

/// The config field of a game's turn cap (simulation configs have it; no option offers it).
const TURN_CAP: &str = "turn_cap";

/// A corrected component data file a server plays a game on, named by its content: a game
/// stored with it replays on it whatever data the server is started with later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    /// SHA-256 of `text`, hex.
    pub digest: String,
    /// The file's TOML.
    pub text: Arc<str>,
}

impl DataFile {
    pub fn new(text: &str) -> Self {
        DataFile {
            digest: crate::tokens::hash(text),
            text: text.into(),
        }
    }
}

/// A corrected data file parsed for a game (its default config on it, type-erased). While
/// it is held, the engine's data cache keeps the parse: every game and replay on the same
/// text shares it instead of parsing the file again.
#[derive(Clone)]
pub struct ParsedData {
    _held: Arc<dyn Any + Send + Sync>,
}

/// The games of the server, by name, and the corrected data new games of each play on.
#[derive(Clone, Default)]
pub struct Catalog {
    kinds: Vec<Arc<dyn GameKind>>,
    /// Each game's corrected data, held parsed for as long as the server runs.
    data: Vec<(&'static str, DataFile, ParsedData)>,
    /// What `GET /api/games/kinds` lists, built with the catalog: a request parses nothing.
    infos: Vec<KindInfo>,
}

impl Catalog {
    pub fn new(kinds: Vec<Arc<dyn GameKind>>) -> Self {
        let mut catalog = Catalog {
            kinds,
            data: Vec::new(),
            infos: Vec::new(),
        };
        catalog.infos = catalog.build_infos();
        catalog
    }

    /// New games of `game` play on the corrected data `text` (checked here: the error
    /// says what is wrong with it).
    pub fn with_data(mut self, game: &str, text: &str) -> Result<Self, String> {
        let kind = self
            .get(game)
            .ok_or_else(|| format!("unknown game {game:?}; games: {}", self.names().join(", ")))?;
        let parsed = kind.load_data(text).map_err(|e| e.message)?;
        let name = kind.name();
        self.data.retain(|(g, _, _)| *g != name);
        self.data.push((name, DataFile::new(text), parsed));
        self.infos = self.build_infos();
        Ok(self)
    }

    /// The corrected data new games of `game` play on; `None`: the shipped data.
    pub fn data(&self, game: &str) -> Option<&DataFile> {
        self.data
            .iter()
            .find(|(g, _, _)| *g == game)
            .map(|(_, d, _)| d)
    }

    /// Every corrected data file, with its game.
    pub fn data_files(&self) -> impl Iterator<Item = (&'static str, &DataFile)> {
        self.data.iter().map(|(g, d, _)| (*g, d))
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn GameKind>> {
        self.kinds.iter().find(|k| k.name() == name)
    }

    /// The game a client named, or `malformed` listing the games.
    pub(crate) fn named(&self, name: &str) -> Result<&Arc<dyn GameKind>, ApiError> {
        self.get(name).ok_or_else(|| {
            ApiError::malformed(format!(
                "unknown game {:?}; games: {}",
                truncate(name, 24),
                self.names().join(", ")
            ))
        })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name()).collect()
    }

    /// What each game offers, on the data its new games play on.
    pub fn infos(&self) -> &[KindInfo] {
        &self.infos
    }

    fn build_infos(&self) -> Vec<KindInfo> {
        self.kinds
            .iter()
            .map(|k| k.info(self.data(k.name()).map(|d| &*d.text)))
            .collect()
    }
}
