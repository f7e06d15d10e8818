//! `tabletop arena`: bots against each other over many seeded games.
//!
//! Game `i` is set up with seed `S + i`, and its seats are rotated: entry `j` of `--bots`
//! sits at seat `(j + i) mod n`, so over a multiple of `n` games every entry plays every
//! seat equally often. Each bot of game `i` is seeded from `(S + i, j)`. Games are split
//! over threads and their results put back in game order, so the report depends only on
//! the arguments, not on the thread count (for bots with an iteration budget).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use bots::{Bot, BotSpec};
use clap::Args;
use engine::{Game, NoEvents, Seat};
use serde::Serialize;

use crate::batch;
use crate::batch::BatchArgs;
use crate::games::{self, GameVisitor};
use crate::CliError;

/// A game still running after this many actions is abandoned and counted as unfinished.
pub const MAX_ACTIONS_PER_GAME: u64 = 1_000_000;

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_964;

#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The game to play (e.g. valdora).
    #[arg(long)]
    pub game: String,
    /// Number of players (default: the number of bots).
    #[arg(long)]
    pub players: Option<u64>,
    /// One bot per seat, comma-separated: random, greedy, ismcts, with parameters as
    /// NAME:KEY=VALUE:... (e.g. ismcts:iters=1000:plans=4). See docs/bots.md.
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Write a chart of the win rates with their 95% intervals to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub batch: BatchArgs,
}

pub fn run(args: &ArenaArgs) -> Result<String, CliError> {
    games::with_game(&args.game, Arena(args)).map_err(|e| CliError::usage(e.to_string()))?
}

struct Arena<'a>(&'a ArenaArgs);

impl GameVisitor for Arena<'_> {
    type Output = Result<String, CliError>;
    fn visit<G: Game>(self) -> Self::Output {
        arena::<G>(self.0)
    }
}

/// The seed of entry `entry`'s bot in the game with seed `game_seed`.
fn bot_seed(game_seed: u64, entry: usize) -> u64 {
    game_seed
        .wrapping_mul(0xD1B5_4A32_D192_ED03)
        .wrapping_add(entry as u64 + 1)
}

/// What one entry got in one game.
#[derive(Debug, Clone, Copy, Default)]
struct EntryResult {
    win_share: f64,
    score: i32,
    rank: u8,
    decisions: u64,
    seconds: f64,
}

#[derive(Debug)]
enum GameEnd {
    Scored(Vec<EntryResult>),
    Truncated(Vec<EntryResult>),
    Unfinished(Vec<EntryResult>),
}

fn arena<G: Game>(args: &ArenaArgs) -> Result<String, CliError> {
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| b.parse::<BotSpec>().map_err(|e| CliError::usage(e.0)))
        .collect::<Result<_, _>>()?;
    let players = args.players.unwrap_or(specs.len() as u64);
    if specs.len() as u64 != players {
        return Err(CliError::usage(format!(
            "--bots lists {} bot(s) but --players is {players}: give one bot per seat",
            specs.len()
        )));
    }
    args.batch.check_seeds(args.games)?;
    if let Some(path) = &args.svg {
        check_svg_path(path)?;
    }
    let (config, _) = args.batch.config::<G>(Some(players))?;

    let start = Instant::now();
    let parts = batch::run(args.games, args.batch.threads, |range, bar| {
        range
            .map(|i| {
                let end = play_game::<G>(&config, &specs, args.batch.seed, i);
                bar.inc(1);
                end
            })
            .collect::<Result<Vec<GameEnd>, CliError>>()
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let ends: Vec<GameEnd> = parts.into_iter().flatten().collect();
    let report = Report::new(G::NAME, args, &specs, &ends, seconds);
    if let Some(path) = &args.svg {
        if report.scored_games == 0 {
            // An empty chart would look like a result; say why there is none instead.
            // The report itself is still printed (stdout), so this is a note, not an
            // error.
            let _ = writeln!(
                std::io::stderr(),
                "note: no scored games, so no chart was written to {}",
                path.display()
            );
        } else {
            chart(&report, path)?;
        }
    }
    if args.batch.json {
        serde_json::to_string(&report)
            .map(|s| s + "\n")
            .map_err(|e| CliError::failure(format!("cannot write the report as JSON: {e}")))
    } else {
        Ok(report.table())
    }
}

fn play_game<G: Game>(
    config: &G::Config,
    specs: &[BotSpec],
    seed: u64,
    index: u64,
) -> Result<GameEnd, CliError> {
    let n = specs.len();
    let game_seed = seed.wrapping_add(index);
    let mut state = G::new(config, game_seed)
        .map_err(|e| CliError::usage(format!("game {index} (seed {game_seed}): {e}")))?;
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
        if actions >= MAX_ACTIONS_PER_GAME {
            return Ok(GameEnd::Unfinished(results));
        }
        let entry = entry_at[usize::from(seat)];
        let clock = Instant::now();
        let action = bots[entry].choose(&state).ok_or_else(|| {
            CliError::failure(format!(
                "{} found no action in a running game",
                specs[entry]
            ))
        })?;
        results[entry].seconds += clock.elapsed().as_secs_f64();
        results[entry].decisions += 1;
        state.apply(action, &mut NoEvents).map_err(|e| {
            CliError::failure(format!(
                "{} chose an illegal action in game {index}: {e}",
                specs[entry]
            ))
        })?;
        actions += 1;
    }
    let outcome = state
        .outcome()
        .ok_or_else(|| CliError::failure("a finished game has no outcome"))?;
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
    pub seconds: f64,
    pub bots: Vec<Row>,
}

