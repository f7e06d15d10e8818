//! The turn machine: who decides (K-T3, K-T19, K-R4, K-R7), the legal decisions, applying
//! them, and the automatic steps between decisions (K-T4c, K-T11..K-T16, K-G1).

use engine::{EventSink, Seat};

use crate::actions::Action;
use crate::data::CardId;
use crate::events::Event;
use crate::pyramid::{M0, M1};
use crate::state::{Phase, Probe, Program, Stage, Valley, GOLD_TAG};

impl Valley {
    /// The seat deciding now, or `None` once the game is over.
    pub(crate) fn decider(&self) -> Option<Seat> {
        if self.phase == Phase::Over {
            return None;
        }
        if let Some(c) = self.crumble {
            return Some(c.chooser);
        }
        if let Some(f) = self.frames.last() {
            return Some(self.frame_chooser(f));
        }
        Some(match self.phase {
            Phase::Window { offset, .. } => self.seat_after(self.active, offset),
            _ => self.active,
        })
    }

    /// The decisions of the seat to move, before K-T7b filtering.
    pub(crate) fn raw_decisions(&self, out: &mut Vec<Action>) {
        if self.phase == Phase::Over {
            return;
        }
        if self.crumble.is_some() {
            out.push(Action::CrumbleFrom { slot: M0 });
            out.push(Action::CrumbleFrom { slot: M1 });
            return;
        }
        if let Some(f) = self.frames.last() {
            let part = self.parts(f.program)[usize::from(f.part)];
            match f.stage {
                Stage::Choosing => {
                    let mut options = crate::effects::Options::new();
                    self.part_options(f, &part, self.frame_chooser(f), &mut options);
                    out.extend_from_slice(&options);
                    if f.picks >= part.min {
                        out.push(Action::Done);
                    }
                    if part.may && f.picks == 0 {
                        out.push(Action::Skip);
                    }
                }
                Stage::AcceptOrSkip => {
                    out.push(Action::Accept);
                    out.push(Action::Skip);
                }
                Stage::LookDiscard => {
                    self.look_options(f, out);
                    out.push(Action::Skip);
                }
                Stage::LookArrange => self.look_options(f, out),
                Stage::Enter => {}
            }
            return;
        }
        let seat = self.active;
        let hand = &self.zones(seat).hand;
        match self.phase {
            Phase::Play => {
                // The slots past the scope are refused by the check: not offered.
                let gold = self.hand_gold(seat);
                for slot in 0..self.purchase_scope() {
                    if self.check_purchase_with(seat, slot, gold).is_ok() {
                        out.push(Action::BeginPurchase { slot });
                    }
                }
                // The cards come from the hand: their checks need not ask it again.
                for card in distinct(hand) {
                    if self.check_play_held(seat, card).is_ok() {
                        out.push(Action::PlayAction { card });
                    }
                }
                if self.check_entomb_allowance().is_ok() {
                    out.extend(distinct(hand).map(|card| Action::Entomb { card }));
                }
                if self.check_pharaoh(seat).is_ok() {
                    out.push(Action::UsePharaoh);
                }
                out.push(Action::EndPlay);
            }
            Phase::Paying { .. } => {
                for card in distinct(hand) {
                    if self.check_pay_held(card).is_ok() {
                        out.push(Action::Pay { card });
                    }
                }
            }
            Phase::Window {
                offset,
                asking: true,
            } => {
                let reactor = self.seat_after(seat, offset);
                for card in distinct(&self.zones(reactor).hand) {
                    if self.check_reaction(reactor, card).is_ok() {
                        out.push(Action::React { card });
                    }
                }
                out.push(Action::Decline);
            }
            Phase::Rebuild => {
                for slot in 0..crate::checks::SLOTS {
                    if self.check_sacrifice(seat, slot).is_ok() {
                        out.push(Action::Sacrifice { slot });
                    }
                }
            }
            _ => {}
        }
    }

    /// Legal decisions: the raw ones, with K-T7b applied to the acting seat's choices.
    pub(crate) fn push_legal(&self, out: &mut Vec<Action>) {
        let from = out.len();
        self.raw_decisions(out);
        if let Some(f) = self.frames.last() {
            if self.decider() == Some(f.actor) && out.len() - from > 1 {
                self.filter_feasible(out, from);
            }
        }
    }

