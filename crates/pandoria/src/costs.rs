//! What things cost and how they are paid (P-T5, P-T6, P-T7, P-T9, and the buildings
//! that change prices: P-B1, P-B2, P-B6): the predicates both the legal actions and
//! "why not?" use.

use crate::cards::{card_bit, Building, CardId};
use crate::components::Resource;
use crate::events::Event;
use crate::fault::{Fault, Key};
use crate::state::{Pandoria, MONUMENT_BASE, NO_CARD, SLOTS};
use engine::{EventSink, Seat};

impl Pandoria {
    /// Calls `f` with every way to pay `cost` of `resource` (P-T7).
    pub(crate) fn pay_options(
        &self,
        seat: Seat,
        resource: Resource,
        cost: u8,
        mut f: impl FnMut(Option<Resource>),
    ) {
        if self.pay_check(seat, resource, cost, None).is_ok() {
            // P-T7: paying from the resource itself excludes the Market (`pay_not_needed`
            // for every other way), so the other three need no check (issue 52: this is
            // the listing's most frequent case).
            f(None);
            return;
        }
        if self
            .player(seat)
            .visible(self.rules(), Building::Market)
            .is_none()
        {
            return; // P-B6: without a Market every other way is `no_market`
        }
        for pay in [Resource::Crystal, Resource::Gold, Resource::Wood] {
            if self.pay_check(seat, resource, cost, Some(pay)).is_ok() {
                f(Some(pay));
            }
        }
    }

    /// P-T7: may `seat` pay `cost` of `resource` this way? From the resource itself when
    /// it suffices (`pay` empty), otherwise the shortfall through a visible Market (P-B6)
    /// with one other resource (P-X17), at the Market's rate.
    pub(crate) fn pay_check(
        &self,
        seat: Seat,
        resource: Resource,
        cost: u8,
        pay: Option<Resource>,
    ) -> Result<(), Fault> {
        let p = self.player(seat);
        let have = p.resources[resource.index()];
        let Some(other) = pay else {
            return if have >= cost {
                Ok(())
            } else {
                Err(Fault::new("P-T7", "not_enough")
                    .with(Key::Resource, resource)
                    .with(Key::Need, cost)
                    .with(Key::Have, have))
            };
        };
        if have >= cost {
            return Err(Fault::new("P-T7", "pay_not_needed").with(Key::Resource, resource));
        }
        let Some(market) = p.visible(self.rules(), Building::Market) else {
            return Err(Fault::new("P-B6", "no_market")
                .with(Key::Resource, resource)
                .with(Key::Need, cost)
                .with(Key::Have, have));
        };
        if other == resource {
            return Err(Fault::new("P-X17", "pay_with_same_resource").with(Key::Resource, resource));
        }
        let need = usize::from(market.building_value) * usize::from(cost - have);
        let other_have = p.resources[other.index()];
        if usize::from(other_have) < need {
            return Err(Fault::new("P-T7", "not_enough_to_exchange")
                .with(Key::Resource, other)
                .with(Key::Need, need)
                .with(Key::Have, other_have));
        }
        Ok(())
    }

    /// P-T7: pays `cost` of `resource`, a shortfall with `pay` through the Market. The
    /// changed resources are returned to be told after the act (see [`Paid`]).
    pub(crate) fn pay(
        &mut self,
        seat: Seat,
        resource: Resource,
        cost: u8,
        pay: Option<Resource>,
    ) -> Paid {
        let market = self
            .player(seat)
            .visible(self.rules(), Building::Market)
            .map_or(0, |c| c.building_value);
        let p = &mut self.players[usize::from(seat)];
        let have = p.resources[resource.index()];
        let mut paid = Paid([None, None]);
        match pay {
            None => p.resources[resource.index()] = have - cost,
            Some(other) => {
                p.resources[resource.index()] = 0;
                let need = market * (cost - have);
                p.resources[other.index()] -= need;
                paid.0[0] = Some(Event::ResourceChanged {
                    seat,
                    resource: other,
                    value: p.resources[other.index()],
                });
            }
        }
        paid.0[1] = Some(Event::ResourceChanged {
            seat,
            resource,
            value: p.resources[resource.index()],
        });
        paid
    }

    /// The Carpenter discount when covering `slot` (P-B2): none when it covers the
    /// Carpenter itself.
    fn carpenter_discount(&self, seat: Seat, slot: usize) -> u8 {
        let p = self.player(seat);
        let rules = &*self.config.rules;
        let covering = p.slots[slot];
        if covering != NO_CARD && rules.cards[usize::from(covering)].building == Building::Carpenter
        {
            return 0;
        }
        p.visible(rules, Building::Carpenter)
            .map_or(0, |c| c.building_value)
    }

