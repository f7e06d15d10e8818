//! Bots against each other over many seeded games, shared by `tabletop arena` and the
//! Python package's `tabletop.ray.arena`.
//!
//! Game `i` is set up with seed `S + i`, and its seats are rotated: entry `j` of the bots
//! sits at seat `(j + i) mod n`, so over a multiple of `n` games every entry plays every
//! seat equally often. Each bot of game `i` is seeded from `(S + i, j)`. Games may be
//! played anywhere (threads, Ray tasks); their [`GameEnd`]s put back in game order give
//! the same [`Report`] (but for the timings) whichever way they were split.

use std::fmt::Write as _;
use std::time::Instant;

use bots::{Bot, BotSpec};
use engine::{Game, NoEvents, Seat};
use serde::{Deserialize, Serialize};

use crate::simulation::{threads_note, RunShape};

/// A game still running after this many actions is abandoned and counted as unfinished.
pub const MAX_ACTIONS_PER_GAME: u64 = 1_000_000;

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_964;

/// The seed of entry `entry`'s bot in the game with seed `game_seed`.
fn bot_seed(game_seed: u64, entry: usize) -> u64 {
    game_seed
        .wrapping_mul(0xD1B5_4A32_D192_ED03)
        .wrapping_add(entry as u64 + 1)
}

/// What one entry got in one game.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct EntryResult {
    pub(crate) win_share: f64,
    pub(crate) score: i32,
    pub(crate) rank: u8,
    pub(crate) decisions: u64,
    pub(crate) seconds: f64,
}

/// How one game ended, with what each entry of the bots got (in entry order). It
/// serializes (JSON) so that a game played elsewhere (a Ray task) can be sent back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum GameEnd {
    Scored(Vec<EntryResult>),
    Truncated(Vec<EntryResult>),
    Unfinished(Vec<EntryResult>),
}

impl GameEnd {
    /// What each entry got, however the game ended.
    pub(crate) fn results(&self) -> &[EntryResult] {
        let (GameEnd::Scored(r) | GameEnd::Truncated(r) | GameEnd::Unfinished(r)) = self;
        r
    }
}

/// Milliseconds a decision over `decisions` that took `seconds` in all; 0 without any.
pub(crate) fn ms_per_decision(decisions: u64, seconds: f64) -> f64 {
    if decisions == 0 {
        0.0
    } else {
        seconds * 1000.0 / decisions as f64
    }
}

/// Why a game of the arena could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The game cannot be set up (the config or the data): the caller's input.
    Setup(String),
    /// A bot found no action or chose an illegal one: a bug.
    Bot(String),
}

/// Plays game `index` of an arena (seed `seed + index`, seats rotated by `index`).
pub fn play_game<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    seed: u64,
    index: u64,
) -> Result<GameEnd, PlayError> {
    play_game_watched(config, specs, seed, index, |_: &G| ())
}

/// [`play_game`], showing `watch` the position before every action and the last one.
pub fn play_game_watched<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    seed: u64,
    index: u64,
    watch: impl FnMut(&G),
) -> Result<GameEnd, PlayError> {
    play(config, specs, (seed, index), watch, None)
}

/// [`play_game`], appending every action played to `actions`: with the game's seed
/// (`seed + index`) they make a record `tabletop replay` reads, so that a game a bot
/// with a time budget played (which no seed reproduces) can still be studied.
pub fn play_game_recorded<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    seed: u64,
    index: u64,
    actions: &mut Vec<G::Action>,
) -> Result<GameEnd, PlayError> {
    play(config, specs, (seed, index), |_: &G| (), Some(actions))
}

