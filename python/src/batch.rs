//! The pieces of `tabletop.ray`: a seed range of a simulation or an arena played here
//! (one Ray task), and the parts merged into the very report `tabletop simulate --json`
//! and `tabletop arena --json` print. The parts cross between processes as JSON text.

use std::path::PathBuf;

use bots::BotSpec;
use engine::{Game, GameError, GameErrorKind};
use pyo3::prelude::*;
use tabletop::games::{self, ConfigSpec, GameVisitor};
use tabletop::simulation::{self, RunShape, Stats};
use tabletop::tournament::{self, GameEnd, PlayError, Report};

use crate::errors::{self, Context};

/// What the games of a batch are set up from, as the command line takes it.
#[derive(Clone)]
struct Setup {
    players: Option<u64>,
    turn_cap: Option<u64>,
    data: Option<PathBuf>,
}

impl Setup {
    /// The config and the number of seats (one game is set up to count them).
    fn config<G: Game>(&self, seed: u64) -> Result<(G::Config, usize), GameError> {
        let spec = ConfigSpec {
            players: self.players,
            turn_cap: self.turn_cap,
            data: self.data.as_deref(),
            ..ConfigSpec::default()
        };
        let config = games::build_config::<G>(&spec)?;
        let seats = G::new(&config, seed)?.seats();
        Ok((config, seats))
    }
}

/// How a merged report was run: seed, workers and wall time.
fn run_shape(seed: u64, workers: u64, workers_requested: u64, seconds: f64) -> RunShape {
    RunShape {
        seed,
        threads: workers,
        threads_requested: workers_requested,
        seconds,
    }
}

/// Runs `visitor` for the game called `name`, with the errors as Python exceptions.
fn dispatch<V: GameVisitor<Output = Result<String, GameError>>>(
    name: &str,
    visitor: V,
) -> PyResult<String> {
    games::with_game(name, visitor)
        .map_err(|e| errors::raise("unknown_game", e.to_string(), Context::Setup))?
        .map_err(|e| errors::from_engine(e, Context::Setup))
}

fn bad_json(what: &str, e: serde_json::Error) -> GameError {
    GameError::new(GameErrorKind::Malformed, format!("{what}: {e}"))
}

/// Games `start..end` of `tabletop simulate` (game `i` with seed `seed + i`), counted:
/// the JSON of the part, to be merged by [`simulate_summary`].
#[pyfunction]
#[pyo3(signature = (game, start, end, *, seed=0, players=None, turn_cap=None, data=None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate_part(
    py: Python<'_>,
    game: &str,
    start: u64,
    end: u64,
    seed: u64,
    players: Option<u64>,
    turn_cap: Option<u64>,
    data: Option<PathBuf>,
) -> PyResult<String> {
    struct Part(Setup, u64, std::ops::Range<u64>);
    impl GameVisitor for Part {
        type Output = Result<String, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let Part(setup, seed, range) = self;
            let (config, seats) = setup.config::<G>(seed)?;
            let stats = simulation::play_range::<G>(&config, seed, range, seats, |_| {})
                .map_err(|e| GameError::new(GameErrorKind::Setup, e))?;
            serde_json::to_string(&stats).map_err(|e| bad_json("the part", e))
        }
    }
    let setup = Setup {
        players,
        turn_cap,
        data,
    };
    py.detach(|| dispatch(game, Part(setup, seed, start..end)))
}

