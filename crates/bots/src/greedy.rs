use engine::{Game, NoEvents, Rng, Seat};
use rand::Rng as _;

use crate::stop::StopCheck;
use crate::{sample, Bot, Evaluation, Stop};

/// How far greedy looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookahead {
    /// One action: the position right after each legal action is evaluated.
    Ply,
    /// The rest of the bot's own run of decisions (in Valdora: its turn), searched depth
    /// first; the best reachable position decides the first action.
    Turn,
}

/// How a turn search spends its positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// Depth first until the budget is spent; the positions left are evaluated where they
    /// stand. Exhaustive when the turn is small, but once it is not, the actions first in
    /// legal order get the whole budget and the later ones none.
    DepthFirst,
    /// Every position splits what is left of its budget evenly among its actions, after
    /// one position each; a position that cannot visit all its actions is evaluated where
    /// it stands. Every action gets its share however large the turn.
    Even,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GreedyConfig {
    pub lookahead: Lookahead,
    /// Positions searched at most per decision with [`Lookahead::Turn`].
    pub max_nodes: u32,
    pub spread: Spread,
    /// The estimate positions are judged by.
    pub evaluation: Evaluation,
    /// The chance, per decision, of a uniformly random legal action instead of the best
    /// one: how a level for beginners errs (0: never).
    pub blunders: f64,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            lookahead: Lookahead::Turn,
            max_nodes: 20_000,
            spread: Spread::Even,
            evaluation: Evaluation::Heuristic,
            blunders: 0.0,
        }
    }
}

/// Searches through one seat's own run of decisions (in Valdora, the rest of its turn) for
/// the best position it can reach while it keeps the move, judged by [`position_value`].
/// Shared by greedy and by ISMCTS's greedy rollouts.
#[derive(Debug)]
pub(crate) struct TurnSearch<G: Game> {
    /// One legal-action buffer per search depth.
    legal: Vec<Vec<G::Action>>,
    nodes: u32,
    max_nodes: u32,
    spread: Spread,
    evaluation: Evaluation,
    /// The actions from the search's start to the position being searched.
    path: Vec<G::Action>,
    /// How many of the best end positions to keep (0 for greedy's own decisions).
    keep: usize,
    /// The best distinct end positions found so far, best first.
    kept: Vec<TurnPlan<G>>,
    /// Plans of earlier searches, whose buffers the next plans reuse: a greedy rollout
    /// plays turn after turn, and would otherwise allocate a plan for each.
    spare: Vec<TurnPlan<G>>,
    /// Once reached, the positions left are evaluated where they stand.
    stop: StopCheck,
}

/// An end position of a turn search and the actions that reach it.
#[derive(Debug, Clone)]
pub(crate) struct TurnPlan<G: Game> {
    /// [`position_value`] of `end` for the seat that searched.
    pub value: f64,
    pub end: G,
    pub actions: Vec<G::Action>,
}

impl<G: Game> TurnSearch<G> {
    pub(crate) fn new(max_nodes: u32, spread: Spread, evaluation: Evaluation) -> Self {
        TurnSearch {
            legal: Vec::new(),
            nodes: 0,
            max_nodes,
            spread,
            evaluation,
            path: Vec::new(),
            keep: 0,
            kept: Vec::new(),
            spare: Vec::new(),
            stop: StopCheck::default(),
        }
    }

    /// The stop of the decision the next searches serve.
    pub(crate) fn set_stop(&mut self, stop: &Stop) {
        self.stop = StopCheck::new(stop);
    }

    pub(crate) fn set_budget(&mut self, max_nodes: u32, spread: Spread) {
        self.max_nodes = max_nodes;
        self.spread = spread;
    }

    pub(crate) fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// Positions searched since the last [`TurnSearch::start`].
    pub(crate) fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Begins a new decision: the node budget is spent per decision.
    fn start(&mut self, keep: usize) {
        self.nodes = 0;
        self.path.clear();
        self.keep = keep;
        self.spare.append(&mut self.kept);
    }

    /// The best value `seat` can reach from `state` while it keeps the move, searching at
    /// most `budget` positions with [`Spread::Even`] (with [`Spread::DepthFirst`], until
    /// the decision's budget is spent).
    fn best(&mut self, state: &G, seat: Seat, depth: usize, budget: u32) -> f64 {
        let spent = match self.spread {
            Spread::DepthFirst => self.nodes >= self.max_nodes,
            Spread::Even => budget == 0,
        };
        // Past the stop, positions are evaluated where they stand; but a search that
        // keeps plans still looks at every first action, so that it has a plan.
        let spent = spent || ((depth > 0 || self.keep == 0) && self.stop.reached());
        if state.to_move() != Some(seat) || spent {
            return self.leaf(state, seat);
        }
        if self.legal.len() <= depth {
            self.legal.resize_with(depth + 1, Vec::new);
        }
        let mut legal = std::mem::take(&mut self.legal[depth]);
        legal.clear();
        state.legal_actions(&mut legal);
        // A search that keeps plans always looks at every first action, so that a plan
        // is never empty.
        let affordable = legal.len() <= budget as usize || (depth == 0 && self.keep > 0);
        let best = if self.spread == Spread::Even && !affordable {
            self.leaf(state, seat)
        } else {
            let mut best = f64::NEG_INFINITY;
            for (i, &action) in legal.iter().enumerate() {
                self.nodes += 1;
                let mut next = state.clone();
                next.apply_unchecked(action, &mut NoEvents);
                let share = share(budget, legal.len(), i);
                self.path.push(action);
                best = best.max(self.best(&next, seat, depth + 1, share));
                self.path.pop();
            }
            best
        };
        self.legal[depth] = legal;
        best
    }

