//! Bot seats: the three strengths offered to people (the bots crate's levels, the one
//! place they are defined), and the limits on specs a client may ask for when the operator
//! allows specs at all (every parameter of a spec is capped; the decision's deadline caps
//! them together).

use std::str::FromStr;

use std::time::Duration;

use bots::{BotError, BotSpec, Budget, Level, Rollout, Step, LEVELS};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;

/// A named strength and the bot spec it plays with (`bots::LEVELS`, as the API shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Strength {
    pub name: &'static str,
    pub spec: &'static str,
    pub description: &'static str,
}

impl Strength {
    const fn of(level: Level) -> Self {
        Strength {
            name: level.name,
            spec: level.spec,
            description: level.description,
        }
    }
}

/// The strengths offered to people, weakest first: the bots crate's levels.
pub const STRENGTHS: [Strength; 3] = [
    Strength::of(LEVELS[0]),
    Strength::of(LEVELS[1]),
    Strength::of(LEVELS[2]),
];

/// Which bot seats a client may ask for, and how long a decision may take.
#[derive(Debug, Clone, Copy)]
pub struct BotPolicy {
    /// Whether clients may name bot specs (`ismcts:iters=500`), each parameter within
    /// [`SpecLimit`]s; otherwise only the strengths.
    pub allow_specs: bool,
    /// The longest a decision may take: the search is stopped then and the bot moves its
    /// best move so far. A spec's own time budget (`ms=`) must not exceed it.
    pub deadline: Duration,
}

/// One parameter's largest value a client may ask for, and what it is called.
struct SpecLimit {
    param: &'static str,
    what: &'static str,
    max: u64,
}

/// The parameters of a spec a client may ask for, bounded so that no single one makes a
/// decision or its memory absurd (the decision's deadline bounds their product).
const LIMITS: [SpecLimit; 11] = [
    SpecLimit {
        param: "iters",
        what: "ISMCTS iterations",
        max: 5_000,
    },
    SpecLimit {
        param: "ms",
        what: "milliseconds a decision (and at most the server's deadline)",
        max: 2_000,
    },
    SpecLimit {
        param: "threads",
        what: "threads (a server seat searches on one)",
        max: 1,
    },
    SpecLimit {
        param: "nodes",
        what: "positions a turn search",
        max: 200_000,
    },
    SpecLimit {
        param: "root_nodes",
        what: "positions searched for the root's plans",
        max: 200_000,
    },
    SpecLimit {
        param: "plans",
        what: "plans kept for the searching seat",
        max: 64,
    },
    SpecLimit {
        param: "replies",
        what: "plans kept for the other seats",
        max: 64,
    },
    SpecLimit {
        param: "rollout",
        what: "random rollout actions",
        max: 1_000,
    },
    SpecLimit {
        param: "turns",
        what: "greedy rollout turns",
        max: 10,
    },
    SpecLimit {
        param: "samples",
        what: "rollout samples",
        max: 1_000,
    },
    SpecLimit {
        param: "candidates",
        what: "first actions a rollout compares",
        max: 64,
    },
];
/// The exploration constant and the temperature cost nothing, but absurd values are
/// refused all the same.
const MAX_EXPLORATION: f64 = 100.0;
const MAX_TEMPERATURE: f64 = 1_000_000.0;

/// The values of `spec`'s bounded parameters, by name.
fn bounded_values(spec: &BotSpec) -> Vec<(&'static str, u64)> {
    match spec {
        // A level is the server's own choice, not a client's.
        BotSpec::Random | BotSpec::Level(_) => Vec::new(),
        BotSpec::Greedy(c) => vec![("nodes", u64::from(c.max_nodes))],
        BotSpec::Ismcts(c) => {
            let mut values = vec![
                budget_value(c.budget, "iters"),
                ("threads", c.threads as u64),
                ("nodes", u64::from(c.turn_nodes)),
            ];
            if let Step::Turn {
                plans,
                replies,
                root_nodes,
            } = c.step
            {
                values.extend([
                    ("plans", u64::from(plans)),
                    ("replies", u64::from(replies)),
                    ("root_nodes", u64::from(root_nodes)),
                ]);
            }
            match c.rollout {
                Rollout::Random(Some(n)) => values.push(("rollout", u64::from(n))),
                // To the end of the game: bounded by the game's length and the deadline.
                Rollout::Random(None) => {}
                Rollout::Greedy { turns } => values.push(("turns", u64::from(turns))),
            }
            values
        }
        BotSpec::Rollout(c) => {
            let mut values = vec![
                budget_value(c.budget, "samples"),
                ("candidates", u64::from(c.candidates)),
                ("root_nodes", u64::from(c.root_nodes)),
                ("nodes", u64::from(c.turn_nodes)),
            ];
            values.extend(c.turns.map(|turns| ("turns", u64::from(turns))));
            values
        }
    }
}

/// A budget as a bounded value: its count under `count_param`, or `ms`.
fn budget_value(budget: Budget, count_param: &'static str) -> (&'static str, u64) {
    match budget {
        Budget::Iterations(n) => (count_param, u64::from(n)),
        Budget::Time(t) => ("ms", t.as_millis().try_into().unwrap_or(u64::MAX)),
    }
}

