//! Single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012, "Information
//! Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)), for any number of seats.
//!
//! One tree per search, whose nodes are reached by sequences of actions. Every iteration
//! draws a fresh determinization of the root for the searching seat and walks the tree
//! with it, so that only actions legal in that sample are considered; a child's
//! *availability* counts the visits to its parent in which it was legal, and replaces the
//! parent's visit count in UCB1. A node's reward is the share of the victory won by the
//! seat that chose the action leading to it (the reward is a vector, one entry per
//! seat, and each seat maximises its own). Rollouts play uniformly random actions, up to
//! an optional cut-off after which the position is scored with [`Game::evaluate`].
//!
//! Root parallelisation: each thread searches its own tree with its own seed and share of
//! the iterations; the root children's visits are summed by action. For a fixed iteration
//! budget and thread count the decision depends only on the seed.

use std::time::{Duration, Instant};

use engine::{Game, NoEvents, Rng, Seat};
use rand::Rng as _;

use crate::greedy::{Spread, TurnSearch};

use crate::reward::position_rewards;
use crate::stop::StopCheck;
use crate::{derive_seed, sample, Bot, Evaluation, Stop};

const NONE: u32 = u32::MAX;

/// When a search stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations in all (split over the threads): deterministic under a seed.
    Iterations(u32),
    /// Until this much wall-clock time has passed (not reproducible).
    Time(Duration),
}

impl Budget {
    /// What a decision started at `start` within `stop` may spend: a count of iterations
    /// (unbounded with a time budget) and the stop, moved earlier by a time budget.
    pub(crate) fn limits(self, stop: &Stop, start: Instant) -> (u32, Stop) {
        match self {
            Budget::Iterations(n) => (n, stop.clone()),
            Budget::Time(d) => (u32::MAX, stop.clone().or_at(start + d)),
        }
    }
}

/// How an iteration continues after leaving the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random actions, at most this many (`None`: to the end of the game),
    /// then the position is scored with `Game::evaluate`.
    Random(Option<u32>),
    /// The next `turns` runs of decisions (turns, in Valdora) are played the way greedy
    /// plays them (each a turn search of `turn_nodes` positions), then the position is
    /// scored with `Game::evaluate`.
    Greedy { turns: u32 },
}

/// What one edge of the tree is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// One atomic action.
    Action,
    /// A whole run of decisions of one seat (a turn, in Valdora): a node's children are
    /// the best distinct end positions of that seat's turn search in the sample where
    /// the node was expanded: `plans` of them for the searching seat, `replies` for the
    /// others.
    Turn {
        plans: u32,
        replies: u32,
        /// Positions searched for the root's plans (deeper nodes use `turn_nodes`): the
        /// decision at hand deserves the search greedy gives it.
        root_nodes: u32,
    },
}

impl Step {
    /// The default turn step: 8 plans for the searching seat, 2 for each other seat, and
    /// the root's plans searched with greedy's budget of 20,000 positions.
    pub const TURN: Step = Step::Turn {
        plans: 8,
        replies: 2,
        root_nodes: 20_000,
    };
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsmctsConfig {
    pub budget: Budget,
    /// The UCB1 exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// What one edge of the tree is.
    pub step: Step,
    /// Positions searched per turn search (greedy rollouts and [`Step::Turn`] expansions),
    /// spread evenly among the actions.
    pub turn_nodes: u32,
    /// What follows the tree before the position is scored.
    pub rollout: Rollout,
    /// Points that count as e:1 odds when evaluations are turned into win chances;
    /// `None`: the game's own [`Game::EVALUATION_TEMPERATURE`].
    pub temperature: Option<f64>,
    /// The estimate turn searches and leaves are scored with.
    pub evaluation: Evaluation,
    pub threads: usize,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.15,
            step: Step::TURN,
            turn_nodes: 1000,
            rollout: Rollout::Random(Some(0)),
            temperature: None,
            evaluation: Evaluation::Heuristic,
            threads: 1,
        }
    }
}