    fn leaf(&mut self, state: &G, seat: Seat) -> f64 {
        let value = position_value(state, seat, self.evaluation);
        let full = self.kept.len() >= self.keep;
        if self.keep == 0 || (full && self.kept.last().is_some_and(|w| value <= w.value)) {
            return value;
        }
        // Different orders of the same actions often reach the same position.
        if self.kept.iter().any(|k| k.end == *state) {
            return value;
        }
        // The worst plan's buffers, or a spare plan's, are reused for the new one.
        let reused = if full {
            Some(self.kept.pop().expect("full and keep > 0"))
        } else {
            self.spare.pop()
        };
        let plan = match reused {
            Some(mut plan) => {
                plan.value = value;
                plan.end.clone_from(state);
                plan.actions.clear();
                plan.actions.extend_from_slice(&self.path);
                plan
            }
            None => TurnPlan {
                value,
                end: state.clone(),
                actions: self.path.clone(),
            },
        };
        let at = self.kept.partition_point(|k| k.value >= value);
        self.kept.insert(at, plan);
        value
    }

    /// Plays out the run of decisions of the seat to move in `state` the way greedy
    /// would, ending where that seat gives up the move (or the game ends).
    pub(crate) fn complete(&mut self, state: &mut G) {
        if self.plans(state, 1) > 0 {
            state.clone_from(&self.kept[0].end);
        }
    }

    /// Searches the run of decisions of the seat to move in `state` and keeps its `keep`
    /// best distinct end positions, best first ([`TurnSearch::kept`]); returns how many.
    pub(crate) fn plans(&mut self, state: &G, keep: usize) -> usize {
        let Some(seat) = state.to_move() else {
            self.spare.append(&mut self.kept);
            return 0;
        };
        self.start(keep);
        self.best(state, seat, 0, self.max_nodes);
        self.kept.len()
    }

    /// The plans found by the last [`TurnSearch::plans`], best first.
    pub(crate) fn kept(&self) -> &[TurnPlan<G>] {
        &self.kept
    }
}

/// The budget of action `i` of `n` when a position with `budget` positions visits each
/// of its `n` actions once and splits the rest evenly.
fn share(budget: u32, n: usize, i: usize) -> u32 {
    let n = n as u32;
    let rest = budget.saturating_sub(n);
    rest / n + u32::from((i as u32) < rest % n)
}

/// How far a game ended by its rules stands above (won) or below (lost) every running
/// position in [`position_value`].
const DECIDED: f64 = 1e6;

/// Greedy's value of a position for `seat`: its `evaluation` minus the best one among
/// the other seats; a game over by its rules is first of all won or lost.
///
/// Why the outcome comes first: a running position's evaluation adds credit for progress
/// (held commissions, equipment) that a finished one no longer has. Compared by the margin
/// alone, a leader whose credit exceeded its rivals' saw ending the game it wins as a loss
/// of margin and never ended it: in a three-player Valdora of three greedies (seed 9 of
/// `tabletop arena`), the leader, last in the round, stood on the patron house of a
/// commission it could complete, which would have ended the game, and passed, for 30,000
/// actions.
///
/// A stalled game ([`Game::stalled`]) is judged by the margin in points as it stands,
/// ended or not, so that a seat behind, which would lose by ending it, still prefers
/// scoring (and ending it) to walking for ever: in seed 20910 of three greedies in
/// three-player Valdora, only the two trailing seats held commissions of the last
/// craftsman colour, and they walked and passed for 20,000 turns.
pub fn position_value<G: Game>(state: &G, seat: Seat, evaluation: Evaluation) -> f64 {
    if state.stalled() {
        return margin(state, seat, |s| state.points_now(s));
    }
    let margin = margin(state, seat, |s| evaluation.of(state, s));
    if state.to_move().is_some() {
        return margin;
    }
    match state.outcome() {
        Some(outcome) if !outcome.truncated => {
            if outcome.winners().any(|s| s == seat) {
                DECIDED + margin
            } else {
                -DECIDED + margin
            }
        }
        _ => margin,
    }
}

