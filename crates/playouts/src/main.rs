//! `playout-guard`: the playout speed guard that CI runs (issue 52).
//!
//! A speed figure depends on the machine and its load; the number of instructions a fixed
//! seeded run executes does not. `playout-guard check` counts, under valgrind's
//! cachegrind, the instructions per applied action of `tabletop simulate`'s random games
//! (the same library code, [`tabletop::simulation::play_range`]) for each game, and fails
//! when one has grown past the tolerance of the baseline committed in
//! `benches/playout-instructions.json`. `playout-guard update` measures again and writes
//! the baseline. `scripts/playout-guard` builds this in the release profile and runs it.

#![forbid(unsafe_code)]

mod baseline;
mod count;
mod play;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::baseline::{Baseline, Verdict};

#[derive(Debug, Parser)]
#[command(
    name = "playout-guard",
    about = "Instructions per action of seeded random games, held to a baseline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays the seeded random games of one run (what `check` counts under valgrind).
    Play(play::Run),
    /// Counts every run of the baseline and fails if one grew past the tolerance.
    Check {
        #[arg(long, default_value = "benches/playout-instructions.json")]
        baseline: PathBuf,
    },
    /// Counts every run of the baseline again and writes the counts as the new baseline.
    Update {
        #[arg(long, default_value = "benches/playout-instructions.json")]
        baseline: PathBuf,
        /// Where the counts were made, for the record (a commit id).
        #[arg(long)]
        commit: String,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("playout-guard: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<ExitCode, count::GuardError> {
    match command {
        Command::Play(run) => {
            let actions = play::play(&run)?;
            println!(
                "{}",
                serde_json::json!({ "game": run.game, "actions": actions })
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { baseline } => check(&Baseline::load(&baseline)?),
        Command::Update { baseline, commit } => {
            let old = Baseline::load(&baseline)?;
            let mut counted = Vec::new();
            for run in &old.runs {
                counted.push(count::count(&run.run)?);
            }
            let new = old.updated(counted, &commit, &count::tool_versions()?);
            new.save(&baseline)?;
            println!("{}", new.report_header());
            for run in &new.runs {
                println!("  {}", run.describe());
            }
            println!("wrote {}", baseline.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn check(baseline: &Baseline) -> Result<ExitCode, count::GuardError> {
    println!("{}", baseline.report_header());
    let mut grown = false;
    for expected in &baseline.runs {
        let measured = count::count(&expected.run)?;
        let verdict = baseline.judge(expected, &measured);
        println!("  {}", verdict.line(expected, &measured));
        grown |= matches!(verdict, Verdict::Grown { .. });
    }
    if grown {
        println!("{}", baseline::GROWN_HELP);
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
