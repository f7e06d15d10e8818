//! Pandoria's fixed action space and observation tensor (the contract's optional extension,
//! `engine::encoding`). Layouts: `docs/contract.md`, "Action space and observations".
//!
//! The space is every well-formed action over the board of the data file: one block per
//! variant, the product of its fields' ranges. Placements dominate: a double tile × a cell ×
//! a direction (48 × cells × 6) and a figure move from a cell to a cell (cells²); about
//! 56,000 indices on the shipped board (128 cells). That is still a flat space a mask
//! handles (55 KiB a step as bytes), so it is kept flat rather than factorised into
//! cell-then-direction steps, which would change the game's atomic actions
//! (docs/contract.md §4).
//!
//! The observation is written from the state, reading only what `view(Some(seat))` shows
//! (P-Z1–P-Z6): the map, every seat's public side, the observer's own hand and tiles; of
//! the others, the hand cards everyone knows and how many cards and tiles they hold; the
//! stacks and the deck by size, the single tiles left as a set.

use engine::encoding::{relative_seat, seat_at_offset, Block, Features};
use engine::Seat;

use crate::actions::Action;
use crate::cards::{CardId, Realm};
use crate::components::{Resource, Terrain};
use crate::hex::{Cell, Dir};
use crate::spells::Pending;
use crate::state::{
    Mode, Pandoria, PandoriaConfig, Phase, Player, MARKET, MAX_PLAYERS, NO_CARD, RESOURCE_CAP,
    SLOTS,
};
use crate::turn::cards_of;

const DIRS: usize = 6;
/// No payment, or one of the three resources.
const PAYS: usize = 1 + Resource::ALL.len();
const SEATS: usize = MAX_PLAYERS as usize;

/// Blocks, in order.
const PLACE_TILE: usize = 0;
const PLACE_CASTLE: usize = 1;
const PLACE_FIGURE: usize = 2;
const REMOVE_FIGURE: usize = 3;
const CAST_SPELL: usize = 4;
const BUILD: usize = 5;
const MONUMENT: usize = 6;
const MOVE_FIGURE: usize = 7;
const TAKE_CARD: usize = 8;
const ADOPT_FROM: usize = 9;
const SET_RESOURCE: usize = 10;
const RAGE_ON: usize = 11;
const DRAW_FROM: usize = 12;
const PLACE_DRAWN: usize = 13;
const BUY: usize = 14;
const SKIP: usize = 15;
const DONE: usize = 16;

/// The sizes the config's data fixes: cells, double tiles, cards.
struct Sizes {
    cells: usize,
    tiles: usize,
    cards: usize,
}

fn sizes(config: &PandoriaConfig) -> Sizes {
    let rules = &config.rules;
    Sizes {
        cells: rules.board.len(),
        tiles: rules.double_tiles.len(),
        cards: rules.cards.len(),
    }
}

fn blocks(config: &PandoriaConfig) -> ([Block; 17], usize) {
    let Sizes {
        cells: n,
        tiles: t,
        cards: c,
    } = sizes(config);
    Block::layout([
        t * n * DIRS,        // place tile: tile × cell × direction
        n,                   // place castle
        n * 2,               // place figure: cell × leader
        n,                   // remove figure
        c * PAYS,            // cast spell: card × pay
        c * SLOTS * PAYS,    // build: card × slot × pay
        SLOTS * PAYS,        // monument: slot × pay
        n * n,               // move figure: from × to
        MARKET,              // take card
        SEATS,               // adopt from: seat
        Resource::ALL.len(), // set resource
        n,                   // rage on
        2,                   // draw from: double, single
        n * DIRS,            // place drawn: cell × direction
        MARKET * PAYS,       // buy: market card × pay
        1,                   // skip
        1,                   // done
    ])
}

pub(crate) fn action_count(config: &PandoriaConfig) -> usize {
    blocks(config).1
}

fn pay_index(pay: Option<Resource>) -> usize {
    pay.map_or(0, |r| 1 + r.index())
}

fn pay_at(i: usize) -> Option<Resource> {
    i.checked_sub(1).and_then(|r| Resource::ALL.get(r).copied())
}

/// `digits` as a mixed-radix number (most significant first); `None` if one is out of its
/// range.
fn mixed(digits: &[(usize, usize)]) -> Option<usize> {
    digits.iter().try_fold(0, |acc, &(value, radix)| {
        (value < radix).then_some(acc * radix + value)
    })
}

