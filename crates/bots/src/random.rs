use engine::{playout, Game, Rng};

use crate::{sample, Bot, Stop};

/// Uniformly random over the legal actions.
#[derive(Debug)]
pub struct RandomBot<G: Game> {
    rng: Rng,
    legal: Vec<G::Action>,
}

impl<G: Game> RandomBot<G> {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: engine::rng_from_seed(seed),
            legal: Vec::new(),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot<G> {
    /// Deciding takes one draw: there is nothing to stop.
    fn decide(&mut self, state: &G, _stop: &Stop) -> Option<G::Action> {
        let (_, known) = sample(state, &mut self.rng)?;
        playout::random_action(&known, &mut self.rng, &mut self.legal)
    }
}