    /// K-R3: whether public facts let `seat` react now (so asking it reveals nothing).
    fn may_be_asked(&self, seat: Seat) -> bool {
        let z = self.zones(seat);
        if z.hand.is_empty() {
            return false;
        }
        z.hand
            .iter()
            .chain(z.deck.iter())
            .any(|&card| self.check_reaction(seat, card).is_ok())
    }

    /// Applies a decision (legal or raw) and runs the automatic steps after it.
    pub(crate) fn apply_decision(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        let seat = self.active;
        match action {
            Action::CrumbleFrom { slot } => self.crumble_from(slot, events),
            Action::Choose { card }
                if self.frames.last().is_some_and(|f| {
                    matches!(f.stage, Stage::LookDiscard | Stage::LookArrange)
                }) =>
            {
                self.apply_look(card, events)
            }
            Action::Choose { .. } | Action::ChooseSlot { .. } => self.apply_pick(action, events),
            Action::Skip
                if self
                    .frames
                    .last()
                    .is_some_and(|f| f.stage == Stage::LookDiscard) =>
            {
                self.stop_look_discard()
            }
            Action::Skip => {
                if let Some(f) = self.frames.last() {
                    let part = self.parts(f.program)[usize::from(f.part)];
                    if part.each_opponent {
                        if let Some(f) = self.frames.last_mut() {
                            f.stage = Stage::Enter;
                        }
                    } else if let Some(f) = self.frames.last_mut() {
                        f.part += 1;
                        f.stage = Stage::Enter;
                        f.opponent = 0;
                    }
                }
            }
            Action::Done => self.done_picking(),
            Action::Accept => {
                if let Some(f) = self.frames.last() {
                    let part = self.parts(f.program)[usize::from(f.part)];
                    let chooser = self.frame_chooser(f);
                    self.run_auto(&part, chooser, events);
                }
            }
            Action::BeginPurchase { slot } => {
                let card = self.pyramid[usize::from(slot)].card;
                let cost = self.config.rules.card(card).cost;
                if self.turn.scope_uses > 0 {
                    self.turn.scope_uses -= 1;
                }
                events.emit(Event::PurchaseBegun { seat, card, slot });
                self.phase = Phase::Paying {
                    slot,
                    paid: 0,
                    cost,
                };
                if cost == 0 {
                    self.complete_purchase(events);
                }
            }
            Action::Pay { card } => {
                let gold = self.effective_gold(card);
                self.zones_mut(seat).hand_remove(card);
                self.in_play_push(seat, card, true);
                events.emit(Event::Paid { seat, card, gold });
                if let Phase::Paying { slot, paid, cost } = self.phase {
                    let paid = paid.saturating_add(gold);
                    self.phase = Phase::Paying { slot, paid, cost };
                    if paid >= cost {
                        self.complete_purchase(events);
                    }
                }
            }
            Action::PlayAction { card } => {
                self.zones_mut(seat).hand_remove(card);
                self.in_play_push(seat, card, false);
                self.turn.log(card);
                events.emit(Event::ActionPlayed { seat, card });
                self.push_frame(Program::Card(card), seat);
            }
            Action::Entomb { card } => {
                // K-T8.
                self.zones_mut(seat).hand_remove(card);
                self.zones_mut(seat).tomb.push(card);
                self.turn.entombs_used += 1;
                events.emit(Event::Entombed { seat, card });
            }
            Action::UsePharaoh => {
                self.turn.pharaoh_used = true;
                events.emit(Event::PharaohUsed { seat });
                let ph = self.zones(seat).pharaoh;
                self.push_frame(Program::Pharaoh(ph), seat);
            }
            Action::EndPlay => {
                // Told even when a rebuild decision follows: the hand goes face up now.
                events.emit(Event::PlayEnded { seat });
                self.end_play();
            }
            Action::Sacrifice { slot } => {
                let card = self.remove_from_pyramid(slot);
                self.boneyard.push(card);
                events.emit(Event::Sacrificed { seat, card });
                self.crumble_into(slot, seat, events);
                self.phase = Phase::Finishing;
            }
            Action::React { card } => {
                if let Phase::Window { offset, .. } = self.phase {
                    let reactor = self.seat_after(seat, offset);
                    // K-R5: the cost, then the effect.
                    self.zones_mut(reactor).hand_remove(card);
                    self.zones_mut(reactor).discard.push(card);
                    events.emit(Event::Reacted {
                        seat: reactor,
                        card,
                    });
                    self.phase = Phase::Window {
                        offset: offset + 1,
                        asking: false,
                    };
                    self.push_frame(Program::Reaction(card), reactor);
                }
            }
            Action::Decline => {
                if let Phase::Window { offset, .. } = self.phase {
                    events.emit(Event::Declined {
                        seat: self.seat_after(seat, offset),
                    });
                    self.phase = Phase::Window {
                        offset: offset + 1,
                        asking: false,
                    };
                }
            }
        }
        self.advance(events);
    }