impl Report {
    fn new(
        game: &'static str,
        args: &ArenaArgs,
        specs: &[BotSpec],
        ends: &[GameEnd],
        seconds: f64,
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
                let all = ends.iter().map(|e| match e {
                    GameEnd::Scored(r) | GameEnd::Truncated(r) | GameEnd::Unfinished(r) => r[j],
                });
                let (decisions, secs) =
                    all.fold((0, 0.0), |(d, s), r| (d + r.decisions, s + r.seconds));
                Row {
                    entry: j,
                    bot: args.bots[j].trim().to_string(),
                    spec: spec.to_string(),
                    win_rate,
                    win_rate_ci95: win_rate.map(|p| wilson(p, scored.len())),
                    mean_score: score.map(|(m, _)| m),
                    mean_score_ci95: score.map(|(_, ci)| ci),
                    mean_rank: rank.map(|(m, _)| m),
                    mean_rank_ci95: rank.map(|(_, ci)| ci),
                    decisions,
                    ms_per_decision: if decisions == 0 {
                        0.0
                    } else {
                        secs * 1000.0 / decisions as f64
                    },
                }
            })
            .collect();
        Report {
            game,
            players: specs.len(),
            games: args.games,
            seed: args.batch.seed,
            threads: args.batch.threads_used(args.games),
            threads_requested: args.batch.threads,
            scored_games: scored.len(),
            truncated: count(|e| matches!(e, GameEnd::Truncated(_))),
            unfinished: count(|e| matches!(e, GameEnd::Unfinished(_))),
            seconds,
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
        if let Some(note) =
            BatchArgs::threads_note(self.threads_requested, self.games, self.threads)
        {
            writeln!(o, "{note}")?;
        }
        writeln!(
            o,
            "{} scored, {} truncated (turn cap or stall), {} unfinished; rates, scores and ranks over scored games, 95% CIs",
            self.scored_games, self.truncated, self.unfinished
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

/// Win rates as bars with their 95% intervals, and the parity line 1/players. Drawn in
/// memory, then written, so that a path that cannot be written gets the plain reason.
fn chart(report: &Report, path: &Path) -> Result<(), CliError> {
    let svg =
        draw_chart(report).map_err(|e| CliError::failure(format!("cannot draw the chart: {e}")))?;
    std::fs::write(path, svg).map_err(|e| {
        CliError::failure(format!("cannot write the chart to {}: {e}", path.display()))
    })
}

/// Refuses an `--svg` path that can never be written before any game is played, so a
/// typo does not cost the run; the write at the end still reports any other failure.
fn check_svg_path(path: &Path) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::usage(format!(
            "--svg {}: that is a folder; give a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(CliError::usage(format!(
            "--svg {}: the folder {} does not exist",
            path.display(),
            folder.display()
        )));
    }
    Ok(())
}

/// The chart as SVG text; only called with scored games, so every rate is present.
fn draw_chart(report: &Report) -> Result<String, Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let n = report.bots.len().max(1);
    let labels: Vec<String> = report
        .bots
        .iter()
        .map(|r| format!("{}: {}", r.entry, r.bot))
        .collect();
    let rate = |r: &Row| r.win_rate.unwrap_or(0.0);
    let ci = |r: &Row| r.win_rate_ci95.unwrap_or([0.0; 2]);
    let top = report
        .bots
        .iter()
        .map(|r| ci(r)[1])
        .filter(|x| x.is_finite())
        .fold(1.0 / n as f64, f64::max)
        .min(1.0)
        * 100.0
        + 5.0;
    // Segments `0..=n-1`: plotters' integer ranges include their end, so `0..n` would
    // add an empty category after the last bot. The right edge is `SegmentValue::Last`.
    let last = n - 1;
    let right = |i: usize| {
        if i >= last {
            SegmentValue::Last
        } else {
            SegmentValue::Exact(i + 1)
        }
    };
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (160 * n as u32 + 240, 480)).into_drawing_area();
        root.fill(&WHITE)?;
        let caption = format!(
            "{}: win rate over {} scored games, {} players, seeds {}+ (95% CI)",
            report.game, report.scored_games, report.players, report.seed
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((0..last).into_segmented(), 0.0..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc("win rate (%)")
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()?;
        let colour = RGBColor(70, 110, 170);
        chart.draw_series(report.bots.iter().enumerate().map(|(i, r)| {
            let mut bar = Rectangle::new(
                [(SegmentValue::Exact(i), 0.0), (right(i), rate(r) * 100.0)],
                colour.mix(0.7).filled(),
            );
            bar.set_margin(0, 0, 20, 20);
            bar
        }))?;
        chart.draw_series(report.bots.iter().enumerate().map(|(i, r)| {
            ErrorBar::new_vertical(
                SegmentValue::CenterOf(i),
                ci(r)[0] * 100.0,
                rate(r) * 100.0,
                ci(r)[1] * 100.0,
                BLACK.stroke_width(2),
                12,
            )
        }))?;
        let parity = 100.0 / n as f64;
        chart
            .draw_series(LineSeries::new(
                [
                    (SegmentValue::Exact(0), parity),
                    (SegmentValue::Last, parity),
                ],
                RED.stroke_width(1),
            ))?
            .label(format!("parity {parity:.0}%"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
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
