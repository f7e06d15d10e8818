//! Policy rollout (Tesauro & Galperin 1996; Bertsekas, "rollout algorithms"): greedy,
//! improved by simulating it.
//!
//! The candidates are the first actions of the best plans greedy's own turn search finds
//! (greedy's choice first). Each sample is a fresh determinization of the seat's view;
//! in it every candidate is played, the rest of the seat's turn is completed as greedy
//! would, and then `turns` more runs of decisions, every seat's, are played as greedy
//! plays them; the position is then scored as each seat's chance of winning (or the
//! outcome, once over). The candidate with the best mean wins.
//!
//! Every candidate is played in the same samples (common random numbers): the draws
//! that decide a sample are the same for each, so the comparison measures what the
//! candidates change, not which sample each happened to meet. A sample the budget
//! interrupts before every candidate was played in it is not counted.

use std::time::{Duration, Instant};

use engine::{Game, NoEvents, Rng, Seat};

use crate::greedy::{Spread, TurnSearch};
use crate::ismcts::RootSummary;
use crate::reward::position_rewards;
use crate::{sample, Bot, Budget, Evaluation, SearchStats, Stop};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutConfig {
    /// Samples (every candidate played in each), or a time budget.
    pub budget: Budget,
    /// The most first actions compared.
    pub candidates: u32,
    /// Positions of the turn search that finds the candidates (greedy's own budget).
    pub root_nodes: u32,
    /// Positions of each turn search inside a sample.
    pub turn_nodes: u32,
    /// Runs of decisions played after the candidate's own turn (`None`: one per seat, so
    /// that the sample ends where the seat has just played its next turn).
    pub turns: Option<u32>,
    /// Points that count as e:1 odds; `None`: the game's own.
    pub temperature: Option<f64>,
    pub evaluation: Evaluation,
    /// Racing: a candidate is dropped once its mean, paired sample by sample with the
    /// leader's, is this many standard errors below it (`None`: every candidate is
    /// played in every sample). The samples it would have used go to the others.
    pub prune: Option<f64>,
    /// With no more legal actions than `candidates`, compare them all, not only the
    /// first actions of greedy's best plans.
    pub fill: bool,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        RolloutConfig {
            budget: Budget::Time(Duration::from_millis(100)),
            candidates: 4,
            root_nodes: 20_000,
            turn_nodes: 1000,
            turns: None,
            temperature: None,
            evaluation: Evaluation::Heuristic,
            prune: None,
            fill: false,
        }
    }
}

/// Samples a candidate is played in before racing may drop it: fewer say little of the
/// spread of its differences with the leader.
const PRUNE_AFTER: u32 = 8;

/// The rollout bot.
#[derive(Debug)]
pub struct RolloutBot<G: Game> {
    config: RolloutConfig,
    rng: Rng,
    search: TurnSearch<G>,
    candidates: Vec<G::Action>,
    /// Per candidate: still raced, its complete samples, and their summed reward.
    active: Vec<bool>,
    counts: Vec<u32>,
    totals: Vec<f64>,
    /// The rewards of every complete sample, a row of candidates each (racing reads it).
    history: Vec<f64>,
    scratch: Vec<f64>,
    rewards: Vec<f64>,
    legal: Vec<G::Action>,
    /// Complete samples of the last decision, and its seconds.
    samples: u32,
    seconds: f64,
}

impl<G: Game> RolloutBot<G> {
    pub fn new(config: RolloutConfig, seed: u64) -> Self {
        RolloutBot {
            config,
            rng: engine::rng_from_seed(seed),
            search: TurnSearch::new(config.root_nodes, Spread::Even, config.evaluation),
            candidates: Vec::new(),
            active: Vec::new(),
            counts: Vec::new(),
            totals: Vec::new(),
            history: Vec::new(),
            scratch: Vec::new(),
            rewards: Vec::new(),
            legal: Vec::new(),
            samples: 0,
            seconds: 0.0,
        }
    }

    /// What the last decision did: its complete samples (as iterations; 0 when it
    /// needed no search) and its seconds.
    pub fn last_search(&self) -> SearchStats {
        SearchStats {
            iterations: u64::from(self.samples),
            seconds: self.seconds,
            ..SearchStats::default()
        }
    }

    /// The first actions of the best plans, best first, at most `candidates` distinct.
    fn find_candidates(&mut self, known: &G) {
        self.candidates.clear();
        let want = self.config.candidates.max(1) as usize;
        // Several plans often share their first action: keep more plans than candidates.
        self.search.set_budget(self.config.root_nodes, Spread::Even);
        let found = self.search.plans(known, want * 4);
        for plan in &self.search.kept()[..found] {
            let first = plan.actions[0];
            if !self.candidates.contains(&first) {
                self.candidates.push(first);
                if self.candidates.len() == want {
                    break;
                }
            }
        }
        // `legal` holds the determinization's legal actions (`search_root`).
        if self.config.fill && self.legal.len() <= want {
            for &action in &self.legal {
                if !self.candidates.contains(&action) {
                    self.candidates.push(action);
                }
            }
        }
    }

    /// Plays `candidate` in `state` for `seat`, then the rest of its turn and the turns
    /// after as greedy plays them; returns `seat`'s reward, or `None` when the candidate
    /// is not legal in this sample or the decision's stop interrupted it.
    fn play_out(
        &mut self,
        state: &mut G,
        seat: Seat,
        candidate: G::Action,
        stop: &Stop,
    ) -> Option<f64> {
        self.legal.clear();
        state.legal_actions(&mut self.legal);
        if !self.legal.contains(&candidate) {
            return None;
        }
        state.apply_unchecked(candidate, &mut NoEvents);
        if state.to_move() == Some(seat) {
            self.search.complete(state);
        }
        let turns = self.config.turns.unwrap_or(state.seats() as u32);
        for _ in 0..turns {
            if stop.reached() {
                return None;
            }
            if state.to_move().is_none() {
                break;
            }
            self.search.complete(state);
        }
        if stop.reached() {
            return None;
        }
        let temperature = self.config.temperature.unwrap_or(G::EVALUATION_TEMPERATURE);
        position_rewards(
            state,
            (self.config.evaluation, temperature),
            &mut self.rewards,
        );
        self.rewards.get(usize::from(seat)).copied()
    }

