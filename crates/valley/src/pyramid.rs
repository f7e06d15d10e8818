//! The pyramid: six slots (K-Z9), crumbling (K-T17..K-T20) and refill (K-T14).

use engine::{EventSink, Seat};

use crate::actions::Slot;
use crate::data::CardId;
use crate::events::Event;
use crate::state::{PendingCrumble, SlotCard, Valley, EMPTY_SLOT, NONE};

pub const B0: Slot = 0;
pub const B1: Slot = 1;
pub const B2: Slot = 2;
pub const M0: Slot = 3;
pub const M1: Slot = 4;
pub const T: Slot = 5;

/// K-Z10: the slots diagonally above each slot.
pub const fn above(slot: Slot) -> &'static [Slot] {
    match slot {
        B0 => &[M0],
        B1 => &[M0, M1],
        B2 => &[M1],
        M0 | M1 => &[T],
        _ => &[],
    }
}

impl Valley {
    pub(crate) fn occupied(&self, slot: Slot) -> bool {
        self.pyramid[usize::from(slot)].card != NONE
    }

    /// Whether `seat` may take, buy, entomb or sacrifice the card in `slot` (K-E15).
    pub(crate) fn available_to(&self, slot: Slot, seat: Seat) -> bool {
        let s = self.pyramid[usize::from(slot)];
        s.card != NONE && (s.reserved_by == NONE || s.reserved_by == seat)
    }

    /// Takes the card out of `slot`; the pyramid changed (K-T13). The caller reports what
    /// happened to the card and then calls [`Valley::crumble_into`] (K-T17), so that the
    /// log tells the purchase or sacrifice before the crumbling it causes.
    pub(crate) fn remove_from_pyramid(&mut self, slot: Slot) -> CardId {
        let card = self.pyramid[usize::from(slot)].card;
        self.pyramid[usize::from(slot)] = EMPTY_SLOT;
        self.turn.pyramid_changed = true;
        card
    }

    /// The crumble loop from gap `gap` (K-T17), `chooser` picking at a base-centre gap
    /// (K-T19).
    pub(crate) fn crumble_into(
        &mut self,
        mut gap: Slot,
        chooser: Seat,
        events: &mut impl EventSink<Event>,
    ) {
        loop {
            let candidates = above(gap);
            let occupied: u8 = candidates.iter().filter(|&&s| self.occupied(s)).count() as u8;
            let from = match occupied {
                0 => return,
                1 => *candidates
                    .iter()
                    .find(|&&s| self.occupied(s))
                    .expect("one occupied"),
                _ => {
                    self.crumble = Some(PendingCrumble { chooser });
                    return;
                }
            };
            self.fall(from, gap, events);
            gap = from;
        }
    }

    fn fall(&mut self, from: Slot, to: Slot, events: &mut impl EventSink<Event>) {
        // K-T20: a reservation travels with its card.
        self.pyramid[usize::from(to)] = self.pyramid[usize::from(from)];
        self.pyramid[usize::from(from)] = EMPTY_SLOT;
        events.emit(Event::Crumbled { from, to });
    }

    /// Resolves a pending base-centre choice: `from` (M0 or M1) falls into B1.
    pub(crate) fn crumble_from(&mut self, from: Slot, events: &mut impl EventSink<Event>) {
        let Some(PendingCrumble { chooser }) = self.crumble.take() else {
            return;
        };
        self.fall(from, B1, events);
        self.crumble_into(from, chooser, events);
    }

    /// K-T14, K-A1: fill empty slots in index order from the stock.
    pub(crate) fn refill(&mut self, events: &mut impl EventSink<Event>) {
        for slot in 0..6u8 {
            if self.occupied(slot) {
                continue;
            }
            let Some(card) = self.stock.pop() else {
                return;
            };
            self.pyramid[usize::from(slot)] = SlotCard {
                card,
                reserved_by: NONE,
            };
            events.emit(Event::Refilled { slot, card });
        }
    }

    /// K-Z11.
    pub fn pyramid_supported(&self) -> bool {
        let o = |s| self.occupied(s);
        (!o(M0) || (o(B0) && o(B1))) && (!o(M1) || (o(B1) && o(B2))) && (!o(T) || (o(M0) && o(M1)))
    }

    pub fn pyramid_empty(&self) -> bool {
        (0..6).all(|s| !self.occupied(s))
    }
}
