//! What a seat may know (K-Z12, K-Z13) and determinization.

use rand::seq::SliceRandom;
use serde::Serialize;

use engine::{Rng, Seat};

use crate::actions::Action;
use crate::data::CardId;
use crate::state::{Frame, Phase, SlotCard, TurnState, Valley, GOLD_TAG, NONE};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct SeatView {
    /// Only in the owner's view.
    pub hand: Option<Vec<CardId>>,
    pub hand_size: usize,
    pub deck_size: usize,
    /// K-E16: the deck's top cards the owner knows, topmost first (owner's view only).
    pub deck_known_top: Option<Vec<CardId>>,
    pub known_top: u8,
    /// K-Z12: hand cards known to everyone (they were taken to the hand in public).
    pub known_in_hand: Vec<CardId>,
    /// K-Z12a: the multiset hand ∪ deck is public (sorted).
    pub hand_and_deck: Vec<CardId>,
    /// (card, used for gold) in play order.
    pub in_play: Vec<(CardId, bool)>,
    pub discard: Vec<CardId>,
    pub tomb: Vec<CardId>,
    pub pharaoh: Option<u8>,
    pub turns: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct View {
    pub seat: Option<Seat>,
    pub active: Seat,
    pub start_seat: Seat,
    pub to_move: Option<Seat>,
    pub phase: Phase,
    pub crumble_pending: bool,
    /// Actions being resolved (public: every moved card was seen).
    pub frames: Vec<Frame>,
    pub turn: TurnState,
    pub seats: Vec<SeatView>,
    pub pyramid: [Option<SlotCard>; 6],
    pub stock_size: usize,
    /// K-Z12b: the stock's multiset (sorted) and how many of it are level II.
    pub stock_contents: Vec<CardId>,
    pub stock_level_ii: usize,
    pub boneyard: Vec<CardId>,
    /// Only for the seat that decides.
    pub legal: Vec<Action>,
    /// True while the card data holds provisional entries (K-A20): clients mark the game.
    pub provisional_data: bool,
}

impl Valley {
    pub(crate) fn build_view(&self, seat: Option<Seat>) -> View {
        let n = usize::from(self.n);
        let seats = self.seats[..n]
            .iter()
            .enumerate()
            .map(|(i, z)| {
                let mut hd: Vec<CardId> = z.hand.iter().chain(z.deck.iter()).copied().collect();
                hd.sort_unstable();
                SeatView {
                    hand: (seat == Some(i as Seat)).then(|| z.hand.to_vec()),
                    hand_size: z.hand.len(),
                    deck_size: z.deck.len(),
                    deck_known_top: (seat == Some(i as Seat)).then(|| {
                        z.deck
                            .iter()
                            .rev()
                            .take(usize::from(z.known_top))
                            .copied()
                            .collect()
                    }),
                    known_top: z.known_top,
                    known_in_hand: {
                        let mut k = z.known_in_hand.to_vec();
                        k.sort_unstable();
                        k
                    },
                    hand_and_deck: hd,
                    in_play: z
                        .in_play
                        .iter()
                        .map(|&c| (c & !GOLD_TAG, c & GOLD_TAG != 0))
                        .collect(),
                    discard: z.discard.to_vec(),
                    tomb: z.tomb.to_vec(),
                    pharaoh: (z.pharaoh != NONE).then_some(z.pharaoh),
                    turns: z.turns,
                }
            })
            .collect();
        let mut stock_contents = self.stock.to_vec();
        stock_contents.sort_unstable();
        let to_move = self.decider();
        let mut legal = Vec::new();
        if seat.is_some() && seat == to_move {
            self.push_legal(&mut legal);
        }
        View {
            seat,
            active: self.active,
            start_seat: self.start_seat,
            to_move,
            phase: self.phase,
            crumble_pending: self.crumble.is_some(),
            frames: self.frames.to_vec(),
            turn: self.turn.clone(),
            seats,
            pyramid: self.pyramid.map(|s| (s.card != NONE).then_some(s)),
            stock_size: self.stock.len(),
            stock_level_ii: self
                .stock
                .iter()
                .filter(|&&c| self.config.rules.card(c).level == 2)
                .count(),
            stock_contents,
            boneyard: self.boneyard.to_vec(),
            legal,
            provisional_data: !self.config.rules.provisional.is_empty(),
        }
    }

    /// K-Z13: resamples what `seat` cannot see, and reseeds the state's RNG.
    pub(crate) fn resample(&self, seat: Option<Seat>, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        for s in 0..self.n {
            let z = g.zones_mut(s);
            if Some(s) == seat {
                // The owner's known top cards stay where they are (K-E16).
                let unknown = z.deck.len().saturating_sub(usize::from(z.known_top));
                z.deck[..unknown].shuffle(rng);
                continue;
            }
            // The publicly known hand cards stay; the rest of the hand is dealt from the
            // rest of hand ∪ deck.
            let free = z.hand.len().saturating_sub(z.known_in_hand.len());
            let mut all: Vec<CardId> = z.hand.iter().chain(z.deck.iter()).copied().collect();
            for k in &z.known_in_hand {
                if let Some(i) = all.iter().position(|c| c == k) {
                    all.swap_remove(i);
                }
            }
            all.shuffle(rng);
            z.hand.clear();
            z.deck.clear();
            for i in 0..z.known_in_hand.len() {
                let c = z.known_in_hand[i];
                z.hand_add(c);
            }
            for (i, c) in all.into_iter().enumerate() {
                if i < free {
                    z.hand_add(c);
                } else {
                    z.deck.push(c);
                }
            }
        }
        // K-Z7: level II above level III.
        let rules = &self.config.rules;
        let stock = g.stock.as_mut_slice();
        stock.sort_unstable_by_key(|&c| std::cmp::Reverse(rules.card(c).level));
        let level_iii = stock.iter().filter(|&&c| rules.card(c).level == 3).count();
        let (bottom, top) = stock.split_at_mut(level_iii);
        bottom.shuffle(rng);
        top.shuffle(rng);
        g.rng = engine::rng_from_seed(rand::Rng::gen(rng));
        g
    }
}