/// What the last search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SearchStats {
    pub iterations: u64,
    /// Actions applied while walking the tree.
    pub tree_actions: u64,
    /// Actions applied outside the tree: in rollouts and in turn searches.
    pub rollout_actions: u64,
    pub seconds: f64,
}

#[derive(Debug, Clone, Copy)]
struct Node<A> {
    /// The action leading here (meaningless at the root).
    action: A,
    /// With [`Step::Turn`]: the actions leading here, `plan_len` of them from
    /// `plan_start` in the searcher's `plan_actions`; `action` is the first.
    plan_start: u32,
    plan_len: u32,
    /// The seat that chose `action`; its reward is accumulated here.
    mover: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    availability: u32,
    reward: f64,
}

impl<A> Node<A> {
    fn new(action: A, mover: Seat, availability: u32) -> Self {
        Node {
            action,
            plan_start: 0,
            plan_len: 0,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            availability,
            reward: 0.0,
        }
    }
}

/// One tree and its scratch buffers, reused from search to search.
#[derive(Debug)]
struct Searcher<G: Game> {
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    rewards: Vec<f64>,
    turn_search: TurnSearch<G>,
    plan_actions: Vec<G::Action>,
    /// A sample's position after the plan being checked, and after the best available
    /// plan so far: the chosen child's position is then at hand, not played again.
    checked: Option<G>,
    chosen: Option<G>,
    stats: SearchStats,
    /// The decision's stop (and its time budget): checked every iteration and rollout
    /// step; an iteration it interrupts is scored where it stands.
    stop: StopCheck,
}

impl<G: Game> Searcher<G> {
    fn new() -> Self {
        Searcher {
            nodes: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            untried: Vec::new(),
            rewards: Vec::new(),
            turn_search: TurnSearch::new(0, Spread::Even, Evaluation::Heuristic),
            plan_actions: Vec::new(),
            checked: None,
            chosen: None,
            stats: SearchStats::default(),
            stop: StopCheck::default(),
        }
    }

