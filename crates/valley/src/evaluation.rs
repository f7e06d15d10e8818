//! The heuristic value of a position for the bots (`Game::evaluate`): the points a seat's
//! tomb scores now (K-G3) plus a discounted value for the cards it owns that it could
//! still entomb, and for the gold its cards buy with.

use engine::Seat;

use crate::data::Category;
use crate::scoring::{set_points, TombCounts};
use crate::state::{Phase, Valley};

/// Share of the points a card would add to the tomb credited while it is only owned:
/// below 1 so that entombing a scoring card always raises the evaluation.
const OWNED_SHARE: f64 = 0.4;
/// Value of one gold in the average hand the seat's cards make (buying power, K-T5).
/// Small enough that losing a gold card to the tomb costs less than the point it scores.
const GOLD_VALUE: f64 = 0.1;
/// Cards drawn for a turn (K-T15).
const HAND: f64 = 5.0;

/// What a seat's cards are worth now and could still be worth: the inputs of both
/// evaluations.
struct Holdings {
    /// The tomb's score now (K-G3).
    points: f64,
    /// The points the owned cards would add if all were entombed: the starters' and
    /// uniques' printed VP, and each set's growth of d² from the distinct kinds in the
    /// tomb to those in tomb and owned cards together.
    potential: f64,
    /// The gold of the average five-card hand the owned cards make (K-T5).
    hand_gold: f64,
    /// Cards owned (deck, hand, discard pile, in play).
    cards: f64,
    /// The most of `potential` the seat's remaining entombments can reach: one a turn
    /// (K-T8), so at most [`Valley::entombs_left`] of the owned cards, the best chosen.
    reachable: f64,
    /// As `reachable`, with the set kinds still in the supply (stock and pyramid, K-Z12b:
    /// public) that the seat neither owns nor has entombed counted as if owned: what the
    /// seat could still make of the game's cards. Another seat's purchase of a kind it
    /// needs lowers it, so the margin to the best other seat sees denial.
    supply_reachable: f64,
    /// Owned cards whose action entombs beyond the allowance of one a turn (K-T8, K-E5
    /// `extra`, K-E13): each use puts a card in the tomb that `reachable` does not plan for.
    entombers: f64,
}

/// The fitted evaluation's features (`Game::EVALUATION_FEATURES`): the holdings, and some
/// of them times the rounds left, so that the fit can weigh them by how much of the
/// game remains (a card owned late may never be drawn and entombed); the cards that
/// entomb beyond the allowance times how often each owned card is still to be drawn.
pub const FEATURES: [&str; 11] = [
    "points",
    "potential",
    "potential_x_rounds",
    "hand_gold",
    "hand_gold_x_rounds",
    "cards",
    "cards_x_rounds",
    "rounds",
    "reachable",
    "supply_reachable",
    "entomber_draws",
];
/// The index of `supply_reachable` in [`FEATURES`].
pub(crate) const SUPPLY_REACHABLE: usize = 9;

