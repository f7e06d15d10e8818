//! Ratings of bots from a round-robin arena (`tabletop arena --round-robin`).
//!
//! Every game seats `players` of the entrants ([`lineup`]); each scored game is read as
//! the pairwise results between the seats of different entrants (the better rank wins, an
//! equal rank is a draw), and a Bradley–Terry model is fitted to them by Hunter's MM
//! algorithm (2004, "MM algorithms for generalized Bradley–Terry models"). Ratings are on
//! the Elo scale (400 points = 10:1 odds) with the anchor, `random` when it plays, at 0.
//! Their 95% intervals come from a bootstrap over games: the comparisons of one game are
//! not independent, so games, not comparisons, are resampled.
//!
//! One virtual draw between every two entrants that met keeps the fit finite when an
//! entrant won every comparison (a bot against random play usually does); it pulls
//! ratings together slightly, as BayesElo's prior does.

use std::fmt::Write as _;

use bots::BotSpec;
use rand::Rng as _;
use serde::Serialize;

use crate::simulation::{threads_note, RunShape};
use crate::tournament::{ms_per_decision, not_ended_seeds, EntryResult, GameEnd, SeedList};

/// Virtual draws added between every two entrants that met.
pub const PRIOR_DRAWS: f64 = 1.0;
/// Bootstrap resamples of the games.
pub const BOOTSTRAP: u32 = 1000;
/// Points of the Elo scale for odds of 10:1.
const ELO: f64 = 400.0;

/// The entrant of each entry (seat before rotation) of game `index`: `players` entrants
/// in a row, starting one further every `players` games. Over those `players` games the
/// arena's rotation sits every one of them in every seat; with fewer entrants than seats
/// they repeat.
pub fn lineup(entrants: usize, players: usize, index: u64) -> Vec<usize> {
    let entrants = entrants.max(1);
    let first = ((index / players.max(1) as u64) % entrants as u64) as usize;
    (0..players).map(|j| (first + j) % entrants).collect()
}

/// Pairwise results: `wins[a][b]` is what `a` scored against `b` (a draw is a half), and
/// `met[a][b]` how many times they were compared.
#[derive(Debug, Clone, PartialEq)]
struct Comparisons {
    n: usize,
    wins: Vec<f64>,
    met: Vec<f64>,
}

impl Comparisons {
    fn new(n: usize) -> Self {
        Comparisons {
            n,
            wins: vec![0.0; n * n],
            met: vec![0.0; n * n],
        }
    }

    /// The comparisons of one scored game: `entrants[j]` played entry `j`.
    fn of_game(n: usize, entrants: &[usize], results: &[EntryResult]) -> Self {
        let mut c = Comparisons::new(n);
        for (p, (&a, ra)) in entrants.iter().zip(results).enumerate() {
            for (&b, rb) in entrants.iter().zip(results).skip(p + 1) {
                if a == b {
                    continue;
                }
                let score = match ra.rank.cmp(&rb.rank) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                c.record(a, b, score);
            }
        }
        c
    }

    fn record(&mut self, a: usize, b: usize, score_of_a: f64) {
        let n = self.n;
        self.wins[a * n + b] += score_of_a;
        self.wins[b * n + a] += 1.0 - score_of_a;
        self.met[a * n + b] += 1.0;
        self.met[b * n + a] += 1.0;
    }

    fn add(&mut self, other: &Comparisons) {
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
        for (m, o) in self.met.iter_mut().zip(&other.met) {
            *m += o;
        }
    }

    /// Bradley–Terry ratings on the Elo scale, anchored at `anchor`; `None` for an
    /// entrant that met nobody (or met no one connected to the anchor).
    fn ratings(&self, anchor: usize) -> Vec<Option<f64>> {
        let n = self.n;
        let mut prior = self.clone();
        for a in 0..n {
            for b in a + 1..n {
                if self.met[a * n + b] > 0.0 {
                    prior.record(a, b, 0.5);
                }
            }
        }
        let strengths = prior.fit();
        let anchor_strength = strengths[anchor];
        strengths
            .iter()
            .map(|s| match (s, anchor_strength) {
                (Some(s), Some(a)) => Some(ELO * (s / a).log10()),
                _ => None,
            })
            .collect()
    }