    /// Compares the candidates for the seat to move in `state` (from its determinization
    /// only); `None` once the game is over. The summary's actions are the candidates,
    /// each with its samples and summed reward. With a single legal action, or a single
    /// candidate, nothing is sampled unless `search_forced` (hints set it, so that the one
    /// action still gets an estimated value).
    pub(crate) fn search_root(
        &mut self,
        state: &G,
        stop: &Stop,
        search_forced: bool,
    ) -> Option<RootSummary<G::Action>> {
        let start = Instant::now();
        self.samples = 0;
        self.seconds = 0.0;
        let (seat, known) = sample(state, &mut self.rng)?;
        self.legal.clear();
        known.legal_actions(&mut self.legal);
        let first = *self.legal.first()?;
        let only = |action| RootSummary {
            seat,
            actions: vec![(action, 0, 0.0)],
            best: 0,
        };
        if self.legal.len() == 1 && !search_forced {
            return Some(only(first));
        }
        let (samples, stop) = self.config.budget.limits(stop, start);
        self.search.set_stop(&stop);
        self.find_candidates(&known);
        if self.candidates.is_empty() {
            return Some(only(first));
        }
        if self.candidates.len() == 1 && !search_forced {
            return Some(only(self.candidates[0]));
        }
        self.sample_candidates(&known, seat, samples, &stop);
        self.seconds = start.elapsed().as_secs_f64();
        Some(RootSummary {
            seat,
            actions: (0..self.candidates.len())
                .map(|i| {
                    (
                        self.candidates[i],
                        u64::from(self.counts[i]),
                        self.totals[i],
                    )
                })
                .collect(),
            best: self.leader(),
        })
    }

    /// Plays every raced candidate in the same fresh samples until `samples` are complete,
    /// one candidate is left, or `stop` is reached, summing each candidate's rewards.
    fn sample_candidates(&mut self, known: &G, seat: Seat, samples: u32, stop: &Stop) {
        self.search.set_budget(self.config.turn_nodes, Spread::Even);
        let n = self.candidates.len();
        self.rewards.clear();
        self.rewards.resize(known.seats(), 0.0);
        for v in [&mut self.totals, &mut self.scratch] {
            v.clear();
            v.resize(n, 0.0);
        }
        self.counts.clear();
        self.counts.resize(n, 0);
        self.active.clear();
        self.active.resize(n, true);
        self.history.clear();
        let mut state = known.clone();
        'samples: while self.samples < samples && !stop.reached() {
            let determinized = known.determinize(Some(seat), &mut self.rng);
            for i in 0..n {
                if !self.active[i] {
                    self.scratch[i] = f64::NAN;
                    continue;
                }
                state.clone_from(&determinized);
                match self.play_out(&mut state, seat, self.candidates[i], stop) {
                    Some(reward) => self.scratch[i] = reward,
                    None if stop.reached() => break 'samples,
                    // A candidate illegal in this sample: the sample compares nothing.
                    None => continue 'samples,
                }
            }
            for i in (0..n).filter(|&i| self.active[i]) {
                self.totals[i] += self.scratch[i];
                self.counts[i] += 1;
            }
            self.samples += 1;
            if let Some(z) = self.config.prune {
                self.history.extend_from_slice(&self.scratch);
                if self.race(z) {
                    break;
                }
            }
        }
    }

    /// The raced candidate with the best total (the raced ones share their samples);
    /// ties, and no sample at all, keep greedy's order.
    fn leader(&self) -> usize {
        let mut best = 0;
        for i in 1..self.candidates.len() {
            if self.active[i] && (!self.active[best] || self.totals[i] > self.totals[best] + 1e-12)
            {
                best = i;
            }
        }
        best
    }

    /// Drops the candidates whose paired difference with the leader is more than `z`
    /// standard errors below zero; true once a single candidate is left.
    fn race(&mut self, z: f64) -> bool {
        if self.samples < PRUNE_AFTER {
            return false;
        }
        let n = self.candidates.len();
        let leader = self.leader();
        let rows = self.history.chunks_exact(n);
        for i in 0..n {
            if i == leader || !self.active[i] {
                continue;
            }
            // Both were raced in every sample so far: a dropped candidate never returns.
            let (mut sum, mut squares) = (0.0, 0.0);
            for row in rows.clone() {
                let d = row[i] - row[leader];
                sum += d;
                squares += d * d;
            }
            let count = f64::from(self.samples);
            let mean = sum / count;
            let variance = (squares / count - mean * mean).max(0.0) * count / (count - 1.0);
            if mean + z * (variance / count).sqrt() < 0.0 {
                self.active[i] = false;
            }
        }
        self.active.iter().filter(|&&a| a).count() == 1
    }
}

impl<G: Game> Bot<G> for RolloutBot<G> {
    /// Once `stop` is reached, the candidate with the best mean over the complete samples
    /// so far is the answer (greedy's own choice if there are none).
    fn decide(&mut self, state: &G, stop: &Stop) -> Option<G::Action> {
        let root = self.search_root(state, stop, false)?;
        root.actions.get(root.best).map(|&(action, _, _)| action)
    }
}