pub(crate) fn action_index(config: &PandoriaConfig, action: &Action) -> Option<usize> {
    let Sizes {
        cells: n,
        tiles: t,
        cards: c,
    } = sizes(config);
    let cell = |x: Cell| (usize::from(x), n);
    let dir = |d: Dir| (usize::from(d), DIRS);
    let card = |x: CardId| (usize::from(x), c);
    let slot = |s: u8| (usize::from(s), SLOTS);
    let pay = |p: Option<Resource>| (pay_index(p), PAYS);
    let (block, local) = match *action {
        Action::PlaceTile { tile, at, dir: d } => (
            PLACE_TILE,
            mixed(&[(usize::from(tile), t), cell(at), dir(d)]),
        ),
        Action::PlaceCastle { at } => (PLACE_CASTLE, mixed(&[cell(at)])),
        Action::PlaceFigure { at, leader } => {
            (PLACE_FIGURE, mixed(&[cell(at), (usize::from(leader), 2)]))
        }
        Action::RemoveFigure { at } => (REMOVE_FIGURE, mixed(&[cell(at)])),
        Action::CastSpell { card: x, pay: p } => (CAST_SPELL, mixed(&[card(x), pay(p)])),
        Action::Build {
            card: x,
            slot: s,
            pay: p,
        } => (BUILD, mixed(&[card(x), slot(s), pay(p)])),
        Action::Monument { slot: s, pay: p } => (MONUMENT, mixed(&[slot(s), pay(p)])),
        Action::MoveFigure { from, to } => (MOVE_FIGURE, mixed(&[cell(from), cell(to)])),
        Action::TakeCard { market } => (TAKE_CARD, mixed(&[(usize::from(market), MARKET)])),
        Action::AdoptFrom { seat } => (ADOPT_FROM, mixed(&[(usize::from(seat), SEATS)])),
        Action::SetResource { resource } => (SET_RESOURCE, Some(resource.index())),
        Action::RageOn { at } => (RAGE_ON, mixed(&[cell(at)])),
        Action::DrawFrom { single } => (DRAW_FROM, Some(usize::from(single))),
        Action::PlaceDrawn { at, dir: d } => (PLACE_DRAWN, mixed(&[cell(at), dir(d)])),
        Action::Buy { market, pay: p } => (BUY, mixed(&[(usize::from(market), MARKET), pay(p)])),
        Action::Skip => (SKIP, Some(0)),
        Action::Done => (DONE, Some(0)),
    };
    blocks(config).0[block].at(local?)
}

pub(crate) fn action_at(config: &PandoriaConfig, index: usize) -> Option<Action> {
    let n = sizes(config).cells;
    let (blocks, _) = blocks(config);
    let (block, local) = Block::locate(&blocks, index)?;
    // Every field below fits in a u8: cells ≤ 192, tiles ≤ 64, cards ≤ 64 (data limits).
    let b = |x: usize| x as u8;
    Some(match block {
        PLACE_TILE => Action::PlaceTile {
            tile: b(local / (n * DIRS)),
            at: b(local / DIRS % n),
            dir: b(local % DIRS),
        },
        PLACE_CASTLE => Action::PlaceCastle { at: b(local) },
        PLACE_FIGURE => Action::PlaceFigure {
            at: b(local / 2),
            leader: local % 2 == 1,
        },
        REMOVE_FIGURE => Action::RemoveFigure { at: b(local) },
        CAST_SPELL => Action::CastSpell {
            card: b(local / PAYS),
            pay: pay_at(local % PAYS),
        },
        BUILD => Action::Build {
            card: b(local / (SLOTS * PAYS)),
            slot: b(local / PAYS % SLOTS),
            pay: pay_at(local % PAYS),
        },
        MONUMENT => Action::Monument {
            slot: b(local / PAYS),
            pay: pay_at(local % PAYS),
        },
        MOVE_FIGURE => Action::MoveFigure {
            from: b(local / n),
            to: b(local % n),
        },
        TAKE_CARD => Action::TakeCard { market: b(local) },
        ADOPT_FROM => Action::AdoptFrom { seat: b(local) },
        SET_RESOURCE => Action::SetResource {
            resource: Resource::ALL[local % Resource::ALL.len()],
        },
        RAGE_ON => Action::RageOn { at: b(local) },
        DRAW_FROM => Action::DrawFrom { single: local == 1 },
        PLACE_DRAWN => Action::PlaceDrawn {
            at: b(local / DIRS),
            dir: b(local % DIRS),
        },
        BUY => Action::Buy {
            market: b(local / PAYS),
            pay: pay_at(local % PAYS),
        },
        SKIP => Action::Skip,
        _ => Action::Done,
    })
}

