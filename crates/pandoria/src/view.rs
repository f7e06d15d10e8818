//! What a seat may know (P-Z1–P-Z6) and determinization (P-Z7).

use rand::seq::SliceRandom;
use serde::Serialize;

use crate::actions::TileId;
use crate::cards::{CardId, Realm};
use crate::components::Terrain;
use crate::hex::{Cell, NO_CELL};
use crate::state::{Pandoria, Phase, MARKET, SLOTS};
use crate::turn::cards_of;
use engine::{Rng, Seat};

/// One cell as everybody sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
pub struct CellView {
    pub cell: Cell,
    pub terrain: Option<Terrain>,
    pub symbols: u8,
    pub castle: Option<Seat>,
    pub figure: Option<(Seat, bool)>,
    pub closed: bool,
}

/// A player's public side, plus the private side for its own seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
pub struct PlayerView {
    pub realm: Realm,
    pub side_b: bool,
    pub resources: [u8; 3],
    pub score: u32,
    pub points: [u16; 8],
    pub figures: u8,
    pub leader_in_reserve: bool,
    pub castles: u8,
    pub hand_size: u32,
    pub known_cards: Vec<CardId>,
    pub tile_count: usize,
    pub spell_pile: Vec<CardId>,
    pub last_spell: Option<CardId>,
    pub slots: [Option<CardId>; SLOTS],
    pub monuments: [u8; SLOTS],
    pub covered: Vec<CardId>,
    /// Own seat only (P-Z2).
    pub hand: Option<Vec<CardId>>,
    pub tiles: Option<Vec<TileId>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
pub struct View {
    pub seat: Option<Seat>,
    pub current: Seat,
    pub to_move: Option<Seat>,
    pub phase: Phase,
    pub cells: Vec<CellView>,
    pub players: Vec<PlayerView>,
    pub market: [Option<CardId>; MARKET],
    pub monuments: Vec<u8>,
    pub deck_size: usize,
    pub double_stack_size: usize,
    pub removed_tiles: usize,
    /// The unplaced single tiles as a set, sorted (P-Z4); the order is hidden.
    pub single_tiles_left: Vec<u8>,
    pub placed: Vec<Cell>,
    pub closed_this_turn: Vec<Cell>,
    pub end_triggered: bool,
    pub turn: u32,
    /// The spell step awaited, with a tile drawn by Terrain (public, P-SP13).
    pub pending: crate::spells::Pending,
    pub rage: Option<(Cell, u8)>,
    pub mode: crate::state::Mode,
    /// The 4-player team variant: seats 0 and 2 play against 1 and 3.
    pub teams: bool,
    /// The seat that began the game (the last round ends before it again).
    pub start_seat: Seat,
    /// The component data has provisional entries (see the README).
    pub provisional_data: bool,
}

fn some_card(c: CardId) -> Option<CardId> {
    (c != crate::state::NO_CARD).then_some(c)
}

impl Pandoria {
    /// `seat`'s view; with `public` false, the map every seat sees alike is left empty
    /// (`Game::own_view`).
    pub(crate) fn build_view(&self, seat: Option<Seat>, public: bool) -> View {
        let board = &self.rules().board;
        let cells = if public {
            (0..board.len() as Cell)
                .map(|c| {
                    let land = self.map.land(c);
                    CellView {
                        cell: c,
                        terrain: land.map(|h| h.terrain),
                        symbols: land.map_or(0, |h| h.symbols),
                        castle: self.map.castle(c),
                        figure: self.figure_at(c),
                        closed: self.map.in_closed_region(c),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let players = (0..self.seats)
            .map(|s| {
                let p = self.player(s);
                let own = seat == Some(s);
                PlayerView {
                    realm: p.realm,
                    side_b: p.side_b,
                    resources: p.resources,
                    score: p.score(),
                    points: p.points,
                    figures: p.figures,
                    leader_in_reserve: p.leader_in_reserve,
                    castles: p.castles,
                    hand_size: p.hand_len(),
                    known_cards: cards_of(p.known).collect(),
                    tile_count: p.tiles.len(),
                    spell_pile: cards_of(p.spell_pile).collect(),
                    last_spell: some_card(p.last_spell),
                    slots: p.slots.map(some_card),
                    monuments: p.monuments,
                    covered: cards_of(p.covered).collect(),
                    hand: own.then(|| cards_of(p.hand).collect()),
                    tiles: own.then(|| p.tiles.to_vec()),
                }
            })
            .collect();
        let mut singles = self.single_stack.to_vec();
        singles.sort_unstable();
        View {
            seat,
            current: self.current,
            to_move: (self.phase != Phase::Over).then_some(self.current),
            phase: self.phase,
            cells,
            players,
            market: self.market.map(some_card),
            monuments: self.monuments.to_vec(),
            deck_size: self.deck.len(),
            double_stack_size: self.double_stack.len(),
            removed_tiles: self.removed.len(),
            single_tiles_left: singles,
            placed: self
                .turn
                .placed
                .iter()
                .copied()
                .filter(|&c| c != NO_CELL)
                .collect(),
            closed_this_turn: self.turn.closed.to_vec(),
            end_triggered: self.end_triggered,
            turn: self.turns,
            pending: self.turn.pending,
            rage: self.rage(),
            mode: self.config.mode,
            teams: self.config.teams,
            start_seat: self.config.start_seat,
            provisional_data: !self.rules().provisional.is_empty(),
        }
    }

    /// P-Z7: everything `seat` cannot see is dealt again from one pool per kind,
    /// keeping every count.
    pub(crate) fn resample(&self, seat: Option<Seat>, rng: &mut Rng) -> Pandoria {
        let mut g = self.clone();
        let others: Vec<usize> = (0..usize::from(self.seats))
            .filter(|&s| Some(s as Seat) != seat)
            .collect();
        // Double tiles: the stack, the removed ones, other seats' hand tiles.
        let mut tiles: Vec<TileId> = g
            .double_stack
            .iter()
            .chain(g.removed.iter())
            .copied()
            .collect();
        for &s in &others {
            tiles.extend(g.players[s].tiles.iter().copied());
        }
        tiles.shuffle(rng);
        let mut pool = tiles.into_iter();
        for t in g.double_stack.iter_mut().chain(g.removed.iter_mut()) {
            *t = pool.next().unwrap_or(*t);
        }
        for &s in &others {
            for t in g.players[s].tiles.iter_mut() {
                *t = pool.next().unwrap_or(*t);
            }
        }
        // Cards: the deck and other seats' unknown hand cards.
        let mut cards: Vec<CardId> = g.deck.to_vec();
        for &s in &others {
            let p = &g.players[s];
            cards.extend(cards_of(p.hand & !p.known));
        }
        cards.shuffle(rng);
        let mut pool = cards.into_iter();
        for c in g.deck.iter_mut() {
            *c = pool.next().unwrap_or(*c);
        }
        for &s in &others {
            let p = &mut g.players[s];
            let unknown = (p.hand & !p.known).count_ones();
            p.hand = p.known;
            for _ in 0..unknown {
                if let Some(c) = pool.next() {
                    p.hand |= crate::cards::card_bit(c);
                }
            }
        }
        g.single_stack.as_mut_slice().shuffle(rng);
        g
    }
}