fn play<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    (seed, index): (u64, u64),
    mut watch: impl FnMut(&G),
    mut record: Option<&mut Vec<G::Action>>,
) -> Result<GameEnd, PlayError> {
    let n = specs.len();
    let game_seed = seed.wrapping_add(index);
    let mut state = G::new(config, game_seed)
        .map_err(|e| PlayError::Setup(format!("game {index} (seed {game_seed}): {e}")))?;
    let mut bots: Vec<Box<dyn Bot<G>>> = specs
        .iter()
        .enumerate()
        .map(|(j, s)| s.build::<G>(bot_seed(game_seed, j)))
        .collect();
    let mut entry_at = vec![0; n];
    for entry in 0..n {
        entry_at[usize::from(seat_of_entry(entry, index, n))] = entry;
    }
    let mut results = vec![EntryResult::default(); n];
    let mut actions = 0u64;
    while let Some(seat) = state.to_move() {
        watch(&state);
        if actions >= MAX_ACTIONS_PER_GAME {
            return Ok(GameEnd::Unfinished(results));
        }
        let entry = entry_at[usize::from(seat)];
        let clock = Instant::now();
        let action = bots[entry].choose(&state).ok_or_else(|| {
            PlayError::Bot(format!(
                "{} found no action in a running game",
                specs[entry]
            ))
        })?;
        results[entry].seconds += clock.elapsed().as_secs_f64();
        results[entry].decisions += 1;
        state.apply(action, &mut NoEvents).map_err(|e| {
            PlayError::Bot(format!(
                "{} chose an illegal action in game {index}: {e}",
                specs[entry]
            ))
        })?;
        if let Some(record) = record.as_deref_mut() {
            record.push(action);
        }
        actions += 1;
    }
    watch(&state);
    let outcome = state
        .outcome()
        .ok_or_else(|| PlayError::Bot("a finished game has no outcome".into()))?;
    let winners = outcome.winners().count().max(1) as f64;
    for r in &outcome.seats {
        let entry = entry_at[usize::from(r.seat)];
        results[entry].score = r.score;
        results[entry].rank = r.rank;
        results[entry].win_share = if r.rank == 1 { 1.0 / winners } else { 0.0 };
    }
    Ok(if outcome.truncated {
        GameEnd::Truncated(results)
    } else {
        GameEnd::Scored(results)
    })
}

/// Mean with a 95% normal-approximation interval; `None` without any value (no scored
/// game), never NaN.
fn mean_ci(xs: &[f64]) -> Option<(f64, [f64; 2])> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return Some((mean, [mean, mean]));
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = Z95 * (var / n).sqrt();
    Some((mean, [mean - half, mean + half]))
}

/// Wilson score interval for a proportion `p` over `n > 0` games (a shared win counts as
/// its share, so this is an approximation when victories are shared).
fn wilson(p: f64, n: usize) -> [f64; 2] {
    let n = n.max(1) as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Clamped so that rounding never leaves p outside its own interval at 0 or 1.
    [(centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0)]
}

/// One row of the report: one entry of `--bots` (a bot named twice has two rows).
#[derive(Debug, Serialize)]
pub struct Row {
    pub entry: usize,
    pub bot: String,
    /// The bot with every parameter written out.
    pub spec: String,
    /// Share of the scored games won (a victory shared by k seats counts 1/k). This and
    /// the other means are null when no game was scored.
    pub win_rate: Option<f64>,
    pub win_rate_ci95: Option<[f64; 2]>,
    pub mean_score: Option<f64>,
    pub mean_score_ci95: Option<[f64; 2]>,
    pub mean_rank: Option<f64>,
    pub mean_rank_ci95: Option<[f64; 2]>,
    /// Over every game, truncated ones included.
    pub decisions: u64,
    pub ms_per_decision: f64,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub game: &'static str,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    /// Threads used: at most one per game.
    pub threads: u64,
    /// `--threads` as given.
    pub threads_requested: u64,
    /// Games that ended by the rules: the only ones in the rates, scores and ranks.
    pub scored_games: usize,
    /// Games ended by a turn cap or a stall rule.
    pub truncated: usize,
    /// Games abandoned after `MAX_ACTIONS_PER_GAME` actions.
    pub unfinished: usize,
    /// The seeds of the truncated and the unfinished games, to look into them.
    pub not_ended_seeds: Vec<u64>,
    pub seconds: f64,
    pub bots: Vec<Row>,
}

