//! The turn (P-T1–P-T12): legal actions of each phase, applying them, and the
//! automatic steps between decisions.

use crate::actions::{Action, ActionSink, Count, TileId};
use crate::board::CellKind;
use crate::cards::{card_bit, Building, CardId, Realm};
use crate::components::Resource;
use crate::costs::Paid;
use crate::events::{Event, Reason};
use crate::fault::{Fault, Key};
use crate::hex::{Cell, CellSet, NO_CELL};
use crate::state::{Pandoria, Phase, Turn, MARKET, NO_CARD, SLOTS};
use engine::{EventSink, Seat};

/// The cards of a bitset, in id order.
pub fn cards_of(set: u64) -> impl Iterator<Item = CardId> {
    let mut bits = set;
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let c = bits.trailing_zeros() as CardId;
        bits &= bits - 1;
        Some(c)
    })
}

impl Pandoria {
    // ----- legality -------------------------------------------------------------------

    pub(crate) fn push_legal(&self, out: &mut Vec<Action>) {
        let seat = self.current;
        let p = self.player(seat);
        match self.phase {
            Phase::Over => {}
            Phase::Place => {
                let rules = &*self.config.rules;
                let placements = self.map.double_placement_dirs(&rules.board);
                for &tile in p.tiles.iter() {
                    let [a, b] = rules.double_tiles[usize::from(tile)];
                    placements.push_each(a == b, out, |at, dir| Action::PlaceTile {
                        tile,
                        at,
                        dir,
                    });
                }
                if p.castles > 0 {
                    for at in self.map.single_placements().iter() {
                        out.push(Action::PlaceCastle { at });
                    }
                }
            }
            Phase::Figure => {
                self.push_figure_options(out);
                out.push(Action::Skip);
            }
            Phase::Card => {
                self.push_cast_options(out);
                self.push_builds(out);
                self.push_monuments(out);
                out.push(Action::Skip);
            }
            Phase::FollowUp => {
                self.push_cast_options(out);
                out.push(Action::Skip);
            }
            Phase::Spell => self.push_spell_steps(out),
            Phase::Buy => {
                self.push_buy_options(out);
                out.push(Action::Skip);
            }
            Phase::ElfMove => {
                self.push_elf_moves(out);
                out.push(Action::Skip);
            }
        }
    }

    /// P-T3 (a) and (b), without `Skip`.
    fn push_figure_options(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        let (figure, leader) = self.reserve_choices(seat);
        for at in self.turn.placed {
            if self.figure_cell_check(at).is_err() {
                continue;
            }
            if figure {
                out.push(Action::PlaceFigure { at, leader: false });
            }
            if leader {
                out.push(Action::PlaceFigure { at, leader: true });
            }
        }
        for at in self.figures.iter() {
            if self.figure_at(at).map(|f| f.0) == Some(seat) {
                out.push(Action::RemoveFigure { at });
            }
        }
    }

    /// P-T3 (a): a reserve figure may go on `at`, a hex of the piece just placed,
    /// unoccupied, and not a tile hex of a closed region (a castle always may).
    pub(crate) fn figure_cell_check(&self, at: Cell) -> Result<(), Fault> {
        let fault = |code| Err(Fault::new("P-T3", code).with(Key::Cell, at));
        if !self.rules().board.contains(at) {
            return fault("cell_off_map");
        }
        if !self.turn.placed.contains(&at) {
            return fault("not_on_placed_piece");
        }
        if self.figure_at(at).is_some() {
            return fault("cell_occupied");
        }
        if self.map.castle(at).is_none() && self.map.in_closed_region(at) {
            return fault("region_closed");
        }
        Ok(())
    }

    pub(crate) fn push_builds(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        let p = self.player(seat);
        for card in cards_of(p.hand) {
            for slot in 0..SLOTS {
                if let Some(cost) = self.build_cost(seat, card, slot) {
                    self.pay_options(seat, Resource::Wood, cost, |pay| {
                        out.push(Action::Build {
                            card,
                            slot: slot as u8,
                            pay,
                        })
                    });
                }
            }
        }
    }

