//! Spells (P-P1, P-SP1–P-SP13) and the buildings that touch them (P-B9, P-B10). Every
//! spell is a short sequence of atomic steps held in [`Pending`].

use serde::Serialize;

use crate::actions::{Action, ActionSink, Count};
use crate::cards::{card_bit, Building, CardId, Realm, Spell};
use crate::components::Resource;
use crate::costs::Paid;
use crate::events::{Event, Reason};
use crate::fault::{Fault, Key};
use crate::hex::{Cell, CellSet, NO_CELL};
use crate::state::{Pandoria, Phase, LEADER, MARKET, NO_CARD, SLOTS};
use crate::turn::cards_of;
use engine::{EventSink, Seat};

/// The step a spell is waiting for (P-Z4: public).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Pending {
    #[default]
    None,
    Acquire {
        left: u8,
        picked: u8,
    },
    Adopt,
    AstralShip,
    Clone {
        left: u8,
        picked: u8,
    },
    Conjure {
        value: u8,
    },
    Construct,
    EnchantedCastle,
    /// P-SP7: a reserve figure must go on the new castle.
    CastleFigure {
        at: Cell,
    },
    Flee {
        picked: u8,
    },
    MasterBuilderBuild,
    MasterBuilderMonument,
    Muster {
        left: u8,
        picked: u8,
    },
    Rage {
        weight: u8,
    },
    Teleport {
        left: u8,
        picked: u8,
        #[ts(as = "Vec<u8>")]
        moved: CellSet,
    },
    Terrain,
    /// P-SP13: the drawn tile, shown to all.
    TerrainPlace {
        single: bool,
        tile: u8,
    },
}

/// P-P1: an "up to n" step offers `Done` once a pick was made and options remain.
fn offer_done(out: &mut impl ActionSink, start: usize, picked: u8) {
    if picked > 0 && out.len() > start {
        out.push(Action::Done);
    }
}

impl Pandoria {
    /// P-P1 / P-B9: the crystal cost of casting `card`.
    pub fn spell_cost(&self, seat: Seat, card: CardId) -> u8 {
        let rules = &*self.config.rules;
        let school = self
            .player(seat)
            .visible(rules, Building::SchoolOfWizardry)
            .map_or(0, |c| c.building_value);
        rules.cards[usize::from(card)]
            .crystal_cost
            .saturating_sub(school)
            .max(1)
    }

    /// Cells a spell may put or move a figure to (P-G13).
    pub fn spell_targets(&self) -> CellSet {
        self.map.open_land().difference(self.figures)
    }

    /// May `seat` put a figure, or its leader, from its reserve (leader rule, P-X6 / P-K1)?
    pub(crate) fn reserve_choices(&self, seat: Seat) -> (bool, bool) {
        (
            self.reserve_check(seat, false).is_ok(),
            self.reserve_check(seat, true).is_ok(),
        )
    }

    /// P-T3 (a), P-X6, P-K1: may `seat` put a figure (`leader`: its leader) from its
    /// reserve? The leader goes last, except for humans-B.
    pub(crate) fn reserve_check(&self, seat: Seat, leader: bool) -> Result<(), Fault> {
        let p = self.player(seat);
        if !leader {
            return match p.figures {
                0 => Err(Fault::new("P-T3", "no_figure_left")),
                _ => Ok(()),
            };
        }
        if !p.leader_in_reserve {
            return Err(Fault::new("P-T3", "leader_not_in_reserve"));
        }
        if p.figures > 0 && !p.is(Realm::Humans) {
            return Err(Fault::new("P-X6", "leader_goes_last").with(Key::Figures, p.figures));
        }
        Ok(())
    }

    /// P-G13: may a spell put or move a figure to `cell`? An unoccupied land hex outside
    /// closed regions ([`Pandoria::spell_targets`]).
    pub(crate) fn spell_target_check(&self, cell: Cell) -> Result<(), Fault> {
        if self.spell_targets().contains(cell) {
            return Ok(());
        }
        let code = if !self.rules().board.contains(cell) {
            "cell_off_map"
        } else if self.map.land(cell).is_none() {
            "not_land"
        } else if self.figure_at(cell).is_some() {
            "cell_occupied"
        } else {
            "region_closed"
        };
        Err(Fault::new("P-G13", code).with(Key::Cell, cell))
    }

