//! The game state and its setup (P-S1–P-S12).

use rand::seq::SliceRandom;
use rand::Rng as _;
use serde::{Deserialize, Serialize};
use tinyvec::ArrayVec;

use crate::actions::TileId;
use crate::cards::{card_bit, Building, Card, CardId, Realm};
use crate::data::Rules;
use crate::events::Reason;
use crate::hex::{Cell, CellSet, MAX_CELLS, NO_CELL};
use crate::map::{Closed, Map};
use engine::{Seat, SetupError};

pub const MIN_PLAYERS: u8 = 2;
pub const MAX_PLAYERS: u8 = 4;
/// Resources are tracked 0..=10 (P-Z1).
pub const RESOURCE_CAP: u8 = 10;
/// Building slots per realm board (P-SC5).
pub const SLOTS: usize = 5;
/// Market slots (P-S7).
pub const MARKET: usize = 4;
/// The monument base cost (P-T6).
pub const MONUMENT_BASE: u8 = 8;
/// "No card" in a market or building slot.
pub const NO_CARD: CardId = CardId::MAX;

/// Figures per player for 2/3/4 players (P-S3).
pub const fn figures_for(players: u8) -> u8 {
    match players {
        2 => 6,
        3 => 5,
        _ => 4,
    }
}

/// Double tiles removed unseen for 2/3/4 players (P-S9).
pub const fn removed_for(players: u8) -> usize {
    match players {
        2 => 12,
        3 => 8,
        _ => 4,
    }
}

/// The data a game runs on: the shipped file unless a corrected one was loaded.
pub type RulesRef = engine::DataRef<Rules>;

/// Full game (side B, abilities) or beginner game (side A, start buildings) (P-SC1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Full,
    Beginner,
}

/// How a game is set up (P-S1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(default, deny_unknown_fields)]
pub struct PandoriaConfig {
    /// 2 to 4 (P-SC2).
    pub players: u8,
    pub mode: Mode,
    /// 4 players only: seats 0+2 against 1+3 (P-SC2, P-E5).
    pub teams: bool,
    /// A realm per seat; `None` draws one at random (P-S2).
    pub realms: [Option<Realm>; 4],
    /// The start seat, standing in for "the youngest player" (P-S1, P-S12).
    pub start_seat: u8,
    /// Component data; set by `--data FILE`, not part of the JSON config.
    #[serde(skip)]
    pub rules: RulesRef,
}

impl Default for PandoriaConfig {
    fn default() -> Self {
        Self {
            players: 4,
            mode: Mode::Full,
            teams: false,
            realms: [None; 4],
            start_seat: 0,
            rules: RulesRef::default(),
        }
    }
}

/// What one player owns (P-Z1, P-Z2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Player {
    pub realm: Realm,
    /// Side B: the realm ability is on (full mode).
    pub side_b: bool,
    /// Crystal, gold, wood, each 0..=10.
    pub resources: [u8; 3],
    /// Points by P-R11 category ([`Reason`] order).
    pub points: [u16; 8],
    /// Figures in reserve, not counting the leader.
    pub figures: u8,
    pub leader_in_reserve: bool,
    pub castles: u8,
    /// Hand cards, as a bitset of card ids.
    pub hand: u64,
    /// The hand cards every seat knows (P-Z3).
    pub known: u64,
    /// Hand double tiles (one; dwarves-B two).
    pub tiles: ArrayVec<[TileId; 2]>,
    /// Cards on the spell pile, and its top (the last spell).
    pub spell_pile: u64,
    pub last_spell: CardId,
    /// The building on top of each slot, or [`NO_CARD`].
    pub slots: [CardId; SLOTS],
    /// The monument value on top of each slot, 0 for none.
    pub monuments: [u8; SLOTS],
    /// Cards covered in the slots: public, inert.
    pub covered: u64,
}

impl Player {
    pub fn score(&self) -> u32 {
        self.points.iter().map(|&p| u32::from(p)).sum()
    }

    pub fn hand_len(&self) -> u32 {
        self.hand.count_ones()
    }

    pub fn add_points(&mut self, reason: Reason, points: u16) {
        let p = &mut self.points[reason.index()];
        *p = p.saturating_add(points);
    }

    /// The visible building with this id, if any (there is at most one, P-T5).
    pub fn visible<'r>(&self, rules: &'r Rules, building: Building) -> Option<&'r Card> {
        self.slots
            .iter()
            .filter(|&&c| c != NO_CARD)
            .map(|&c| &rules.cards[usize::from(c)])
            .find(|card| card.building == building)
    }

    pub fn is(&self, realm: Realm) -> bool {
        self.side_b && self.realm == realm
    }
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// P-T1.
    Place,
    /// P-T3.
    Figure,
    /// P-T4.
    Card,
    /// P-K5: the halflings' spell after a build or monument.
    FollowUp,
    /// P-T9.
    Buy,
    /// The steps of a spell (P-SP1–P-SP13).
    Spell,
    /// P-K3.
    ElfMove,
    Over,
}