    pub(crate) fn push_monuments(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        for slot in 0..SLOTS {
            if let Some(cost) = self.monument_cost(seat, slot) {
                self.pay_options(seat, Resource::Wood, cost, |pay| {
                    out.push(Action::Monument {
                        slot: slot as u8,
                        pay,
                    })
                });
            }
        }
    }

    fn may_buy(&self) -> bool {
        !self.turn.closed.is_empty() || self.player(self.current).is(Realm::Mages)
    }

    fn push_buy_options(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        for market in 0..MARKET {
            if let Some(price) = self.buy_price(seat, market) {
                self.pay_options(seat, Resource::Gold, price, |pay| {
                    out.push(Action::Buy {
                        market: market as u8,
                        pay,
                    })
                });
            }
        }
    }

    /// P-K3: may a figure of `seat` pass `cell`? Any hex of the board except a rival
    /// castle or a lake (the seed: "No pueden pasar ... en castillos de los rivales o en
    /// lagos"), so occupied hexes, closed regions, exits and hexes without a tile may be
    /// passed. A ship lies on a lake (P-G2), so it blocks like the lake it is on.
    fn elf_passable(&self, seat: Seat, cell: Cell) -> bool {
        let lake = matches!(
            self.rules().board.kind(cell),
            CellKind::Lake | CellKind::Ship
        );
        !lake && self.map.castle(cell).is_none_or(|owner| owner == seat)
    }

    /// P-K3: may a figure of `seat` stop on `cell`?
    fn elf_target(&self, seat: Seat, cell: Cell) -> bool {
        self.figure_at(cell).is_none()
            && ((self.map.land(cell).is_some() && !self.map.in_closed_region(cell))
                || self.map.castle(cell) == Some(seat))
    }

    /// P-K3: the cells an elf figure on `from` may move to.
    pub(crate) fn elf_targets(&self, seat: Seat, from: Cell) -> CellSet {
        let board = &self.config.rules.board;
        let mut targets = CellSet::EMPTY;
        for &near in board.neighbours(from) {
            if near == NO_CELL {
                continue;
            }
            if self.elf_target(seat, near) {
                targets.insert(near);
            }
            if !self.elf_passable(seat, near) {
                continue;
            }
            for &far in board.neighbours(near) {
                if far != NO_CELL
                    && far != from
                    && board.distance(from, far) == 2
                    && self.elf_target(seat, far)
                {
                    targets.insert(far);
                }
            }
        }
        targets
    }

    /// P-K3: may `seat` move its figure on `from` to `to`? One own non-leader figure,
    /// to a cell at distance 1 or 2 it may stop on, over a cell it may pass.
    pub(crate) fn elf_move_check(&self, seat: Seat, from: Cell, to: Cell) -> Result<(), Fault> {
        let board = &self.config.rules.board;
        match self.figure_at(from) {
            Some((owner, _)) if owner != seat => {
                return Err(Fault::new("P-K3", "not_own_figure").with(Key::Cell, from));
            }
            Some((_, true)) => return Err(Fault::new("P-K3", "leader_cannot_move")),
            Some(_) => {}
            None => return Err(Fault::new("P-K3", "no_figure_there").with(Key::Cell, from)),
        }
        let fault = |code| Err(Fault::new("P-K3", code).with(Key::Cell, to));
        if !board.contains(to) || !board.contains(from) {
            return fault("cell_off_map");
        }
        if self.elf_targets(seat, from).contains(to) {
            return Ok(());
        }
        let distance = board.distance(from, to);
        if distance == 0 || distance > 2 {
            return Err(Fault::new("P-K3", "too_far").with(Key::Distance, distance));
        }
        if self.figure_at(to).is_some() {
            return fault("cell_occupied");
        }
        if !self.elf_target(seat, to) {
            return fault("target_not_allowed");
        }
        fault("path_blocked")
    }

