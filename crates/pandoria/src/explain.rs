//! "Why not?" ([`engine::Game::explain`]): the rule each action follows, and why a
//! well-formed action is not legal now. The reasons come from the predicates the legal
//! actions are listed with ([`Fault`]), checked in the order a person checks them: is the
//! game over, whose decision is it, which step of the turn is it, then the action's own
//! conditions. Everything consulted is public or the asker's own (its hand and tiles,
//! P-Z6), so the answer is the same in any determinization of the asker's view.

use engine::{Game, Refusal, Seat};

use crate::actions::{Action, TileId};
use crate::cards::{card_bit, CardId, Realm};
use crate::components::Resource;
use crate::fault::{Fault, Key};
use crate::hex::{Cell, Dir};
use crate::map::mirrored;
use crate::spells::Pending;
use crate::state::{Pandoria, Phase};

/// The rule `action` follows.
pub(crate) fn rule_of(game: &Pandoria, action: &Action) -> &'static str {
    let spell = (game.phase == Phase::Spell).then(|| pending_step(game.turn.pending).0);
    match *action {
        Action::PlaceTile { .. } => "P-T1",
        Action::PlaceCastle { .. } => spell.unwrap_or("P-T1"),
        Action::PlaceFigure { leader, .. } => spell.unwrap_or_else(|| {
            let p = game.player(game.current);
            // P-K1: humans-B bring the leader while other figures wait.
            if leader && p.figures > 0 && p.is(Realm::Humans) {
                "P-K1"
            } else {
                "P-T3"
            }
        }),
        Action::RemoveFigure { .. } => spell.unwrap_or("P-T3"),
        Action::CastSpell { .. } if game.phase == Phase::FollowUp => "P-K5",
        Action::CastSpell { .. } => "P-P1",
        Action::Build { .. } => spell.unwrap_or("P-T5"),
        Action::Monument { .. } => spell.unwrap_or("P-T6"),
        Action::MoveFigure { .. } => spell.unwrap_or("P-K3"),
        Action::TakeCard { .. } => "P-SP1",
        Action::AdoptFrom { .. } => "P-SP2",
        Action::SetResource { .. } => "P-SP5",
        Action::RageOn { .. } => "P-SP11",
        Action::DrawFrom { .. } | Action::PlaceDrawn { .. } => "P-SP13",
        Action::Buy { .. } => {
            // P-K4: mages-B buy without having closed a region.
            let mages = game.player(game.current).is(Realm::Mages);
            if mages && game.turn.closed.is_empty() {
                "P-K4"
            } else {
                "P-T9"
            }
        }
        Action::Skip | Action::Done => step_of(game).0,
    }
}

/// Why `seat` may not take `action` now; `None` when it may.
pub(crate) fn explain(game: &Pandoria, seat: Seat, action: &Action) -> Option<Refusal> {
    if game.to_move() == Some(seat) && game.is_legal(action) {
        return None;
    }
    Some(game.fault(seat, action).into())
}

/// The rule and name of the step a spell is waiting for.
fn pending_step(pending: Pending) -> (&'static str, &'static &'static str) {
    match pending {
        Pending::None => ("P-P1", &"spell"),
        Pending::Acquire { .. } => ("P-SP1", &"acquire"),
        Pending::Adopt => ("P-SP2", &"adopt"),
        Pending::AstralShip => ("P-SP3", &"astral_ship"),
        Pending::Clone { .. } => ("P-SP4", &"clone"),
        Pending::Conjure { .. } => ("P-SP5", &"conjure"),
        Pending::Construct => ("P-SP6", &"construct"),
        Pending::EnchantedCastle | Pending::CastleFigure { .. } => ("P-SP7", &"enchanted_castle"),
        Pending::Flee { .. } => ("P-SP8", &"flee"),
        Pending::MasterBuilderBuild | Pending::MasterBuilderMonument => {
            ("P-SP9", &"master_builder")
        }
        Pending::Muster { .. } => ("P-SP10", &"muster"),
        Pending::Rage { .. } => ("P-SP11", &"rage"),
        Pending::Teleport { .. } => ("P-SP12", &"teleport"),
        Pending::Terrain | Pending::TerrainPlace { .. } => ("P-SP13", &"terrain"),
    }
}

/// The rule of the step the turn is at, and the step's name (a `phase` of the view).
fn step_of(game: &Pandoria) -> (&'static str, &'static &'static str) {
    match game.phase {
        Phase::Place => ("P-T1", &"place"),
        Phase::Figure => ("P-T3", &"figure"),
        Phase::Card => ("P-T4", &"card"),
        Phase::FollowUp => ("P-K5", &"follow_up"),
        Phase::Buy => ("P-T9", &"buy"),
        Phase::ElfMove => ("P-K3", &"elf_move"),
        Phase::Spell => pending_step(game.turn.pending),
        Phase::Over => ("P-E2", &"over"),
    }
}

/// "Up to n" spell steps end with `Done` after a first pick (P-P1); how many were made.
fn picks_so_far(pending: Pending) -> Option<u8> {
    match pending {
        Pending::Acquire { picked, .. }
        | Pending::Clone { picked, .. }
        | Pending::Muster { picked, .. }
        | Pending::Flee { picked }
        | Pending::Teleport { picked, .. } => Some(picked),
        _ => None,
    }
}

