//! Undo barriers (`Game::reveals`): which events show someone something new or draw chance.
//!
//! Every card movement is public except draws and private looks (K-Z12), so the hidden
//! things are the split of each seat's hand ∪ deck into hand and deck, every deck's order,
//! the stock's order and what a seat saw privately. An event reveals when it draws, turns
//! or looks at one of them, shuffles, or moves a card out of a hand that the others could
//! not be sure was there. Buying from the face-up pyramid, crumbling, sacrificing at the
//! rebuild, declining a reaction and reserving show nothing.

use crate::data::{CardId, Prim, Zone};
use crate::events::Event;
use crate::state::{Phase, Program, Stage, Valley};
use engine::Seat;

impl Valley {
    /// `Game::reveals`, judged on `self`, the position before the action.
    pub(crate) fn event_reveals(&self, event: &Event) -> bool {
        match *event {
            // K-T21, K-T15: a draw shows the drawer its cards; a reshuffle draws chance.
            Event::Drew { count, .. } | Event::Looked { count, .. } => count > 0,
            Event::Reshuffled { .. } => true,
            // K-E2: the top card of a deck turned face up.
            Event::Revealed { .. } => true,
            // K-E16: the action put back a card that only its owner had seen.
            Event::Arranged { .. } => true,
            // K-T14: a stock card turned face up into the pyramid.
            Event::Refilled { .. } => true,
            // K-G1: the end declares the outcome; a finished game is not taken back.
            Event::GameOver => true,
            // K-T7d: the part turned out impossible because of what cards showed.
            Event::PartSkipped { .. } => true,
            // K-T4a: beginning a purchase shows the hand holds that much gold.
            Event::PurchaseBegun { seat, card, .. } => {
                !self.surely_affords(seat, self.config.rules.card(card).cost)
            }
            // K-T4b, K-R5, K-E9: the card leaves its owner's (or giver's) hand.
            Event::Paid { seat, card, .. } | Event::Reacted { seat, card } => {
                !self.surely_in_hand(seat, card)
            }
            // K-T6, K-T7a: the card leaves the hand, and its action was playable, which
            // may depend on the rest of the hand.
            Event::ActionPlayed { seat, card } => {
                !self.surely_in_hand(seat, card)
                    || (self.reads_hand(Program::Card(card)) && !self.hand_known(seat))
            }
            // K-T9: the ability was playable, which may depend on the hand.
            Event::PharaohUsed { seat } => {
                let program = Program::Pharaoh(self.zones(seat).pharaoh);
                self.reads_hand(program) && !self.hand_known(seat)
            }
            Event::Given { from, card, .. } => !self.surely_in_hand(from, card),
            // K-T11: the whole hand goes face up to the discard pile.
            Event::PlayEnded { seat } => !self.hand_known(seat),
            Event::Entombed { seat, card }
            | Event::Sacrificed { seat, card }
            | Event::Discarded { seat, card }
            | Event::Taken { seat, card } => self.moved_card_reveals(event, seat, card),
            Event::TurnStarted { .. }
            | Event::Bought { .. }
            | Event::Crumbled { .. }
            | Event::Reserved { .. }
            | Event::Executed { .. }
            | Event::Declined { .. }
            | Event::TurnEnded { .. } => false,
        }
    }

    /// Whether a card that an effect (or K-T8, K-T12) moved showed anything: that depends
    /// on the zone it came from, which the pending decision names.
    fn moved_card_reveals(&self, event: &Event, seat: Seat, card: CardId) -> bool {
        let Some(frame) = self.frames.last() else {
            return match (event, self.phase) {
                // K-T12: the rebuild sacrifices from the face-up pyramid.
                (Event::Sacrificed { .. }, Phase::Rebuild) => false,
                // K-T8: the menu's entombment takes a hand card.
                (Event::Entombed { .. }, Phase::Play) => !self.surely_in_hand(seat, card),
                // A card moved by an automatic part of the action played now: its zone is
                // not known here, so it counts as shown.
                _ => true,
            };
        };
        // K-E16: a card only its owner had looked at.
        if frame.stage == Stage::LookDiscard {
            return true;
        }
        let prim = self
            .parts(frame.program)
            .get(usize::from(frame.part))
            .map(|part| part.prim);
        let from = match prim {
            Some(
                Prim::Discard { from }
                | Prim::Entomb { from, .. }
                | Prim::Take { from, .. }
                | Prim::Sacrifice { from },
            ) => from,
            _ => return true,
        };
        match from {
            Zone::Hand => !self.surely_in_hand(seat, card),
            // Face-up zones, and a card a reveal already showed.
            Zone::Discard
            | Zone::Pyramid
            | Zone::Revealed
            | Zone::BoneyardTop
            | Zone::BoneyardAny => false,
            Zone::StockTop => true,
        }
    }

    /// Whether every other seat knows that `seat`'s hand holds `card` (K-Z12a): it was
    /// seen arriving, or the hand ∪ deck holds more copies than the deck could hide.
    pub(crate) fn surely_in_hand(&self, seat: Seat, card: CardId) -> bool {
        let z = self.zones(seat);
        let known = z.known_in_hand.iter().filter(|&&c| c == card).count();
        if known > 0 {
            return true;
        }
        let unknown = z.hand.iter().chain(z.deck.iter()).filter(|&&c| c == card);
        unknown.count() > z.deck.len()
    }

    /// Whether the parts of `program` take from the acting seat's hand, so that whether
    /// it is playable (K-T7a) may depend on the hand.
    fn reads_hand(&self, program: Program) -> bool {
        self.parts(program).iter().any(|part| {
            !part.each_opponent
                && matches!(
                    part.prim,
                    Prim::Discard { from: Zone::Hand }
                        | Prim::Entomb {
                            from: Zone::Hand,
                            ..
                        }
                        | Prim::Take {
                            from: Zone::Hand,
                            ..
                        }
                        | Prim::Sacrifice { from: Zone::Hand }
                )
        })
    }

    /// Whether every other seat knows that `seat`'s hand holds at least `cost` effective
    /// gold (K-T5): its known cards with the poorest cards the rest could be.
    fn surely_affords(&self, seat: Seat, cost: u8) -> bool {
        let z = self.zones(seat);
        let gold = |c: &CardId| u16::from(self.effective_gold(*c));
        let mut pool: Vec<CardId> = z.hand.iter().chain(z.deck.iter()).copied().collect();
        for known in z.known_in_hand.iter() {
            if let Some(i) = pool.iter().position(|c| c == known) {
                pool.swap_remove(i);
            }
        }
        pool.sort_unstable_by_key(gold);
        let unknown = z.hand.len().saturating_sub(z.known_in_hand.len());
        let least: u16 = z
            .known_in_hand
            .iter()
            .chain(pool.iter().take(unknown))
            .map(gold)
            .sum();
        least >= u16::from(cost)
    }

    /// Whether every other seat knows `seat`'s whole hand: no unknown hand card, an empty
    /// deck, or a hand ∪ deck (less the known cards) of a single kind.
    fn hand_known(&self, seat: Seat) -> bool {
        let z = self.zones(seat);
        if z.hand.len() <= z.known_in_hand.len() || z.deck.is_empty() {
            return true;
        }
        let mut cards = z.hand.iter().chain(z.deck.iter());
        let first = cards.next().copied();
        cards.all(|&c| Some(c) == first)
    }
}