/// The parts of a simulation (in range order) merged: the JSON `tabletop simulate
/// --json` prints for the same games.
#[pyfunction]
#[pyo3(signature = (game, parts, *, seed, workers, workers_requested, seconds, players=None, turn_cap=None, data=None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate_summary(
    game: &str,
    parts: Vec<String>,
    seed: u64,
    workers: u64,
    workers_requested: u64,
    seconds: f64,
    players: Option<u64>,
    turn_cap: Option<u64>,
    data: Option<PathBuf>,
) -> PyResult<String> {
    struct Merge(Setup, Vec<String>, RunShape);
    impl GameVisitor for Merge {
        type Output = Result<String, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let Merge(setup, parts, run) = self;
            let (config, seats) = setup.config::<G>(run.seed)?;
            let mut stats = Stats::new(seats);
            for part in parts {
                stats.merge(serde_json::from_str(&part).map_err(|e| bad_json("a part", e))?);
            }
            let summary = stats.summary(G::NAME, run, G::provisional_data(&config).len());
            serde_json::to_string(&summary).map_err(|e| bad_json("the summary", e))
        }
    }
    let setup = Setup {
        players,
        turn_cap,
        data,
    };
    let run = run_shape(seed, workers, workers_requested, seconds);
    dispatch(game, Merge(setup, parts, run))
}

fn bot_specs(bots: &[String]) -> Result<Vec<BotSpec>, GameError> {
    bots.iter()
        .map(|b| {
            b.parse::<BotSpec>()
                .map_err(|e| GameError::new(GameErrorKind::Setup, e.0))
        })
        .collect()
}

/// Games `start..end` of `tabletop arena` (seats rotated, bots seeded per game): the JSON
/// list of how each ended, to be merged by [`arena_report`].
#[pyfunction]
#[pyo3(signature = (game, bots, start, end, *, seed=0, data=None))]
pub fn arena_part(
    py: Python<'_>,
    game: &str,
    bots: Vec<String>,
    start: u64,
    end: u64,
    seed: u64,
    data: Option<PathBuf>,
) -> PyResult<String> {
    struct Part(Vec<String>, Option<PathBuf>, u64, std::ops::Range<u64>);
    impl GameVisitor for Part {
        type Output = Result<String, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let Part(bots, data, seed, range) = self;
            let specs = bot_specs(&bots)?;
            let setup = Setup {
                players: Some(specs.len() as u64),
                turn_cap: None,
                data,
            };
            let (config, _) = setup.config::<G>(seed)?;
            let ends = range
                .map(|i| {
                    tournament::play_game::<G>(&config, &specs, seed, i).map_err(|e| match e {
                        PlayError::Setup(m) => GameError::new(GameErrorKind::Setup, m),
                        PlayError::Bot(m) => GameError::new(GameErrorKind::Illegal, m),
                    })
                })
                .collect::<Result<Vec<GameEnd>, GameError>>()?;
            serde_json::to_string(&ends).map_err(|e| bad_json("the part", e))
        }
    }
    py.detach(|| dispatch(game, Part(bots, data, seed, start..end)))
}

/// The parts of an arena (in game order) merged: the JSON `tabletop arena --json` prints.
#[pyfunction]
#[pyo3(signature = (game, bots, parts, *, seed, workers, workers_requested, seconds))]
#[allow(clippy::too_many_arguments)]
pub fn arena_report(
    game: &str,
    bots: Vec<String>,
    parts: Vec<String>,
    seed: u64,
    workers: u64,
    workers_requested: u64,
    seconds: f64,
) -> PyResult<String> {
    struct Merge(Vec<String>, Vec<String>, RunShape);
    impl GameVisitor for Merge {
        type Output = Result<String, GameError>;
        fn visit<G: Game>(self) -> Self::Output {
            let Merge(bots, parts, run) = self;
            let specs = bot_specs(&bots)?;
            let mut ends: Vec<GameEnd> = Vec::new();
            for part in parts {
                let part: Vec<GameEnd> =
                    serde_json::from_str(&part).map_err(|e| bad_json("a part", e))?;
                ends.extend(part);
            }
            let report = Report::new(G::NAME, &bots, &specs, &ends, run);
            serde_json::to_string(&report).map_err(|e| bad_json("the report", e))
        }
    }
    let run = run_shape(seed, workers, workers_requested, seconds);
    dispatch(game, Merge(bots, parts, run))
}
