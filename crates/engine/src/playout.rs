//! Uniform random play: the simulator's and the random bot's move choice.

use rand::Rng as _;

use crate::{Game, NoEvents, Rng};

/// A uniformly random legal action, or `None` when the game is over. `buf` is scratch
/// space reused across calls so that playouts do not allocate.
#[inline]
pub fn random_action<G: Game>(
    state: &G,
    rng: &mut Rng,
    buf: &mut Vec<G::Action>,
) -> Option<G::Action> {
    buf.clear();
    state.legal_actions(buf);
    if buf.is_empty() {
        None
    } else {
        Some(buf[rng.gen_range(0..buf.len())])
    }
}

/// Plays uniformly random legal actions until the game is over or `max_actions` have been
/// applied. Returns the number of actions applied.
pub fn random_playout<G: Game>(
    state: &mut G,
    rng: &mut Rng,
    buf: &mut Vec<G::Action>,
    max_actions: u64,
) -> u64 {
    let mut applied = 0;
    while applied < max_actions {
        let Some(action) = random_action(state, rng, buf) else {
            break;
        };
        state.apply_unchecked(action, &mut NoEvents);
        applied += 1;
    }
    applied
}
