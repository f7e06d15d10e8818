//! The heuristic value of a position for the bots (`Game::evaluate`): the points a seat's
//! tomb scores now (K-G3) plus a discounted value for the cards it owns that it could
//! still entomb, and for the gold its cards buy with.

use engine::Seat;

use crate::data::{CardId, Category};
use crate::state::{Phase, Valley, GOLD_TAG};

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
}

/// The fitted evaluation's features (`Game::EVALUATION_FEATURES`): the holdings, and each
/// of them times the rounds left, so that the fit can weigh them by how much of the
/// game remains (a card owned late may never be drawn and entombed).
pub const FEATURES: [&str; 8] = [
    "points",
    "potential",
    "potential_x_rounds",
    "hand_gold",
    "hand_gold_x_rounds",
    "cards",
    "cards_x_rounds",
    "rounds",
];

impl Valley {
    /// Points now plus progress. Over, it is the final score exactly.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        let h = self.holdings(seat);
        if self.phase == Phase::Over {
            return h.points;
        }
        h.points + OWNED_SHARE * h.potential + GOLD_VALUE * h.hand_gold
    }

    /// The features of [`FEATURES`] for `seat`.
    pub fn features(&self, seat: Seat, out: &mut [f64]) {
        let h = self.holdings(seat);
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
        ];
        out[..features.len()].copy_from_slice(&features);
    }

    /// About how many more turns each seat has: the pyramid loses at least a card a turn
    /// (K-G6) and the game ends once the stock and the pyramid are empty (K-G1), so the
    /// cards left to leave them, shared among the seats. Public information.
    fn rounds_left(&self) -> f64 {
        let pyramid = (0..6).filter(|&s| self.pyramid_card(s).is_some()).count();
        (self.stock.len() + pyramid) as f64 / f64::from(self.n)
    }

    fn holdings(&self, seat: Seat) -> Holdings {
        let zones = self.zones(seat);
        let rules = &self.config.rules;
        // Each set's distinct kinds in the tomb, and in the tomb with every owned card.
        let mut in_tomb = vec![0u8; rules.sets.len()];
        let mut with_owned = in_tomb.clone();
        let mut seen = [0u128; 2];
        let mut kind = |card: CardId, zone: usize, counts: &mut [u8]| {
            if let Category::Set(s) = rules.card(card).category {
                if seen[zone] >> card & 1 == 0 {
                    seen[zone] |= 1 << card;
                    counts[usize::from(s)] += 1;
                }
            }
        };
        let owned = || {
            zones
                .deck
                .iter()
                .chain(zones.hand.iter())
                .chain(zones.discard.iter())
                .copied()
                .chain(zones.in_play.iter().map(|c| c & !GOLD_TAG))
        };
        for &card in zones.tomb.iter() {
            kind(card, 0, &mut in_tomb);
            kind(card, 1, &mut with_owned);
        }
        let mut printed_points = 0u32;
        let mut gold = 0u32;
        for card in owned() {
            kind(card, 1, &mut with_owned);
            let c = rules.card(card);
            if !matches!(c.category, Category::Set(_)) {
                printed_points += u32::from(c.vp);
            }
            gold += u32::from(c.gold);
        }
        let set_gain: u32 = in_tomb
            .iter()
            .zip(&with_owned)
            .map(|(&now, &all)| u32::from(all) * u32::from(all) - u32::from(now) * u32::from(now))
            .sum();
        let cards = owned().count() as f64;
        Holdings {
            points: f64::from(self.score(seat).total),
            potential: f64::from(printed_points + set_gain),
            hand_gold: HAND * f64::from(gold) / cards.max(HAND),
            cards,
        }
    }
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
            ],
        );
    }
}
