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
    /// What the seat's own turns are searched with, in the candidates' search and in the
    /// samples.
    pub evaluation: Evaluation,
    /// What the other seats' turns in the samples are searched with (`None`: `evaluation`).
    pub others: Option<Evaluation>,
    /// What the position where a sample stops is scored with (`None`: `evaluation`). A
    /// value, not a policy: what predicts the final scores best need not be what picks
    /// the best move in one turn (docs/bots.md, "Fitted evaluations").
    pub value: Option<Evaluation>,
    /// Racing: a candidate is dropped once its mean, paired sample by sample with the
    /// leader's, is this many standard errors below it (`None`: every candidate is
    /// played in every sample). The samples it would have used go to the others.
    pub prune: Option<f64>,
    /// With no more legal actions than `candidates`, compare them all, not only the
    /// first actions of greedy's best plans.
    pub fill: bool,
    /// The leader replaces greedy's own choice only when, paired sample by sample, it is
    /// this many standard errors ahead of it (`None`: the leader always does). Few noisy
    /// samples otherwise let the luckiest of several candidates win.
    pub switch: Option<f64>,
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
            others: None,
            value: None,
            prune: None,
            fill: false,
            switch: None,
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
        self.search.set_evaluation(self.config.evaluation);
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

    /// Completes the turn of the seat to move in a sample as greedy would, with `eval`
    /// for `seat` and `others` for the rest.
    fn complete_turn(&mut self, state: &mut G, seat: Seat) {
        let evaluation = match self.config.others {
            Some(others) if state.to_move() != Some(seat) => others,
            _ => self.config.evaluation,
        };
        self.search.set_evaluation(evaluation);
        self.search.complete(state);
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
            self.complete_turn(state, seat);
        }
        let turns = self.config.turns.unwrap_or(state.seats() as u32);
        for _ in 0..turns {
            if stop.reached() {
                return None;
            }
            if state.to_move().is_none() {
                break;
            }
            self.complete_turn(state, seat);
        }
        if stop.reached() {
            return None;
        }
        let temperature = self.config.temperature.unwrap_or(G::EVALUATION_TEMPERATURE);
        let value = self.config.value.unwrap_or(self.config.evaluation);
        position_rewards(state, (value, temperature), &mut self.rewards);
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
            best: self.choice(),
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
            if self.config.prune.is_some() || self.config.switch.is_some() {
                self.history.extend_from_slice(&self.scratch);
            }
            if let Some(z) = self.config.prune {
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

    /// The answer: the leader, unless `switch` asks for evidence that it beats greedy's
    /// own choice (the first candidate) and the samples both were played in do not give
    /// it. A first candidate dropped by racing was clearly behind.
    fn choice(&self) -> usize {
        let leader = self.leader();
        match self.config.switch {
            Some(z) if leader != 0 && self.active[0] => match self.paired(leader, 0) {
                Some((mean, error)) if mean > z * error => leader,
                _ => 0,
            },
            _ => leader,
        }
    }

    /// The mean and standard error of candidate `i`'s reward minus candidate `j`'s over
    /// the samples both were played in; `None` below two such samples.
    fn paired(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let (mut count, mut sum, mut squares) = (0.0, 0.0, 0.0);
        for row in self.history.chunks_exact(self.candidates.len()) {
            let d = row[i] - row[j];
            // A dropped candidate's later samples are NaN.
            if !d.is_nan() {
                count += 1.0;
                sum += d;
                squares += d * d;
            }
        }
        if count < 2.0 {
            return None;
        }
        let mean = sum / count;
        let variance = (squares / count - mean * mean).max(0.0) * count / (count - 1.0);
        Some((mean, (variance / count).sqrt()))
    }

    /// Drops the candidates whose paired difference with the leader is more than `z`
    /// standard errors below zero; true once a single candidate is left.
    fn race(&mut self, z: f64) -> bool {
        if self.samples < PRUNE_AFTER {
            return false;
        }
        let leader = self.leader();
        for i in 0..self.candidates.len() {
            if i == leader || !self.active[i] {
                continue;
            }
            // Both were raced in every sample so far: a dropped candidate never returns.
            if let Some((mean, error)) = self.paired(i, leader) {
                if mean + z * error < 0.0 {
                    self.active[i] = false;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use valdora::{Valdora, ValdoraConfig};

    /// A bot comparing two candidates (greedy's choice first) whose paired samples give
    /// the second `differences` more than the first.
    fn compared(switch: Option<f64>, differences: &[f64]) -> RolloutBot<Valdora> {
        let game = Valdora::new(&ValdoraConfig::default(), 1).expect("valid config");
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let config = RolloutConfig {
            switch,
            ..RolloutConfig::default()
        };
        let mut bot = RolloutBot::new(config, 1);
        bot.candidates = legal[..2].to_vec();
        bot.active = vec![true, true];
        bot.counts = vec![differences.len() as u32; 2];
        bot.totals = vec![0.0, differences.iter().sum()];
        for &d in differences {
            bot.history.extend_from_slice(&[0.5, 0.5 + d]);
        }
        bot
    }

    #[test]
    fn switch_keeps_greedys_choice_unless_the_leader_is_clearly_ahead() {
        let noisy = [0.3, -0.2, 0.25, -0.3, 0.1, -0.1, 0.2, -0.15];
        let clear = [0.1, 0.12, 0.09, 0.11, 0.1, 0.08, 0.1, 0.12];
        // Without `switch` the leader answers, however slight its lead.
        assert_eq!(compared(None, &noisy).choice(), 1);
        assert_eq!(compared(Some(1.0), &noisy).choice(), 0);
        assert_eq!(compared(Some(1.0), &clear).choice(), 1);
        // A single sample says nothing of its spread.
        assert_eq!(compared(Some(1.0), &[0.5]).choice(), 0);
        // Greedy's choice dropped by racing was clearly behind.
        let mut dropped = compared(Some(1.0), &noisy);
        dropped.active[0] = false;
        for row in dropped.history.chunks_exact_mut(2).skip(4) {
            row[0] = f64::NAN;
        }
        assert_eq!(dropped.choice(), 1);
    }

    /// A rollout small enough for a unit test, every legal action of the decision compared.
    const SMALL_VALLEY_ROLLOUT: &str =
        "rollout:samples=12:turns=3:nodes=200:candidates=8:fill=yes:eval=fitted";

    /// Each candidate's summed reward in Valley's first decision with `spec`, and the
    /// samples each was played in.
    fn valley_rewards(spec: &str) -> Vec<(u64, f64)> {
        let game = valley::Valley::new(&valley::ValleyConfig::default(), 3).expect("valid");
        let crate::BotSpec::Rollout(config) = spec.parse().expect("valid spec") else {
            panic!("{spec}: not a rollout")
        };
        let mut bot = RolloutBot::new(config, 5);
        let root = bot
            .search_root(&game, &Stop::never(), true)
            .expect("a running game");
        root.actions
            .iter()
            .map(|&(_, n, total)| (n, total))
            .collect()
    }

    /// `value` scores where a sample stops, in place of `eval`: weights that make every
    /// seat's value alike leave each sample at even odds, which `eval` alone does not.
    #[test]
    fn value_scores_where_the_samples_stop() {
        let spec = SMALL_VALLEY_ROLLOUT;
        let even = valley_rewards(&format!("{spec}:value=0/0"));
        assert!(even.len() > 1);
        let seats = valley::ValleyConfig::default().players as f64;
        for (n, total) in even {
            assert_eq!(n, 12);
            assert!((total - n as f64 / seats).abs() < 1e-9, "{total} of {n}");
        }
        let fitted = valley_rewards(spec);
        assert!(fitted
            .iter()
            .any(|&(n, total)| (total - n as f64 / seats).abs() > 1e-6));
    }

    /// `others` is what the other seats play the samples with; unset, they play `eval`.
    #[test]
    fn others_play_the_samples_with_their_own_evaluation() {
        let spec = SMALL_VALLEY_ROLLOUT;
        let same = valley_rewards(spec);
        assert_eq!(valley_rewards(&format!("{spec}:others=fitted")), same);
        assert_ne!(valley_rewards(&format!("{spec}:others=heuristic")), same);
    }
}
