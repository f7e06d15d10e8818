//! Rule tests; each cites the P-* id it checks. Scenarios start from a real setup, then
//! wipe the map: every field cell except the ones a test keeps gets a filler castle of
//! a seat that does not play, so a test controls exactly what bounds its regions.

mod barriers;
mod encoding;
mod examples;
mod geometry;
mod properties;
mod rules;
mod sentences;
mod spells;
mod turn;
mod why;

use crate::actions::Action;
use crate::cards::{Building, Card, CardId, Realm, Spell};
use crate::components::Terrain;
use crate::data::Rules;
use crate::hex::{Axial, Cell, CellSet, Dir};
use crate::map::{Hex, Map};
use crate::state::{Mode, Pandoria, PandoriaConfig, Phase, Turn, NO_CARD};
use engine::{Game, Seat};

/// The owner of filler castles: no seat.
pub const FILLER: u8 = 9;

/// Standard data with some cards replaced.
pub fn rules_with(edit: impl FnOnce(&mut Rules)) -> Rules {
    let mut rules = Rules::standard().clone();
    edit(&mut rules);
    rules
}

/// A card with the given building; its spell is Flee (cost 1).
pub fn building_card(building: Building, value: u8, wood: u8) -> Card {
    Card {
        spell: Spell::Flee,
        spell_value: 0,
        crystal_cost: 1,
        building,
        building_value: value,
        building_rate: (3, 1),
        wood_cost: wood,
        gold_price: 2,
        realm: None,
        marked_a: false,
    }
}

pub fn config(realms: &[Realm], mode: Mode, rules: &Rules) -> PandoriaConfig {
    let mut r = [None; 4];
    for (slot, realm) in r.iter_mut().zip(realms) {
        *slot = Some(*realm);
    }
    PandoriaConfig {
        players: realms.len() as u8,
        mode,
        teams: false,
        realms: r,
        start_seat: 0,
        rules: if std::ptr::eq(rules, Rules::standard()) {
            engine::DataRef::default()
        } else {
            engine::DataRef::new(rules.clone())
        },
    }
}

/// A started game whose map holds nothing but filler castles, except `keep`; hands,
/// tiles and buildings empty; seat 0 to move in the card phase.
pub fn scenario(realms: &[Realm], mode: Mode, rules: &Rules, keep: &[Cell]) -> Pandoria {
    let mut g = Pandoria::new(&config(realms, mode, rules), 1).unwrap();
    let board = &rules.board;
    g.map = Map::new(board);
    for c in board.field().iter() {
        if !keep.contains(&c) {
            g.map.place_castle(board, c, FILLER);
        }
    }
    g.occupant = [0; crate::hex::MAX_CELLS];
    g.figures = CellSet::EMPTY;
    for p in g.players.iter_mut() {
        p.hand = 0;
        p.known = 0;
        p.tiles.clear();
        p.slots = [NO_CARD; 5];
    }
    g.turn = Turn::default();
    g.current = 0;
    g.phase = Phase::Card;
    g
}

/// A field cell of the standard board far from printed hexes, exits and lakes.
pub fn centre() -> Cell {
    Rules::standard()
        .board
        .cell_at(Axial::from_offset(6, 6))
        .unwrap()
}

/// The cell reached from `from` by the directions `path`.
pub fn walk(from: Cell, path: &[Dir]) -> Cell {
    let board = &Rules::standard().board;
    path.iter()
        .fold(from, |c, &d| board.neighbour(c, d).expect("on the board"))
}

pub fn put_tile(g: &mut Pandoria, cell: Cell, terrain: Terrain, symbols: u8) {
    let board = &g.config.rules.board;
    g.map.place_single(board, cell, Hex { terrain, symbols });
}

pub fn put_castle(g: &mut Pandoria, cell: Cell, owner: Seat) {
    let board = &g.config.rules.board;
    g.map.place_castle(board, cell, owner);
}

pub fn put_figure(g: &mut Pandoria, cell: Cell, seat: Seat, leader: bool) {
    g.put_from_reserve(seat, cell, leader, &mut engine::NoEvents);
}

/// Puts a card into a building slot as if built.
pub fn give_building(g: &mut Pandoria, seat: Seat, slot: usize, card: CardId) {
    g.players[usize::from(seat)].slots[slot] = card;
}

pub fn legal(g: &Pandoria) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out
}

pub fn play(g: &mut Pandoria, action: Action) {
    let mut events = Vec::new();
    g.apply(action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?}: {e}; legal {:?}", legal(g)));
}
