//! Bot seats: the three strengths offered to people, mapped to bot specs here and nowhere
//! else, and the limits on specs a client may ask for (a bot's budget is its time budget
//! per decision, so it is capped).

use std::str::FromStr;

use bots::{BotSpec, Budget};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;

/// A named strength and the bot spec it plays with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Strength {
    pub name: &'static str,
    pub spec: &'static str,
    pub description: &'static str,
}

/// The strengths offered to people, weakest first (docs/bots.md measures them).
pub const STRENGTHS: [Strength; 3] = [
    Strength {
        name: "easy",
        // Not `greedy:lookahead=ply`: in Valdora a move pays only with the steps after it,
        // so one-ply greedy loses to random play and, three or four of it at a table,
        // loops for ever in many games (docs/bots.md, "Server strengths").
        spec: "greedy:nodes=100",
        description: "searches a little of its turn",
    },
    Strength {
        name: "medium",
        spec: "greedy",
        description: "searches its whole turn",
    },
    Strength {
        name: "hard",
        spec: "ismcts",
        description: "information-set Monte Carlo tree search over whole turns",
    },
];

/// The largest ISMCTS budgets a client may ask for.
const MAX_ITERATIONS: u32 = 5_000;
const MAX_MILLIS: u128 = 2_000;
/// The largest greedy turn search a client may ask for.
const MAX_NODES: u32 = 200_000;

/// A bot seat's spec, checked.
#[derive(Debug, Clone)]
pub struct BotSeat {
    pub spec: BotSpec,
    /// As stored and shown: the strength name or the spec the client gave.
    pub spec_text: String,
}

impl BotSeat {
    /// `easy`, `medium`, `hard`, or a bot spec within the server's limits (one thread, a
    /// bounded budget).
    pub fn parse(text: &str) -> Result<Self, ApiError> {
        let text = text.trim();
        let spec_source = STRENGTHS
            .iter()
            .find(|s| s.name == text)
            .map_or(text, |s| s.spec);
        let spec = BotSpec::from_str(spec_source).map_err(|e| {
            ApiError::malformed(format!(
                "bot {:?}: {e}; or one of easy, medium, hard",
                crate::catalog::truncate(text, 40)
            ))
        })?;
        let too_big = match spec {
            BotSpec::Random => false,
            BotSpec::Greedy(c) => c.max_nodes > MAX_NODES,
            BotSpec::Ismcts(c) => {
                c.threads != 1
                    || c.turn_nodes > MAX_NODES
                    || match c.budget {
                        Budget::Iterations(n) => n > MAX_ITERATIONS,
                        Budget::Time(t) => t.as_millis() > MAX_MILLIS,
                    }
            }
        };
        if too_big {
            return Err(ApiError::malformed(format!(
                "bot {text:?} asks for more than a server seat allows: one thread, at most \
                 {MAX_ITERATIONS} iterations or {MAX_MILLIS} ms, at most {MAX_NODES} nodes"
            )));
        }
        Ok(BotSeat {
            spec,
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

    #[test]
    fn strengths_parse_and_limits_hold() {
        for s in STRENGTHS {
            BotSeat::parse(s.name).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        }
        assert!(BotSeat::parse("ismcts:iters=500").is_ok());
        assert!(BotSeat::parse("ismcts:iters=100000").is_err());
        assert!(BotSeat::parse("ismcts:threads=8").is_err());
        assert!(BotSeat::parse("ismcts:ms=60000").is_err());
        assert!(BotSeat::parse("greedy:nodes=10000000").is_err());
        assert!(BotSeat::parse("chess-engine").is_err());
    }
}
