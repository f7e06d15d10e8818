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

/// Positions reached by uniformly random play from `config`, one per seed, each stopped at
/// the first state where `stop(state, actions applied)` holds: the mid-game positions that
/// benchmarks measure. Panics if a game ends before `stop` holds (a bad benchmark setup).
pub fn random_positions<G: Game>(
    config: &G::Config,
    seeds: std::ops::Range<u64>,
    mut stop: impl FnMut(&G, u64) -> bool,
) -> Vec<G> {
    let mut buf = Vec::new();
    seeds
        .map(|seed| {
            let mut state = G::new(config, seed).expect("a valid config");
            let mut rng = crate::rng_from_seed(seed);
            let mut applied = 0;
            while !stop(&state, applied) {
                let action = random_action(&state, &mut rng, &mut buf)
                    .expect("the game ended before the position was reached");
                state.apply_unchecked(action, &mut NoEvents);
                applied += 1;
            }
            state
        })
        .collect()
}

/// Plays one whole uniformly random game from `config` and `seed`; returns the number of
/// actions applied.
pub fn random_game<G: Game>(config: &G::Config, seed: u64, buf: &mut Vec<G::Action>) -> u64 {
    let mut state = G::new(config, seed).expect("a valid config");
    random_playout(&mut state, &mut crate::rng_from_seed(seed), buf, u64::MAX)
}
