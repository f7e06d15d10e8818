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

/// Searches depth first through one seat's own run of decisions (in Valdora, the rest of
/// its turn) for the best position it can reach while it keeps the move, judged by
/// [`position_value`]. Shared by greedy and by ISMCTS's greedy rollouts.
#[derive(Debug)]
pub(crate) struct TurnSearch<G: Game> {
    /// One legal-action buffer per search depth.
    legal: Vec<Vec<G::Action>>,
    nodes: u32,
    max_nodes: u32,
    best_value: f64,
    /// The best end position found so far, kept only by [`TurnSearch::complete`].
    best_leaf: Option<G>,
    keep_leaf: bool,
}

impl<G: Game> TurnSearch<G> {
    pub(crate) fn new(max_nodes: u32) -> Self {
        TurnSearch {
            legal: Vec::new(),
            nodes: 0,
            max_nodes,
            best_value: f64::NEG_INFINITY,
            best_leaf: None,
            keep_leaf: false,
        }
    }

    pub(crate) fn set_max_nodes(&mut self, max_nodes: u32) {
        self.max_nodes = max_nodes;
    }

    /// Positions searched since the last [`TurnSearch::start`].
    pub(crate) fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Begins a new decision: the node budget is spent per decision.
    fn start(&mut self) {
        self.nodes = 0;
        self.best_value = f64::NEG_INFINITY;
        self.keep_leaf = false;
    }

    /// The best value `seat` can reach from `state` while it keeps the move.
    fn best(&mut self, state: &G, seat: Seat, depth: usize) -> f64 {
        if state.to_move() != Some(seat) || self.nodes >= self.max_nodes {
            let value = position_value(state, seat);
            if self.keep_leaf && value > self.best_value {
                self.best_value = value;
                self.best_leaf = Some(state.clone());
            }
            return value;
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

    /// Plays out the run of decisions of the seat to move in `state` the way greedy
    /// would, ending where that seat gives up the move (or the game ends).
    pub(crate) fn complete(&mut self, state: &mut G) {
        let Some(seat) = state.to_move() else { return };
        self.start();
        self.keep_leaf = true;
        self.best(state, seat, 0);
        if let Some(leaf) = self.best_leaf.take() {
            *state = leaf;
        }
    }
}

/// `evaluate` of `seat` minus the best evaluation among the other seats.
fn position_value<G: Game>(state: &G, seat: Seat) -> f64 {
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

/// Picks the action leading to the best [`Game::evaluate`] of its seat minus the best
/// opponent's; ties are broken at random.
#[derive(Debug)]
pub struct GreedyBot<G: Game> {
    config: GreedyConfig,
    rng: Rng,
    search: TurnSearch<G>,
}

impl<G: Game> GreedyBot<G> {
    pub fn new(config: GreedyConfig, seed: u64) -> Self {
        GreedyBot {
            config,
            rng: engine::rng_from_seed(seed),
            search: TurnSearch::new(config.max_nodes),
        }
    }
}

impl<G: Game> Bot<G> for GreedyBot<G> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        let (seat, known) = sample(state, &mut self.rng)?;
        let mut legal = Vec::new();
        known.legal_actions(&mut legal);
        self.search.start();
        let mut best = f64::NEG_INFINITY;
        let mut chosen = None;
        let mut ties = 0u32;
        for &action in &legal {
            let mut next = known.clone();
            next.apply_unchecked(action, &mut NoEvents);
            let value = match self.config.lookahead {
                Lookahead::Ply => position_value(&next, seat),
                Lookahead::Turn => self.search.best(&next, seat, 0),
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
