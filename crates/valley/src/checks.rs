//! The conditions of the play-menu, paying, reaction and rebuild decisions (K-T3..K-T12,
//! K-R4), one check per action: the turn machine lists the candidates a check accepts
//! ([`Valley::raw_decisions`]) and "why not?" ([`crate::explain`]) reports the first
//! refusal of the same check, so the two can never disagree.

use engine::Seat;

use crate::actions::Slot;
use crate::data::CardId;
use crate::fault::{Fault, Key};
use crate::state::{Program, Valley, NONE};

/// Legal, or the first rule broken.
pub(crate) type Check = Result<(), Fault>;

/// The pyramid's slots (K-Z9).
pub(crate) const SLOTS: Slot = 6;
/// The base row: B0 B1 B2 (K-Z9), what a purchase may target (K-T4a).
const BASE: Slot = 3;

impl Valley {
    /// A hand card of `seat`; every use of a card starts from the hand (K-T3).
    fn check_in_hand(&self, seat: Seat, card: CardId, rule: &'static str) -> Check {
        if self.zones(seat).hand.contains(&card) {
            Ok(())
        } else {
            Err(Fault::new(rule, "card_not_in_hand"))
        }
    }

    /// A slot holding a card `seat` may take, buy or sacrifice (K-Z9, K-E15).
    fn check_slot(&self, seat: Seat, slot: Slot, rule: &'static str) -> Check {
        if slot >= SLOTS {
            return Err(Fault::new("K-Z9", "no_such_slot"));
        }
        if !self.occupied(slot) {
            return Err(Fault::new(rule, "slot_empty"));
        }
        if !self.available_to(slot, seat) {
            return Err(Fault::new("K-E15", "slot_reserved"));
        }
        Ok(())
    }

    /// rule K-T4a, K-E14: the slots a purchase may target now: the base row, or the whole
    /// pyramid while a purchase scope is in force.
    pub(crate) fn purchase_scope(&self) -> Slot {
        if self.turn.scope_uses > 0 {
            SLOTS
        } else {
            BASE
        }
    }

    // rule K-T4a: a base card (anywhere with a purchase scope) the hand's gold can pay.
    pub(crate) fn check_purchase(&self, seat: Seat, slot: Slot) -> Check {
        self.check_purchase_with(seat, slot, self.hand_gold(seat))
    }

    /// [`Valley::check_purchase`] with the hand's `gold` counted by the caller: the listing
    /// asks about every slot of one hand, and counted it once per slot (issue 52).
    pub(crate) fn check_purchase_with(&self, seat: Seat, slot: Slot, gold: u16) -> Check {
        if slot >= SLOTS {
            return Err(Fault::new("K-Z9", "no_such_slot"));
        }
        if slot >= self.purchase_scope() {
            return Err(Fault::new("K-T4", "slot_not_in_base"));
        }
        self.check_slot(seat, slot, "K-T4")?;
        let cost = u16::from(
            self.config
                .rules
                .card(self.pyramid[usize::from(slot)].card)
                .cost,
        );
        if gold < cost {
            return Err(Fault::new("K-T4", "not_affordable")
                .with(Key::Need, cost)
                .with(Key::Have, gold));
        }
        Ok(())
    }

    // rule K-T6: a hand card whose action is playable (K-T7a).
    pub(crate) fn check_play(&self, seat: Seat, card: CardId) -> Check {
        self.check_in_hand(seat, card, "K-T6")?;
        self.check_play_held(seat, card)
    }

    /// [`Valley::check_play`] of a card the caller took from the hand: the listing walks
    /// the hand, and asking the hand again for each of its cards was a search with a
    /// branch the processor could not guess (issue 52).
    pub(crate) fn check_play_held(&self, seat: Seat, card: CardId) -> Check {
        if self.config.rules.card(card).action.is_none() {
            return Err(Fault::new("K-T6", "card_has_no_action"));
        }
        let playable = self.program_playable(Program::Card(card), seat, |g| {
            g.zones_mut(seat).hand_remove(card);
            g.in_play_push(seat, card, false);
            g.turn.log(card);
        });
        if !playable {
            return Err(Fault::new("K-T7", "action_impossible"));
        }
        Ok(())
    }

    // rule K-T8: one entombment a turn unless an effect grants more.
    pub(crate) fn check_entomb(&self, seat: Seat, card: CardId) -> Check {
        self.check_entomb_allowance()?;
        self.check_in_hand(seat, card, "K-T8")
    }

    /// [`Valley::check_entomb`] of any card the caller took from the hand: the allowance.
    pub(crate) fn check_entomb_allowance(&self) -> Check {
        if self.turn.entombs_used >= self.turn.entomb_allowance {
            return Err(
                Fault::new("K-T8", "no_entomb_left").with(Key::Allowed, self.turn.entomb_allowance)
            );
        }
        Ok(())
    }

    // rule K-T9: a pharaoh, once a turn, when its ability is playable.
    pub(crate) fn check_pharaoh(&self, seat: Seat) -> Check {
        let pharaoh = self.zones(seat).pharaoh;
        if pharaoh == NONE {
            return Err(Fault::new("K-T9", "no_pharaoh"));
        }
        if self.turn.pharaoh_used {
            return Err(Fault::new("K-T9", "pharaoh_used"));
        }
        if !self.program_playable(Program::Pharaoh(pharaoh), seat, |_| {}) {
            return Err(Fault::new("K-T9", "action_impossible"));
        }
        Ok(())
    }

    // rule K-T4b: payment is one hand card with effective gold at a time.
    pub(crate) fn check_pay(&self, seat: Seat, card: CardId) -> Check {
        self.check_in_hand(seat, card, "K-T4")?;
        self.check_pay_held(card)
    }

    /// [`Valley::check_pay`] of a card the caller took from the hand.
    pub(crate) fn check_pay_held(&self, card: CardId) -> Check {
        if self.effective_gold(card) == 0 {
            return Err(Fault::new("K-T5", "card_has_no_gold"));
        }
        Ok(())
    }

    // rule K-R4: a hand card whose reaction is possible now.
    pub(crate) fn check_react(&self, reactor: Seat, card: CardId) -> Check {
        self.check_in_hand(reactor, card, "K-R4")?;
        self.check_reaction(reactor, card)
    }

    /// K-R3, K-A5: a card of `reactor` whose reaction is possible now, judged on public
    /// facts (so asking a seat reveals nothing).
    pub(crate) fn check_reaction(&self, reactor: Seat, card: CardId) -> Check {
        if self.config.rules.card(card).reaction.is_none() {
            return Err(Fault::new("K-R1", "card_has_no_reaction"));
        }
        let possible = self.program_playable(Program::Reaction(card), reactor, |g| {
            g.zones_mut(reactor).hand_remove(card);
            g.zones_mut(reactor).discard.push(card);
        });
        if !possible {
            return Err(Fault::new("K-R3", "reaction_impossible"));
        }
        Ok(())
    }

    // rule K-T12: any slot holding a card not reserved by another seat.
    pub(crate) fn check_sacrifice(&self, seat: Seat, slot: Slot) -> Check {
        self.check_slot(seat, slot, "K-T12")
    }
}