    /// An own figure on `cell` (`rule`: the rule that acts on it).
    pub(crate) fn own_figure_check(
        &self,
        seat: Seat,
        cell: Cell,
        rule: &'static str,
    ) -> Result<bool, Fault> {
        match self.figure_at(cell) {
            Some((owner, leader)) if owner == seat => Ok(leader),
            Some(_) => Err(Fault::new(rule, "not_own_figure").with(Key::Cell, cell)),
            None => Err(Fault::new(rule, "no_figure_there").with(Key::Cell, cell)),
        }
    }

    /// P-SP4: a Clone target: a spell target next to one of `seat`'s figures.
    pub(crate) fn clone_target_check(&self, seat: Seat, cell: Cell) -> Result<(), Fault> {
        self.spell_target_check(cell)?;
        if self.clone_targets(seat).contains(cell) {
            Ok(())
        } else {
            Err(Fault::new("P-SP4", "not_next_to_own_figure").with(Key::Cell, cell))
        }
    }

    /// P-SP3: an Astral Ship target: an empty ship.
    pub(crate) fn ship_target_check(&self, cell: Cell) -> Result<(), Fault> {
        if self.empty_ships().contains(cell) {
            return Ok(());
        }
        let code = if self.rules().board.ships().contains(cell) {
            "cell_occupied"
        } else {
            "not_a_ship"
        };
        Err(Fault::new("P-SP3", code).with(Key::Cell, cell))
    }

    /// P-SP5: Conjure sets only a resource below its value.
    pub(crate) fn conjure_check(
        &self,
        seat: Seat,
        resource: Resource,
        value: u8,
    ) -> Result<(), Fault> {
        let have = self.player(seat).resources[resource.index()];
        if have < value {
            Ok(())
        } else {
            Err(Fault::new("P-SP5", "resource_not_below")
                .with(Key::Resource, resource)
                .with(Key::Value, value)
                .with(Key::Have, have))
        }
    }

    /// P-SP11: Rage names an own non-leader figure.
    pub(crate) fn rage_check(&self, seat: Seat, cell: Cell) -> Result<(), Fault> {
        match self.own_figure_check(seat, cell, "P-SP11")? {
            true => Err(Fault::new("P-SP11", "leader_cannot_rage")),
            false => Ok(()),
        }
    }

    /// P-SP13: Terrain draws from a stack that is not empty and whose shape has a legal
    /// placement.
    pub(crate) fn draw_check(&self, single: bool) -> Result<(), Fault> {
        let (stack_empty, placeable) = if single {
            (
                self.single_stack.is_empty(),
                !self.map.single_placements().is_empty(),
            )
        } else {
            (
                self.double_stack.is_empty(),
                self.map.any_double(&self.rules().board),
            )
        };
        let fault = |code| Err(Fault::new("P-SP13", code).with(Key::Single, single));
        if stack_empty {
            fault("stack_empty")
        } else if !placeable {
            fault("no_placement_for_shape")
        } else {
            Ok(())
        }
    }

    fn push_reserve_placements(&self, seat: Seat, cells: CellSet, out: &mut impl ActionSink) {
        let (figure, leader) = self.reserve_choices(seat);
        for at in cells.iter() {
            if figure {
                out.push(Action::PlaceFigure { at, leader: false });
            }
            if leader {
                out.push(Action::PlaceFigure { at, leader: true });
            }
        }
    }

    fn own_figures(&self, seat: Seat) -> CellSet {
        self.figures
            .iter()
            .filter(|&c| self.figure_at(c).map(|f| f.0) == Some(seat))
            .collect()
    }

    /// P-SP4: targets next to one of `seat`'s figures.
    fn clone_targets(&self, seat: Seat) -> CellSet {
        let board = &self.config.rules.board;
        let own = self.own_figures(seat);
        self.spell_targets()
            .iter()
            .filter(|&c| board.neighbours(c).iter().any(|&n| own.contains(n)))
            .collect()
    }

