//! Many games split over threads, with a progress bar on stderr (simulate, arena).

use std::ops::Range;
use std::path::PathBuf;

use clap::Args;
use engine::Game;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::games::{self, ConfigSpec};
use crate::CliError;

/// The options every batch of seeded games takes (simulate, arena).
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (games are split into contiguous ranges; results do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// A corrected component data file for the game.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// End every game after this many turns (simulations only: such games are marked
    /// truncated and left out of scores and wins).
    #[arg(long, value_name = "N")]
    pub turn_cap: Option<u64>,
}

impl BatchArgs {
    /// The config of this batch's games and their number of seats. One game is set up
    /// here, so that a bad config is reported once, before any thread starts.
    pub fn config<G: Game>(&self, players: Option<u64>) -> Result<(G::Config, usize), CliError> {
        if self.turn_cap.is_some() && !engine::has_config_field::<G>("turn_cap") {
            // Refused up front: a cap that silently did nothing would leave runs that
            // never end by the rules looking like real results.
            return Err(CliError::usage(format!(
                "--turn-cap: {} has no turn cap (games with one: {}); leave the option out",
                G::NAME,
                games::with_turn_cap().join(", ")
            )));
        }
        let spec = ConfigSpec {
            overrides: None,
            players,
            turn_cap: self.turn_cap,
            data: self.data.as_deref(),
            data_toml: None,
        };
        let config = games::build_config::<G>(&spec).map_err(|e| CliError::usage(e.message))?;
        let first = G::new(&config, self.seed).map_err(|e| CliError::usage(e.to_string()))?;
        Ok((config, first.seats()))
    }
}

impl BatchArgs {
    /// Checks the seed range `seed ..= seed + games - 1` before any game is played: seeds
    /// must not wrap past the largest seed, or the report's range would make no sense
    /// and a game could repeat another run's.
    pub fn check_seeds(&self, games: u64) -> Result<(), CliError> {
        match self.seed.checked_add(games.saturating_sub(1)) {
            Some(_) => Ok(()),
            None => Err(CliError::usage(format!(
                "--seed {} with --games {games} would run past the largest seed {}: use a \
                 seed of at most {}",
                self.seed,
                u64::MAX,
                u64::MAX - games.saturating_sub(1)
            ))),
        }
    }

    /// The threads used for `games` games: `--threads`, but at most one per game (each
    /// thread plays a contiguous range of at least one game). Reports say when fewer than
    /// asked were used.
    pub fn threads_used(&self, games: u64) -> u64 {
        self.threads.min(games).max(1)
    }
}

/// Runs `work` on `games` split into contiguous ranges, one per thread (at most one
/// thread per game), and returns the parts in range order so that merging them gives
/// the same result for any thread count. `work` ticks the bar as games finish.
pub fn run<T: Send>(
    games: u64,
    threads: u64,
    work: impl Fn(Range<u64>, &ProgressBar) -> Result<T, CliError> + Sync,
) -> Result<Vec<T>, CliError> {
    let threads = threads.min(games).max(1);
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {pos}/{len} games [{elapsed_precise}] {wide_bar} {eta}",
    ) {
        bar.set_style(style);
    }
    let parts: Vec<Result<T, CliError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| games * t / threads..games * (t + 1) / threads)
            .map(|range| {
                let (work, bar) = (&work, &bar);
                scope.spawn(move || work(range, bar))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(CliError::failure("a worker thread panicked")))
            })
            .collect()
    });
    bar.finish_and_clear();
    parts.into_iter().collect()
}