impl Valley {
    /// Points now plus progress. Over, it is the final score exactly.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        let h = self.holdings(seat, false);
        if self.phase == Phase::Over {
            return h.points;
        }
        h.points + OWNED_SHARE * h.potential + GOLD_VALUE * h.hand_gold
    }

    /// The features of [`FEATURES`] for `seat`.
    pub fn features(&self, seat: Seat, out: &mut [f64]) {
        self.features_with(seat, out, true);
    }

    /// The features for a sum with `weights` (`Game::weighed_features`): the supply's
    /// reads the whole stock, so it is computed only when it is weighed (0 otherwise).
    pub(crate) fn features_for(&self, seat: Seat, weights: &[f64], out: &mut [f64]) {
        let with_supply = weights.get(SUPPLY_REACHABLE).is_some_and(|&w| w != 0.0);
        self.features_with(seat, out, with_supply);
    }

    fn features_with(&self, seat: Seat, out: &mut [f64], with_supply: bool) {
        let h = self.holdings(seat, with_supply);
        let rounds = self.rounds_left();
        let features = [
            h.points,
            h.potential,
            h.potential * rounds,
            h.hand_gold,
            h.hand_gold * rounds,
            h.cards,
            h.cards * rounds,
            rounds,
            h.reachable,
            h.supply_reachable,
            h.entombers * draws_per_card(h.cards, rounds),
        ];
        out[..features.len()].copy_from_slice(&features);
    }

    /// About how many more turns each seat has: the pyramid loses at least a card a turn
    /// (K-G6) and the game ends once the stock and the pyramid are empty (K-G1), so the
    /// cards left to leave them, shared among the seats. Public information.
    fn rounds_left(&self) -> f64 {
        let pyramid = self.pyramid_cards().count();
        (self.stock.len() + pyramid) as f64 / f64::from(self.n)
    }

    /// The entombments `seat` can still count on: one a turn (K-T8), on about
    /// [`Valley::rounds_left`] more turns, and this one if it is the seat's and its
    /// entombment is unused. Public information.
    fn entombs_left(&self, seat: Seat) -> usize {
        let this_turn = self.active == seat
            && self.phase != Phase::Over
            && self.turn.entombs_used < self.turn.entomb_allowance;
        // Truncation: a fraction of a round is a turn only for some seats.
        (self.rounds_left() as usize + usize::from(this_turn)).min(MAX_REACH)
    }

    fn holdings(&self, seat: Seat, with_supply: bool) -> Holdings {
        let zones = self.zones(seat);
        let rules = &self.config.rules;
        let tomb = TombCounts::of(rules, &zones.tomb);
        // Each set's distinct kinds in the tomb and the owned cards together.
        let mut with_owned = tomb.clone();
        let mut printed_points = 0u32;
        // How many owned starters and uniques print each VP (the last entry: that or more).
        let mut printed = [0u8; MAX_PRINTED_VP + 1];
        let mut gold = 0u32;
        let (mut cards, mut entombers) = (0u32, 0u32);
        for card in zones.owned() {
            let c = rules.card(card);
            cards += 1;
            entombers += u32::from(c.entombs_extra());
            match c.category {
                Category::Set(s) => with_owned.add_kind(s, card),
                Category::Starter | Category::Unique => {
                    printed_points += u32::from(c.vp);
                    printed[usize::from(c.vp).min(MAX_PRINTED_VP)] += 1;
                }
            }
            gold += u32::from(c.gold);
        }
        let sets = rules.sets.len();
        let set_gain: u32 = new_kinds(&tomb, &with_owned, sets)
            .map(|(now, new)| set_growth(now, new))
            .sum();
        let entombs = self.entombs_left(seat);
        // The same with the supply's set kinds (stock and pyramid) counted as owned.
        let supply_reachable = if with_supply {
            let mut with_all = with_owned.clone();
            for card in self.stock.iter().copied().chain(self.pyramid_cards()) {
                if let Category::Set(s) = rules.card(card).category {
                    with_all.add_kind(s, card);
                }
            }
            reachable(entombs, &printed, new_kinds(&tomb, &with_all, sets))
        } else {
            0
        };
        let cards = f64::from(cards);
        Holdings {
            points: f64::from(tomb.total()),
            potential: f64::from(printed_points + set_gain),
            hand_gold: HAND * f64::from(gold) / cards.max(HAND),
            cards,
            reachable: f64::from(reachable(
                entombs,
                &printed,
                new_kinds(&tomb, &with_owned, sets),
            )),
            supply_reachable: f64::from(supply_reachable),
            entombers: f64::from(entombers),
        }
    }
}

/// How often each of `cards` owned cards can be expected to be drawn in `rounds` more
/// turns: five cards a turn (K-T15) from all of them, at most once a turn.
fn draws_per_card(cards: f64, rounds: f64) -> f64 {
    (HAND * rounds / cards.max(1.0)).min(rounds)
}

/// The most entombments [`reachable`] plans for (a game has fewer turns a seat).
const MAX_REACH: usize = 32;
/// Starters and uniques printing more VP than this count as printing this.
const MAX_PRINTED_VP: usize = 15;

/// Per set of the first `sets`: the kinds in `tomb`, and the kinds `with` counts more.
fn new_kinds<'a>(
    tomb: &'a TombCounts,
    with: &'a TombCounts,
    sets: usize,
) -> impl Iterator<Item = (u8, u8)> + 'a {
    tomb.distinct[..sets]
        .iter()
        .zip(&with.distinct)
        .map(|(&now, &all)| (now, all - now))
}

/// What a set scores more with `new` more distinct kinds than its `now` (K-G3: d²).
fn set_growth(now: u8, new: u8) -> u32 {
    (set_points(now + new) - set_points(now)).unsigned_abs()
}