    fn push_elf_moves(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        for from in self.figures.iter() {
            if self.figure_at(from) != Some((seat, false)) {
                continue;
            }
            for to in self.elf_targets(seat, from).iter() {
                out.push(Action::MoveFigure { from, to });
            }
        }
    }

    /// Legality for checked apply, agreeing with `push_legal` and bounds-checking every
    /// field: placements (the longest lists) are answered directly, the rest by listing.
    pub(crate) fn check_legal(&self, action: &Action) -> bool {
        let p = self.player(self.current);
        let rules = &*self.config.rules;
        match (self.phase, *action) {
            (Phase::Over, _) => false,
            (Phase::Place, Action::PlaceTile { tile, at, dir }) => {
                match rules.double_tiles.get(usize::from(tile)) {
                    Some([a, b]) if p.tiles.contains(&tile) => {
                        (a != b || dir < 3) && self.map.double_legal(&rules.board, at, dir)
                    }
                    _ => false,
                }
            }
            (Phase::Place, Action::PlaceCastle { at }) => {
                p.castles > 0 && self.map.single_legal(at)
            }
            (Phase::Place, _) => false,
            _ => {
                let mut legal = Vec::new();
                self.push_legal(&mut legal);
                legal.contains(action)
            }
        }
    }

    // ----- applying -------------------------------------------------------------------

    pub(crate) fn apply_action(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        if self.phase == Phase::Spell {
            return self.apply_spell_step(action, events);
        }
        match action {
            Action::CastSpell { card, pay } => self.cast(card, pay, events),
            Action::PlaceTile { tile, at, dir } => self.place_tile(seat, tile, at, dir, events),
            Action::PlaceCastle { at } => {
                let rules = &*self.config.rules;
                self.players[usize::from(seat)].castles -= 1;
                let closed = self.map.place_castle(&rules.board, at, seat);
                events.emit(Event::CastlePlaced { seat, at });
                self.turn.placed = [at, NO_CELL];
                self.placed_this_round = true;
                self.close_regions(&closed, events);
                self.enter_figure(events);
            }
            Action::PlaceFigure { at, leader } => {
                self.put_from_reserve(seat, at, leader, events);
                self.enter_card(events);
            }
            Action::RemoveFigure { at } => {
                self.return_figure(at, events);
                self.enter_card(events);
            }
            Action::Build { card, slot, pay } => {
                let cost = self.build_cost(seat, card, usize::from(slot)).unwrap_or(0);
                let paid = self.pay(seat, Resource::Wood, cost, pay);
                self.build(seat, card, slot, cost, events);
                paid.tell(events);
                self.after_build(events);
            }
            Action::Monument { slot, pay } => {
                let cost = self.monument_cost(seat, usize::from(slot)).unwrap_or(0);
                let paid = self.pay(seat, Resource::Wood, cost, pay);
                self.raise_monument(seat, slot, cost, paid, events);
                self.after_build(events);
            }
            Action::Buy { market, pay } => {
                let price = self.buy_price(seat, usize::from(market)).unwrap_or(0);
                let paid = self.pay(seat, Resource::Gold, price, pay);
                let card = self.market[usize::from(market)];
                let p = &mut self.players[usize::from(seat)];
                p.hand |= card_bit(card);
                p.known |= card_bit(card);
                events.emit(Event::CardBought {
                    seat,
                    card,
                    market,
                    cost: price,
                });
                paid.tell(events);
                self.market[usize::from(market)] = NO_CARD;
                self.refill_market(events);
                self.finish_turn(events);
            }
            Action::MoveFigure { from, to } => {
                self.move_figure(seat, from, to, events);
                self.end_turn(events);
            }
            Action::Skip => match self.phase {
                Phase::Figure => self.enter_card(events),
                Phase::Card | Phase::FollowUp => self.score_turn(events),
                Phase::Buy => self.finish_turn(events),
                Phase::ElfMove => self.end_turn(events),
                Phase::Place | Phase::Spell | Phase::Over => {}
            },
            _ => {}
        }
    }