    /// Hunter's MM iteration: `p_i ← W_i / Σ_j met_ij / (p_i + p_j)`, normalised to a
    /// geometric mean of 1 over the entrants that met someone, until it settles.
    fn fit(&self) -> Vec<Option<f64>> {
        let n = self.n;
        let playing: Vec<bool> = (0..n)
            .map(|i| (0..n).any(|j| self.met[i * n + j] > 0.0))
            .collect();
        let mut p = vec![1.0f64; n];
        for _ in 0..100_000 {
            let mut next = p.clone();
            for i in (0..n).filter(|&i| playing[i]) {
                let won: f64 = (0..n).map(|j| self.wins[i * n + j]).sum();
                let denominator: f64 = (0..n)
                    .filter(|&j| self.met[i * n + j] > 0.0)
                    .map(|j| self.met[i * n + j] / (p[i] + p[j]))
                    .sum();
                next[i] = won / denominator;
            }
            let count = playing.iter().filter(|&&x| x).count().max(1) as f64;
            let log_mean = (0..n)
                .filter(|&i| playing[i])
                .map(|i| next[i].ln())
                .sum::<f64>()
                / count;
            for (i, x) in next.iter_mut().enumerate() {
                if playing[i] {
                    *x /= log_mean.exp();
                }
            }
            let change = (0..n)
                .filter(|&i| playing[i])
                .map(|i| (next[i].ln() - p[i].ln()).abs())
                .fold(0.0, f64::max);
            p = next;
            if change < 1e-12 {
                break;
            }
        }
        (0..n)
            .map(|i| (playing[i] && p[i].is_finite() && p[i] > 0.0).then_some(p[i]))
            .collect()
    }
}

/// One entrant's rating and what it rests on.
#[derive(Debug, Serialize)]
pub struct RatingRow {
    pub entrant: usize,
    pub bot: String,
    /// The bot with every parameter written out.
    pub spec: String,
    /// Elo-scale Bradley–Terry rating, the anchor at 0; null if it met no one.
    pub rating: Option<f64>,
    pub rating_ci95: Option<[f64; 2]>,
    /// Seats it played in scored games.
    pub seats: u64,
    /// Its share of its pairwise comparisons won (draws count half).
    pub score: Option<f64>,
    /// Over every game, truncated ones included.
    pub decisions: u64,
    pub ms_per_decision: f64,
}

/// Two entrants against each other.
#[derive(Debug, Serialize)]
pub struct PairRow {
    pub a: usize,
    pub b: usize,
    pub comparisons: f64,
    /// `a`'s share of their comparisons (draws count half).
    pub score_of_a: Option<f64>,
    /// `a`'s rating minus `b`'s, with its bootstrap 95% interval.
    pub difference: Option<f64>,
    pub difference_ci95: Option<[f64; 2]>,
    /// One of them won every comparison: the data bound their difference only from
    /// below, and the virtual draw sets its size.
    pub sweep: bool,
}

#[derive(Debug, Serialize)]
pub struct RatingReport {
    pub game: &'static str,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub threads: u64,
    pub threads_requested: u64,
    pub scored_games: usize,
    /// Games ended by a turn cap or a stall rule (left out of the ratings).
    pub truncated: usize,
    /// Games abandoned after `MAX_ACTIONS_PER_GAME` actions (left out too).
    pub unfinished: usize,
    /// The seeds of the truncated and the unfinished games, to look into them.
    pub not_ended_seeds: Vec<u64>,
    pub seconds: f64,
    /// The entrant rated 0.
    pub anchor: usize,
    pub bootstrap_resamples: u32,
    pub prior_draws: f64,
    pub entrants: Vec<RatingRow>,
    pub pairs: Vec<PairRow>,
}