/// The most points `entombs` more cards can add to a tomb, chosen from owned starters and
/// uniques (`printed[v]`: how many print `v` VP) and the owned kinds new to each set
/// (`(kinds in the tomb, new kinds owned)` per set). A set's growth is convex in the kinds
/// added, so the best choice may put every entombment in one set: a knapsack over the
/// sets, each adding 0..=new kinds, on top of the best printed cards.
fn reachable(entombs: usize, printed: &[u8], sets: impl Iterator<Item = (u8, u8)>) -> u32 {
    // best[c]: the most points from at most c entombments of the cards seen so far.
    let mut best = [0u32; MAX_REACH + 1];
    let mut vps = printed
        .iter()
        .enumerate()
        .rev()
        .flat_map(|(vp, &n)| std::iter::repeat_n(vp as u32, usize::from(n)));
    for c in 1..=entombs {
        best[c] = best[c - 1] + vps.next().unwrap_or(0);
    }
    for (now, new) in sets.filter(|&(_, new)| new > 0) {
        for c in (1..=entombs).rev() {
            let most = usize::from(new).min(c);
            best[c] = (1..=most)
                .map(|k| best[c - k] + set_growth(now, k as u8))
                .fold(best[c], u32::max);
        }
    }
    best[entombs]
}

#[cfg(test)]
mod tests {
    use engine::playout::random_action;
    use engine::{Game, NoEvents};

    use crate::{Action, Valley, ValleyConfig};

    fn config(players: u8) -> ValleyConfig {
        ValleyConfig {
            players,
            ..ValleyConfig::default()
        }
    }

    /// K-G3: entombing a card that adds points to the tomb raises the evaluation.
    #[test]
    fn entombing_a_scoring_card_raises_the_evaluation() {
        let mut checked = 0;
        for seed in 0..30u64 {
            let mut g = Valley::new(&config(4), seed).expect("valid");
            let mut rng = engine::rng_from_seed(seed);
            let mut buf = Vec::new();
            let mut legal = Vec::new();
            while let Some(action) = random_action(&g, &mut rng, &mut buf) {
                legal.clear();
                g.legal_actions(&mut legal);
                for &a in &legal {
                    let Action::Entomb { .. } = a else { continue };
                    let Some(seat) = g.to_move() else { continue };
                    let mut after = g.clone();
                    after.apply_unchecked(a, &mut NoEvents);
                    if after.score(seat).total <= g.score(seat).total {
                        continue;
                    }
                    assert!(
                        after.evaluation(seat) > g.evaluation(seat),
                        "seed {seed}: {} lowers the evaluation {} -> {}",
                        g.describe_action(&a),
                        g.evaluation(seat),
                        after.evaluation(seat)
                    );
                    checked += 1;
                }
                g.apply_unchecked(action, &mut NoEvents);
            }
        }
        assert!(checked > 50, "only {checked} entombments checked");
    }

    /// K-G3, K-T8: with few entombments left, a set's convex growth beats printed VP.
    #[test]
    fn reachable_points_pick_the_best_entombments() {
        use super::reachable;
        // Three 1-VP starters; a set with nothing in the tomb and three new kinds owned.
        let printed = [0, 3];
        let sets = || [(0u8, 3u8)].into_iter();
        assert_eq!(reachable(0, &printed, sets()), 0);
        assert_eq!(reachable(1, &printed, sets()), 1);
        assert_eq!(reachable(2, &printed, sets()), 4); // two kinds: 2², not 1 + 1
        assert_eq!(reachable(3, &printed, sets()), 9);
        assert_eq!(reachable(4, &printed, sets()), 10);
        assert_eq!(reachable(6, &printed, sets()), 12);
        // Two sets: 2 in the tomb and one new kind (5 more) against a fresh set of two
        // kinds (4): one entombment goes to the first, two to both.
        let two = || [(2u8, 1u8), (0, 2)].into_iter();
        assert_eq!(reachable(1, &[0], two()), 5);
        assert_eq!(reachable(2, &[0], two()), 6); // 5 + 1
        assert_eq!(reachable(3, &[0], two()), 9);
    }