    /// P-T5: a hand card onto a slot, the old building covered.
    pub(crate) fn build(
        &mut self,
        seat: Seat,
        card: CardId,
        slot: u8,
        cost: u8,
        events: &mut impl EventSink<Event>,
    ) {
        let p = &mut self.players[usize::from(seat)];
        p.hand &= !card_bit(card);
        p.known &= !card_bit(card);
        let old = std::mem::replace(&mut p.slots[usize::from(slot)], card);
        if old != NO_CARD {
            p.covered |= card_bit(old);
        }
        events.emit(Event::BuildingBuilt {
            seat,
            card,
            slot,
            cost,
        });
    }

    /// P-T6: the top monument onto a building; its value scores at once.
    pub(crate) fn raise_monument(
        &mut self,
        seat: Seat,
        slot: u8,
        cost: u8,
        paid: Paid,
        events: &mut impl EventSink<Event>,
    ) {
        let value = self.monuments.pop().unwrap_or(0);
        let p = &mut self.players[usize::from(seat)];
        let old = std::mem::replace(&mut p.slots[usize::from(slot)], NO_CARD);
        p.covered |= card_bit(old);
        p.monuments[usize::from(slot)] = value;
        p.add_points(Reason::Monuments, u16::from(value));
        events.emit(Event::MonumentBuilt {
            seat,
            slot,
            value,
            cost,
        });
        paid.tell(events);
        events.emit(Event::PointsGained {
            seat,
            points: u16::from(value),
            reason: Reason::Monuments,
        });
    }

    fn place_tile(
        &mut self,
        seat: Seat,
        tile: TileId,
        at: Cell,
        dir: u8,
        events: &mut impl EventSink<Event>,
    ) {
        let rules = &*self.config.rules;
        let p = &mut self.players[usize::from(seat)];
        if let Some(i) = p.tiles.iter().position(|&t| t == tile) {
            p.tiles.remove(i);
        }
        let [a, b] = rules.double_tiles[usize::from(tile)];
        self.placed_doubles |= 1 << tile;
        let closed = self.map.place_double(&rules.board, at, dir, a, b);
        events.emit(Event::TilePlaced {
            seat,
            tile,
            at,
            dir,
        });
        self.turn.placed = [at, rules.board.neighbour(at, dir).unwrap_or(NO_CELL)];
        self.turn.placed_double = true;
        self.placed_this_round = true;
        self.close_regions(&closed, events);
        self.enter_figure(events);
    }

    /// P-T2 / P-G12: note the closed regions and send their figures home.
    pub(crate) fn close_regions(&mut self, closed: &[Cell], events: &mut impl EventSink<Event>) {
        for &root in closed {
            events.emit(Event::RegionClosed { root });
            let figures = self.figures;
            for at in figures.iter() {
                if self.map.region_of(at) == Some(root) {
                    self.return_figure(at, events);
                }
            }
            if !self.turn.closed.contains(&root) {
                self.turn.closed.push(root);
            }
        }
    }

    pub(crate) fn return_figure(&mut self, at: Cell, events: &mut impl EventSink<Event>) {
        let Some((owner, leader)) = self.figure_at(at) else {
            return;
        };
        let p = &mut self.players[usize::from(owner)];
        if leader {
            p.leader_in_reserve = true;
        } else {
            p.figures += 1;
        }
        self.occupant[usize::from(at)] = 0;
        self.figures.remove(at);
        events.emit(Event::FigureReturned {
            seat: owner,
            at,
            leader,
        });
    }

    // ----- automatic steps ------------------------------------------------------------

    fn can_place(&self) -> bool {
        let p = self.player(self.current);
        let board = &self.config.rules.board;
        (!p.tiles.is_empty() && self.map.any_double(board))
            || (p.castles > 0 && !self.map.single_placements().is_empty())
    }