/// The interval holding the middle 95% of `values` (sorted in place).
fn percentile_interval(values: &mut [f64]) -> Option<[f64; 2]> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Some([at(0.025), at(0.975)])
}

impl RatingReport {
    /// The ratings of `specs` (named `names`) from `ends`, the games in order, game `i`
    /// seated by [`lineup`]`(specs.len(), players, i)`.
    pub fn new(
        game: &'static str,
        names: &[String],
        specs: &[BotSpec],
        players: usize,
        ends: &[GameEnd],
        run: RunShape,
    ) -> RatingReport {
        let n = specs.len();
        let anchor = specs
            .iter()
            .position(|s| matches!(s, BotSpec::Random))
            .unwrap_or(0);
        let mut per_game = Vec::new();
        let mut decisions = vec![(0u64, 0.0f64); n];
        let mut seats = vec![0u64; n];
        for (i, end) in ends.iter().enumerate() {
            let entrants = lineup(n, players, i as u64);
            for (&e, result) in entrants.iter().zip(end.results()) {
                decisions[e].0 += result.decisions;
                decisions[e].1 += result.seconds;
            }
            if let GameEnd::Scored(results) = end {
                for &e in &entrants {
                    seats[e] += 1;
                }
                per_game.push(Comparisons::of_game(n, &entrants, results));
            }
        }
        let mut total = Comparisons::new(n);
        for c in &per_game {
            total.add(c);
        }
        let ratings = total.ratings(anchor);
        let resampled = bootstrap(&per_game, n, anchor, run.seed);
        let interval = |f: &dyn Fn(&[Option<f64>]) -> Option<f64>| {
            let mut values: Vec<f64> = resampled.iter().filter_map(|r| f(r)).collect();
            percentile_interval(&mut values)
        };
        let entrants = specs
            .iter()
            .enumerate()
            .map(|(e, spec)| {
                let won: f64 = (0..n).map(|b| total.wins[e * n + b]).sum();
                let met: f64 = (0..n).map(|b| total.met[e * n + b]).sum();
                let (count, secs) = decisions[e];
                RatingRow {
                    entrant: e,
                    bot: names
                        .get(e)
                        .map_or_else(|| spec.to_string(), |s| s.trim().to_string()),
                    spec: spec.to_string(),
                    rating: ratings[e],
                    rating_ci95: ratings[e].and_then(|_| interval(&|r| r[e])),
                    seats: seats[e],
                    score: (met > 0.0).then(|| won / met),
                    decisions: count,
                    ms_per_decision: ms_per_decision(count, secs),
                }
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let met = total.met[a * n + b];
                let won = total.wins[a * n + b];
                let difference = ratings[a].zip(ratings[b]).map(|(x, y)| x - y);
                pairs.push(PairRow {
                    a,
                    b,
                    comparisons: met,
                    score_of_a: (met > 0.0).then(|| won / met),
                    difference,
                    difference_ci95: difference
                        .and_then(|_| interval(&|r| r[a].zip(r[b]).map(|(x, y)| x - y))),
                    sweep: met > 0.0 && (won == 0.0 || won == met),
                });
            }
        }
        let count = |f: fn(&GameEnd) -> bool| ends.iter().filter(|e| f(e)).count();
        RatingReport {
            game,
            players,
            games: ends.len() as u64,
            seed: run.seed,
            threads: run.threads,
            threads_requested: run.threads_requested,
            scored_games: per_game.len(),
            truncated: count(|e| matches!(e, GameEnd::Truncated(_))),
            unfinished: count(|e| matches!(e, GameEnd::Unfinished(_))),
            not_ended_seeds: not_ended_seeds(ends, run.seed),
            seconds: run.seconds,
            anchor,
            bootstrap_resamples: BOOTSTRAP,
            prior_draws: PRIOR_DRAWS,
            entrants,
            pairs,
        }
    }

    pub fn table(&self) -> String {
        let mut o = String::new();
        let _ = self.write_table(&mut o);
        o
    }