/// What this turn has done so far (P-Z4: public).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// The cells of the piece placed in P-T1 ([`NO_CELL`] when unused).
    pub placed: [Cell; 2],
    /// A double tile was placed in P-T1, so P-T11 draws.
    pub placed_double: bool,
    /// Roots of the regions closed this turn (P-T2).
    pub closed: ArrayVec<[Cell; 32]>,
    /// The spell step awaited.
    pub pending: crate::spells::Pending,
    /// P-SP11: the Rage figure's cell and weight ([`NO_CELL`] when none).
    pub rage: (Cell, u8),
}

impl Default for Turn {
    fn default() -> Self {
        Turn {
            placed: [NO_CELL; 2],
            placed_double: false,
            closed: ArrayVec::new(),
            pending: crate::spells::Pending::None,
            rage: (NO_CELL, 0),
        }
    }
}

/// A game of Pandoria.
#[derive(Clone, PartialEq)]
pub struct Pandoria {
    pub(crate) config: PandoriaConfig,
    pub(crate) seats: u8,
    pub(crate) current: Seat,
    pub(crate) phase: Phase,
    pub(crate) map: Map,
    /// Per cell: 0, or owner + 1 with [`LEADER`] set for a leader.
    pub(crate) occupant: [u8; MAX_CELLS],
    pub(crate) figures: CellSet,
    pub(crate) players: [Player; MAX_PLAYERS as usize],
    /// The double stack; the top is the last element.
    pub(crate) double_stack: ArrayVec<[TileId; 64]>,
    pub(crate) removed: ArrayVec<[TileId; 16]>,
    pub(crate) single_stack: ArrayVec<[u8; 8]>,
    /// Double and single tiles on the board (bitsets of tile ids).
    pub(crate) placed_doubles: u64,
    pub(crate) placed_singles: u8,
    pub(crate) deck: ArrayVec<[CardId; 64]>,
    pub(crate) market: [CardId; MARKET],
    /// Monument values; the top is the last element (P-S11).
    pub(crate) monuments: ArrayVec<[u8; 16]>,
    pub(crate) turn: Turn,
    pub(crate) end_triggered: bool,
    /// Some P-T1 placement happened in this round (P-E3).
    pub(crate) placed_this_round: bool,
    pub(crate) turns: u32,
    /// P-E4 leftovers, set by the final scoring.
    pub(crate) leftovers: [u8; MAX_PLAYERS as usize],
}

/// Marks a leader in [`Pandoria::occupant`].
pub const LEADER: u8 = 0x80;

impl std::fmt::Debug for Pandoria {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pandoria")
            .field("current", &self.current)
            .field("phase", &self.phase)
            .field("turns", &self.turns)
            .field("map", &self.map)
            .field("figures", &self.figures)
            .field("players", &&self.players[..usize::from(self.seats)])
            .field("double_stack", &self.double_stack)
            .field("removed", &self.removed)
            .field("single_stack", &self.single_stack)
            .field("deck", &self.deck)
            .field("market", &self.market)
            .field("monuments", &self.monuments)
            .field("turn", &self.turn)
            .field("end_triggered", &self.end_triggered)
            .finish_non_exhaustive()
    }
}

impl Pandoria {
    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn map(&self) -> &Map {
        &self.map
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[usize::from(seat)]
    }

    pub fn market(&self) -> [CardId; MARKET] {
        self.market
    }

    /// The owner and leader flag of the figure on `cell`.
    pub fn figure_at(&self, cell: Cell) -> Option<(Seat, bool)> {
        let o = *self.occupant.get(usize::from(cell))?;
        if o == 0 {
            return None;
        }
        Some(((o & !LEADER) - 1, o & LEADER != 0))
    }

    /// The seat after the last of the round: the start seat's right (P-E2).
    pub fn last_seat(&self) -> Seat {
        (self.config.start_seat + self.seats - 1) % self.seats
    }

    /// P-S1–P-S12. The RNG is used in the order P-S2, P-S5, P-S6, P-S9, P-S10 (P-Z8).
    pub fn setup(config: &PandoriaConfig, seed: u64) -> Result<Pandoria, SetupError> {
        let n = config.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(SetupError::PlayerCount {
                game: "pandoria",
                players: usize::from(n),
                min: usize::from(MIN_PLAYERS),
                max: usize::from(MAX_PLAYERS),
            });
        }
        if config.teams && n != 4 {
            return Err(SetupError::Config("teams need 4 players".into()));
        }
        if config.start_seat >= n {
            return Err(SetupError::Config(format!(
                "start_seat {} is not a seat of {n}",
                config.start_seat
            )));
        }
        let fixed: Vec<Realm> = config.realms[..usize::from(n)]
            .iter()
            .flatten()
            .copied()
            .collect();
        for (i, r) in fixed.iter().enumerate() {
            if fixed[..i].contains(r) {
                return Err(SetupError::Config(format!("realm {r:?} is chosen twice")));
            }
        }
        if config.realms[usize::from(n)..].iter().any(Option::is_some) {
            return Err(SetupError::Config(
                "a realm is given for a seat that does not play".into(),
            ));
        }
        let rules = &config.rules;
        let mut rng = engine::rng_from_seed(seed);
        let side_b = config.mode == Mode::Full;
        let seat_order = |i: u8| (config.start_seat + i) % n;

