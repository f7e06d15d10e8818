use engine::{Game, NoEvents, Rng, Seat};
use rand::Rng as _;

use crate::{sample, Bot};

/// How far greedy looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookahead {
    /// One action: the position right after each legal action is evaluated.
    Ply,
    /// The rest of the bot's own run of decisions (in Valdora: its turn), searched depth
    /// first; the best reachable position decides the first action.
    Turn,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GreedyConfig {
    pub lookahead: Lookahead,
    /// Positions searched at most per decision with [`Lookahead::Turn`]; past it, the
    /// remaining positions are evaluated where they stand.
    pub max_nodes: u32,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            lookahead: Lookahead::Turn,
            max_nodes: 20_000,
        }
    }
}

/// Picks the action leading to the best [`Game::evaluate`] of its seat minus the best
/// opponent's; ties are broken at random.
#[derive(Debug)]
pub struct GreedyBot<G: Game> {
    config: GreedyConfig,
    rng: Rng,
    /// One legal-action buffer per search depth.
    legal: Vec<Vec<G::Action>>,
    nodes: u32,
}

impl<G: Game> GreedyBot<G> {
    pub fn new(config: GreedyConfig, seed: u64) -> Self {
        GreedyBot {
            config,
            rng: engine::rng_from_seed(seed),
            legal: Vec::new(),
            nodes: 0,
        }
    }

    fn value(state: &G, seat: Seat) -> f64 {
        let mine = state.evaluate(seat);
        let best_other = (0..state.seats() as Seat)
            .filter(|&s| s != seat)
            .map(|s| state.evaluate(s))
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other.is_finite() {
            mine - best_other
        } else {
            mine
        }
    }

    /// The best value `seat` can reach while it keeps the move.
    fn best(&mut self, state: &G, seat: Seat, depth: usize) -> f64 {
        if state.to_move() != Some(seat) || self.nodes >= self.config.max_nodes {
            return Self::value(state, seat);
        }
        if self.legal.len() <= depth {
            self.legal.resize_with(depth + 1, Vec::new);
        }
        let mut legal = std::mem::take(&mut self.legal[depth]);
        legal.clear();
        state.legal_actions(&mut legal);
        let mut best = f64::NEG_INFINITY;
        for &action in &legal {
            self.nodes += 1;
            let mut next = state.clone();
            next.apply_unchecked(action, &mut NoEvents);
            best = best.max(self.best(&next, seat, depth + 1));
        }
        self.legal[depth] = legal;
        best
    }
}

impl<G: Game> Bot<G> for GreedyBot<G> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        let (seat, known) = sample(state, &mut self.rng)?;
        let mut legal = Vec::new();
        known.legal_actions(&mut legal);
        self.nodes = 0;
        let mut best = f64::NEG_INFINITY;
        let mut chosen = None;
        let mut ties = 0u32;
        for &action in &legal {
            let mut next = known.clone();
            next.apply_unchecked(action, &mut NoEvents);
            let value = match self.config.lookahead {
                Lookahead::Ply => Self::value(&next, seat),
                Lookahead::Turn => self.best(&next, seat, 0),
            };
            // Values within a rounding error are ties; one of them is drawn uniformly.
            if value > best + 1e-9 {
                best = value;
                chosen = Some(action);
                ties = 1;
            } else if value >= best - 1e-9 {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    chosen = Some(action);
                }
            }
        }
        chosen
    }
}