    fn empty_ships(&self) -> CellSet {
        self.rules().board.ships().difference(self.figures)
    }

    fn any_reserve(&self, seat: Seat) -> bool {
        let (f, l) = self.reserve_choices(seat);
        f || l
    }

    /// P-X12: may `seat` cast (or adopt) `spell`? The seed does not forbid a spell that
    /// changes nothing, so any card that can be paid for may be cast; the spell then
    /// resolves with no step (`settle_spell` ends it at once) and Shrine still pays.
    /// The one exception is P-SP7: the castle goes down *with* a figure on it ("Pon uno de
    /// tus castillos con una figura encima"), so without a reserve castle, a reserve figure
    /// or a legal cell Enchanted Castle cannot be cast at all.
    pub(crate) fn castable(&self, seat: Seat, spell: Spell) -> Result<(), Fault> {
        if spell != Spell::EnchantedCastle {
            return Ok(());
        }
        if self.player(seat).castles == 0 {
            Err(Fault::new("P-SP7", "no_castle_left"))
        } else if !self.any_reserve(seat) {
            Err(Fault::new("P-SP7", "no_figure_left"))
        } else if self.map.single_placements().is_empty() {
            Err(Fault::new("P-SP7", "no_castle_cell"))
        } else {
            Ok(())
        }
    }

    /// P-SP2 / P-X18: may `seat` adopt the last spell of `from`? Only an opponent's: never
    /// one's own and, in the teams variant, never the partner's (seed: "Copia el hechizo
    /// superior de un oponente"). That spell must exist, not be Adopt, and be castable by
    /// `seat` (P-X12).
    pub(crate) fn adoptable(&self, seat: Seat, from: Seat) -> Result<(), Fault> {
        let fault = |rule, code| Err(Fault::new(rule, code).with(Key::Seat, from));
        if from >= self.seats {
            return fault("P-SP2", "no_such_seat");
        }
        if from == seat {
            return fault("P-SP2", "adopt_own_spell");
        }
        if self.config.teams && from == (seat + 2) % self.seats {
            return fault("P-X18", "adopt_partner");
        }
        let last = self.player(from).last_spell;
        let Some(c) = self.rules().cards.get(usize::from(last)) else {
            return fault("P-SP2", "no_last_spell");
        };
        if c.spell == Spell::Adopt {
            return fault("P-SP2", "adopt_adopt");
        }
        self.castable(seat, c.spell)
    }

    /// P-P1: `CastSpell` options of the seat to move.
    pub(crate) fn push_cast_options(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        let rules = &*self.config.rules;
        for card in cards_of(self.player(seat).hand) {
            let c = rules.cards[usize::from(card)];
            let cost = self.spell_cost(seat, card);
            if self.castable(seat, c.spell).is_err() {
                continue;
            }
            self.pay_options(seat, Resource::Crystal, cost, |pay| {
                out.push(Action::CastSpell { card, pay });
            });
        }
    }

    pub(crate) fn cast(
        &mut self,
        card: CardId,
        pay: Option<Resource>,
        events: &mut impl EventSink<Event>,
    ) {
        let seat = self.current;
        let cost = self.spell_cost(seat, card);
        let paid = self.pay(seat, Resource::Crystal, cost, pay);
        let rules = &*self.config.rules;
        let p = &mut self.players[usize::from(seat)];
        p.hand &= !card_bit(card);
        p.known &= !card_bit(card);
        p.spell_pile |= card_bit(card);
        p.last_spell = card;
        events.emit(Event::SpellCast { seat, card, cost });
        paid.tell(events);
        // P-B10.
        if let Some(shrine) = self.player(seat).visible(rules, Building::Shrine) {
            let points = u16::from(shrine.building_value);
            self.players[usize::from(seat)].add_points(Reason::Shrine, points);
            events.emit(Event::PointsGained {
                seat,
                points,
                reason: Reason::Shrine,
            });
        }
        let c = rules.cards[usize::from(card)];
        self.start_spell(c.spell, c.spell_value, events);
    }