    fn write_table(&self, o: &mut String) -> std::fmt::Result {
        writeln!(
            o,
            "{}: round robin of {} bots, {} games of {} players, seeds {}..={}, seats rotated, {} thread{}, {:.1} s",
            self.game,
            self.entrants.len(),
            self.games,
            self.players,
            self.seed,
            self.seed.wrapping_add(self.games.saturating_sub(1)),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.seconds
        )?;
        if let Some(note) = threads_note(self.threads_requested, self.games, self.threads) {
            writeln!(o, "{note}")?;
        }
        writeln!(
            o,
            "{} scored, {} truncated (turn cap or stall), {} unfinished{}; Bradley-Terry ratings \
             on the Elo scale from the pairwise results of the scored games, {} at 0, 95% CIs \
             from {} bootstrap resamples of the games, {} virtual draw per pair",
            self.scored_games,
            self.truncated,
            self.unfinished,
            SeedList(&self.not_ended_seeds),
            self.entrants[self.anchor].bot,
            self.bootstrap_resamples,
            self.prior_draws
        )?;
        writeln!(o)?;
        let name = |e: usize| self.entrants[e].bot.as_str();
        let width = self.entrants.iter().map(|r| r.bot.len()).max().unwrap_or(3);
        writeln!(
            o,
            "  {:<width$}  {:>7} {:>17}  {:>6} {:>6}  {:>10}",
            "bot", "rating", "95% CI", "seats", "score", "ms/move"
        )?;
        let mut order: Vec<&RatingRow> = self.entrants.iter().collect();
        order.sort_by(|x, y| {
            y.rating
                .unwrap_or(f64::NEG_INFINITY)
                .total_cmp(&x.rating.unwrap_or(f64::NEG_INFINITY))
        });
        for r in order {
            let (rating, ci) = match (r.rating, r.rating_ci95) {
                (Some(x), Some([lo, hi])) => (format!("{x:.0}"), format!("[{lo:.0}, {hi:.0}]")),
                _ => ("-".into(), "-".into()),
            };
            writeln!(
                o,
                "  {:<width$}  {:>7} {:>17}  {:>6} {:>6}  {:>10.3}",
                r.bot,
                rating,
                ci,
                r.seats,
                r.score.map_or("-".into(), |s| format!("{:.1}%", s * 100.0)),
                r.ms_per_decision
            )?;
        }
        writeln!(o)?;
        writeln!(
            o,
            "  {:<width$}  {:<width$}  {:>11} {:>8}  {:>10} {:>17}",
            "a", "b", "comparisons", "a scores", "a - b", "95% CI"
        )?;
        for p in &self.pairs {
            let (difference, ci) = match (p.difference, p.difference_ci95) {
                (Some(d), Some([lo, hi])) => (format!("{d:.0}"), format!("[{lo:.0}, {hi:.0}]")),
                _ => ("-".into(), "-".into()),
            };
            writeln!(
                o,
                "  {:<width$}  {:<width$}  {:>11} {:>8}  {:>10} {:>17}{}",
                name(p.a),
                name(p.b),
                p.comparisons,
                p.score_of_a
                    .map_or("-".into(), |s| format!("{:.1}%", s * 100.0)),
                difference,
                ci,
                if p.sweep { "  sweep" } else { "" }
            )?;
        }
        if self.pairs.iter().any(|p| p.sweep) {
            writeln!(
                o,
                "sweep: one bot won every comparison, so the games bound that difference \
                 from below only; its size comes from the virtual draw"
            )?;
        }
        Ok(())
    }
}