impl Pandoria {
    /// The first rule `action` breaks for `seat`, in the order a person checks them.
    fn fault(&self, seat: Seat, action: &Action) -> Fault {
        if self.phase == Phase::Over {
            return Fault::new("P-E2", "game_over");
        }
        if seat != self.current {
            // rule P-SC6
            return Fault::new("P-SC6", "not_your_turn").with(Key::ToMove, self.current);
        }
        let found = match self.phase {
            Phase::Spell => self.spell_step_fault(action),
            _ => self.phase_fault(action),
        };
        // Every refusal above is specific; this catches what they miss, citing the rule
        // the action would follow.
        found
            .err()
            .unwrap_or_else(|| Fault::new(rule_of(self, action), "not_legal_now"))
    }

    /// Refuses an action the step the turn is at does not ask for.
    fn wrong_step(&self) -> Fault {
        let (rule, step) = step_of(self);
        match self.phase {
            Phase::Spell => Fault::new(rule, "wrong_spell_step").with(Key::Spell, step),
            _ => Fault::new(rule, "wrong_step").with(Key::Step, step),
        }
    }

    /// The conditions of an action in a step outside a spell (P-T1–P-T12, P-K3, P-K5).
    fn phase_fault(&self, action: &Action) -> Result<(), Fault> {
        let seat = self.current;
        match (self.phase, *action) {
            (Phase::Place, Action::PlaceTile { tile, at, dir }) => self.tile_fault(tile, at, dir),
            (Phase::Place, Action::PlaceCastle { at }) => self.castle_fault(at, "P-T1"),
            // rule P-X1: placing is mandatory while any placement is legal.
            (Phase::Place, Action::Skip) => Err(Fault::new("P-X1", "placement_mandatory")),
            (Phase::Figure, Action::PlaceFigure { at, leader }) => {
                self.figure_cell_check(at)?;
                self.reserve_check(seat, leader)
            }
            (Phase::Figure, Action::RemoveFigure { at }) => {
                self.own_figure_check(seat, at, "P-T3").map(drop)
            }
            (Phase::Card | Phase::FollowUp, Action::CastSpell { card, pay }) => {
                self.cast_fault(card, pay)
            }
            (Phase::Card, Action::Build { card, slot, pay }) => {
                let cost = self.build_check(seat, card, usize::from(slot))?;
                self.pay_check(seat, Resource::Wood, cost, pay)
            }
            (Phase::Card, Action::Monument { slot, pay }) => {
                let cost = self.monument_check(seat, usize::from(slot))?;
                self.pay_check(seat, Resource::Wood, cost, pay)
            }
            (Phase::Buy, Action::Buy { market, pay }) => {
                let price = self.buy_check(seat, usize::from(market))?;
                self.pay_check(seat, Resource::Gold, price, pay)
            }
            (Phase::ElfMove, Action::MoveFigure { from, to }) => {
                self.elf_move_check(seat, from, to)
            }
            (
                Phase::Figure | Phase::Card | Phase::FollowUp | Phase::Buy | Phase::ElfMove,
                Action::Skip,
            ) => Ok(()),
            _ => Err(self.wrong_step()),
        }
    }

    /// P-T1 with a hand double tile (P-G6).
    fn tile_fault(&self, tile: TileId, at: Cell, dir: Dir) -> Result<(), Fault> {
        let rules = self.rules();
        let halves = rules.double_tiles.get(usize::from(tile));
        let Some([a, b]) = halves.filter(|_| self.player(self.current).tiles.contains(&tile))
        else {
            return Err(Fault::new("P-T1", "tile_not_in_hand").with(Key::Tile, tile));
        };
        self.map.double_check(&rules.board, at, dir)?;
        self.orientation_check(a == b, at, dir)
    }

    /// P-G6: a tile with identical halves lies the same way from either half, so only
    /// directions 0–2 name its placements.
    fn orientation_check(&self, identical: bool, at: Cell, dir: Dir) -> Result<(), Fault> {
        match mirrored(&self.rules().board, at, dir) {
            Some((cell, mirror_dir)) if identical && mirror_dir < 3 => {
                Err(Fault::new("P-G6", "same_as_mirrored")
                    .with(Key::Cell, cell)
                    .with(Key::Dir, mirror_dir))
            }
            _ => Ok(()),
        }
    }

    /// A reserve castle onto a P-G7 cell (`rule`: P-T1, or P-SP7 for Enchanted Castle).
    fn castle_fault(&self, at: Cell, rule: &'static str) -> Result<(), Fault> {
        if self.player(self.current).castles == 0 {
            return Err(Fault::new(rule, "no_castle_left"));
        }
        self.map.single_check(&self.rules().board, at)
    }