    /// Searches `root` for `seat` (the seat to move) until `iterations` are done or
    /// `stop` (which holds the time budget) is reached; the first iteration runs in any
    /// case, so that a search stopped before it began still has a move to answer.
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        first_action: G::Action,
        config: &IsmctsConfig,
        (iterations, stop): (u32, &Stop),
        rng: &mut Rng,
    ) {
        self.nodes.clear();
        self.nodes.push(Node::new(first_action, seat, 0));
        self.plan_actions.clear();
        self.rewards.clear();
        self.rewards.resize(root.seats(), 0.0);
        self.turn_search.set_budget(config.turn_nodes, Spread::Even);
        self.turn_search.set_evaluation(config.evaluation);
        self.turn_search.set_stop(stop);
        self.stop = StopCheck::new(stop);
        self.stats = SearchStats::default();
        let start = Instant::now();
        let mut done: u32 = 0;
        while done < iterations && (done == 0 || !self.stop.reached()) {
            let mut state = root.determinize(Some(seat), rng);
            self.path.clear();
            self.path.push(0);
            match config.step {
                Step::Action => self.descend_by_actions(&mut state, config, rng),
                Step::Turn {
                    plans,
                    replies,
                    root_nodes,
                } => self.descend_by_turns(&mut state, seat, (plans, replies, root_nodes), config),
            }
            self.rollout(&mut state, config, rng);
            self.backpropagate(&state, config);
            done += 1;
        }
        self.stats.iterations = u64::from(done);
        self.stats.seconds = start.elapsed().as_secs_f64();
    }

    /// UCB1 with the child's availability in place of its parent's visits.
    fn ucb(child: &Node<G::Action>, exploration: f64) -> f64 {
        let visits = f64::from(child.visits);
        child.reward / visits + exploration * (f64::from(child.availability).ln() / visits).sqrt()
    }

    /// Links a new child first among `parent`'s children.
    fn add_child(&mut self, parent: u32, mut child: Node<G::Action>) -> u32 {
        let id = self.nodes.len() as u32;
        child.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes[parent as usize].first_child = id;
        self.nodes.push(child);
        id
    }

    /// Selection and expansion, one atomic action per edge.
    fn descend_by_actions(&mut self, state: &mut G, config: &IsmctsConfig, rng: &mut Rng) {
        let mut node = 0u32;
        while let Some(mover) = state.to_move() {
            self.legal.clear();
            state.legal_actions(&mut self.legal);
            self.untried.clear();
            self.untried.extend_from_slice(&self.legal);
            // Children legal in this sample: count availability, pick by UCB1.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                let c = &mut self.nodes[child as usize];
                if let Some(at) = self.untried.iter().position(|a| *a == c.action) {
                    self.untried.swap_remove(at);
                    c.availability += 1;
                    let score = Self::ucb(c, config.exploration);
                    if score > best_score {
                        best_score = score;
                        best = child;
                    }
                }
                child = c.next_sibling;
            }
            if !self.untried.is_empty() {
                let action = self.untried[rng.gen_range(0..self.untried.len())];
                let id = self.add_child(node, Node::new(action, mover, 1));
                state.apply_unchecked(action, &mut NoEvents);
                self.stats.tree_actions += 1;
                self.path.push(id);
                return;
            }
            node = best;
            state.apply_unchecked(self.nodes[node as usize].action, &mut NoEvents);
            self.stats.tree_actions += 1;
            self.path.push(node);
        }
    }

    /// Selection and expansion, one run of decisions of one seat per edge. A child is
    /// available when its plan is legal, action by action, in this sample. A node none
    /// of whose children is available is expanded with the plans of a turn search in
    /// this sample; the first unvisited available child (best plan first) is the leaf.
    fn descend_by_turns(
        &mut self,
        state: &mut G,
        searcher: Seat,
        (plans, replies, root_nodes): (u32, u32, u32),
        config: &IsmctsConfig,
    ) {
        let mut node = 0u32;
        while let Some(mover) = state.to_move() {
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                if self.plan_applies(child, state) {
                    let c = &mut self.nodes[child as usize];
                    c.availability += 1;
                    let score = if c.visits == 0 {
                        f64::INFINITY
                    } else {
                        Self::ucb(c, config.exploration)
                    };
                    // Of the unvisited children, the first listed (the best plan) is taken.
                    if score > best_score {
                        best_score = score;
                        best = child;
                        std::mem::swap(&mut self.checked, &mut self.chosen);
                    }
                }
                child = self.nodes[child as usize].next_sibling;
            }
            if best == NONE {
                let keep = if mover == searcher { plans } else { replies };
                let nodes = if node == 0 {
                    root_nodes
                } else {
                    config.turn_nodes
                };
                self.turn_search.set_budget(nodes, Spread::Even);
                let found = self.turn_search.plans(state, keep as usize);
                self.stats.rollout_actions += u64::from(self.turn_search.nodes());
                // Linked in reverse so that the best plan comes first.
                for i in (0..found).rev() {
                    let plan = &self.turn_search.kept()[i];
                    let start = self.plan_actions.len() as u32;
                    self.plan_actions.extend_from_slice(&plan.actions);
                    let mut child = Node::new(plan.actions[0], mover, 1);
                    child.plan_start = start;
                    child.plan_len = plan.actions.len() as u32;
                    best = self.add_child(node, child);
                }
                if best == NONE {
                    return;
                }
                state.clone_from(&self.turn_search.kept()[0].end);
                self.stats.tree_actions += u64::from(self.nodes[best as usize].plan_len);
                self.path.push(best);
                return;
            }
            let leaf = self.nodes[best as usize].visits == 0;
            if let Some(chosen) = self.chosen.as_mut() {
                std::mem::swap(state, chosen);
            }
            self.stats.tree_actions += u64::from(self.nodes[best as usize].plan_len);
            self.path.push(best);
            if leaf {
                return;
            }
            node = best;
        }
    }

    /// Whether `child`'s plan is legal, action by action, from `state`; if so, `checked`
    /// holds the position it leads to.
    fn plan_applies(&mut self, child: u32, state: &G) -> bool {
        let c = &self.nodes[child as usize];
        let plan = c.plan_start as usize..(c.plan_start + c.plan_len) as usize;
        let sample = match &mut self.checked {
            Some(sample) => {
                sample.clone_from(state);
                sample
            }
            None => self.checked.insert(state.clone()),
        };
        for &action in &self.plan_actions[plan] {
            self.legal.clear();
            sample.legal_actions(&mut self.legal);
            if !self.legal.contains(&action) {
                return false;
            }
            sample.apply_unchecked(action, &mut NoEvents);
        }
        true
    }

    fn rollout(&mut self, state: &mut G, config: &IsmctsConfig, rng: &mut Rng) {
        let played = match config.rollout {
            Rollout::Random(limit) => {
                let mut played = 0u32;
                while limit.is_none_or(|limit| played < limit) && !self.stop.reached() {
                    self.legal.clear();
                    state.legal_actions(&mut self.legal);
                    if self.legal.is_empty() {
                        break;
                    }
                    let action = self.legal[rng.gen_range(0..self.legal.len())];
                    state.apply_unchecked(action, &mut NoEvents);
                    played += 1;
                }
                u64::from(played)
            }
            Rollout::Greedy { turns } => {
                self.turn_search.set_budget(config.turn_nodes, Spread::Even);
                let mut searched = 0u64;
                for _ in 0..turns {
                    // A game that is over has no turn to play, however many are asked.
                    if state.to_move().is_none() || self.stop.reached() {
                        break;
                    }
                    self.turn_search.complete(state);
                    searched += u64::from(self.turn_search.nodes());
                }
                searched
            }
        };
        self.stats.rollout_actions += played;
    }

    /// Each node on the path is credited from the point of view of the seat that moved
    /// into it.
    fn backpropagate(&mut self, state: &G, config: &IsmctsConfig) {
        position_rewards(
            state,
            (
                config.evaluation,
                config.temperature.unwrap_or(G::EVALUATION_TEMPERATURE),
            ),
            &mut self.rewards,
        );
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += self
                .rewards
                .get(usize::from(n.mover))
                .copied()
                .unwrap_or(0.0);
        }
    }

    /// The root's children: (action, visits, total reward).
    fn root_children(&self) -> impl Iterator<Item = (G::Action, u32, f64)> + '_ {
        let mut child = self.nodes.first().map_or(NONE, |n| n.first_child);
        std::iter::from_fn(move || {
            if child == NONE {
                return None;
            }
            let c = &self.nodes[child as usize];
            child = c.next_sibling;
            Some((c.action, c.visits, c.reward))
        })
    }
}

