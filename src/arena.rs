//! `tabletop arena`: bots against each other over many seeded games
//! ([`tabletop::tournament`] plays them and writes the report). Games are split over
//! threads and their results put back in game order, so the report depends only on the
//! arguments, not on the thread count (for bots with an iteration budget).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use bots::BotSpec;
use clap::Args;
use engine::Game;
use tabletop::simulation::RunShape;
use tabletop::tournament::{play_game, GameEnd, PlayError, Report, Row};

use crate::batch;
use crate::batch::BatchArgs;
use crate::games::{self, GameVisitor};
use crate::CliError;

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
                let end =
                    play_game::<G>(&config, &specs, args.batch.seed, i).map_err(|e| match e {
                        PlayError::Setup(message) => CliError::usage(message),
                        PlayError::Bot(message) => CliError::failure(message),
                    });
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
    let report = Report::new(G::NAME, &args.bots, &specs, &ends, run);
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