/// The ratings of [`BOOTSTRAP`] resamples of the games, drawn with a generator seeded
/// from the run's seed, so that a report is reproducible.
fn bootstrap(
    per_game: &[Comparisons],
    n: usize,
    anchor: usize,
    seed: u64,
) -> Vec<Vec<Option<f64>>> {
    if per_game.is_empty() {
        return Vec::new();
    }
    let mut rng = engine::rng_from_seed(seed ^ 0xB007_5A4D);
    (0..BOOTSTRAP)
        .map(|_| {
            let mut sample = Comparisons::new(n);
            for _ in 0..per_game.len() {
                sample.add(&per_game[rng.gen_range(0..per_game.len())]);
            }
            sample.ratings(anchor)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(rank: u8) -> EntryResult {
        EntryResult {
            rank,
            ..EntryResult::default()
        }
    }

    #[test]
    fn lineups_rotate_through_the_entrants() {
        assert_eq!(lineup(4, 4, 0), vec![0, 1, 2, 3]);
        assert_eq!(lineup(4, 4, 3), vec![0, 1, 2, 3]);
        assert_eq!(lineup(4, 4, 4), vec![1, 2, 3, 0]);
        assert_eq!(lineup(4, 3, 3), vec![1, 2, 3]);
        assert_eq!(lineup(2, 4, 0), vec![0, 1, 0, 1]);
        // Every entrant plays as often as the others over a whole cycle.
        let mut seats = [0; 5];
        for i in 0..5 * 3 {
            for e in lineup(5, 3, i) {
                seats[e] += 1;
            }
        }
        assert_eq!(seats, [9; 5]);
    }

    #[test]
    fn a_game_is_read_as_its_pairwise_results() {
        // Entrants 0, 1, 0, 2 ranked 1, 3, 2, 2: the two seats of entrant 0 are not
        // compared with each other.
        let c = Comparisons::of_game(
            3,
            &[0, 1, 0, 2],
            &[result(1), result(3), result(2), result(2)],
        );
        let n = 3;
        assert_eq!(c.met[n + 2], 1.0);
        assert_eq!(c.met[1], 2.0);
        assert_eq!(c.wins[1], 2.0); // 0 beat 1 twice
        assert_eq!(c.met[2], 2.0);
        assert_eq!(c.wins[2], 1.5); // 0 beat 2 once, drew once
        assert_eq!(c.wins[2 * n + 1], 1.0); // 2 beat 1
        assert_eq!(c.met[0], 0.0);
    }

    #[test]
    fn the_fit_recovers_known_odds() {
        // 3:1 odds between each neighbour: 400·log10(3) ≈ 190.8 points apart.
        let mut c = Comparisons::new(3);
        for _ in 0..3000 {
            c.record(1, 0, 1.0);
            c.record(2, 1, 1.0);
            c.record(2, 0, 1.0);
        }
        for _ in 0..1000 {
            c.record(1, 0, 0.0);
            c.record(2, 1, 0.0);
        }
        for _ in 0..1000 {
            c.record(2, 0, 0.0);
        }
        // 2 against 0 at 3:1 here, where the model says 9:1: the fit weighs all of it.
        let r = c.ratings(0);
        let (r1, r2) = (r[1].expect("rated"), r[2].expect("rated"));
        assert!(r1 > 100.0 && r2 > r1 + 100.0, "{r:?}");
        assert_eq!(r[0], Some(0.0));
        // Exactly balanced odds give exactly the same rating.
        let mut even = Comparisons::new(2);
        for _ in 0..10 {
            even.record(0, 1, 1.0);
            even.record(0, 1, 0.0);
        }
        assert!(even.ratings(0)[1].expect("rated").abs() < 1e-6);
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_an_absent_entrant_is_unrated() {
        let mut c = Comparisons::new(3);
        for _ in 0..50 {
            c.record(1, 0, 1.0);
        }
        let r = c.ratings(0);
        let swept = r[1].expect("rated");
        // 50 wins and the virtual draw: 50.5 : 0.5, about 800 points.
        assert!((swept - ELO * 101f64.log10()).abs() < 1.0, "{swept}");
        assert_eq!(r[2], None);
    }

    #[test]
    fn intervals_hold_the_middle_of_the_resamples() {
        let mut values: Vec<f64> = (0..=100).rev().map(f64::from).collect();
        assert_eq!(percentile_interval(&mut values), Some([3.0, 98.0]));
        assert_eq!(percentile_interval(&mut []), None);
    }
}