    /// P-P1: a hand card's spell, castable (P-X12, P-SP7) and paid in crystal (P-T7).
    fn cast_fault(&self, card: CardId, pay: Option<Resource>) -> Result<(), Fault> {
        let seat = self.current;
        let in_hand = self.player(seat).hand & card_bit(card) != 0;
        let Some(c) = self
            .rules()
            .cards
            .get(usize::from(card))
            .filter(|_| in_hand)
        else {
            return Err(Fault::new("P-P1", "card_not_in_hand").with(Key::Card, card));
        };
        self.castable(seat, c.spell)?;
        self.pay_check(seat, Resource::Crystal, self.spell_cost(seat, card), pay)
    }

    /// The conditions of a spell's step (P-P1, P-SP1–P-SP13).
    fn spell_step_fault(&self, action: &Action) -> Result<(), Fault> {
        let seat = self.current;
        let pending = self.turn.pending;
        match (pending, *action) {
            (_, Action::Done) => match picks_so_far(pending) {
                // rule P-P1: "up to n" offers Done after the first pick.
                Some(0) => Err(Fault::new("P-P1", "done_before_first_pick")),
                Some(_) => Ok(()),
                None => Err(self.wrong_step()),
            },
            (Pending::Acquire { .. }, Action::TakeCard { market }) => self
                .market_card_check(usize::from(market), "P-SP1")
                .map(drop),
            (Pending::Adopt, Action::AdoptFrom { seat: from }) => self.adoptable(seat, from),
            (Pending::AstralShip, Action::PlaceFigure { at, leader }) => {
                self.ship_target_check(at)?;
                self.reserve_check(seat, leader)
            }
            (Pending::Clone { .. }, Action::PlaceFigure { at, leader }) => {
                self.clone_target_check(seat, at)?;
                self.reserve_check(seat, leader)
            }
            (Pending::Muster { .. }, Action::PlaceFigure { at, leader }) => {
                self.spell_target_check(at)?;
                self.reserve_check(seat, leader)
            }
            (Pending::CastleFigure { at: castle }, Action::PlaceFigure { at, leader }) => {
                if at != castle {
                    return Err(Fault::new("P-SP7", "not_on_new_castle").with(Key::Cell, castle));
                }
                self.reserve_check(seat, leader)
            }
            (Pending::Conjure { value }, Action::SetResource { resource }) => {
                self.conjure_check(seat, resource, value)
            }
            (Pending::Construct, Action::Build { card, slot, pay }) => {
                self.free_check(pay)?;
                self.build_check(seat, card, usize::from(slot)).map(drop)
            }
            (Pending::Construct, Action::Monument { slot, pay }) => {
                self.free_check(pay)?;
                self.monument_check(seat, usize::from(slot)).map(drop)
            }
            (Pending::MasterBuilderBuild, Action::Build { card, slot, pay }) => {
                let cost = self.build_check(seat, card, usize::from(slot))?;
                self.pay_check(seat, Resource::Wood, cost, pay)
            }
            (Pending::MasterBuilderMonument, Action::Monument { slot, pay }) => {
                let cost = self.monument_check(seat, usize::from(slot))?;
                self.pay_check(seat, Resource::Wood, cost, pay)
            }
            (Pending::MasterBuilderBuild | Pending::MasterBuilderMonument, Action::Skip) => Ok(()),
            (Pending::EnchantedCastle, Action::PlaceCastle { at }) => {
                self.castle_fault(at, "P-SP7")
            }
            (Pending::Flee { .. }, Action::RemoveFigure { at }) => {
                self.own_figure_check(seat, at, "P-SP8").map(drop)
            }
            (Pending::Rage { .. }, Action::RageOn { at }) => self.rage_check(seat, at),
            (Pending::Teleport { moved, .. }, Action::MoveFigure { from, to }) => {
                self.own_figure_check(seat, from, "P-SP12")?;
                if moved.contains(from) {
                    return Err(Fault::new("P-SP12", "figure_already_moved").with(Key::Cell, from));
                }
                self.spell_target_check(to)
            }
            (Pending::Terrain, Action::DrawFrom { single }) => self.draw_check(single),
            (Pending::TerrainPlace { single, tile }, Action::PlaceDrawn { at, dir }) => {
                self.drawn_tile_fault(single, tile, at, dir)
            }
            _ => Err(self.wrong_step()),
        }
    }

    /// P-SP6: Construct builds for nothing, so it names no way to pay.
    fn free_check(&self, pay: Option<Resource>) -> Result<(), Fault> {
        match pay {
            None => Ok(()),
            Some(resource) => {
                Err(Fault::new("P-SP6", "construct_is_free").with(Key::Resource, resource))
            }
        }
    }

    /// P-SP13: the drawn tile on a P-G7 cell (single) or a P-G6 pair (double).
    fn drawn_tile_fault(&self, single: bool, tile: u8, at: Cell, dir: Dir) -> Result<(), Fault> {
        let rules = self.rules();
        if single {
            if dir != 0 {
                return Err(
                    Fault::new("P-SP13", "single_tile_has_no_direction").with(Key::Dir, dir)
                );
            }
            return self.map.single_check(&rules.board, at);
        }
        self.map.double_check(&rules.board, at, dir)?;
        let identical = rules
            .double_tiles
            .get(usize::from(tile))
            .is_some_and(|[a, b]| a == b);
        self.orientation_check(identical, at, dir)
    }
}
