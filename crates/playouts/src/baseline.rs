//! The committed baseline (`benches/playout-instructions.json`) and the verdict on a new
//! count: instructions per action may grow by at most the baseline's tolerance.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::count::{Counted, GuardError, Versions};
use crate::play::Run;

/// Printed under a failed check.
pub const GROWN_HELP: &str = "\
The playouts do more work per action than the baseline allows. Measure again with
  scripts/playout-guard
find where the work went with
  valgrind --tool=callgrind target/release/playout-guard play GAME --players 4 --seed 1 --games 50
  callgrind_annotate callgrind.out.<pid>
and compare the speed of two builds with scripts/bench-compare REV. If the growth is
intended (a rule needs the work), write the new counts as the baseline with
  scripts/playout-guard --update
and say why in the commit.";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// The growth of instructions per action a check allows (0.1: 10%).
    pub tolerance: f64,
    /// Where and with what the counts were made.
    pub measured: Measured,
    pub runs: Vec<Expected>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub commit: String,
    #[serde(flatten)]
    pub versions: Versions,
}

/// A run and what it counted when the baseline was written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    #[serde(flatten)]
    pub run: Run,
    #[serde(flatten)]
    pub counted: Counted,
}

impl Expected {
    pub fn describe(&self) -> String {
        format!(
            "{}: {:.1} instructions per action ({} actions of {} games, {} players, seed {})",
            self.run.game,
            self.counted.instructions_per_action,
            self.counted.actions,
            self.run.games,
            self.run.players,
            self.run.seed
        )
    }
}

/// A count against its baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    Within {
        ratio: f64,
    },
    /// Past the tolerance: the check fails.
    Grown {
        ratio: f64,
    },
    /// Faster past the tolerance: passes, and the baseline should be updated so that it
    /// keeps guarding the new speed.
    Shrunk {
        ratio: f64,
    },
}

impl Verdict {
    pub fn line(&self, expected: &Expected, measured: &Counted) -> String {
        let (ratio, word) = match *self {
            Verdict::Within { ratio } => (ratio, "ok"),
            Verdict::Grown { ratio } => (ratio, "GROWN past the tolerance"),
            Verdict::Shrunk { ratio } => (
                ratio,
                "fewer than the tolerance allows: update the baseline (scripts/playout-guard --update)",
            ),
        };
        let mut line = format!(
            "{}: {:.1} instructions per action, baseline {:.1} ({:+.1}%): {word}",
            expected.run.game,
            measured.instructions_per_action,
            expected.counted.instructions_per_action,
            (ratio - 1.0) * 100.0
        );
        if measured.actions != expected.counted.actions {
            line.push_str(&format!(
                " (note: {} actions, {} in the baseline: the games themselves changed)",
                measured.actions, expected.counted.actions
            ));
        }
        line
    }
}

impl Baseline {
    pub fn load(path: &Path) -> Result<Baseline, GuardError> {
        let error = |detail: String| GuardError::Baseline {
            path: path.display().to_string(),
            detail,
        };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let baseline: Baseline = serde_json::from_str(&text).map_err(|e| error(e.to_string()))?;
        if !(baseline.tolerance > 0.0 && baseline.tolerance < 1.0) {
            return Err(error(format!(
                "tolerance {} is not a share between 0 and 1",
                baseline.tolerance
            )));
        }
        if baseline.runs.is_empty() {
            return Err(error("no runs".to_string()));
        }
        Ok(baseline)
    }

    pub fn save(&self, path: &Path) -> Result<(), GuardError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| GuardError::Baseline {
            path: path.display().to_string(),
            detail: e.to_string(),
        })?;
        std::fs::write(path, text + "\n")?;
        Ok(())
    }

    pub fn judge(&self, expected: &Expected, measured: &Counted) -> Verdict {
        let ratio = measured.instructions_per_action / expected.counted.instructions_per_action;
        if ratio > 1.0 + self.tolerance {
            Verdict::Grown { ratio }
        } else if ratio < 1.0 - self.tolerance {
            Verdict::Shrunk { ratio }
        } else {
            Verdict::Within { ratio }
        }
    }

    /// The same runs and tolerance with new counts, made at `commit` with `versions`.
    pub fn updated(&self, counted: Vec<Counted>, commit: &str, versions: &Versions) -> Baseline {
        Baseline {
            tolerance: self.tolerance,
            measured: Measured {
                commit: commit.to_string(),
                versions: versions.clone(),
            },
            runs: self
                .runs
                .iter()
                .zip(counted)
                .map(|(old, counted)| Expected {
                    run: old.run.clone(),
                    counted,
                })
                .collect(),
        }
    }

    pub fn report_header(&self) -> String {
        format!(
            "instructions per action (valgrind cachegrind), baseline of {} ({}; {}), tolerance {:.0}%",
            self.measured.commit,
            self.measured.versions.rustc,
            self.measured.versions.valgrind,
            self.tolerance * 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn baseline(per_action: f64) -> (Baseline, Expected) {
        let expected = Expected {
            run: Run {
                game: "valdora".into(),
                players: 4,
                seed: 1,
                games: 50,
            },
            counted: measured(per_action),
        };
        let baseline = Baseline {
            tolerance: 0.1,
            measured: Measured {
                commit: "abc".into(),
                versions: Versions {
                    rustc: "rustc".into(),
                    valgrind: "valgrind".into(),
                },
            },
            runs: vec![expected.clone()],
        };
        (baseline, expected)
    }

    /// A count of 1,000 actions at `per_action` instructions each.
    fn measured(per_action: f64) -> Counted {
        Counted {
            actions: 1000,
            instructions: (per_action * 1000.0) as u64,
            instructions_per_action: per_action,
        }
    }

    #[test]
    fn growth_past_the_tolerance_fails_and_anything_within_passes() {
        let (b, e) = baseline(1000.0);
        assert!(matches!(
            b.judge(&e, &measured(1099.0)),
            Verdict::Within { .. }
        ));
        assert!(matches!(
            b.judge(&e, &measured(1101.0)),
            Verdict::Grown { .. }
        ));
        assert!(matches!(
            b.judge(&e, &measured(901.0)),
            Verdict::Within { .. }
        ));
        assert!(matches!(
            b.judge(&e, &measured(899.0)),
            Verdict::Shrunk { .. }
        ));
    }

    #[test]
    fn a_baseline_reads_back_as_written_and_a_bad_tolerance_is_refused() {
        let (b, _) = baseline(850.5);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("baseline.json");
        b.save(&path).expect("written");
        assert_eq!(Baseline::load(&path).expect("read"), b);
        let mut bad = b.clone();
        bad.tolerance = 1.5;
        bad.save(&path).expect("written");
        let err = Baseline::load(&path).expect_err("refused");
        assert!(err.to_string().contains("tolerance"), "{err}");
    }
}