    pub(crate) fn begin_turn(&mut self, events: &mut impl EventSink<Event>) {
        self.turns += 1;
        if self.current == self.config.start_seat {
            self.placed_this_round = false;
        }
        self.turn = Turn::default();
        events.emit(Event::TurnBegan {
            seat: self.current,
            turn: self.turns,
        });
        if self.can_place() {
            self.phase = Phase::Place;
        } else {
            // P-X2: skipped, nothing drawn.
            events.emit(Event::PlacementImpossible { seat: self.current });
            self.enter_figure(events);
        }
    }

    /// P-T3, skipped when it offers nothing but `Skip` (docs/contract.md §5.6: the
    /// options are public).
    fn enter_figure(&mut self, events: &mut impl EventSink<Event>) {
        let mut options = Count::default();
        self.push_figure_options(&mut options);
        if options.0 == 0 {
            self.enter_card(events);
        } else {
            self.phase = Phase::Figure;
        }
    }

    /// P-T4: asked whenever the hand is not empty, even with `Skip` alone, so the trace
    /// does not show what the hand holds.
    fn enter_card(&mut self, events: &mut impl EventSink<Event>) {
        if self.player(self.current).hand == 0 {
            self.score_turn(events);
        } else {
            self.phase = Phase::Card;
        }
    }

    /// P-K5: halflings-B may cast a spell after a build or monument.
    fn after_build(&mut self, events: &mut impl EventSink<Event>) {
        let p = self.player(self.current);
        if self.phase == Phase::Card && p.is(Realm::Halflings) && p.hand != 0 {
            self.phase = Phase::FollowUp;
        } else {
            self.score_turn(events);
        }
    }

    /// P-T8, then P-T9.
    pub(crate) fn score_turn(&mut self, events: &mut impl EventSink<Event>) {
        self.score_closed(events);
        let mut options = Count::default();
        if self.may_buy() {
            self.push_buy_options(&mut options);
        }
        if options.0 == 0 {
            self.finish_turn(events);
        } else {
            self.phase = Phase::Buy;
        }
    }

    /// P-T10 refill: every empty market slot takes the deck's top card (P-X3).
    pub(crate) fn refill_market(&mut self, events: &mut impl EventSink<Event>) {
        for market in 0..MARKET {
            if self.market[market] == NO_CARD {
                if let Some(card) = self.deck.pop() {
                    self.market[market] = card;
                    events.emit(Event::MarketRefilled {
                        market: market as u8,
                        card,
                    });
                }
            }
        }
    }

    /// P-T11, then P-K3.
    fn finish_turn(&mut self, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        if self.turn.placed_double {
            let want = if self.player(seat).is(Realm::Dwarves) {
                2
            } else {
                1
            };
            while self.player(seat).tiles.len() < want {
                match self.double_stack.pop() {
                    Some(t) => {
                        self.players[usize::from(seat)].tiles.push(t);
                        events.emit(Event::TileDrawn { seat });
                    }
                    None => {
                        if !self.end_triggered {
                            self.end_triggered = true;
                            events.emit(Event::EndTriggered { seat });
                        }
                        break;
                    }
                }
            }
        }
        if self.player(seat).is(Realm::Elves) {
            let mut options = Count::default();
            self.push_elf_moves(&mut options);
            if options.0 > 0 {
                self.phase = Phase::ElfMove;
                return;
            }
        }
        self.end_turn(events);
    }

    /// P-T12: Poorhouse, end checks (P-E2, P-E3), next seat.
    fn end_turn(&mut self, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        if self
            .player(seat)
            .visible(self.rules(), Building::Poorhouse)
            .is_some()
        {
            for r in Resource::ALL {
                let p = &mut self.players[usize::from(seat)];
                if p.resources[r.index()] == 0 {
                    p.resources[r.index()] = 2;
                    events.emit(Event::ResourceChanged {
                        seat,
                        resource: r,
                        value: 2,
                    });
                }
            }
        }
        if seat == self.last_seat() && (self.end_triggered || !self.placed_this_round) {
            self.final_scoring(events);
            return;
        }
        self.current = (seat + 1) % self.seats;
        self.begin_turn(events);
    }
}
