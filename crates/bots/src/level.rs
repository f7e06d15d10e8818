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
    /// The games (by [`engine::Game::NAME`]) where another bot plays the level better
    /// within the same budget, each with its spec.
    pub per_game: &'static [(&'static str, &'static str)],
    pub description: &'static str,
}

/// `hard`'s rollout, with `$extra` parameters appended: greedy simulated two rounds
/// ahead, the candidates raced.
macro_rules! hard_rollout {
    ($($extra:literal)?) => {
        concat!("rollout:ms=100:eval=fitted:turns=8:prune=2:fill=yes" $(, $extra)?)
    };
}

/// `hard`: six candidates raced.
const HARD_BY_ROLLOUT: &str = hard_rollout!(":candidates=6");

/// `hard` in Valley: the rollout's default four candidates. Valley's decisions have fewer
/// actions worth comparing, and six candidates won less there (docs/bots.md, "Racing the
/// candidates"). The other seats' turns in the samples are played with the fitted
/// evaluation without the supply (`others=fast`): with it there too, the samples cost more
/// and `hard` won less; with it in the seat's own turns only, as much against three
/// `greedy` and more in the levels' round robin (docs/experiments/bots-valley.md, "Valley: the supply
/// for the seat's own turns").
const HARD_BY_ROLLOUT_VALLEY: &str = hard_rollout!(":others=fast");

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
        per_game: &[],
        description: "searches some of its turn, and errs one move in ten",
    },
    Level {
        name: "medium",
        spec: "greedy",
        per_game: &[],
        description: "searches its whole turn",
    },
    Level {
        name: "hard",
        // Greedy simulated ahead: 8 runs of decisions after the candidate's turn (two
        // rounds at four seats), in the same samples for every candidate, racing six
        // candidates (`prune=2`) and comparing every legal action where there are few
        // (`fill=yes`). What a move is worth shows only turns later (a bought card in the
        // next hands, a region closed by others), and the search over whole turns
        // (`ismcts:ms=100:eval=fitted`, `hard` until 2026-11-28) gained less on greedy in
        // every game (docs/bots.md, "Policy rollout", "Racing the candidates"). A time
        // budget, not samples: a person waits the same in every game.
        spec: HARD_BY_ROLLOUT,
        per_game: &[("valley", HARD_BY_ROLLOUT_VALLEY)],
        description: "searches 100 ms a move: compares its best moves by playing each \
                      two rounds ahead, greedily, in the same sampled deals",
    },
];

impl Level {
    /// The level called `name` (case-insensitive), if there is one.
    pub fn named(name: &str) -> Option<&'static Level> {
        LEVELS
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The spec the level plays `game` with.
    pub fn spec_for(&self, game: &str) -> &'static str {
        self.per_game
            .iter()
            .find(|(name, _)| *name == game)
            .map_or(self.spec, |&(_, spec)| spec)
    }

    /// The level's bot in `game`.
    pub fn bot_for(&self, game: &str) -> BotSpec {
        let spec = self.spec_for(game);
        spec.parse()
            .unwrap_or_else(|e| panic!("level {}: its spec {spec:?} is invalid: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_has_a_valid_spec_and_a_distinct_name() {
        for (i, level) in LEVELS.iter().enumerate() {
            for game in ["valdora", "valley", "pandoria"] {
                let spec = level.bot_for(game);
                assert!(!matches!(spec, BotSpec::Level(_)), "{}", level.name);
            }
            assert!(level
                .per_game
                .iter()
                .all(|(game, spec)| level.spec_for(game) == *spec));
            assert_eq!(level.spec_for("no such game"), level.spec);
            assert_eq!(level.name.parse::<BotSpec>(), Ok(BotSpec::Level(level)));
            assert_eq!(Level::named(&level.name.to_uppercase()), Some(level));
            assert!(LEVELS[..i].iter().all(|l| l.name != level.name));
        }
        assert_eq!(Level::named("expert"), None);
    }
}