    fn start_spell(&mut self, spell: Spell, value: u8, events: &mut impl EventSink<Event>) {
        self.turn.pending = match spell {
            Spell::Acquire => Pending::Acquire {
                left: value,
                picked: 0,
            },
            Spell::Adopt => Pending::Adopt,
            Spell::AstralShip => Pending::AstralShip,
            Spell::Clone => Pending::Clone {
                left: value,
                picked: 0,
            },
            Spell::Conjure => Pending::Conjure { value },
            Spell::Construct => Pending::Construct,
            Spell::EnchantedCastle => Pending::EnchantedCastle,
            Spell::Flee => Pending::Flee { picked: 0 },
            Spell::MasterBuilder => Pending::MasterBuilderBuild,
            Spell::Muster => Pending::Muster {
                left: value,
                picked: 0,
            },
            Spell::Rage => Pending::Rage { weight: value },
            Spell::Teleport => Pending::Teleport {
                left: value,
                picked: 0,
                moved: CellSet::EMPTY,
            },
            Spell::Terrain => Pending::Terrain,
        };
        self.phase = Phase::Spell;
        self.settle_spell(events);
    }

    /// Ends the spell when its current step has no option left (a public fact).
    fn settle_spell(&mut self, events: &mut impl EventSink<Event>) {
        let mut options = Count::default();
        self.push_spell_steps(&mut options);
        if options.0 == 0 {
            self.end_spell(events);
        }
    }

    fn end_spell(&mut self, events: &mut impl EventSink<Event>) {
        self.turn.pending = Pending::None;
        self.refill_market(events);
        self.score_turn(events);
    }

    pub(crate) fn push_spell_steps(&self, out: &mut impl ActionSink) {
        let seat = self.current;
        let p = self.player(seat);
        let rules = &*self.config.rules;
        let start = out.len();
        match self.turn.pending {
            Pending::None => {}
            Pending::Acquire { left, picked } => {
                if left > 0 {
                    for market in 0..MARKET {
                        if self.market_card_check(market, "P-SP1").is_ok() {
                            out.push(Action::TakeCard {
                                market: market as u8,
                            });
                        }
                    }
                }
                offer_done(out, start, picked);
            }
            Pending::Adopt => {
                for s in 0..self.seats {
                    if self.adoptable(seat, s).is_ok() {
                        out.push(Action::AdoptFrom { seat: s });
                    }
                }
            }
            Pending::AstralShip => self.push_reserve_placements(seat, self.empty_ships(), out),
            Pending::Clone { left, picked } | Pending::Muster { left, picked } => {
                if left > 0 {
                    let cells = match self.turn.pending {
                        Pending::Clone { .. } => self.clone_targets(seat),
                        _ => self.spell_targets(),
                    };
                    self.push_reserve_placements(seat, cells, out);
                }
                offer_done(out, start, picked);
            }
            Pending::Conjure { value } => {
                for r in Resource::ALL {
                    if self.conjure_check(seat, r, value).is_ok() {
                        out.push(Action::SetResource { resource: r });
                    }
                }
            }
            Pending::Construct => {
                for card in cards_of(p.hand) {
                    for slot in 0..SLOTS {
                        if self.build_cost(seat, card, slot).is_some() {
                            out.push(Action::Build {
                                card,
                                slot: slot as u8,
                                pay: None,
                            });
                        }
                    }
                }
                for slot in 0..SLOTS {
                    if self.monument_cost(seat, slot).is_some() {
                        out.push(Action::Monument {
                            slot: slot as u8,
                            pay: None,
                        });
                    }
                }
            }
            Pending::MasterBuilderBuild => {
                self.push_builds(out);
                out.push(Action::Skip);
            }
            Pending::MasterBuilderMonument => {
                self.push_monuments(out);
                if out.len() > start {
                    out.push(Action::Skip);
                }
            }
            Pending::EnchantedCastle => {
                if p.castles > 0 {
                    for at in self.map.single_placements().iter() {
                        out.push(Action::PlaceCastle { at });
                    }
                }
            }
            Pending::CastleFigure { at } => {
                let mut cell = CellSet::EMPTY;
                cell.insert(at);
                self.push_reserve_placements(seat, cell, out);
            }
            Pending::Flee { picked } => {
                for at in self.own_figures(seat).iter() {
                    out.push(Action::RemoveFigure { at });
                }
                offer_done(out, start, picked);
            }
            Pending::Rage { .. } => {
                for at in self.own_figures(seat).iter() {
                    if self.rage_check(seat, at).is_ok() {
                        out.push(Action::RageOn { at });
                    }
                }
            }
            Pending::Teleport {
                left,
                picked,
                moved,
            } => {
                if left > 0 {
                    let targets = self.spell_targets();
                    if !targets.is_empty() {
                        for from in self.own_figures(seat).difference(moved).iter() {
                            for to in targets.iter() {
                                out.push(Action::MoveFigure { from, to });
                            }
                        }
                    }
                }
                offer_done(out, start, picked);
            }
            Pending::Terrain => {
                for single in [false, true] {
                    if self.draw_check(single).is_ok() {
                        out.push(Action::DrawFrom { single });
                    }
                }
            }
            Pending::TerrainPlace { single, tile } => {
                if single {
                    for at in self.map.single_placements().iter() {
                        out.push(Action::PlaceDrawn { at, dir: 0 });
                    }
                } else {
                    let [a, b] = rules.double_tiles[usize::from(tile)];
                    self.map.double_placements(&rules.board, a == b, |at, dir| {
                        out.push(Action::PlaceDrawn { at, dir })
                    });
                }
            }
        }
    }

