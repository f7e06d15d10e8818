//! Counting: this very program's `play` run under valgrind's cachegrind (instruction
//! counts only, `--cache-sim=no`), once with the run's games and once with none, so that
//! what is left is the games' own work per applied action (start-up and data parsing
//! subtracted).

use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::play::Run;

#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    #[error("{0}")]
    Usage(String),
    #[error("cannot run {program}: {source} (install it: apt-get install valgrind)")]
    Spawn {
        program: &'static str,
        source: std::io::Error,
    },
    #[error("{what} failed ({status}): {stderr}")]
    Failed {
        what: String,
        status: std::process::ExitStatus,
        stderr: String,
    },
    #[error("cannot read the count of {what}: {detail}")]
    Unreadable { what: String, detail: String },
    #[error("{path}: {detail}")]
    Baseline { path: String, detail: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What one run counted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Counted {
    pub actions: u64,
    pub instructions: u64,
    /// The run's instructions less those of the same start-up without games, per action.
    pub instructions_per_action: f64,
}

/// Counts `run`: its games' instructions per applied action.
pub fn count(run: &Run) -> Result<Counted, GuardError> {
    let (actions, instructions) = instructions_of(run)?;
    let idle = Run {
        games: 0,
        ..run.clone()
    };
    let (_, start_up) = instructions_of(&idle)?;
    if actions == 0 {
        return Err(GuardError::Usage(format!("{} played no action", run.game)));
    }
    let games_only = instructions.saturating_sub(start_up);
    Ok(Counted {
        actions,
        instructions: games_only,
        instructions_per_action: games_only as f64 / actions as f64,
    })
}

/// Runs `playout-guard play RUN` under cachegrind: the actions it reports and the
/// instructions it executed.
fn instructions_of(run: &Run) -> Result<(u64, u64), GuardError> {
    let me = std::env::current_exe()?;
    let dir = tempfile::tempdir()?;
    let out_file = dir.path().join("cachegrind.out");
    let output = Command::new("valgrind")
        .arg("--tool=cachegrind")
        .arg("--cache-sim=no")
        .arg(format!("--cachegrind-out-file={}", out_file.display()))
        .arg(&me)
        .args(["play", &run.game])
        .args(["--players", &run.players.to_string()])
        .args(["--seed", &run.seed.to_string()])
        .args(["--games", &run.games.to_string()])
        .output()
        .map_err(|source| GuardError::Spawn {
            program: "valgrind",
            source,
        })?;
    let what = format!("{} {} games", run.game, run.games);
    if !output.status.success() {
        return Err(GuardError::Failed {
            what,
            status: output.status,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    let reported: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| GuardError::Unreadable {
            what: what.clone(),
            detail: format!("its output is not the JSON of `play`: {e}"),
        })?;
    let actions = reported["actions"]
        .as_u64()
        .ok_or_else(|| GuardError::Unreadable {
            what: what.clone(),
            detail: format!("no action count in {reported}"),
        })?;
    let instructions =
        summary_of(&out_file).map_err(|detail| GuardError::Unreadable { what, detail })?;
    Ok((actions, instructions))
}

/// The `summary:` line of a cachegrind output file: the instructions executed.
fn summary_of(path: &Path) -> Result<u64, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_summary(&text).ok_or_else(|| format!("{}: no `summary:` line", path.display()))
}

fn parse_summary(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix("summary:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The versions that make a count what it is: the compiler and valgrind.
pub fn tool_versions() -> Result<Versions, GuardError> {
    Ok(Versions {
        rustc: version_of("rustc")?,
        valgrind: version_of("valgrind")?,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Versions {
    pub rustc: String,
    pub valgrind: String,
}

fn version_of(program: &'static str) -> Result<String, GuardError> {
    let output = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|source| GuardError::Spawn { program, source })?;
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_of_a_cachegrind_file_is_its_instruction_count() {
        let text = "desc: I1 cache: none\ncmd: x\nevents: Ir\nfl=a.rs\n1 5\nsummary: 231071838\n";
        assert_eq!(parse_summary(text), Some(231_071_838));
        assert_eq!(parse_summary("events: Ir\n"), None);
        assert_eq!(parse_summary("summary: lots\n"), None);
    }
}
