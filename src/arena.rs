//! `tabletop arena`: bots against each other over many seeded games
//! ([`tabletop::tournament`] plays them and writes the report), or, with `--round-robin`,
//! rated against each other ([`tabletop::ratings`]). Games are split over
//! threads and their results put back in game order, so the report depends only on the
//! arguments, not on the thread count (for bots with an iteration budget).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use bots::BotSpec;
use clap::Args;
use engine::Game;
use tabletop::ratings::{lineup, RatingReport};
use tabletop::simulation::RunShape;
use tabletop::tournament::{play_game, play_game_recorded, GameEnd, Report};

use crate::batch;
use crate::batch::BatchArgs;
use crate::games::{self, GameVisitor};
use crate::{replay, CliError};

#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The game to play (e.g. valdora).
    #[arg(long)]
    pub game: String,
    /// Number of players (default: the number of bots).
    #[arg(long)]
    pub players: Option<u64>,
    /// One bot per seat, comma-separated: random, greedy, ismcts, with parameters as
    /// NAME:KEY=VALUE:... (e.g. ismcts:iters=1000:plans=4), or a level: easy, medium,
    /// hard. With --round-robin, the entrants. See docs/bots.md.
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<String>,
    /// Rate the bots against each other: every game seats --players of them in turn,
    /// and Bradley-Terry ratings (Elo scale) are fitted to their pairwise results.
    #[arg(long)]
    pub round_robin: bool,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Write a chart of the win rates with their 95% intervals to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the record of every game that does not end by the rules (turn cap, stall,
    /// abandoned) to this folder, as GAME-SEED.json for `tabletop replay`: a bot with a
    /// time budget cannot be replayed from its seed.
    #[arg(long, value_name = "FOLDER")]
    pub records: Option<PathBuf>,
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

fn arena<G: Game>(args: &ArenaArgs) -> Result<String, CliError> {
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| b.parse::<BotSpec>().map_err(|e| CliError::usage(e.0)))
        .collect::<Result<_, _>>()?;
    let players = args.players.unwrap_or(specs.len() as u64);
    if args.round_robin {
        if specs.len() < 2 {
            return Err(CliError::usage(
                "--round-robin: give at least two bots to rate against each other".to_string(),
            ));
        }
    } else if specs.len() as u64 != players {
        return Err(CliError::usage(format!(
            "--bots lists {} bot(s) but --players is {players}: give one bot per seat",
            specs.len()
        )));
    }
    args.batch.check_seeds(args.games)?;
    if let Some(path) = &args.svg {
        check_svg_path(path)?;
    }
    if let Some(folder) = &args.records {
        if !folder.is_dir() {
            return Err(CliError::usage(format!(
                "--records {}: no such folder",
                folder.display()
            )));
        }
    }
    let (config, _) = args.batch.config::<G>(Some(players))?;

    let seats = usize::try_from(players).unwrap_or(usize::MAX);
    let start = Instant::now();
    let parts = batch::run(args.games, args.batch.threads, |range, bar| {
        range
            .map(|i| {
                let table: Vec<BotSpec> = if args.round_robin {
                    lineup(specs.len(), seats, i)
                        .into_iter()
                        .map(|e| specs[e])
                        .collect()
                } else {
                    specs.clone()
                };
                let end = play_recording_the_unended::<G>(args, &config, &table, i);
                bar.inc(1);
                end
            })
            .collect::<Result<Vec<GameEnd>, CliError>>()
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let ends: Vec<GameEnd> = parts.into_iter().flatten().collect();
    let run = RunShape {
        seed: args.batch.seed,
        threads: args.batch.threads_used(args.games),
        threads_requested: args.batch.threads,
        seconds,
    };
    if args.round_robin {
        let report = RatingReport::new(G::NAME, &args.bots, &specs, seats, &ends, run);
        return output(args, &report, ratings_chart(&report), || report.table());
    }
    let report = Report::new(G::NAME, &args.bots, &specs, &ends, run);
    output(args, &report, win_rate_chart(&report), || report.table())
}

/// Plays game `index`; with `--records`, writes its record there unless it ended by the
/// rules.
fn play_recording_the_unended<G: Game>(
    args: &ArenaArgs,
    config: &G::Config,
    table: &[BotSpec],
    index: u64,
) -> Result<GameEnd, CliError> {
    let seed = args.batch.seed;
    let Some(folder) = &args.records else {
        return Ok(play_game::<G>(config, table, seed, index)?);
    };
    let mut actions = Vec::new();
    let end = play_game_recorded::<G>(config, table, seed, index, &mut actions)?;
    if !matches!(end, GameEnd::Scored(_)) {
        let game_seed = seed.wrapping_add(index);
        let path = folder.join(format!("{}-{game_seed}.json", G::NAME));
        let record =
            replay::record::<G>(config, game_seed, &actions, args.batch.data.as_deref())
                .map_err(|e| CliError::failure(format!("cannot write a game's record: {e}")))?;
        std::fs::write(&path, record.to_string() + "\n")
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(end)
}

/// Writes the chart if one was asked for, and answers the report as JSON or a table.
fn output(
    args: &ArenaArgs,
    report: &impl serde::Serialize,
    chart: Option<BarChart>,
    table: impl FnOnce() -> String,
) -> Result<String, CliError> {
    if let Some(path) = &args.svg {
        match chart {
            Some(chart) => write_chart(&chart, path)?,
            None => no_chart_note(path),
        }
    }
    if args.batch.json {
        json(report)
    } else {
        Ok(table())
    }
}

fn json(report: &impl serde::Serialize) -> Result<String, CliError> {
    serde_json::to_string(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::failure(format!("cannot write the report as JSON: {e}")))
}

/// An empty chart would look like a result; say why there is none instead. The report
/// itself is still printed (stdout), so this is a note, not an error.
fn no_chart_note(path: &Path) {
    let _ = writeln!(
        std::io::stderr(),
        "note: no scored games, so no chart was written to {}",
        path.display()
    );
}

/// One bar of a chart: a value with its 95% interval.
struct Bar {
    label: String,
    value: f64,
    ci95: [f64; 2],
}

/// Bars with their 95% intervals and a reference line (parity, the anchor).
struct BarChart {
    caption: String,
    y_desc: &'static str,
    bars: Vec<Bar>,
    reference: (f64, String),
}

/// Win rates in percent, with the parity line 1/players; `None` without scored games.
fn win_rate_chart(report: &Report) -> Option<BarChart> {
    let bars = report
        .bots
        .iter()
        .map(|r| {
            let ci = r.win_rate_ci95?;
            Some(Bar {
                label: format!("{}: {}", r.entry, r.bot),
                value: r.win_rate? * 100.0,
                ci95: [ci[0] * 100.0, ci[1] * 100.0],
            })
        })
        .collect::<Option<Vec<Bar>>>()?;
    let parity = 100.0 / report.bots.len().max(1) as f64;
    Some(BarChart {
        caption: format!(
            "{}: win rate over {} scored games, {} players, seeds {}+ (95% CI)",
            report.game, report.scored_games, report.players, report.seed
        ),
        y_desc: "win rate (%)",
        bars,
        reference: (parity, format!("parity {parity:.0}%")),
    })
}

/// Ratings with their bootstrap intervals, the anchor's line at 0; `None` when no
/// entrant could be rated.
fn ratings_chart(report: &RatingReport) -> Option<BarChart> {
    let bars: Vec<Bar> = report
        .entrants
        .iter()
        .filter_map(|r| {
            Some(Bar {
                label: r.bot.clone(),
                value: r.rating?,
                ci95: r.rating_ci95?,
            })
        })
        .collect();
    (!bars.is_empty()).then(|| BarChart {
        caption: format!(
            "{}: Bradley-Terry ratings, {} scored games of {} players, seeds {}+ (95% CI)",
            report.game, report.scored_games, report.players, report.seed
        ),
        y_desc: "rating (Elo scale)",
        bars,
        reference: (0.0, format!("{} = 0", report.entrants[report.anchor].bot)),
    })
}

/// Draws `chart` in memory, then writes it, so that a path that cannot be written gets
/// the plain reason.
fn write_chart(chart: &BarChart, path: &Path) -> Result<(), CliError> {
    let svg =
        draw_chart(chart).map_err(|e| CliError::failure(format!("cannot draw the chart: {e}")))?;
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

/// The chart as SVG text: one category per bar.
fn draw_chart(c: &BarChart) -> Result<String, Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let n = c.bars.len().max(1);
    let (reference, reference_label) = &c.reference;
    let low = c.bars.iter().map(|b| b.ci95[0]).fold(*reference, f64::min);
    let high = c.bars.iter().map(|b| b.ci95[1]).fold(*reference, f64::max);
    let pad = ((high - low) * 0.08).max(5.0);
    let y_range = (if low < 0.0 { low - pad } else { 0.0 })..(high + pad);
    // Segments `0..=n-1`: plotters' integer ranges include their end, so `0..n` would
    // add an empty category after the last bar. The right edge is `SegmentValue::Last`.
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
        let mut chart = ChartBuilder::on(&root)
            .caption(&c.caption, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((0..last).into_segmented(), y_range)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc(c.y_desc)
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => {
                    c.bars.get(*i).map(|b| b.label.clone()).unwrap_or_default()
                }
                _ => String::new(),
            })
            .draw()?;
        let colour = RGBColor(70, 110, 170);
        chart.draw_series(c.bars.iter().enumerate().map(|(i, b)| {
            let mut bar = Rectangle::new(
                [(SegmentValue::Exact(i), 0.0), (right(i), b.value)],
                colour.mix(0.7).filled(),
            );
            bar.set_margin(0, 0, 20, 20);
            bar
        }))?;
        chart.draw_series(c.bars.iter().enumerate().map(|(i, b)| {
            ErrorBar::new_vertical(
                SegmentValue::CenterOf(i),
                b.ci95[0],
                b.value,
                b.ci95[1],
                BLACK.stroke_width(2),
                12,
            )
        }))?;
        chart
            .draw_series(LineSeries::new(
                [
                    (SegmentValue::Exact(0), *reference),
                    (SegmentValue::Last, *reference),
                ],
                RED.stroke_width(1),
            ))?
            .label(reference_label)
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