    /// The reachable points never exceed the potential: they are the part of it the
    /// entombments left can take. Counting the supply's kinds as owned only adds choices.
    #[test]
    fn reachable_points_are_at_most_the_potential() {
        every_position(0..10, |seed, g| {
            for seat in 0..4 {
                let h = g.holdings(seat, true);
                assert!(h.reachable <= h.potential, "seed {seed}, seat {seat}");
                assert!(
                    h.reachable <= h.supply_reachable,
                    "seed {seed}, seat {seat}"
                );
            }
        });
    }

    /// K-T8, K-E5, K-E13: the cards that entomb beyond the allowance are read from their
    /// actions; in today's data they are the Books of the Dead and of the Heavens.
    #[test]
    fn the_cards_that_entomb_beyond_the_allowance_are_read_from_their_actions() {
        let g = Valley::new(&config(4), 0).expect("valid");
        let mut names: Vec<&str> = g
            .rules()
            .cards
            .iter()
            .filter(|c| c.entombs_extra())
            .map(|c| c.name.as_str())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["Book of the Dead", "Book of the Heavens"]);
    }

    /// The draws of such cards count where a seat owns one and turns are left, and nowhere
    /// else: at the end of the game they are worth nothing.
    #[test]
    fn the_entombers_count_while_turns_are_left() {
        let index = super::FEATURES
            .iter()
            .position(|&f| f == "entomber_draws")
            .expect("a feature");
        let mut features = [0.0; super::FEATURES.len()];
        let mut counted = 0;
        every_position(0..10, |seed, g| {
            for seat in 0..4 {
                g.features(seat, &mut features);
                let owns = g
                    .zones(seat)
                    .owned()
                    .any(|c| g.rules().card(c).entombs_extra());
                let expected = owns && g.rounds_left() > 0.0;
                assert_eq!(features[index] > 0.0, expected, "seed {seed}, seat {seat}");
                counted += usize::from(expected);
            }
        });
        assert!(counted > 100, "only {counted} positions with an entomber");
    }

    /// Calls `check` with every position of a random 4-player game from each seed, but the
    /// last.
    fn every_position(seeds: std::ops::Range<u64>, mut check: impl FnMut(u64, &Valley)) {
        for seed in seeds {
            let mut g = Valley::new(&config(4), seed).expect("valid");
            let mut rng = engine::rng_from_seed(seed);
            let mut buf = Vec::new();
            while let Some(action) = random_action(&g, &mut rng, &mut buf) {
                check(seed, &g);
                g.apply_unchecked(action, &mut NoEvents);
            }
        }
    }

    /// The weighted evaluation skips the supply's feature only where its weight is 0: it
    /// is all the features weighted, with the fitted weights and the fast ones alike, and
    /// the two differ where the supply holds kinds the seat could still use.
    #[test]
    fn the_weighted_evaluation_is_the_features_weighted() {
        use crate::fitted::{FAST_WEIGHTS, WEIGHTS};
        let mut features = [0.0; super::FEATURES.len()];
        let mut differ = 0;
        every_position(0..6, |seed, g| {
            for seat in 0..4 {
                g.features(seat, &mut features);
                for weights in [&WEIGHTS, &FAST_WEIGHTS] {
                    let dot: f64 = weights.iter().zip(features).map(|(w, x)| w * x).sum();
                    assert_eq!(g.evaluate_weighted(seat, weights), dot, "seed {seed}");
                }
                if g.evaluate_fast(seat) != g.evaluate_fitted(seat) {
                    differ += 1;
                }
            }
        });
        assert!(
            differ > 100,
            "the fast evaluation differs in only {differ} positions"
        );
    }

    #[test]
    fn an_unfinished_game_credits_owned_cards() {
        let g = Valley::new(&config(3), 5).expect("valid");
        // Nothing entombed yet: the evaluation is all progress, and positive.
        assert_eq!(g.score(0).total, 0);
        assert!(g.evaluation(0) > 0.0);
    }

    /// The features are the heuristic's own quantities: weighted as the heuristic weighs
    /// them, they give the heuristic back (so a fit starts from what the heuristic knows).
    #[test]
    fn the_features_weighted_as_the_heuristic_give_the_heuristic() {
        engine::conformance::check_features_give_the_heuristic::<Valley>(
            &config(4),
            0..8,
            &[
                1.0,
                super::OWNED_SHARE,
                0.0,
                super::GOLD_VALUE,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
            ],
        );
    }
}
