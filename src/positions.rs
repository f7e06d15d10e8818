//! `tabletop positions`: the data a fitted evaluation is fitted on. Bots play seeded
//! games (seats rotated, as in the arena); at the start of every turn each seat's
//! evaluation features (`Game::EVALUATION_FEATURES`) are recorded, and once the game is
//! over each row gets that seat's final score. `scripts/fit-evaluation` fits the weights
//! to these rows by least squares.

use std::fmt::Write as _;

use bots::BotSpec;
use clap::Args;
use engine::{Game, Seat, MAX_EVALUATION_FEATURES};
use tabletop::tournament::{play_game_watched, GameEnd, PlayError};

use crate::batch::{self, BatchArgs};
use crate::games::{self, GameVisitor};
use crate::CliError;

#[derive(Debug, Args)]
pub struct PositionsArgs {
    /// The game (one with a fitted evaluation: valley, pandoria).
    #[arg(long)]
    pub game: String,
    /// Number of players.
    #[arg(long, default_value_t = 4)]
    pub players: u64,
    /// The bots that play, one per seat or one for all (default: greedy, the level the
    /// positions should be typical of).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    pub bots: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    #[command(flatten)]
    pub batch: BatchArgs,
}

pub fn run(args: &PositionsArgs) -> Result<String, CliError> {
    games::with_game(&args.game, Positions(args)).map_err(|e| CliError::usage(e.to_string()))?
}

struct Positions<'a>(&'a PositionsArgs);

impl GameVisitor for Positions<'_> {
    type Output = Result<String, CliError>;
    fn visit<G: Game>(self) -> Self::Output {
        positions::<G>(self.0)
    }
}

fn positions<G: Game>(args: &PositionsArgs) -> Result<String, CliError> {
    if G::EVALUATION_FEATURES.is_empty() {
        return Err(CliError::usage(format!(
            "{} has no evaluation features to record",
            G::NAME
        )));
    }
    if args.batch.json {
        return Err(CliError::usage(
            "--json: positions are written as CSV".to_string(),
        ));
    }
    let mut specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| b.parse::<BotSpec>().map_err(|e| CliError::usage(e.0)))
        .collect::<Result<_, _>>()?;
    if specs.len() == 1 {
        specs = vec![specs[0]; args.players as usize];
    } else if specs.len() as u64 != args.players {
        return Err(CliError::usage(format!(
            "--bots lists {} bots for {} players: give one, or one per seat",
            specs.len(),
            args.players
        )));
    }
    args.batch.check_seeds(args.games)?;
    let (config, _) = args.batch.config::<G>(Some(args.players))?;
    let chunks = batch::run(args.games, args.batch.threads, |range, bar| {
        let mut out = String::new();
        for index in range {
            record::<G>(&config, &specs, args.batch.seed, index, &mut out)?;
            bar.inc(1);
        }
        Ok(out)
    })?;
    Ok(format!(
        "seed,turn,seat,{},final_score\n{}",
        G::EVALUATION_FEATURES.join(","),
        chunks.concat()
    ))
}

/// Plays game `index` and appends its rows (none for a game that did not end by the
/// rules: it has no final scores to learn from).
fn record<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    seed: u64,
    index: u64,
    out: &mut String,
) -> Result<(), PlayError> {
    let n = specs.len();
    let width = G::EVALUATION_FEATURES.len();
    // (turn, seat, features) at each turn start; the final scores come last.
    let mut rows: Vec<(u32, Seat, [f64; MAX_EVALUATION_FEATURES])> = Vec::new();
    let mut last_turn = None;
    let mut finals = vec![0i32; n];
    let end = play_game_watched::<G>(config, specs, seed, index, |state| {
        if let Some(outcome) = state.outcome() {
            for r in &outcome.seats {
                finals[usize::from(r.seat)] = r.score;
            }
            return;
        }
        if last_turn == Some(state.turns()) {
            return;
        }
        last_turn = Some(state.turns());
        for seat in 0..n as Seat {
            let mut features = [0.0; MAX_EVALUATION_FEATURES];
            state.evaluation_features(seat, &mut features);
            rows.push((state.turns(), seat, features));
        }
    })?;
    if !matches!(end, GameEnd::Scored(_)) {
        return Ok(());
    }
    let game_seed = seed.wrapping_add(index);
    for (turn, seat, features) in rows {
        let _ = write!(out, "{game_seed},{turn},{seat}");
        for x in &features[..width] {
            let _ = write!(out, ",{x}");
        }
        let _ = writeln!(out, ",{}", finals[usize::from(seat)]);
    }
    Ok(())
}
