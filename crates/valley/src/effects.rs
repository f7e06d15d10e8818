//! The interpreter of card actions (spec §6): frames run their parts in printed order
//! (K-T6), each choice is a decision of the part's chooser (K-E0, K-E8), and playability
//! is judged by a probe that explores the choices on a copy of the state (K-T7).

use tinyvec::ArrayVec;

use engine::{EventSink, NoEvents, Seat};

use crate::actions::{Action, Slot};
use crate::data::{CardId, Cmp, Dest, Expr, Extreme, Filter, Part, Pred, Prim, Zone};
use crate::events::Event;
use crate::state::{Frame, Probe, Program, Stage, Valley, GOLD_TAG, NONE};

/// Options of one decision; at most one per kind or slot.
pub type Options = ArrayVec<[Action; 128]>;

/// A set of kinds (for listing each kind once).
#[derive(Default)]
struct KindSet([u64; 2]);

impl KindSet {
    fn insert(&mut self, card: CardId) -> bool {
        let (w, b) = (usize::from(card / 64), card % 64);
        let fresh = self.0[w] >> b & 1 == 0;
        self.0[w] |= 1 << b;
        fresh
    }
}

impl Valley {
    pub(crate) fn parts(&self, program: Program) -> &[Part] {
        let rules = &self.config.rules;
        match program {
            Program::None => &[],
            Program::Card(c) => rules.card(c).action.as_deref().unwrap_or(&[]),
            Program::Reaction(c) => rules.card(c).reaction.as_deref().unwrap_or(&[]),
            Program::Pharaoh(p) => rules.pharaohs[usize::from(p)]
                .ability
                .as_deref()
                .unwrap_or(&[]),
        }
    }

    /// The seat choosing in the top frame's current part.
    pub(crate) fn frame_chooser(&self, f: &Frame) -> Seat {
        if f.opponent > 0 {
            self.seat_after(f.actor, f.opponent)
        } else {
            f.actor
        }
    }

    fn eval(&self, f: &Frame, e: Expr) -> Option<i16> {
        match e {
            Expr::Const(k) => Some(k),
            Expr::BoundCost { bind, times } => {
                let c = f.bound[usize::from(bind)];
                (c != NONE).then(|| i16::from(self.config.rules.card(c).cost) * times)
            }
            Expr::MaxPurchases => Some(
                self.turn
                    .purchases
                    .iter()
                    .copied()
                    .max()
                    .unwrap_or(0)
                    .into(),
            ),
        }
    }

    /// The filter without `extreme` (that one is relative to the other candidates).
    fn passes(&self, f: &Frame, filter: &Filter, card: CardId) -> bool {
        let c = self.config.rules.card(card);
        if let Some((cmp, e)) = filter.cost {
            let Some(x) = self.eval(f, e) else {
                return false;
            };
            let cost = i16::from(c.cost);
            let ok = match cmp {
                Cmp::Le => cost <= x,
                Cmp::Lt => cost < x,
                Cmp::Ge => cost >= x,
            };
            if !ok {
                return false;
            }
        }
        filter.category.is_none_or(|cat| c.category == cat)
            && filter.level.is_none_or(|l| c.level == l)
    }

    /// Keeps only the lowest or highest cost among `out` (K-A16: ties stay choices).
    fn keep_extreme(&self, extreme: Option<Extreme>, out: &mut Options) {
        let Some(extreme) = extreme else { return };
        let cost = |a: &Action| match *a {
            Action::Choose { card } => self.config.rules.card(card).cost,
            Action::ChooseSlot { slot } => {
                self.config
                    .rules
                    .card(self.pyramid[usize::from(slot)].card)
                    .cost
            }
            _ => 0,
        };
        let best = match extreme {
            Extreme::Lowest => out.iter().map(cost).min(),
            Extreme::Highest => out.iter().map(cost).max(),
        };
        if let Some(best) = best {
            out.retain(|a| cost(a) == best);
        }
    }

