//! The four books (V-C6): two piles of double-sided cards each, and what the table has
//! seen of them (V-I2).

use rand::seq::SliceRandom;
use tinyvec::ArrayVec;

use crate::components::{Face, Side};
use crate::data::{Rules, COMMISSION_CARDS, EQUIPMENT_CARDS};
use engine::Rng;

/// Cards a pile can hold: a commission book can receive every commission card by returns.
const PILE_CAPACITY: usize = 2 * COMMISSION_CARDS;

/// A card in a pile: its id plus what the table knows of it.
///
/// A card's whereabouts are public from the moment any face of it has shown, so the
/// unknown cards are exactly the never-shown ones, at the bottom of the right pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSlot(u8);

impl CardSlot {
    const ID: u8 = 0x3f;
    /// Both faces are known.
    const KNOWN: u8 = 0x80;
    /// The recto has shown (top of the right pile); the verso may still be unknown.
    const RECTO_SEEN: u8 = 0x40;

    fn hidden(card: u8) -> Self {
        CardSlot(card)
    }

    fn known(card: u8) -> Self {
        CardSlot(card | Self::KNOWN | Self::RECTO_SEEN)
    }

    /// Card id: equipment 0..36, commissions 0..54 (set × cards per set + index).
    pub fn card(self) -> u8 {
        self.0 & Self::ID
    }

    pub fn is_known(self) -> bool {
        self.0 & Self::KNOWN != 0
    }

    pub fn recto_seen(self) -> bool {
        self.0 & Self::RECTO_SEEN != 0
    }
}

/// Whether a book holds equipment or commissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(rename_all = "snake_case")]
pub enum BookKind {
    Equipment,
    Commission,
}

impl BookKind {
    pub fn of_book(book: u8) -> BookKind {
        if book < 2 {
            BookKind::Equipment
        } else {
            BookKind::Commission
        }
    }

    /// Face `side` of a card (recto = the right pile's face, verso = the left pile's).
    pub fn face(self, rules: &Rules, card: u8, side: Side) -> Face {
        let sideways = match side {
            Side::Right => 0,
            Side::Left => 1,
        };
        match self {
            BookKind::Equipment => Face::Equipment(
                rules.equipment_cards[usize::from(card) % EQUIPMENT_CARDS][sideways],
            ),
            BookKind::Commission => Face::Commission(
                rules.commission_cards[usize::from(card) % COMMISSION_CARDS][sideways],
            ),
        }
    }
}

/// What anyone can tell about one card of a pile, bottom to top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct CardView {
    pub recto: Option<Face>,
    pub verso: Option<Face>,
}

/// One book: `piles[Side::index()]`, top of a pile = last element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Book {
    piles: [ArrayVec<[CardSlot; PILE_CAPACITY]>; 2],
}

impl Book {
    /// rule V-S4: the book's cards shuffled and stacked on the right; the top recto shows.
    pub fn shuffled(first_card: u8, cards: u8, rng: &mut Rng) -> Book {
        let mut right: ArrayVec<[CardSlot; PILE_CAPACITY]> = (first_card..first_card + cards)
            .map(CardSlot::hidden)
            .collect();
        right.shuffle(rng);
        let mut book = Book {
            piles: [ArrayVec::new(), right],
        };
        book.reveal_tops();
        book
    }

    pub fn pile(&self, side: Side) -> &[CardSlot] {
        &self.piles[side.index()]
    }

    pub fn top(&self, side: Side) -> Option<CardSlot> {
        self.piles[side.index()].last().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.piles.iter().all(|p| p.is_empty())
    }

    /// The face on top of `side`, if the pile is not empty.
    pub fn visible(&self, rules: &Rules, kind: BookKind, side: Side) -> Option<Face> {
        self.top(side).map(|c| kind.face(rules, c.card(), side))
    }

    /// rule V-A1 Turn: the top card of `from` moves onto the other pile.
    pub fn turn(&mut self, from: Side) {
        if let Some(card) = self.piles[from.index()].pop() {
            // Turning shows the face the card did not show before: now both are known.
            self.piles[from.other().index()].push(CardSlot::known(card.card()));
            self.reveal_tops();
        }
    }