/// Why `spec` asks for more than a server seat allows, if it does.
fn over_limits(spec: &BotSpec, policy: &BotPolicy) -> Option<String> {
    let deadline_ms = u64::try_from(policy.deadline.as_millis()).unwrap_or(u64::MAX);
    for (param, value) in bounded_values(spec) {
        let Some(limit) = LIMITS.iter().find(|l| l.param == param) else {
            continue;
        };
        let max = if param == "ms" {
            limit.max.min(deadline_ms)
        } else {
            limit.max
        };
        if value > max {
            return Some(format!(
                "{param}={value} is above this server's limit of {max} ({})",
                limit.what
            ));
        }
    }
    if let BotSpec::Ismcts(c) = spec {
        if c.exploration > MAX_EXPLORATION {
            return Some(format!(
                "c={} is above this server's limit of {MAX_EXPLORATION}",
                c.exploration
            ));
        }
        if let Some(temperature) = c.temperature.filter(|&t| t > MAX_TEMPERATURE) {
            return Some(format!(
                "temperature={temperature} is above this server's limit of {MAX_TEMPERATURE}"
            ));
        }
    }
    None
}

/// A bot seat's spec, checked.
#[derive(Debug, Clone)]
pub struct BotSeat {
    pub spec: BotSpec,
    /// As stored and shown: the strength name or the spec the client gave.
    pub spec_text: String,
}

impl BotSeat {
    /// The bot seat a client asks for: `easy`, `medium`, `hard`, or, when the policy
    /// allows specs, a bot spec each of whose parameters is within the server's limits.
    pub fn parse(text: &str, policy: &BotPolicy) -> Result<Self, ApiError> {
        let text = text.trim();
        let shown = crate::catalog::truncate(text, 40);
        if Level::named(text).is_none() && !policy.allow_specs {
            return Err(ApiError::malformed(format!(
                "bot {shown:?}: this server offers the bots easy, medium and hard (bot specs \
                 are allowed only with `tabletop serve --allow-bot-specs`)"
            )));
        }
        let seat = Self::stored(text).map_err(|e| {
            ApiError::malformed(format!("bot {shown:?}: {e}; or one of easy, medium, hard"))
        })?;
        if let Some(why) = over_limits(&seat.spec, policy) {
            return Err(ApiError::malformed(format!(
                "bot {shown:?}: {why}; or one of easy, medium, hard"
            )));
        }
        Ok(seat)
    }

    /// The bot seat of a stored game: a strength or any valid spec, as the rules of its
    /// day accepted it. It plays whatever the limits are now, stopped by the deadline.
    pub fn stored(text: &str) -> Result<Self, BotError> {
        let text = text.trim();
        Ok(BotSeat {
            spec: BotSpec::from_str(text)?,
            spec_text: text.to_string(),
        })
    }

    /// The seat's name at the table ("Bot (hard)").
    pub fn display_name(&self) -> String {
        format!("Bot ({})", crate::catalog::truncate(&self.spec_text, 24))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: BotPolicy = BotPolicy {
        allow_specs: false,
        deadline: Duration::from_millis(2_000),
    };
    const OPEN: BotPolicy = BotPolicy {
        allow_specs: true,
        ..STRICT
    };

    #[test]
    fn strengths_parse_and_specs_need_the_operator() {
        for policy in [STRICT, OPEN] {
            for s in STRENGTHS {
                BotSeat::parse(s.name, &policy).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            }
        }
        let refused = BotSeat::parse("ismcts:iters=500", &STRICT).unwrap_err();
        assert!(refused.message.contains("--allow-bot-specs"), "{refused}");
        assert!(BotSeat::parse("random", &STRICT).is_err());
        assert!(BotSeat::parse("ismcts:iters=500", &OPEN).is_ok());
        assert!(BotSeat::parse("chess-engine", &OPEN).is_err());
    }

    #[test]
    fn every_parameter_of_a_spec_is_bounded() {
        for (spec, named) in [
            ("ismcts:iters=100000", "iters=100000"),
            ("ismcts:threads=8", "threads=8"),
            ("ismcts:ms=60000", "ms=60000"),
            ("greedy:nodes=10000000", "nodes=10000000"),
            ("ismcts:nodes=10000000", "nodes=10000000"),
            ("ismcts:rollout=greedy:turns=4294967295", "turns=4294967295"),
            ("ismcts:step=action:rollout=100000", "rollout=100000"),
            ("ismcts:plans=1000", "plans=1000"),
            ("ismcts:replies=1000", "replies=1000"),
            ("ismcts:root_nodes=100000000", "root_nodes=100000000"),
            ("ismcts:c=1e300", "c="),
            ("ismcts:temperature=1e300", "temperature="),
        ] {
            let e = BotSeat::parse(spec, &OPEN).expect_err(spec);
            assert_eq!(e.kind, crate::protocol::ErrorKind::Malformed);
            assert!(e.message.contains(named), "{spec}: {e}");
        }
        // A spec's own time budget stays within the server's deadline.
        let short = BotPolicy {
            deadline: Duration::from_millis(300),
            ..OPEN
        };
        assert!(BotSeat::parse("ismcts:ms=300", &short).is_ok());
        let e = BotSeat::parse("ismcts:ms=301", &short).unwrap_err();
        assert!(e.message.contains("limit of 300"), "{e}");
        assert!(BotSeat::parse("ismcts:rollout=greedy:turns=10:plans=64", &OPEN).is_ok());
    }

    #[test]
    fn a_stored_spec_plays_whatever_the_limits() {
        let stored = BotSeat::stored("ismcts:iters=1:rollout=greedy:turns=4294967295")
            .expect("a valid spec");
        assert_eq!(
            stored.spec_text,
            "ismcts:iters=1:rollout=greedy:turns=4294967295"
        );
        assert!(BotSeat::stored("hard").is_ok());
    }
}