        // P-S2: realms.
        let mut free: Vec<Realm> = Realm::ALL
            .iter()
            .copied()
            .filter(|r| !fixed.contains(r))
            .collect();
        free.shuffle(&mut rng);
        let mut players = [Player::default(); MAX_PLAYERS as usize];
        for (seat, p) in players.iter_mut().enumerate().take(usize::from(n)) {
            p.realm = match config.realms[seat] {
                Some(r) => r,
                None => free.pop().unwrap_or_default(),
            };
            p.side_b = side_b;
            // P-S3, P-S4.
            p.resources = rules.realms[p.realm.index()][usize::from(side_b)];
            p.figures = figures_for(n);
            p.leader_in_reserve = true;
            p.castles = 2;
            p.slots = [NO_CARD; SLOTS];
            p.last_spell = NO_CARD;
        }

        // P-S5: the starting tiles.
        let mut map = Map::new(&rules.board);
        let mut order = [0usize, 1];
        order.shuffle(&mut rng);
        for (pair, &tile) in rules.board.start_pairs().iter().zip(&order) {
            let [x, y] = *pair;
            let [a, b] = rules.starting_tiles[tile];
            let flip = rng.gen_bool(0.5);
            let (at, other) = if flip { (y, x) } else { (x, y) };
            let dir = (0..6)
                .find(|&d| rules.board.neighbour(at, d) == Some(other))
                .unwrap_or(0);
            // Regions closed at setup are never scored (P-X19).
            let _: Closed = map.place_double(&rules.board, at, dir, a, b);
        }

        // P-S6: the deck.
        let mut deck: ArrayVec<[CardId; 64]> = ArrayVec::new();
        let mut set_aside: Vec<CardId> = Vec::new();
        let realms_in_play: Vec<Realm> =
            players[..usize::from(n)].iter().map(|p| p.realm).collect();
        for (id, card) in rules.cards.iter().enumerate() {
            let id = id as CardId;
            match card.realm {
                Some(r) if !side_b && realms_in_play.contains(&r) => set_aside.push(id),
                _ => deck.push(id),
            }
        }
        deck.as_mut_slice().shuffle(&mut rng);

        // P-S7: the market.
        let mut market = [NO_CARD; MARKET];
        for slot in market.iter_mut() {
            *slot = deck.pop().unwrap_or(NO_CARD);
        }

        // P-S8: hands.
        for i in 0..n {
            let p = &mut players[usize::from(seat_order(i))];
            let draw = if side_b { 4 } else { 2 };
            for _ in 0..draw {
                if let Some(c) = deck.pop() {
                    p.hand |= card_bit(c);
                }
            }
            if !side_b {
                for &c in &set_aside {
                    let card = &rules.cards[usize::from(c)];
                    if card.realm == Some(p.realm) {
                        if card.marked_a {
                            p.slots[0] = c;
                        } else {
                            p.hand |= card_bit(c);
                            p.known |= card_bit(c);
                        }
                    }
                }
            }
        }

        // P-S9: double tiles.
        let mut double_stack: ArrayVec<[TileId; 64]> =
            (0..rules.double_tiles.len() as TileId).collect();
        double_stack.as_mut_slice().shuffle(&mut rng);
        for i in 0..n {
            let p = &mut players[usize::from(seat_order(i))];
            let count = if p.is(Realm::Dwarves) { 2 } else { 1 };
            for _ in 0..count {
                if let Some(t) = double_stack.pop() {
                    p.tiles.push(t);
                }
            }
        }
        let mut removed = ArrayVec::new();
        for _ in 0..removed_for(n) {
            if let Some(t) = double_stack.pop() {
                removed.push(t);
            }
        }

        // P-S10: single tiles.
        let mut single_stack: ArrayVec<[u8; 8]> = (0..rules.single_tiles.len() as u8).collect();
        single_stack.as_mut_slice().shuffle(&mut rng);

        // P-S11: monuments, 3s at the bottom, 6s on top.
        let mut monuments: ArrayVec<[u8; 16]> = rules.monuments.iter().copied().collect();
        let remove_each = match n {
            2 => 2,
            3 => 1,
            _ => 0,
        };
        for value in 4..=6 {
            for _ in 0..remove_each {
                if let Some(i) = monuments.iter().position(|&v| v == value) {
                    monuments.remove(i);
                }
            }
        }

        let mut game = Pandoria {
            config: config.clone(),
            seats: n,
            current: config.start_seat,
            phase: Phase::Place,
            map,
            occupant: [0; MAX_CELLS],
            figures: CellSet::EMPTY,
            players,
            double_stack,
            removed,
            single_stack,
            placed_doubles: 0,
            placed_singles: 0,
            deck,
            market,
            monuments,
            turn: Turn::default(),
            end_triggered: false,
            placed_this_round: false,
            turns: 0,
            leftovers: [0; MAX_PLAYERS as usize],
        };
        game.begin_turn(&mut engine::NoEvents);
        Ok(game)
    }
}