/// `seat`'s `points` minus the best other seat's (its own points in a one-seat game).
fn margin<G: Game>(state: &G, seat: Seat, points: impl Fn(Seat) -> f64) -> f64 {
    let best_other = (0..state.seats() as Seat)
        .filter(|&s| s != seat)
        .map(&points)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        points(seat) - best_other
    } else {
        points(seat)
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
            search: TurnSearch::new(config.max_nodes, config.spread, config.evaluation),
        }
    }
}

impl<G: Game> Bot<G> for GreedyBot<G> {
    /// Once `stop` is reached, the first actions not searched yet are judged by the
    /// position each leads to: the choice is the best found so far.
    fn decide(&mut self, state: &G, stop: &Stop) -> Option<G::Action> {
        let (seat, known) = sample(state, &mut self.rng)?;
        let mut legal = Vec::new();
        known.legal_actions(&mut legal);
        // The coin is drawn only when blunders are allowed, so that a greedy without them
        // makes the same random draws (and decisions) as before they existed.
        if self.config.blunders > 0.0 && self.rng.gen_bool(self.config.blunders) {
            return legal.get(self.rng.gen_range(0..legal.len())).copied();
        }
        self.search.set_stop(stop);
        self.search.start(0);
        let mut best = f64::NEG_INFINITY;
        let mut chosen = None;
        let mut ties = 0u32;
        for (i, &action) in legal.iter().enumerate() {
            let mut next = known.clone();
            next.apply_unchecked(action, &mut NoEvents);
            let value = match self.config.lookahead {
                Lookahead::Ply => position_value(&next, seat, self.config.evaluation),
                Lookahead::Turn => {
                    let budget = share(self.config.max_nodes, legal.len(), i);
                    self.search.best(&next, seat, 0, budget)
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::playout::random_playout;
    use engine::rng_from_seed;
    use valdora::{Valdora, ValdoraConfig};

    /// Turn starts and mid-turn positions of random 4-player games.
    fn positions() -> Vec<Valdora> {
        let mut out = Vec::new();
        for seed in 0..4u64 {
            for depth in [0u64, 7, 150, 600] {
                let mut g = Valdora::new(&ValdoraConfig::default(), seed).expect("valid");
                random_playout(&mut g, &mut rng_from_seed(seed), &mut Vec::new(), depth);
                if g.to_move().is_some() {
                    out.push(g);
                }
            }
        }
        out
    }

    #[test]
    fn plans_are_distinct_legal_and_best_first() {
        for spread in [Spread::Even, Spread::DepthFirst] {
            let mut search = TurnSearch::<Valdora>::new(3000, spread, Evaluation::Heuristic);
            for start in positions() {
                let seat = start.to_move().expect("not over");
                let found = search.plans(&start, 6);
                assert!(found >= 1, "{spread:?}: a position with a move has a plan");
                let plans = search.kept().to_vec();
                search.start(0);
                let best = search.best(&start, seat, 0, 3000);
                assert_eq!(
                    plans[0].value, best,
                    "{spread:?}: the first plan is the best"
                );
                for (i, plan) in plans.iter().enumerate() {
                    assert!(!plan.actions.is_empty());
                    if i > 0 {
                        assert!(plans[i - 1].value >= plan.value, "best first");
                    }
                    assert!(plans[..i].iter().all(|p| p.end != plan.end), "distinct");
                    // The plan's actions, applied with checks, reach its end position.
                    let mut replay = start.clone();
                    for &action in &plan.actions {
                        replay.apply(action, &mut NoEvents).expect("a legal plan");
                    }
                    assert!(replay == plan.end);
                    assert_eq!(
                        position_value(&replay, seat, Evaluation::Heuristic),
                        plan.value
                    );
                }
            }
        }
    }

    /// A greedy that always blunders plays a random legal action: over seeds, several
    /// different ones.
    #[test]
    fn blunders_are_random_legal_actions() {
        let stop = Stop::never();
        for start in positions() {
            let mut legal = Vec::new();
            start.legal_actions(&mut legal);
            let decide = |seed: u64| {
                let config = GreedyConfig {
                    max_nodes: 200,
                    blunders: 1.0,
                    ..GreedyConfig::default()
                };
                GreedyBot::<Valdora>::new(config, seed)
                    .decide(&start, &stop)
                    .expect("a move")
            };
            let mut chosen: Vec<_> = (0..40).map(decide).collect();
            assert!(chosen.iter().all(|a| legal.contains(a)));
            chosen.sort_by_key(|a| format!("{a:?}"));
            chosen.dedup();
            if legal.len() > 2 {
                assert!(chosen.len() > 1, "40 random choices among {}", legal.len());
            }
        }
    }

    #[test]
    fn even_spread_never_searches_more_than_its_budget() {
        let mut search = TurnSearch::<Valdora>::new(0, Spread::Even, Evaluation::Heuristic);
        for start in positions() {
            let seat = start.to_move().expect("not over");
            for budget in [1u32, 40, 2000] {
                search.start(0);
                search.best(&start, seat, 0, budget);
                assert!(search.nodes() <= budget, "{} > {budget}", search.nodes());
            }
        }
    }
}