impl Report {
    /// The report of `ends` (every game, in game order) of the bots `names` (as given)
    /// built from `specs`.
    pub fn new(
        game: &'static str,
        names: &[String],
        specs: &[BotSpec],
        ends: &[GameEnd],
        run: RunShape,
    ) -> Report {
        let scored: Vec<&Vec<EntryResult>> = ends
            .iter()
            .filter_map(|e| match e {
                GameEnd::Scored(r) => Some(r),
                _ => None,
            })
            .collect();
        let count = |f: fn(&GameEnd) -> bool| ends.iter().filter(|e| f(e)).count();
        let bots = specs
            .iter()
            .enumerate()
            .map(|(j, spec)| {
                let column = |f: fn(&EntryResult) -> f64| -> Vec<f64> {
                    scored.iter().map(|r| f(&r[j])).collect()
                };
                let win_rate = mean_ci(&column(|r| r.win_share)).map(|(m, _)| m);
                let score = mean_ci(&column(|r| f64::from(r.score)));
                let rank = mean_ci(&column(|r| f64::from(r.rank)));
                let all = ends.iter().map(|e| e.results()[j]);
                let (decisions, secs) =
                    all.fold((0, 0.0), |(d, s), r| (d + r.decisions, s + r.seconds));
                Row {
                    entry: j,
                    bot: names
                        .get(j)
                        .map_or_else(|| spec.to_string(), |n| n.trim().to_string()),
                    spec: spec.to_string(),
                    win_rate,
                    win_rate_ci95: win_rate.map(|p| wilson(p, scored.len())),
                    mean_score: score.map(|(m, _)| m),
                    mean_score_ci95: score.map(|(_, ci)| ci),
                    mean_rank: rank.map(|(m, _)| m),
                    mean_rank_ci95: rank.map(|(_, ci)| ci),
                    decisions,
                    ms_per_decision: ms_per_decision(decisions, secs),
                }
            })
            .collect();
        Report {
            game,
            players: specs.len(),
            games: ends.len() as u64,
            seed: run.seed,
            threads: run.threads,
            threads_requested: run.threads_requested,
            scored_games: scored.len(),
            truncated: count(|e| matches!(e, GameEnd::Truncated(_))),
            unfinished: count(|e| matches!(e, GameEnd::Unfinished(_))),
            not_ended_seeds: not_ended_seeds(ends, run.seed),
            seconds: run.seconds,
            bots,
        }
    }

    pub fn table(&self) -> String {
        let mut o = String::new();
        let _ = self.write_table(&mut o);
        o
    }

    fn write_table(&self, o: &mut String) -> std::fmt::Result {
        writeln!(
            o,
            "{}: {} games, {} players, seeds {}..={}, seats rotated, {} thread{}, {:.1} s",
            self.game,
            self.games,
            self.players,
            self.seed,
            self.seed.wrapping_add(self.games.saturating_sub(1)),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.seconds
        )?;
        if let Some(note) = threads_note(self.threads_requested, self.games, self.threads) {
            writeln!(o, "{note}")?;
        }
        writeln!(
            o,
            "{} scored, {} truncated (turn cap or stall), {} unfinished{}; rates, scores and ranks over scored games, 95% CIs",
            self.scored_games,
            self.truncated,
            self.unfinished,
            SeedList(&self.not_ended_seeds)
        )?;
        writeln!(o)?;
        if self.scored_games == 0 {
            writeln!(
                o,
                "no scored games: every game was truncated or unfinished, so there are no win \
                 rates, scores or ranks"
            )?;
            writeln!(o)?;
            writeln!(o, "  {:<5} {:<30}  {:>10}", "entry", "bot", "ms/move")?;
            for r in &self.bots {
                writeln!(
                    o,
                    "  {:<5} {:<30}  {:>10.3}",
                    r.entry, r.bot, r.ms_per_decision
                )?;
            }
            return Ok(());
        }
        let width = self
            .bots
            .iter()
            .map(|r| r.bot.len())
            .max()
            .unwrap_or(3)
            .max(3);
        writeln!(
            o,
            "  {:<5} {:<width$}  {:>8} {:>15}  {:>7} {:>15}  {:>5} {:>11}  {:>10}",
            "entry", "bot", "win rate", "95% CI", "score", "95% CI", "rank", "95% CI", "ms/move"
        )?;
        for r in &self.bots {
            // Every mean is present here: some game was scored.
            let win = r.win_rate.unwrap_or(0.0);
            let win_ci = r.win_rate_ci95.unwrap_or([0.0; 2]);
            let score_ci = r.mean_score_ci95.unwrap_or([0.0; 2]);
            let rank_ci = r.mean_rank_ci95.unwrap_or([0.0; 2]);
            writeln!(
                o,
                "  {:<5} {:<width$}  {:>7.1}% {:>15}  {:>7.1} {:>15}  {:>5.2} {:>11}  {:>10.3}",
                r.entry,
                r.bot,
                win * 100.0,
                format!("[{:.1}, {:.1}]", win_ci[0] * 100.0, win_ci[1] * 100.0),
                r.mean_score.unwrap_or(0.0),
                format!("[{:.1}, {:.1}]", score_ci[0], score_ci[1]),
                r.mean_rank.unwrap_or(0.0),
                format!("[{:.2}, {:.2}]", rank_ci[0], rank_ci[1]),
                r.ms_per_decision
            )?;
        }
        Ok(())
    }
}

