//! The strengths offered to people: `easy`, `medium` and `hard`, defined here once. Their
//! names are accepted wherever a bot spec is (`tabletop arena`, `tabletop play`, the
//! engine protocol, the server), and `docs/bots.md` measures them against each other.

use crate::BotSpec;

/// A named strength and the bot spec it plays with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    /// A bot spec without level names; each level's budget suits live play (a decision
    /// of `hard` takes at most 100 ms, `easy` and `medium` a few).
    pub spec: &'static str,
    pub description: &'static str,
}

/// The levels, weakest first.
pub const LEVELS: [Level; 3] = [
    Level {
        name: "easy",
        // Not `greedy:lookahead=ply`: in Valdora a move pays only with the steps after it,
        // so one-ply greedy loses to random play and, three or four of it at a table,
        // loops for ever in many games. Not a smaller turn search alone either: in Valdora
        // 100 positions play about as well as 20,000. A random move one decision in ten
        // makes it lose to `medium` in every game while it still beats random play
        // (docs/bots.md, "Levels").
        spec: "greedy:nodes=1000:blunders=0.1",
        description: "searches some of its turn, and errs one move in ten",
    },
    Level {
        name: "medium",
        spec: "greedy",
        description: "searches its whole turn",
    },
    Level {
        name: "hard",
        // A time budget, not iterations: a Valdora iteration is cheap and a Pandoria one
        // dear, and a person waits the same in every game. The fitted evaluation is the
        // heuristic in Valdora and Pandoria, and in Valley weights tuned by play that
        // made the search win more (docs/bots.md, "Fitted evaluations").
        spec: "ismcts:ms=100:eval=fitted",
        description: "information-set Monte Carlo tree search over whole turns, 100 ms a move",
    },
];

impl Level {
    /// The level called `name` (case-insensitive), if there is one.
    pub fn named(name: &str) -> Option<&'static Level> {
        LEVELS
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The level's bot.
    pub fn bot(&self) -> BotSpec {
        self.spec.parse().unwrap_or_else(|e| {
            panic!(
                "level {}: its spec {:?} is invalid: {e}",
                self.name, self.spec
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_has_a_valid_spec_and_a_distinct_name() {
        for (i, level) in LEVELS.iter().enumerate() {
            let spec = level.bot();
            assert_eq!(level.name.parse::<BotSpec>(), Ok(spec), "{}", level.name);
            assert_eq!(Level::named(&level.name.to_uppercase()), Some(level));
            assert!(LEVELS[..i].iter().all(|l| l.name != level.name));
        }
        assert_eq!(Level::named("expert"), None);
    }
}
