use engine::{playout, Game, Rng};

use crate::{sample, Bot};

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
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        let (_, known) = sample(state, &mut self.rng)?;
        playout::random_action(&known, &mut self.rng, &mut self.legal)
    }
}
