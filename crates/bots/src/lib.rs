//! Computer opponents for every game of the [`engine::Game`] contract.
//!
//! Every bot decides from what its seat may know: the first thing it does with the
//! state it is given is [`Game::determinize`] it for its seat, and it never reads the
//! original again. With the same seed, two states that give the seat the same view get
//! the same decision (tested in `tests/fairness.rs`).
//!
//! - [`RandomBot`]: uniform over the legal actions;
//! - [`GreedyBot`]: lookahead over the bot's own next decisions with [`Game::evaluate`];
//! - [`Ismcts`]: Information Set MCTS (Cowling, Powley & Whitehouse 2012);
//! - [`RolloutBot`]: greedy improved by simulating it (policy rollout).
//!
//! [`hint`] answers what the hard bot would do for a seat, and why: the top few root
//! actions of its search with their estimated values, from that seat's view only.
//!
//! Bots are named on the command line by a [`BotSpec`]: `random`, `greedy`,
//! `greedy:lookahead=ply`, `ismcts:iters=1000:rollout=20`, … or a [`Level`] for people:
//! `easy`, `medium`, `hard` (see `docs/bots.md`).

#![forbid(unsafe_code)]

mod evaluation;
mod greedy;
mod hint;
mod ismcts;
mod level;
mod random;
mod reward;
mod rollout;
mod spec;
mod stop;

pub use evaluation::Evaluation;
pub use greedy::{position_value, GreedyBot, GreedyConfig, Lookahead, Spread};
pub use hint::{hard_hint, hard_search, hint, Hint, HintAction, HintError, DEFAULT_TOP, MAX_TOP};
pub use ismcts::{Budget, Ismcts, IsmctsConfig, Rollout, SearchStats, Step};
pub use level::{Level, LEVELS};
pub use random::RandomBot;
pub use reward::{outcome_rewards, position_rewards};
pub use rollout::{RolloutBot, RolloutConfig};
pub use spec::{BotError, BotSpec};
pub use stop::Stop;

use engine::{Game, Rng};

/// A computer player.
pub trait Bot<G: Game>: Send {
    /// The action for the seat to move in `state`, or `None` once the game is over,
    /// decided within `stop`: once it is reached the bot answers at once with the best
    /// action it has found so far (always a legal action while the game goes on).
    ///
    /// A bot uses `state` only through `to_move` and `determinize` for the seat to move,
    /// so that hidden information cannot reach its decision.
    fn decide(&mut self, state: &G, stop: &Stop) -> Option<G::Action>;

    /// [`Bot::decide`] with no deadline: the bot spends its whole budget, so that with a
    /// seed and an iteration budget its decision is reproducible.
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        self.decide(state, &Stop::never())
    }
}

/// The seat to move and a sample of the state as that seat may know it.
fn sample<G: Game>(state: &G, rng: &mut Rng) -> Option<(engine::Seat, G)> {
    let seat = state.to_move()?;
    Some((seat, state.determinize(Some(seat), rng)))
}

/// Seeds derived from one seed (threads, decisions) with a fixed odd mixer.
fn derive_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