// ----- observation ----------------------------------------------------------------------

/// Documented maxima the counts are divided by (values above are clamped to 1).
const MAX_SYMBOLS: f64 = 3.0;
const MAX_SCORE: f64 = 200.0;
const MAX_POINTS: f64 = 60.0;
const MAX_FIGURES: f64 = 10.0;
const MAX_CASTLES: f64 = 4.0;
const MAX_HAND: f64 = 10.0;
const MAX_MONUMENT: f64 = 6.0;
const MAX_TURNS: f64 = 100.0;
const MAX_PENDING: f64 = 6.0;
const PHASES: usize = 8;
const PENDINGS: usize = 17;
const SINGLE_TILES: usize = 8;
const REASONS: usize = 8;

/// Per cell: terrain (4), symbols, castle owner, figure owner, leader, closed, placed this
/// turn, closed this turn, rage.
fn cell_len(seats: usize) -> usize {
    Terrain::ALL.len() + 1 + seats + seats + 1 + 1 + 1 + 1 + 1
}

/// Per seat: realm (5), side B, resources (3), score, points by reason (8), figures,
/// leader in reserve, castles, hand size, tiles held, hand (own) or known cards (others),
/// own double tiles, spell pile, last spell, buildings in the slots, monuments, covered.
fn seat_len(s: &Sizes) -> usize {
    Realm::ALL.len() + 1 + 3 + 1 + REASONS + 1 + 1 + 1 + 1 + 1
        + s.cards // hand
        + s.tiles // own tiles
        + s.cards // spell pile
        + s.cards // last spell
        + SLOTS * s.cards
        + SLOTS
        + s.cards // covered
}

pub(crate) fn observation_len(config: &PandoriaConfig) -> usize {
    let s = sizes(config);
    let seats = usize::from(config.players);
    PHASES + seats // phase, seat to move
        + 2 + 1 // mode, teams
        + 1 + 1 // turn, end triggered
        + PENDINGS + 2 // pending step and its count
        + MARKET * s.cards
        + 4 // monuments left by value 3..6
        + 3 // deck, double stack, removed tiles
        + SINGLE_TILES
        + s.cells * cell_len(seats)
        + seats * seat_len(&s)
}

impl Pandoria {
    pub(crate) fn encode_observation(&self, seat: Seat, out: &mut [f32]) {
        let s = sizes(&self.config);
        let seats = usize::from(self.seats);
        let relative = |x: Seat| relative_seat(x, seat, seats);
        let mut f = Features::new(out);
        f.one_hot(Some(phase_index(self.phase)), PHASES);
        let to_move = (self.phase != Phase::Over).then(|| relative(self.current));
        f.one_hot(to_move, seats);
        f.one_hot(Some(usize::from(self.config.mode == Mode::Beginner)), 2);
        f.flag(self.config.teams);
        f.scaled(f64::from(self.turns), MAX_TURNS);
        f.flag(self.end_triggered);
        let (pending, count) = pending_index(self.turn.pending);
        f.one_hot(Some(pending), PENDINGS);
        f.scaled(f64::from(count.0), MAX_PENDING);
        f.scaled(f64::from(count.1), MAX_PENDING);
        for card in self.market {
            f.one_hot(some_card(card), s.cards);
        }
        f.counts(
            self.monuments
                .iter()
                .map(|&v| usize::from(v).wrapping_sub(3)),
            4,
            self.rules().monuments.len() as f64,
        );
        f.scaled(self.deck.len() as f64, s.cards as f64);
        f.scaled(self.double_stack.len() as f64, s.tiles as f64);
        f.scaled(self.removed.len() as f64, s.tiles as f64);
        f.counts(
            self.single_stack.iter().map(|&t| usize::from(t)),
            SINGLE_TILES,
            1.0,
        );
        self.encode_cells(&mut f, &relative);
        for offset in 0..seats {
            let other = seat_at_offset(seat, offset, seats);
            encode_player(&mut f, self.player(other), other == seat, &s);
        }
        debug_assert_eq!(f.written(), observation_len(&self.config));
    }