/// The ISMCTS bot.
#[derive(Debug)]
pub struct Ismcts<G: Game> {
    config: IsmctsConfig,
    rng: Rng,
    searchers: Vec<Searcher<G>>,
    last: SearchStats,
}

impl<G: Game> Ismcts<G> {
    pub fn new(config: IsmctsConfig, seed: u64) -> Self {
        let threads = config.threads.max(1);
        Ismcts {
            config,
            rng: engine::rng_from_seed(seed),
            searchers: (0..threads).map(|_| Searcher::new()).collect(),
            last: SearchStats::default(),
        }
    }

    /// What the last decision's search did, summed over threads (seconds: wall clock).
    pub fn last_search(&self) -> SearchStats {
        self.last
    }
}

/// The root of the last search, merged over threads: every legal action of the seat to
/// move, in legal order, with its visits and summed reward, and the one the bot chooses.
#[derive(Debug, Clone)]
pub(crate) struct RootSummary<A> {
    pub seat: Seat,
    /// (action, visits, total reward); with [`Step::Turn`] an action counts its most
    /// visited plan.
    pub actions: Vec<(A, u64, f64)>,
    /// Index in `actions` of the bot's decision.
    pub best: usize,
}

impl<G: Game> Ismcts<G> {
    /// Searches `state` for the seat to move (from its determinization only) and
    /// summarises the root; `None` once the game is over. With a single legal action
    /// the bot does not search (`decide` answers at once) unless `search_forced`, which
    /// the hints set so that the one action still gets an estimated value.
    pub(crate) fn search_root(
        &mut self,
        state: &G,
        stop: &Stop,
        search_forced: bool,
    ) -> Option<RootSummary<G::Action>> {
        let (seat, known) = sample(state, &mut self.rng)?;
        let mut legal = Vec::new();
        known.legal_actions(&mut legal);
        let first = *legal.first()?;
        if legal.len() == 1 && !search_forced {
            self.last = SearchStats::default();
            return Some(RootSummary {
                seat,
                actions: vec![(first, 0, 0.0)],
                best: 0,
            });
        }
        let base_seed = self.rng.gen::<u64>();
        let config = self.config;
        let threads = self.searchers.len();
        let start = Instant::now();
        let (total, stop) = config.budget.limits(stop, start);
        let stop = &stop;
        let known = &known;
        let work = |(t, searcher): (usize, &mut Searcher<G>)| {
            let share = (u64::from(total) * (t as u64 + 1) / threads as u64
                - u64::from(total) * t as u64 / threads as u64) as u32;
            let mut rng = engine::rng_from_seed(derive_seed(base_seed, t as u64));
            searcher.search(known, seat, first, &config, (share, stop), &mut rng);
        };
        if threads == 1 {
            self.searchers.iter_mut().enumerate().for_each(work);
        } else {
            std::thread::scope(|scope| {
                for pair in self.searchers.iter_mut().enumerate() {
                    scope.spawn(move || work(pair));
                }
            });
        }
        // Merge the root children in thread order; the most visited action wins, then
        // the best mean reward, then the first in legal order. With turn steps, several
        // plans may begin with the same action: the action counts its most visited plan
        // (a sum would favour actions that merely open many plans).
        let mut merged: Vec<(u64, f64)> = vec![(0, 0.0); legal.len()];
        let mut thread: Vec<(u64, f64)> = vec![(0, 0.0); legal.len()];
        let mut stats = SearchStats::default();
        for searcher in &self.searchers {
            thread.fill((0, 0.0));
            for (action, visits, reward) in searcher.root_children() {
                if let Some(i) = legal.iter().position(|a| *a == action) {
                    if u64::from(visits) > thread[i].0 {
                        thread[i] = (u64::from(visits), reward);
                    }
                }
            }
            for (m, t) in merged.iter_mut().zip(&thread) {
                m.0 += t.0;
                m.1 += t.1;
            }
            stats.iterations += searcher.stats.iterations;
            stats.tree_actions += searcher.stats.tree_actions;
            stats.rollout_actions += searcher.stats.rollout_actions;
        }
        stats.seconds = start.elapsed().as_secs_f64();
        self.last = stats;
        let mut best = 0;
        for i in 1..legal.len() {
            if ranks_before(merged[i], merged[best]) {
                best = i;
            }
        }
        Some(RootSummary {
            seat,
            actions: legal
                .into_iter()
                .zip(merged)
                .map(|(a, (v, r))| (a, v, r))
                .collect(),
            best,
        })
    }
}

/// The mean reward of (visits, total reward); 0 when unvisited.
pub(crate) fn mean_reward((visits, reward): (u64, f64)) -> f64 {
    if visits == 0 {
        0.0
    } else {
        reward / visits as f64
    }
}

/// Whether root statistics `a` rank strictly before `b`: more visits, then a better mean
/// reward. Equal ones keep their legal order (the earlier wins).
pub(crate) fn ranks_before(a: (u64, f64), b: (u64, f64)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && mean_reward(a) > mean_reward(b))
}

impl<G: Game> Bot<G> for Ismcts<G> {
    /// Once `stop` is reached, the most visited action so far is the answer.
    fn decide(&mut self, state: &G, stop: &Stop) -> Option<G::Action> {
        let root = self.search_root(state, stop, false)?;
        root.actions.get(root.best).map(|&(action, _, _)| action)
    }
}