    fn kinds_from<'a>(
        &self,
        f: &Frame,
        part: &Part,
        cards: impl Iterator<Item = &'a CardId>,
        out: &mut Options,
    ) {
        let mut seen = KindSet::default();
        for &c in cards {
            if seen.insert(c) && self.passes(f, &part.filter, c) {
                out.push(Action::Choose { card: c });
            }
        }
    }

    fn slots_for(&self, f: &Frame, part: &Part, chooser: Seat, out: &mut Options) {
        for slot in 0..6u8 {
            if part.slots >> slot & 1 == 1
                && self.available_to(slot, chooser)
                && self.passes(f, &part.filter, self.pyramid[usize::from(slot)].card)
            {
                out.push(Action::ChooseSlot { slot });
            }
        }
    }

    fn allowance_left(&self) -> bool {
        self.turn.entombs_used < self.turn.entomb_allowance
    }

    /// Whether a part needs a pick from its chooser.
    fn is_choice(prim: Prim) -> bool {
        match prim {
            Prim::Discard { from } | Prim::Entomb { from, .. } | Prim::Sacrifice { from } => {
                from != Zone::Revealed
            }
            Prim::Take { from, .. } => matches!(from, Zone::Pyramid | Zone::BoneyardAny),
            Prim::Give | Prim::RepeatAction | Prim::Reserve => true,
            _ => false,
        }
    }

    /// The raw picks of a choice part (K-T7b filtering is applied by the caller).
    pub(crate) fn part_options(&self, f: &Frame, part: &Part, chooser: Seat, out: &mut Options) {
        let z = self.zones(chooser);
        let needs_allowance = |extra: bool| !extra && !self.allowance_left();
        match part.prim {
            Prim::Discard { from: Zone::Hand }
            | Prim::Sacrifice { from: Zone::Hand }
            | Prim::Give => self.kinds_from(f, part, z.hand.iter(), out),
            Prim::Entomb { from, extra } if needs_allowance(extra) => {
                let _ = from;
            }
            Prim::Entomb {
                from: Zone::Hand, ..
            } => self.kinds_from(f, part, z.hand.iter(), out),
            Prim::Entomb {
                from: Zone::Discard,
                ..
            }
            | Prim::Sacrifice {
                from: Zone::Discard,
            }
            | Prim::Discard {
                from: Zone::Discard,
            } => self.kinds_from(f, part, z.discard.iter(), out),
            Prim::Entomb {
                from: Zone::Pyramid,
                ..
            }
            | Prim::Take {
                from: Zone::Pyramid,
                ..
            }
            | Prim::Sacrifice {
                from: Zone::Pyramid,
            } => self.slots_for(f, part, chooser, out),
            Prim::Take {
                from: Zone::BoneyardAny,
                ..
            } => self.kinds_from(f, part, self.boneyard.iter(), out),
            Prim::Reserve => {
                for slot in 0..6u8 {
                    let s = self.pyramid[usize::from(slot)];
                    if part.slots >> slot & 1 == 1 && s.card != NONE && s.reserved_by == NONE {
                        out.push(Action::ChooseSlot { slot });
                    }
                }
            }
            Prim::RepeatAction => {
                // K-E11, K-A14.
                for card in 0..self.config.rules.cards.len() as CardId {
                    let c = self.config.rules.card(card);
                    if self.turn.logged(card)
                        && !c.not_repeatable
                        && !c.repeats
                        && self.program_playable(Program::Card(card), f.actor, |_| {})
                    {
                        out.push(Action::Choose { card });
                    }
                }
            }
            _ => {}
        }
        self.keep_extreme(part.filter.extreme, out);
    }

    /// Whether an automatic part can be done now.
    fn auto_possible(&self, f: &Frame, part: &Part, chooser: Seat) -> bool {
        let z = self.zones(chooser);
        match part.prim {
            Prim::Draw { .. } | Prim::Reveal | Prim::LookTop { .. } => {
                z.deck.len() + z.discard.len() >= 1
            }
            Prim::Discard { .. } => f.revealed != NONE,
            Prim::Entomb { extra, .. } => f.revealed != NONE && (extra || self.allowance_left()),
            Prim::Sacrifice { .. } => f.revealed != NONE,
            Prim::Take { from, .. } => match from {
                Zone::StockTop => !self.stock.is_empty(),
                Zone::BoneyardTop => self
                    .boneyard
                    .last()
                    .is_some_and(|&c| self.passes(f, &part.filter, c)),
                Zone::Revealed => f.revealed != NONE,
                _ => false,
            },
            Prim::Condition(p) => self.pred(p, chooser),
            _ => true,
        }
    }

    fn pred(&self, p: Pred, seat: Seat) -> bool {
        let z = self.zones(seat);
        match p {
            Pred::DiscardSizeGe(k) => z.discard.len() >= usize::from(k),
            Pred::HandSizeGe(k) => z.hand.len() >= usize::from(k),
            Pred::BoughtThisTurn => !self.turn.purchases.is_empty(),
            Pred::PyramidNonempty => !self.pyramid_empty(),
        }
    }

    /// A part whose result depends on cards nobody has seen (K-T7a).
    fn depends_on_hidden(prim: Prim) -> bool {
        matches!(
            prim,
            Prim::Draw { .. }
                | Prim::LookTop { .. }
                | Prim::Reveal
                | Prim::Execute
                | Prim::Take {
                    from: Zone::StockTop,
                    ..
                }
        )
    }

    fn next_part(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.part += 1;
            f.stage = Stage::Enter;
            f.opponent = 0;
        }
    }

    /// The current pick is done: the next opponent under K-E8, else the next part.
    fn finish_pick(&mut self, part: &Part) {
        if let Some(f) = self.frames.last_mut() {
            f.picks = 0;
        }
        if part.each_opponent {
            if let Some(f) = self.frames.last_mut() {
                f.stage = Stage::Enter;
            }
        } else {
            self.next_part();
        }
    }

    /// A mandatory part that cannot be done: the probe fails (K-T7a); in play it is
    /// skipped (K-T7d).
    fn part_impossible(&mut self, seat: Seat, events: &mut impl EventSink<Event>) {
        if self.probe == Probe::Running {
            self.probe = Probe::Failed;
        } else {
            events.emit(Event::PartSkipped { seat });
            self.next_part();
        }
    }

    /// Advances the top frame by one step. False when a decision is now pending.
    pub(crate) fn step_frame(&mut self, events: &mut impl EventSink<Event>) -> bool {
        let Some(&f) = self.frames.last() else {
            return true;
        };
        let parts = self.parts(f.program);
        let Some(part) = parts.get(usize::from(f.part)).copied() else {
            self.frames.pop();
            return true;
        };
        if f.stage != Stage::Enter {
            return false;
        }
        let chooser = if part.each_opponent {
            // K-T7f: effects on opponents never make an action unplayable.
            if self.probe == Probe::Running {
                self.next_part();
                return true;
            }
            let mut offset = f.opponent + 1;
            loop {
                if offset >= self.n {
                    self.next_part();
                    return true;
                }
                let seat = self.seat_after(f.actor, offset);
                let z = self.zones(seat);
                let exempt = part
                    .exempt_total_le
                    .is_some_and(|k| z.total_cards() <= usize::from(k));
                let f_here = Frame {
                    opponent: offset,
                    ..f
                };
                if !exempt && self.can_comply(&f_here, &part, seat) {
                    if let Some(top) = self.frames.last_mut() {
                        top.opponent = offset;
                    }
                    break seat;
                }
                offset += 1;
            }
        } else {
            f.actor
        };
        let f = *self.frames.last().expect("frame");
        if Self::is_choice(part.prim) {
            let mut options = Options::new();
            self.part_options(&f, &part, chooser, &mut options);
            if options.is_empty() {
                if part.may || part.each_opponent || f.picks >= part.min {
                    self.finish_pick(&part);
                } else {
                    self.part_impossible(chooser, events);
                }
                return true;
            }
            if let Some(top) = self.frames.last_mut() {
                top.stage = Stage::Choosing;
            }
            return false;
        }
        if !self.auto_possible(&f, &part, chooser) {
            if part.may || part.each_opponent {
                self.finish_pick(&part);
            } else {
                self.part_impossible(chooser, events);
            }
            return true;
        }
        if part.may {
            if let Some(top) = self.frames.last_mut() {
                top.stage = Stage::AcceptOrSkip;
            }
            return false;
        }
        self.run_auto(&part, chooser, events);
        true
    }

    fn can_comply(&self, f: &Frame, part: &Part, seat: Seat) -> bool {
        if Self::is_choice(part.prim) {
            let mut options = Options::new();
            self.part_options(f, part, seat, &mut options);
            !options.is_empty()
        } else {
            self.auto_possible(f, part, seat)
        }
    }

    /// Runs an automatic part (or an accepted `may` part) for `chooser`.
    pub(crate) fn run_auto(
        &mut self,
        part: &Part,
        chooser: Seat,
        events: &mut impl EventSink<Event>,
    ) {
        if self.probe == Probe::Running && Self::depends_on_hidden(part.prim) {
            self.probe = Probe::Hidden;
            return;
        }
        let fi = self.frames.len() - 1;
        let f = self.frames[fi];
        let mut then_push = None;
        match part.prim {
            Prim::Draw { n } => {
                self.draw(chooser, n, events);
            }
            Prim::Reveal => {
                if self.ensure_deck(chooser, events) {
                    let z = self.zones_mut(chooser);
                    z.known_top = z.known_top.saturating_sub(1);
                    if let Some(card) = z.deck.pop() {
                        self.frames[fi].revealed = card;
                        self.bind(fi, part, card);
                        events.emit(Event::Revealed {
                            seat: chooser,
                            card,
                        });
                    }
                }
            }
            Prim::Execute => {
                // K-E3, K-A13: the revealed card's action, if it can be carried out.
                let card = f.revealed;
                if card != NONE
                    && self.config.rules.card(card).action.is_some()
                    && self.frames.len() < self.frames.capacity()
                    && self.program_playable(Program::Card(card), f.actor, |_| {})
                {
                    self.turn.log(card);
                    events.emit(Event::Executed {
                        seat: f.actor,
                        card,
                    });
                    then_push = Some(Program::Card(card));
                }
            }
            Prim::LookTop { n, discard } => {
                if self.ensure_deck(chooser, events) {
                    let z = self.zones_mut(chooser);
                    let look = n.min(z.deck.len() as u8);
                    z.known_top = z.known_top.max(look);
                    let top = &mut self.frames[fi];
                    top.look = look;
                    top.placed = 0;
                    top.stage = if discard {
                        Stage::LookDiscard
                    } else {
                        Stage::LookArrange
                    };
                    events.emit(Event::Looked {
                        seat: chooser,
                        count: look,
                    });
                    // The part ends when the last looked-at card is placed.
                    return;
                }
            }
            Prim::Discard { .. } | Prim::Entomb { .. } | Prim::Sacrifice { .. } => {
                let card = f.revealed;
                self.frames[fi].revealed = NONE;
                self.bind(fi, part, card);
                self.put(part.prim, chooser, card, events);
            }
            Prim::Take { from, to } => {
                let card = match from {
                    Zone::StockTop => self.stock.pop(),
                    Zone::BoneyardTop => self.boneyard.pop(),
                    _ => {
                        let c = self.frames[fi].revealed;
                        self.frames[fi].revealed = NONE;
                        (c != NONE).then_some(c)
                    }
                };
                if let Some(card) = card {
                    self.bind(fi, part, card);
                    self.put(Prim::Take { from, to }, chooser, card, events);
                }
            }
            Prim::GoldModifier { set, value } => {
                if set {
                    self.turn.gold_set = Some(value.max(0) as u8);
                    self.turn.gold_add = 0;
                } else {
                    self.turn.gold_add = self.turn.gold_add.saturating_add(value);
                }
            }
            Prim::GrantEntomb { n } => {
                self.turn.entomb_allowance = self.turn.entomb_allowance.saturating_add(n)
            }
            Prim::PurchaseScope => self.turn.scope_uses = self.turn.scope_uses.saturating_add(1),
            Prim::Condition(_) | Prim::Give | Prim::RepeatAction | Prim::Reserve => {}
        }
        self.finish_pick(part);
        if let Some(program) = then_push {
            self.push_frame(program, f.actor);
        }
    }

    fn bind(&mut self, fi: usize, part: &Part, card: CardId) {
        if let Some(b) = part.bind {
            self.frames[fi].bound[usize::from(b)] = card;
        }
    }

    /// Where a moving primitive puts its card (K-E4..K-E7).
    fn put(&mut self, prim: Prim, seat: Seat, card: CardId, events: &mut impl EventSink<Event>) {
        match prim {
            Prim::Discard { .. } => {
                self.zones_mut(seat).discard.push(card);
                events.emit(Event::Discarded { seat, card });
            }
            Prim::Entomb { extra, .. } => {
                self.zones_mut(seat).tomb.push(card);
                if !extra {
                    self.turn.entombs_used += 1;
                }
                events.emit(Event::Entombed { seat, card });
            }
            Prim::Take { to, .. } => {
                self.deliver(seat, card, to);
                events.emit(Event::Taken { seat, card });
            }
            Prim::Sacrifice { .. } => {
                self.boneyard.push(card);
                events.emit(Event::Sacrificed { seat, card });
            }
            _ => {}
        }
    }

    fn deliver(&mut self, seat: Seat, card: CardId, to: Dest) {
        let z = self.zones_mut(seat);
        match to {
            Dest::Discard => z.discard.push(card),
            Dest::Hand => {
                z.hand_add(card);
                // Everyone saw it arrive; if the list is full, knowledge is lost, not leaked.
                let _ = z.known_in_hand.try_push(card);
            }
            Dest::Tomb => z.tomb.push(card),
            Dest::DeckTop => {
                // Everyone saw the card go on top, its owner included.
                z.deck.push(card);
                z.known_top = z.known_top.saturating_add(1);
            }
            Dest::Boneyard => self.boneyard.push(card),
        }
    }

    pub(crate) fn push_frame(&mut self, program: Program, actor: Seat) {
        if self.frames.len() < self.frames.capacity() {
            self.frames.push(Frame {
                program,
                actor,
                part: 0,
                stage: Stage::Enter,
                opponent: 0,
                bound: [NONE; crate::state::MAX_BINDS],
                revealed: NONE,
                picks: 0,
                look: 0,
                placed: 0,
            });
        }
    }

    /// The looked-at kinds still to discard or place (K-E16), each once.
    pub(crate) fn look_options(&self, f: &Frame, out: &mut Vec<Action>) {
        let deck = &self.zones(f.actor).deck;
        let region = &deck[deck.len() - usize::from(f.look)..deck.len() - usize::from(f.placed)];
        let mut seen = KindSet::default();
        for &card in region {
            if seen.insert(card) {
                out.push(Action::Choose { card });
            }
        }
    }

    /// K-E16: discards a looked-at card, or puts one back as the next from the top.
    pub(crate) fn apply_look(&mut self, card: CardId, events: &mut impl EventSink<Event>) {
        let fi = self.frames.len() - 1;
        let f = self.frames[fi];
        let part = self.parts(f.program)[usize::from(f.part)];
        let seat = f.actor;
        let z = self.zones_mut(seat);
        let len = z.deck.len();
        let (lo, hi) = (len - usize::from(f.look), len - usize::from(f.placed));
        let Some(i) = (lo..hi).rev().find(|&i| z.deck[i] == card) else {
            return;
        };
        if f.stage == Stage::LookDiscard {
            z.deck.remove(i);
            z.known_top = z.known_top.saturating_sub(1);
            z.discard.push(card);
            events.emit(Event::Discarded { seat, card });
            self.frames[fi].look -= 1;
        } else {
            z.deck.swap(i, hi - 1);
            self.frames[fi].placed += 1;
            // The choice names a card only its owner had seen: told, so it is a barrier.
            events.emit(Event::Arranged { seat });
        }
        let top = &mut self.frames[fi];
        if top.look == 0 || top.placed == top.look {
            top.look = 0;
            top.placed = 0;
            self.finish_pick(&part);
        }
    }

    /// `Done`: no more picks in an "up to k" part (K-T7e).
    pub(crate) fn done_picking(&mut self) {
        if let Some(f) = self.frames.last() {
            let part = self.parts(f.program)[usize::from(f.part)];
            self.finish_pick(&part);
        }
    }

    /// `Skip` while discarding looked-at cards: go on to arranging them.
    pub(crate) fn stop_look_discard(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.stage = Stage::LookArrange;
        }
    }

    /// Applies a pick (`Choose`/`ChooseSlot`) in the top frame's current part.
    pub(crate) fn apply_pick(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        let fi = self.frames.len() - 1;
        let f = self.frames[fi];
        let part = self.parts(f.program)[usize::from(f.part)];
        let chooser = self.frame_chooser(&f);
        let (card, slot) = match action {
            Action::Choose { card } => (card, NONE),
            Action::ChooseSlot { slot } => (NONE, slot),
            _ => return,
        };
        let mut then_push = None;
        let moved = match part.prim {
            Prim::Discard { from }
            | Prim::Entomb { from, .. }
            | Prim::Take { from, .. }
            | Prim::Sacrifice { from } => {
                let card = self.take_card(from, chooser, card, slot);
                self.put(part.prim, chooser, card, events);
                if from == Zone::Pyramid {
                    // What happened to the card is told before the crumbling (K-T17).
                    self.crumble_into(slot, chooser, events);
                }
                card
            }
            Prim::Give => {
                // K-E9, K-A21.
                self.zones_mut(chooser).hand_remove(card);
                self.zones_mut(f.actor).discard.push(card);
                events.emit(Event::Given {
                    from: chooser,
                    to: f.actor,
                    card,
                });
                card
            }
            Prim::RepeatAction => {
                then_push = Some(Program::Card(card));
                card
            }
            Prim::Reserve => {
                self.pyramid[usize::from(slot)].reserved_by = chooser;
                events.emit(Event::Reserved {
                    seat: chooser,
                    slot,
                });
                self.pyramid[usize::from(slot)].card
            }
            _ => NONE,
        };
        self.bind(fi, &part, moved);
        // K-T7e: "k" or "up to k" cards are k single picks.
        let top = &mut self.frames[fi];
        top.picks += 1;
        if top.picks < part.count {
            top.stage = Stage::Enter;
        } else {
            self.finish_pick(&part);
        }
        if let Some(program) = then_push {
            self.push_frame(program, f.actor);
        }
    }

    fn take_from_zone(&mut self, from: Zone, seat: Seat, card: CardId) {
        let z = self.zones_mut(seat);
        match from {
            Zone::Hand => {
                z.hand_remove(card);
            }
            Zone::Discard => {
                z.discard_remove(card);
            }
            Zone::BoneyardAny => {
                if let Some(i) = self.boneyard.iter().rposition(|&c| c == card) {
                    self.boneyard.remove(i);
                }
            }
            _ => {}
        }
    }

    fn take_card(&mut self, from: Zone, seat: Seat, card: CardId, slot: Slot) -> CardId {
        if from == Zone::Pyramid {
            self.remove_from_pyramid(slot)
        } else {
            self.take_from_zone(from, seat, card);
            card
        }
    }

    /// K-T7a: whether `program` run by `actor` can complete, judged on a copy after
    /// `prepare` (e.g. the card moving to play) and on what `actor` knows.
    pub(crate) fn program_playable(
        &self,
        program: Program,
        actor: Seat,
        prepare: impl FnOnce(&mut Valley),
    ) -> bool {
        if self.parts(program).is_empty() {
            return false;
        }
        if let Some(answer) = self.quick_playable(program, actor) {
            return answer;
        }
        self.probe_playable(program, actor, prepare)
    }

    /// The full probe: runs the action on a copy and explores its choices.
    pub(crate) fn probe_playable(
        &self,
        program: Program,
        actor: Seat,
        prepare: impl FnOnce(&mut Valley),
    ) -> bool {
        let mut g = self.clone();
        g.probe = Probe::Running;
        prepare(&mut g);
        g.push_frame(program, actor);
        g.probe_depth = g.frames.len() as u8;
        g.advance(&mut NoEvents);
        g.search()
    }

    /// The probe's answer without copying the state, for the common shapes of action: parts
    /// that cannot fail, then a part on unseen cards (which ends the probe), or a single
    /// pick from the pyramid or the boneyard (which the card being played does not touch).
    pub(crate) fn quick_playable(&self, program: Program, actor: Seat) -> Option<bool> {
        let parts = self.parts(program);
        let frame = Frame {
            actor,
            bound: [NONE; crate::state::MAX_BINDS],
            revealed: NONE,
            ..Frame::default()
        };
        for (i, part) in parts.iter().enumerate() {
            match part.prim {
                _ if part.each_opponent => continue,
                Prim::GoldModifier { .. } | Prim::GrantEntomb { .. } | Prim::PurchaseScope => {
                    continue
                }
                Prim::Draw { .. }
                | Prim::Reveal
                | Prim::LookTop { .. }
                | Prim::Take {
                    from: Zone::StockTop,
                    ..
                } if !part.may => return Some(self.auto_possible(&frame, part, actor)),
                Prim::Take {
                    from: Zone::Pyramid | Zone::BoneyardAny,
                    ..
                }
                | Prim::Entomb {
                    from: Zone::Pyramid,
                    extra: true,
                }
                | Prim::Reserve
                    if i + 1 == parts.len() && !part.may && part.count == 1 =>
                {
                    let mut options = Options::new();
                    self.part_options(&frame, part, actor, &mut options);
                    return Some(!options.is_empty());
                }
                _ => return None,
            }
        }
        Some(true)
    }

    /// Depth-first search over the raw choices until the probed frame completes.
    fn search(&self) -> bool {
        match self.probe {
            Probe::Hidden => return true,
            Probe::Failed => return false,
            _ => {}
        }
        if self.frames.len() < usize::from(self.probe_depth) {
            return true;
        }
        let mut options = Vec::new();
        self.raw_decisions(&mut options);
        options.into_iter().any(|a| {
            let mut g = self.clone();
            g.apply_decision(a, &mut NoEvents);
            g.search()
        })
    }

    /// K-T7b: keeps the options after which the whole pending action can still complete.
    pub(crate) fn filter_feasible(&self, options: &mut Vec<Action>, from: usize) {
        if self.probe != Probe::Off || self.frames.is_empty() {
            return;
        }
        let feasible: Vec<Action> = options[from..]
            .iter()
            .copied()
            .filter(|&a| {
                let mut g = self.clone();
                g.probe = Probe::Running;
                g.probe_depth = 1;
                g.apply_decision(a, &mut NoEvents);
                g.search()
            })
            .collect();
        // Only what hidden cards made impossible leaves nothing: then offer everything (K-T7d).
        if !feasible.is_empty() {
            options.truncate(from);
            options.extend(feasible);
        }
    }

    pub(crate) fn in_play_push(&mut self, seat: Seat, card: CardId, gold: bool) {
        self.zones_mut(seat)
            .in_play
            .push(if gold { card | GOLD_TAG } else { card });
    }
}