    fn encode_cells(&self, f: &mut Features, relative: &impl Fn(Seat) -> usize) {
        let seats = usize::from(self.seats);
        let rage = self.rage().map(|(cell, _)| cell);
        for c in 0..self.rules().board.len() as Cell {
            let land = self.map.land(c);
            f.one_hot(land.map(|h| h.terrain.index()), Terrain::ALL.len());
            f.scaled(f64::from(land.map_or(0, |h| h.symbols)), MAX_SYMBOLS);
            f.one_hot(self.map.castle(c).map(relative), seats);
            let figure = self.figure_at(c);
            f.one_hot(figure.map(|(owner, _)| relative(owner)), seats);
            f.flag(figure.is_some_and(|(_, leader)| leader));
            f.flag(self.map.in_closed_region(c));
            f.flag(self.turn.placed.contains(&c));
            f.flag(self.turn.closed.contains(&c));
            f.flag(rage == Some(c));
        }
    }
}

fn some_card(card: CardId) -> Option<usize> {
    (card != NO_CARD).then_some(usize::from(card))
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Place => 0,
        Phase::Figure => 1,
        Phase::Card => 2,
        Phase::FollowUp => 3,
        Phase::Buy => 4,
        Phase::Spell => 5,
        Phase::ElfMove => 6,
        Phase::Over => 7,
    }
}

/// The spell step awaited, and its two small counts (left and picked, or the value).
fn pending_index(pending: Pending) -> (usize, (u8, u8)) {
    match pending {
        Pending::None => (0, (0, 0)),
        Pending::Acquire { left, picked } => (1, (left, picked)),
        Pending::Adopt => (2, (0, 0)),
        Pending::AstralShip => (3, (0, 0)),
        Pending::Clone { left, picked } => (4, (left, picked)),
        Pending::Conjure { value } => (5, (value, 0)),
        Pending::Construct => (6, (0, 0)),
        Pending::EnchantedCastle => (7, (0, 0)),
        Pending::CastleFigure { .. } => (8, (0, 0)),
        Pending::Flee { picked } => (9, (0, picked)),
        Pending::MasterBuilderBuild => (10, (0, 0)),
        Pending::MasterBuilderMonument => (11, (0, 0)),
        Pending::Muster { left, picked } => (12, (left, picked)),
        Pending::Rage { weight } => (13, (weight, 0)),
        Pending::Teleport { left, picked, .. } => (14, (left, picked)),
        Pending::Terrain => (15, (0, 0)),
        Pending::TerrainPlace { single, .. } => (16, (u8::from(single), 0)),
    }
}

/// A seat's side as the observer may know it (P-Z2, P-Z3): its own hand and tiles only
/// when it is the observer; otherwise the cards everyone knows and how many it holds.
fn encode_player(f: &mut Features, p: &Player, own: bool, s: &Sizes) {
    f.one_hot(Some(p.realm.index()), Realm::ALL.len());
    f.flag(p.side_b);
    for r in p.resources {
        f.scaled(f64::from(r), f64::from(RESOURCE_CAP));
    }
    f.scaled(f64::from(p.score()), MAX_SCORE);
    for points in p.points {
        f.scaled(f64::from(points), MAX_POINTS);
    }
    f.scaled(f64::from(p.figures), MAX_FIGURES);
    f.flag(p.leader_in_reserve);
    f.scaled(f64::from(p.castles), MAX_CASTLES);
    f.scaled(f64::from(p.hand_len()), MAX_HAND);
    f.scaled(p.tiles.len() as f64, 2.0);
    let hand = if own { p.hand } else { p.known };
    f.counts(cards_of(hand).map(usize::from), s.cards, 1.0);
    if own {
        f.counts(p.tiles.iter().map(|&t| usize::from(t)), s.tiles, 1.0);
    } else {
        f.skip(s.tiles);
    }
    f.counts(cards_of(p.spell_pile).map(usize::from), s.cards, 1.0);
    f.one_hot(some_card(p.last_spell), s.cards);
    for card in p.slots {
        f.one_hot(some_card(card), s.cards);
    }
    for value in p.monuments {
        f.scaled(f64::from(value), MAX_MONUMENT);
    }
    f.counts(cards_of(p.covered).map(usize::from), s.cards, 1.0);
}