    /// Takes the top card of `side` (a purchase). The buyer holds it face up; the table
    /// has then seen both faces.
    pub fn take(&mut self, side: Side) -> Option<u8> {
        let card = self.piles[side.index()].pop()?;
        self.reveal_tops();
        Some(card.card())
    }

    /// Whether turning the top card of `from`, or buying it, shows the table a face it
    /// has not seen (V-I2): only the right pile's top card can be unknown, and then its
    /// verso shows, as does the recto of the never-shown card under it. A card once
    /// turned is known on both faces, and the left pile holds only such cards, so turning
    /// back and forth shows nothing new.
    pub fn shows_unseen(&self, from: Side) -> bool {
        from == Side::Right && self.top(from).is_some_and(|card| !card.is_known())
    }

    /// Puts a known card on top of `side` (a returned commission, V-A1).
    pub fn put(&mut self, side: Side, card: u8) {
        self.piles[side.index()].push(CardSlot::known(card));
    }

    /// Takes a card out from anywhere (test set-ups only).
    #[cfg(test)]
    pub(crate) fn remove_card(&mut self, card: u8) -> bool {
        for pile in &mut self.piles {
            if let Some(pos) = pile.iter().position(|c| c.card() == card) {
                pile.remove(pos);
                self.reveal_tops();
                return true;
            }
        }
        false
    }

    fn reveal_tops(&mut self) {
        if let Some(top) = self.piles[Side::Right.index()].last_mut() {
            top.0 |= CardSlot::RECTO_SEEN;
        }
        // Left-pile cards always got there visibly, so they are known already.
    }

    /// What the table knows of each pile, bottom to top (V-I1, V-I2).
    pub fn view(&self, rules: &Rules, kind: BookKind, side: Side) -> Vec<CardView> {
        self.piles[side.index()]
            .iter()
            .map(|slot| CardView {
                recto: slot
                    .recto_seen()
                    .then(|| kind.face(rules, slot.card(), Side::Right)),
                verso: slot
                    .is_known()
                    .then(|| kind.face(rules, slot.card(), Side::Left)),
            })
            .collect()
    }

    /// rule V-I3: the cards not known are redistributed over the unknown slots, keeping
    /// every face that has shown. A slot whose recto showed gets a card with that recto.
    pub fn resample_unseen(&mut self, rules: &Rules, kind: BookKind, rng: &mut Rng) {
        let pile = &mut self.piles[Side::Right.index()];
        let mut pool: ArrayVec<[u8; PILE_CAPACITY]> = pile
            .iter()
            .filter(|s| !s.is_known())
            .map(|s| s.card())
            .collect();
        if pool.len() < 2 {
            return;
        }
        // The sample must depend only on what the observer knows (the set of unseen
        // cards), not on their true order: bots decide from it (fairness).
        pool.sort_unstable();
        let recto = |card: u8| kind.face(rules, card, Side::Right);
        // Slots whose recto showed first (at most one in play: the top of the never-turned
        // part of the right pile), each taking a uniformly drawn card with that recto.
        for slot in pile.iter_mut().filter(|s| !s.is_known() && s.recto_seen()) {
            let want = recto(slot.card());
            let candidates = pool.iter().filter(|&&c| recto(c) == want).count();
            let pick = rand::Rng::gen_range(rng, 0..candidates);
            let at = pool
                .iter()
                .enumerate()
                .filter(|(_, &c)| recto(c) == want)
                .nth(pick)
                .map(|(i, _)| i)
                .expect("the slot's own card is a candidate");
            let card = pool.swap_remove(at);
            slot.0 = (slot.0 & !CardSlot::ID) | card;
        }
        pool.shuffle(rng);
        let mut rest = pool.into_iter();
        for slot in pile.iter_mut().filter(|s| !s.is_known() && !s.recto_seen()) {
            let card = rest.next().expect("as many cards as slots");
            slot.0 = (slot.0 & !CardSlot::ID) | card;
        }
    }
}