/// The seeds of the games of `ends` (game `i` has seed `seed + i`) that did not end by
/// the rules: truncated or unfinished.
pub(crate) fn not_ended_seeds(ends: &[GameEnd], seed: u64) -> Vec<u64> {
    (0u64..)
        .zip(ends)
        .filter(|(_, e)| !matches!(e, GameEnd::Scored(_)))
        .map(|(i, _)| seed.wrapping_add(i))
        .collect()
}

/// Writes ` (seeds a, b, c)` after the counts of a report, nothing when every game ended
/// by the rules.
pub(crate) struct SeedList<'a>(pub(crate) &'a [u64]);

impl std::fmt::Display for SeedList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some((first, rest)) = self.0.split_first() else {
            return Ok(());
        };
        write!(
            f,
            " (not ended: seed{} {first}",
            if rest.is_empty() { "" } else { "s" }
        )?;
        for seed in rest {
            write!(f, ", {seed}")?;
        }
        write!(f, ")")
    }
}

/// The seat of entry `entry` of `--bots` in game `game_index`: rotated by one per game.
pub fn seat_of_entry(entry: usize, game_index: u64, players: usize) -> Seat {
    ((entry + (game_index % players as u64) as usize) % players) as Seat
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals() {
        let w = wilson(0.5, 100);
        assert!(
            (w[0] - 0.404).abs() < 0.002 && (w[1] - 0.596).abs() < 0.002,
            "{w:?}"
        );
        let w = wilson(1.0, 10);
        assert!(w[1] == 1.0 && (w[0] - 0.722).abs() < 0.002, "{w:?}");
        let (m, ci) = mean_ci(&[1.0, 2.0, 3.0, 4.0]).expect("values");
        assert_eq!(m, 2.5);
        assert!((ci[1] - 2.5 - Z95 * (1.666_666_7f64 / 4.0).sqrt()).abs() < 1e-6);
    }

    #[test]
    fn the_games_not_ended_by_the_rules_are_named_by_seed() {
        let ends = [
            GameEnd::Scored(vec![]),
            GameEnd::Truncated(vec![]),
            GameEnd::Scored(vec![]),
            GameEnd::Unfinished(vec![]),
        ];
        let seeds = not_ended_seeds(&ends, 100);
        assert_eq!(seeds, [101, 103]);
        assert_eq!(SeedList(&seeds).to_string(), " (not ended: seeds 101, 103)");
        assert_eq!(SeedList(&seeds[..1]).to_string(), " (not ended: seed 101)");
        assert_eq!(SeedList(&[]).to_string(), "");
    }

    #[test]
    fn no_value_has_no_mean_instead_of_nan() {
        assert_eq!(mean_ci(&[]), None);
    }

    #[test]
    fn rotation_puts_every_entry_in_every_seat() {
        for entry in 0..4 {
            let seats: std::collections::BTreeSet<Seat> =
                (0..4).map(|g| seat_of_entry(entry, g, 4)).collect();
            assert_eq!(seats.len(), 4);
        }
    }
}