    /// K-T4c.
    fn complete_purchase(&mut self, events: &mut impl EventSink<Event>) {
        let Phase::Paying { slot, paid, cost } = self.phase else {
            return;
        };
        let seat = self.active;
        let card = self.remove_from_pyramid(slot);
        self.zones_mut(seat).discard.push(card);
        if self.turn.purchases.len() < self.turn.purchases.capacity() {
            self.turn.purchases.push(cost);
        }
        events.emit(Event::Bought {
            seat,
            card,
            slot,
            paid,
            lost: paid - cost,
        });
        // The purchase is told first, then the crumbling it causes (K-T17).
        self.crumble_into(slot, seat, events);
        // K-R2: the window opens once the crumble has resolved.
        self.phase = Phase::Window {
            offset: 1,
            asking: false,
        };
    }

    /// K-T10, K-T11, K-T12.
    fn end_play(&mut self) {
        let seat = self.active;
        let z = self.zones_mut(seat);
        for i in 0..z.in_play.len() {
            let c = z.in_play[i] & !GOLD_TAG;
            z.discard.push(c);
        }
        z.in_play.clear();
        for i in 0..z.hand.len() {
            let c = z.hand[i];
            z.discard.push(c);
        }
        z.hand.clear();
        z.known_in_hand.clear();
        let must_sacrifice =
            !self.turn.pyramid_changed && (0..6).any(|s| self.available_to(s, seat));
        self.phase = if must_sacrifice {
            Phase::Rebuild
        } else {
            Phase::Finishing
        };
    }

    /// Runs automatic steps until a decision is pending (or the probe has its answer).
    pub(crate) fn advance(&mut self, events: &mut impl EventSink<Event>) {
        loop {
            if self.probe != Probe::Off
                && (self.probe != Probe::Running
                    || self.frames.len() < usize::from(self.probe_depth))
            {
                return;
            }
            if self.crumble.is_some() {
                return;
            }
            if !self.frames.is_empty() {
                if !self.step_frame(events) {
                    return;
                }
                continue;
            }
            match self.phase {
                Phase::Window {
                    offset,
                    asking: false,
                } => {
                    // K-R3: each non-active seat in turn order that public facts allow.
                    let next = (offset..self.n).find(|&o| {
                        let reactor = self.seat_after(self.active, o);
                        self.may_be_asked(reactor)
                    });
                    self.phase = match next {
                        Some(offset) => Phase::Window {
                            offset,
                            asking: true,
                        },
                        None => Phase::Play,
                    };
                    return;
                }
                Phase::Finishing => self.finish_turn(events),
                _ => return,
            }
        }
    }

    /// K-T14, K-T15, K-T16, K-G1.
    fn finish_turn(&mut self, events: &mut impl EventSink<Event>) {
        let seat = self.active;
        self.refill(events);
        self.draw(seat, 5, events);
        self.zones_mut(seat).turns += 1;
        events.emit(Event::TurnEnded { seat });
        let n = usize::from(self.n);
        let turns = self.seats[0].turns;
        if self.stock.is_empty()
            && self.pyramid_empty()
            && self.seats[..n].iter().all(|z| z.turns == turns)
        {
            self.phase = Phase::Over;
            events.emit(Event::GameOver);
            return;
        }
        let next = self.seat_after(seat, 1);
        self.begin_turn(next, events);
    }
}

/// The kinds of a sorted pile, each once.
pub(crate) fn distinct(sorted: &[CardId]) -> impl Iterator<Item = CardId> + '_ {
    sorted
        .iter()
        .enumerate()
        .filter(|&(i, c)| i == 0 || sorted[i - 1] != *c)
        .map(|(_, &c)| c)
}