    pub(crate) fn apply_spell_step(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        let rules = &*self.config.rules;
        if action == Action::Done {
            return self.end_spell(events);
        }
        match (self.turn.pending, action) {
            (Pending::Acquire { left, picked }, Action::TakeCard { market }) => {
                let card = std::mem::replace(&mut self.market[usize::from(market)], NO_CARD);
                let p = &mut self.players[usize::from(seat)];
                p.hand |= card_bit(card);
                p.known |= card_bit(card);
                events.emit(Event::CardTaken { seat, card, market });
                self.turn.pending = Pending::Acquire {
                    left: left - 1,
                    picked: picked + 1,
                };
            }
            (Pending::Adopt, Action::AdoptFrom { seat: from }) => {
                let card = self.player(from).last_spell;
                let c = rules.cards[usize::from(card)];
                events.emit(Event::SpellAdopted { seat, from, card });
                return self.start_spell(c.spell, c.spell_value, events);
            }
            (Pending::AstralShip, Action::PlaceFigure { at, leader }) => {
                self.put_from_reserve(seat, at, leader, events);
                return self.end_spell(events);
            }
            (Pending::Clone { left, picked }, Action::PlaceFigure { at, leader }) => {
                self.put_from_reserve(seat, at, leader, events);
                self.turn.pending = Pending::Clone {
                    left: left - 1,
                    picked: picked + 1,
                };
            }
            (Pending::Muster { left, picked }, Action::PlaceFigure { at, leader }) => {
                self.put_from_reserve(seat, at, leader, events);
                self.turn.pending = Pending::Muster {
                    left: left - 1,
                    picked: picked + 1,
                };
            }
            (Pending::Conjure { value }, Action::SetResource { resource }) => {
                self.players[usize::from(seat)].resources[resource.index()] = value;
                events.emit(Event::ResourceSet {
                    seat,
                    resource,
                    value,
                });
                return self.end_spell(events);
            }
            (Pending::Construct, Action::Build { card, slot, .. }) => {
                self.build(seat, card, slot, 0, events);
                return self.end_spell(events);
            }
            (Pending::Construct, Action::Monument { slot, .. }) => {
                self.raise_monument(seat, slot, 0, Paid::NOTHING, events);
                return self.end_spell(events);
            }
            (Pending::MasterBuilderBuild, Action::Build { card, slot, pay }) => {
                let cost = self.build_cost(seat, card, usize::from(slot)).unwrap_or(0);
                let paid = self.pay(seat, Resource::Wood, cost, pay);
                self.build(seat, card, slot, cost, events);
                paid.tell(events);
                self.turn.pending = Pending::MasterBuilderMonument;
            }
            (Pending::MasterBuilderBuild, Action::Skip) => {
                self.turn.pending = Pending::MasterBuilderMonument;
            }
            (Pending::MasterBuilderMonument, Action::Monument { slot, pay }) => {
                let cost = self.monument_cost(seat, usize::from(slot)).unwrap_or(0);
                let paid = self.pay(seat, Resource::Wood, cost, pay);
                self.raise_monument(seat, slot, cost, paid, events);
                return self.end_spell(events);
            }
            (Pending::MasterBuilderMonument, Action::Skip) => return self.end_spell(events),
            (Pending::EnchantedCastle, Action::PlaceCastle { at }) => {
                self.players[usize::from(seat)].castles -= 1;
                let closed = self.map.place_castle(&rules.board, at, seat);
                events.emit(Event::CastlePlaced { seat, at });
                self.close_regions(&closed, events);
                // P-SP7: castable only with a reserve figure, and placing a castle
                // only sends figures back to the reserve, so the figure step always
                // has an option.
                self.turn.pending = Pending::CastleFigure { at };
            }
            (Pending::CastleFigure { .. }, Action::PlaceFigure { at, leader }) => {
                self.put_from_reserve(seat, at, leader, events);
                return self.end_spell(events);
            }
            (Pending::Flee { picked }, Action::RemoveFigure { at }) => {
                self.return_figure(at, events);
                self.turn.pending = Pending::Flee { picked: picked + 1 };
            }
            (Pending::Rage { weight }, Action::RageOn { at }) => {
                self.turn.rage = (at, weight);
                events.emit(Event::RageOn { seat, at, weight });
                return self.end_spell(events);
            }
            (
                Pending::Teleport {
                    left,
                    picked,
                    mut moved,
                },
                Action::MoveFigure { from, to },
            ) => {
                self.move_figure(seat, from, to, events);
                moved.insert(to);
                self.turn.pending = Pending::Teleport {
                    left: left - 1,
                    picked: picked + 1,
                    moved,
                };
            }
            (Pending::Terrain, Action::DrawFrom { single }) => {
                let tile = if single {
                    self.single_stack.pop()
                } else {
                    self.double_stack.pop()
                }
                .unwrap_or(0);
                events.emit(Event::TerrainDrawn { seat, single, tile });
                self.turn.pending = Pending::TerrainPlace { single, tile };
            }
            (Pending::TerrainPlace { single, tile }, Action::PlaceDrawn { at, dir }) => {
                let closed = if single {
                    self.placed_singles |= 1 << tile;
                    self.map
                        .place_single(&rules.board, at, rules.single_tiles[usize::from(tile)])
                } else {
                    let [a, b] = rules.double_tiles[usize::from(tile)];
                    self.placed_doubles |= 1 << tile;
                    self.map.place_double(&rules.board, at, dir, a, b)
                };
                self.close_regions(&closed, events);
                return self.end_spell(events);
            }
            _ => {}
        }
        self.settle_spell(events);
    }

    pub(crate) fn put_from_reserve(
        &mut self,
        seat: Seat,
        at: Cell,
        leader: bool,
        events: &mut impl EventSink<Event>,
    ) {
        let p = &mut self.players[usize::from(seat)];
        if leader {
            p.leader_in_reserve = false;
        } else {
            p.figures -= 1;
        }
        self.occupant[usize::from(at)] = (seat + 1) | if leader { LEADER } else { 0 };
        self.figures.insert(at);
        events.emit(Event::FigurePlaced { seat, at, leader });
    }

    pub(crate) fn move_figure(
        &mut self,
        seat: Seat,
        from: Cell,
        to: Cell,
        events: &mut impl EventSink<Event>,
    ) {
        self.occupant[usize::from(to)] = self.occupant[usize::from(from)];
        self.occupant[usize::from(from)] = 0;
        self.figures.remove(from);
        self.figures.insert(to);
        if self.turn.rage.0 == from {
            self.turn.rage.0 = to;
        }
        events.emit(Event::FigureMoved { seat, from, to });
    }

    /// The Rage figure of this turn, if any.
    pub fn rage(&self) -> Option<(Cell, u8)> {
        (self.turn.rage.0 != NO_CELL).then_some(self.turn.rage)
    }
}