    /// P-T5: the wood cost of building `card` into `slot`, or `None` if not allowed.
    pub(crate) fn build_cost(&self, seat: Seat, card: CardId, slot: usize) -> Option<u8> {
        self.build_check(seat, card, slot).ok()
    }

    /// P-T5: the wood cost of building `card` into `slot`, or why it may not be built.
    pub(crate) fn build_check(&self, seat: Seat, card: CardId, slot: usize) -> Result<u8, Fault> {
        let p = self.player(seat);
        let rules = &*self.config.rules;
        let new = match rules.cards.get(usize::from(card)) {
            Some(new) if p.hand & card_bit(card) != 0 => new,
            _ => return Err(Fault::new("P-T5", "card_not_in_hand").with(Key::Card, card)),
        };
        if slot >= SLOTS {
            return Err(Fault::new("P-T5", "no_such_slot").with(Key::Slot, slot));
        }
        if p.monuments[slot] != 0 {
            return Err(Fault::new("P-T5", "slot_has_monument").with(Key::Slot, slot));
        }
        let duplicate = (0..SLOTS).find(|&s| {
            s != slot
                && p.slots[s] != NO_CARD
                && rules.cards[usize::from(p.slots[s])].building == new.building
        });
        if let Some(other) = duplicate {
            return Err(Fault::new("P-T5", "duplicate_building").with(Key::Slot, other));
        }
        let base = match p.slots[slot] {
            NO_CARD => new.wood_cost,
            old => new
                .wood_cost
                .saturating_sub(rules.cards[usize::from(old)].wood_cost)
                .max(1),
        };
        Ok(base
            .saturating_sub(self.carpenter_discount(seat, slot))
            .max(1))
    }

    /// P-T6: the wood cost of a monument on `slot`, or `None` if not allowed.
    pub(crate) fn monument_cost(&self, seat: Seat, slot: usize) -> Option<u8> {
        self.monument_check(seat, slot).ok()
    }

    /// P-T6: the wood cost of a monument on `slot`, or why none may go there.
    pub(crate) fn monument_check(&self, seat: Seat, slot: usize) -> Result<u8, Fault> {
        let p = self.player(seat);
        let fault = |code| Err(Fault::new("P-T6", code).with(Key::Slot, slot));
        if slot >= SLOTS {
            return fault("no_such_slot");
        }
        if self.monuments.is_empty() {
            return Err(Fault::new("P-T6", "no_monument_left"));
        }
        if p.monuments[slot] != 0 {
            return fault("slot_has_monument");
        }
        if p.slots[slot] == NO_CARD {
            return fault("no_building_in_slot");
        }
        let covered = self.rules().cards[usize::from(p.slots[slot])].wood_cost;
        Ok(MONUMENT_BASE
            .saturating_sub(covered)
            .saturating_sub(self.carpenter_discount(seat, slot))
            .max(1))
    }

    /// The card in market slot `market`, or why there is none: `rule` is the rule that
    /// takes it (P-T9 buying, P-SP1 Acquire).
    pub(crate) fn market_card_check(
        &self,
        market: usize,
        rule: &'static str,
    ) -> Result<CardId, Fault> {
        match self.market.get(market) {
            None => Err(Fault::new(rule, "no_such_market_slot").with(Key::Market, market)),
            // P-X3: a slot the deck could not refill stays empty.
            Some(&NO_CARD) => Err(Fault::new(rule, "market_slot_empty").with(Key::Market, market)),
            Some(&card) => Ok(card),
        }
    }

    /// P-T9: the gold price of market card `market` (Bank, P-B1).
    pub(crate) fn buy_price(&self, seat: Seat, market: usize) -> Option<u8> {
        self.buy_check(seat, market).ok()
    }

    /// P-T9: the gold price of market card `market`, or why it is not for sale.
    pub(crate) fn buy_check(&self, seat: Seat, market: usize) -> Result<u8, Fault> {
        let card = self.market_card_check(market, "P-T9")?;
        let rules = &*self.config.rules;
        let bank = self
            .player(seat)
            .visible(rules, Building::Bank)
            .map_or(0, |c| c.building_value);
        Ok(rules.cards[usize::from(card)]
            .gold_price
            .saturating_sub(bank)
            .max(1))
    }
}

/// What a payment changed (P-T7), told after the act it pays for, so that the log follows
/// the table: "Seat 0 buys …", then "Seat 0 now has 2 gold".
#[must_use = "a payment is told after its act"]
pub(crate) struct Paid([Option<Event>; 2]);

impl Paid {
    /// A free act (Construct, P-SP6): nothing to tell.
    pub(crate) const NOTHING: Paid = Paid([None, None]);

    pub(crate) fn tell(self, events: &mut impl EventSink<Event>) {
        for event in self.0.into_iter().flatten() {
            events.emit(event);
        }
    }
}
