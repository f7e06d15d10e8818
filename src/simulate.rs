//! `tabletop simulate`: many uniformly random games, summarized.
//!
//! Games are split into contiguous ranges, one per thread, played and counted by
//! [`tabletop::simulation`] and merged in range order: the summary is identical for any
//! thread count (and to the Python package's Ray run of the same games).

use clap::Args;
use engine::Game;
use tabletop::simulation::{self, RunShape, Stats};

use crate::batch;
use crate::batch::BatchArgs;
use crate::games::{self, GameVisitor};
use crate::CliError;

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The game to play (e.g. valdora).
    pub game: String,
    /// Number of players (default: the game's default).
    #[arg(long)]
    pub players: Option<u64>,
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    #[command(flatten)]
    pub batch: BatchArgs,
}

pub fn run(args: &SimulateArgs) -> Result<String, CliError> {
    games::with_game(&args.game, Simulate(args)).map_err(|e| CliError::usage(e.to_string()))?
}

struct Simulate<'a>(&'a SimulateArgs);

impl GameVisitor for Simulate<'_> {
    type Output = Result<String, CliError>;
    fn visit<G: Game>(self) -> Self::Output {
        simulate::<G>(self.0)
    }
}

fn simulate<G: Game>(args: &SimulateArgs) -> Result<String, CliError> {
    args.batch.check_seeds(args.games)?;
    let (config, seats) = args.batch.config::<G>(args.players)?;

    let start = std::time::Instant::now();
    let parts = batch::run(args.games, args.batch.threads, |range, bar| {
        simulation::play_range::<G>(&config, args.batch.seed, range, seats, |n| bar.inc(n))
            .map_err(CliError::usage)
    })?;
    let seconds = start.elapsed().as_secs_f64();

    let mut stats = Stats::new(seats);
    for part in parts {
        stats.merge(part);
    }
    let run = RunShape {
        seed: args.batch.seed,
        threads: args.batch.threads_used(args.games),
        threads_requested: args.batch.threads,
        seconds,
    };
    let summary = stats.summary(G::NAME, run, G::provisional_data(&config).len());
    if args.batch.json {
        serde_json::to_string(&summary)
            .map(|s| s + "\n")
            .map_err(|e| CliError::failure(format!("cannot write the summary as JSON: {e}")))
    } else {
        Ok(summary.table())
    }
}
