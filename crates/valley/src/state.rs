//! The game state: zones (K-Z1..K-Z9), the turn state (K-T2), pending decisions, and
//! setup (K-S1..K-S11). Small flat state: piles are fixed-capacity `ArrayVec`s of kinds.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng as _;
use serde::{Deserialize, Serialize};
use tinyvec::ArrayVec;

use engine::{rng_from_seed, EventSink, Rng, Seat, SetupError};

use crate::actions::Slot;
use crate::data::{CardId, Rules, StarterType, MAX_CARDS};
use crate::events::Event;

pub const MIN_PLAYERS: u8 = 2;
pub const MAX_PLAYERS: u8 = 6;
/// Cards bound by parts of one action (`bind = "s"`).
pub const MAX_BINDS: usize = 2;
/// Nested actions (Book of Gates chains, repeats, reactions).
pub const MAX_FRAMES: usize = 12;
pub const NONE: u8 = u8::MAX;
/// The in-play tag of a card used for gold (K-Z3); kinds are < 128.
pub const GOLD_TAG: u8 = 0x80;

/// A pile of card kinds; for ordered piles the top is the last element.
pub type Pile = ArrayVec<[CardId; MAX_CARDS]>;

/// The data a game runs on: the shipped file unless a corrected one was loaded.
pub type RulesRef = engine::DataRef<Rules>;

/// K-S1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ValleyConfig {
    pub players: u8,
    /// A preset of the data file: `base`, `afterlife`, `last_rites`, `premium`. Default:
    /// `base` for 2–4 players, `premium` for 5–6 (which need a mixed pool, K-SC2).
    pub pool: Option<String>,
    /// An explicit list of level II/III card names; overrides `pool` when not empty.
    pub pool_cards: Vec<String>,
    /// Default: `last_rites` with the Last Rites preset, otherwise `base`.
    pub starters: Option<StarterType>,
    pub pharaohs: bool,
    /// Refuse any provisional card data in use (K-A20).
    pub strict_data: bool,
    #[serde(skip)]
    pub rules: RulesRef,
}

impl ValleyConfig {
    /// The provisional entries of the card data this config plays with (K-A20); for
    /// `Game::provisional_data`.
    pub fn provisional_data(&self) -> &[String] {
        &self.rules.provisional
    }

    /// The pool preset in use (K-S1).
    pub fn preset(&self) -> &str {
        match &self.pool {
            Some(p) => p,
            None if self.players > 4 => "premium",
            None => "base",
        }
    }
}

impl Default for ValleyConfig {
    fn default() -> Self {
        Self {
            players: 4,
            pool: None,
            pool_cards: Vec::new(),
            starters: None,
            pharaohs: false,
            strict_data: false,
            rules: RulesRef::default(),
        }
    }
}

/// One seat's zones (K-Z1..K-Z6).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeatZones {
    pub deck: Pile,
    /// Sorted ascending (canonical order, K-Z2).
    pub hand: Pile,
    /// Play order; `GOLD_TAG` marks cards used for gold.
    pub in_play: Pile,
    pub discard: Pile,
    pub tomb: Pile,
    pub pharaoh: u8,
    pub turns: u16,
    /// K-E16: how many cards on top of the deck the owner knows (from a private look).
    pub known_top: u8,
    /// K-Z12: hand cards everyone saw arrive (taken to the hand); public.
    pub known_in_hand: ArrayVec<[CardId; 16]>,
}

impl SeatZones {
    /// The cards the seat owns and has not entombed: deck, hand, discard pile and in play
    /// (without the gold tag).
    pub fn owned(&self) -> impl Iterator<Item = CardId> + '_ {
        self.deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discard)
            .copied()
            .chain(self.in_play.iter().map(|c| c & !GOLD_TAG))
    }

    pub fn hand_add(&mut self, card: CardId) {
        let at = self
            .hand
            .iter()
            .position(|&c| c > card)
            .unwrap_or(self.hand.len());
        self.hand.insert(at, card);
    }

    pub fn hand_remove(&mut self, card: CardId) -> bool {
        match self.hand.iter().position(|&c| c == card) {
            Some(i) => {
                self.hand.remove(i);
                if let Some(k) = self.known_in_hand.iter().position(|&c| c == card) {
                    self.known_in_hand.remove(k);
                }
                true
            }
            None => false,
        }
    }

    /// Removes the topmost copy of `card` from the discard pile (K-SC5).
    pub fn discard_remove(&mut self, card: CardId) -> bool {
        match self.discard.iter().rposition(|&c| c == card) {
            Some(i) => {
                self.discard.remove(i);
                true
            }
            None => false,
        }
    }

    pub fn total_cards(&self) -> usize {
        self.hand.len() + self.deck.len() + self.discard.len()
    }
}

/// A pyramid slot: a card and the seat holding a reservation on it (K-E15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct SlotCard {
    pub card: CardId,
    pub reserved_by: u8,
}

pub const EMPTY_SLOT: SlotCard = SlotCard {
    card: NONE,
    reserved_by: NONE,
};

/// K-T2, public.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct TurnState {
    pub entomb_allowance: u8,
    pub entombs_used: u8,
    pub pharaoh_used: bool,
    pub pyramid_changed: bool,
    #[ts(as = "Vec<u8>")]
    pub purchases: ArrayVec<[u8; 16]>,
    /// Kinds whose action was executed this turn (a set: bit per kind).
    #[ts(type = "Array<number>")]
    pub action_log: [u64; 2],
    /// K-E10 folded: the last `set` value, then the sum of later `add`s.
    pub gold_set: Option<u8>,
    pub gold_add: i8,
    /// K-E14: purchases left that may target any slot.
    pub scope_uses: u8,
}

impl TurnState {
    pub fn fresh() -> Self {
        Self {
            entomb_allowance: 1,
            ..Self::default()
        }
    }

    pub fn logged(&self, card: CardId) -> bool {
        self.action_log[usize::from(card / 64)] >> (card % 64) & 1 == 1
    }

    pub fn log(&mut self, card: CardId) {
        self.action_log[usize::from(card / 64)] |= 1 << (card % 64);
    }
}

/// What runs an action frame (K-T6, K-T9, K-R5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub enum Program {
    #[default]
    None,
    Card(CardId),
    Pharaoh(u8),
    Reaction(CardId),
}

/// Where a frame is inside its current part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub enum Stage {
    /// The part has not started.
    #[default]
    Enter,
    /// Waiting for the chooser's pick (or Accept/Skip for a `may` part with no choice).
    Choosing,
    AcceptOrSkip,
    /// K-E16: the owner may discard looked-at cards (or `Skip` to stop).
    LookDiscard,
    /// K-E16: the owner puts the looked-at cards back, topmost first.
    LookArrange,
}

/// One action being resolved (K-T6): its program, acting seat and progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct Frame {
    pub program: Program,
    pub actor: Seat,
    pub part: u8,
    pub stage: Stage,
    /// Under K-E8: the offset (1..n) of the opponent resolving the part; 0 otherwise.
    pub opponent: u8,
    pub bound: [u8; MAX_BINDS],
    /// K-E2: the revealed card waiting for a later part.
    pub revealed: u8,
    /// K-T7e: picks made so far in a "k" / "up to k" part.
    pub picks: u8,
    /// K-E16: the looked-at cards (the top `look` of the deck), `placed` of them arranged.
    pub look: u8,
    pub placed: u8,
}

/// A pending base-centre crumble choice (K-T17, K-T19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct PendingCrumble {
    pub chooser: Seat,
}

/// The turn step (K-T3..K-T16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// K-T3 menu (when no frame or crumble is pending).
    Play,
    /// K-T4b.
    Paying {
        slot: Slot,
        paid: u8,
        cost: u8,
    },
    /// K-R2..K-R6: `offset` from the active seat of the seat asked or to be asked next.
    Window {
        offset: u8,
        asking: bool,
    },
    /// K-T12: the sacrifice decision.
    Rebuild,
    /// After the sacrifice's crumble: refill, draw, next turn.
    Finishing,
    Over,
}

/// The probe that judges playability (K-T7a/b) on a copy of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Probe {
    #[default]
    Off,
    Running,
    /// A part depending on unseen cards was reached: counts as possible.
    Hidden,
    Failed,
}

/// A game of Valley of the Kings. Cloning is a flat copy: nothing in it owns heap memory.
#[derive(Clone)]
pub struct Valley {
    /// Shared by the game's clones (a bot's search makes one per iteration): cloning the
    /// state counts a reference instead of copying the config's lists, and the config
    /// (with its data) is freed with the game's last clone.
    pub(crate) config: Arc<ValleyConfig>,
    pub(crate) n: u8,
    pub(crate) seats: [SeatZones; MAX_PLAYERS as usize],
    pub(crate) stock: Pile,
    pub(crate) boneyard: Pile,
    pub(crate) pyramid: [SlotCard; 6],
    pub(crate) active: Seat,
    pub(crate) start_seat: Seat,
    pub(crate) phase: Phase,
    pub(crate) crumble: Option<PendingCrumble>,
    pub(crate) frames: ArrayVec<[Frame; MAX_FRAMES]>,
    pub(crate) turn: TurnState,
    pub(crate) turns_begun: u32,
    pub(crate) rng: Rng,
    pub(crate) probe: Probe,
    /// The probe is answered once fewer frames than this remain.
    pub(crate) probe_depth: u8,
}

// Bots clone and determinize states millions of times (DESIGN: small flat state): a clone
// must stay a copy of bytes and one reference count (the shared config), so no other field
// may own heap memory.

impl PartialEq for Valley {
    fn eq(&self, o: &Self) -> bool {
        (Arc::ptr_eq(&self.config, &o.config) || self.config == o.config)
            && self.n == o.n
            && self.seats == o.seats
            && self.stock == o.stock
            && self.boneyard == o.boneyard
            && self.pyramid == o.pyramid
            && self.active == o.active
            && self.start_seat == o.start_seat
            && self.phase == o.phase
            && self.crumble == o.crumble
            && self.frames == o.frames
            && self.turn == o.turn
            && self.turns_begun == o.turns_begun
            && self.rng == o.rng
            && self.probe == o.probe
            && self.probe_depth == o.probe_depth
    }
}

impl std::fmt::Debug for Valley {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Valley")
            .field("config", &self.config)
            .field("seats", &&self.seats[..usize::from(self.n)])
            .field("stock", &self.stock)
            .field("boneyard", &self.boneyard)
            .field("pyramid", &self.pyramid)
            .field("active", &self.active)
            .field("start_seat", &self.start_seat)
            .field("phase", &self.phase)
            .field("crumble", &self.crumble)
            .field("frames", &self.frames)
            .field("turn", &self.turn)
            .field("turns_begun", &self.turns_begun)
            .field("rng_word_pos", &self.rng.get_word_pos())
            .finish()
    }
}

impl Valley {
    /// The level II/III kinds of the configured pool, each once.
    pub fn pool_kinds(rules: &Rules, config: &ValleyConfig) -> Result<Vec<CardId>, SetupError> {
        if !config.pool_cards.is_empty() {
            let mut out = Vec::new();
            for name in &config.pool_cards {
                let id = rules
                    .card_named(name)
                    .ok_or_else(|| SetupError::Config(format!("unknown card {name:?} in pool")))?;
                if rules.card(id).level == 1 {
                    return Err(SetupError::Config(format!(
                        "{name:?} is a starter and cannot be in the pool"
                    )));
                }
                if out.contains(&id) {
                    return Err(SetupError::Config(format!("{name:?} is listed twice")));
                }
                out.push(id);
            }
            return Ok(out);
        }
        let preset = config.preset();
        let Some((_, versions)) = rules.presets.iter().find(|(n, _)| n == preset) else {
            let names: Vec<&str> = rules.presets.iter().map(|(n, _)| n.as_str()).collect();
            return Err(SetupError::Config(format!(
                "unknown pool preset {:?}; presets: {}",
                preset,
                names.join(", ")
            )));
        };
        Ok((0..rules.cards.len() as CardId)
            .filter(|&id| {
                let c = rules.card(id);
                c.level > 1 && versions.contains(&c.version)
            })
            .collect())
    }

    pub fn starter_type(config: &ValleyConfig) -> StarterType {
        config.starters.unwrap_or(
            if config.preset() == "last_rites" && config.pool_cards.is_empty() {
                StarterType::LastRites
            } else {
                StarterType::Base
            },
        )
    }

    /// K-S1..K-S11.
    pub fn setup(config: &ValleyConfig, seed: u64) -> Result<Self, SetupError> {
        let rules = &config.rules;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&config.players) {
            return Err(SetupError::PlayerCount {
                game: "valley",
                players: usize::from(config.players),
                min: usize::from(MIN_PLAYERS),
                max: usize::from(MAX_PLAYERS),
            });
        }
        let pool = Self::pool_kinds(rules, config)?;
        // K-SC2: one box has starters and cards for 4; 5–6 players need a mixed pool.
        if config.players > 4 {
            let mut boxes: Vec<u8> = pool
                .iter()
                .map(|&id| rules.card(id).version)
                .filter(|&v| rules.versions[usize::from(v)] != "premium")
                .collect();
            boxes.sort_unstable();
            boxes.dedup();
            if boxes.len() < 2 {
                return Err(SetupError::Config(format!(
                    "{} players need a pool mixing at least two versions, such as the \
                     premium preset (K-SC2)",
                    config.players
                )));
            }
        }
        let starter = Self::starter_type(config);
        let pool_cards: usize = pool
            .iter()
            .map(|&id| usize::from(rules.card(id).copies))
            .sum();
        // K-S2.
        if pool_cards < 7 {
            return Err(SetupError::Config(format!(
                "the pool holds {pool_cards} level II/III cards; at least 7 are needed (K-S2)"
            )));
        }
        if pool_cards + 10 * usize::from(config.players) > MAX_CARDS {
            return Err(SetupError::Config(format!(
                "{pool_cards} pool cards and {} starters exceed {MAX_CARDS} cards",
                10 * config.players
            )));
        }
        if config.pharaohs && rules.pharaohs.len() < usize::from(config.players) {
            return Err(SetupError::Config(format!(
                "{} pharaoh cards for {} seats",
                rules.pharaohs.len(),
                config.players
            )));
        }
        if config.strict_data {
            let prov = rules.provisional_in_use(&pool, starter, config.pharaohs);
            if !prov.is_empty() {
                return Err(SetupError::Data(format!(
                    "strict_data refuses provisional card data (K-A20): {}",
                    prov.join("; ")
                )));
            }
        }
        let mut rng = rng_from_seed(seed);
        let mut seats: [SeatZones; MAX_PLAYERS as usize] = Default::default();
        // K-S3, K-S4.
        for zones in seats.iter_mut().take(usize::from(config.players)) {
            for &(id, copies) in &rules.starters[starter as usize] {
                for _ in 0..copies {
                    zones.deck.push(id);
                }
            }
            zones.deck.as_mut_slice().shuffle(&mut rng);
            zones.pharaoh = NONE;
            for _ in 0..5 {
                if let Some(c) = zones.deck.pop() {
                    zones.hand_add(c);
                }
            }
        }
        // K-S5: level III at the bottom, level II on top.
        let mut stock = Pile::new();
        for level in [3u8, 2] {
            let start = stock.len();
            for &id in &pool {
                let c = rules.card(id);
                if c.level == level {
                    for _ in 0..c.copies {
                        stock.push(id);
                    }
                }
            }
            stock[start..].shuffle(&mut rng);
        }
        // K-S6: T, M0, M1, B0, B1, B2.
        let mut pyramid = [EMPTY_SLOT; 6];
        for slot in [5usize, 3, 4, 0, 1, 2] {
            if let Some(card) = stock.pop() {
                pyramid[slot] = SlotCard {
                    card,
                    reserved_by: NONE,
                };
            }
        }
        // K-S7.
        let mut boneyard = Pile::new();
        if let Some(card) = stock.pop() {
            boneyard.push(card);
        }
        // K-S8.
        let start_seat = rng.gen_range(0..config.players);
        // K-S9.
        if config.pharaohs {
            let mut ph: Vec<u8> = (0..rules.pharaohs.len() as u8).collect();
            ph.shuffle(&mut rng);
            for (zones, p) in seats.iter_mut().zip(ph).take(usize::from(config.players)) {
                zones.pharaoh = p;
            }
        }
        let mut game = Valley {
            config: Arc::new(config.clone()),
            n: config.players,
            seats,
            stock,
            boneyard,
            pyramid,
            active: start_seat,
            start_seat,
            phase: Phase::Play,
            crumble: None,
            frames: ArrayVec::new(),
            turn: TurnState::fresh(),
            turns_begun: 0,
            rng,
            probe: Probe::Off,
            probe_depth: 0,
        };
        game.begin_turn(start_seat, &mut engine::NoEvents);
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    pub fn zones(&self, seat: Seat) -> &SeatZones {
        &self.seats[usize::from(seat)]
    }

    pub(crate) fn zones_mut(&mut self, seat: Seat) -> &mut SeatZones {
        &mut self.seats[usize::from(seat)]
    }

    pub fn active(&self) -> Seat {
        self.active
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn pyramid_card(&self, slot: Slot) -> Option<CardId> {
        let c = self.pyramid[usize::from(slot)].card;
        (c != NONE).then_some(c)
    }

    /// The cards in the pyramid, slot by slot.
    pub fn pyramid_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        (0..crate::checks::SLOTS).filter_map(|slot| self.pyramid_card(slot))
    }

    pub fn turn_state(&self) -> &TurnState {
        &self.turn
    }

    pub fn stock(&self) -> &[CardId] {
        &self.stock
    }

    pub fn boneyard(&self) -> &[CardId] {
        &self.boneyard
    }

    /// `seat + offset` in turn order.
    pub(crate) fn seat_after(&self, seat: Seat, offset: u8) -> Seat {
        (seat + offset) % self.n
    }

    /// K-T1.
    pub(crate) fn begin_turn(&mut self, seat: Seat, events: &mut impl EventSink<Event>) {
        self.active = seat;
        self.turn = TurnState::fresh();
        self.phase = Phase::Play;
        self.turns_begun += 1;
        for s in &mut self.pyramid {
            if s.reserved_by == seat {
                s.reserved_by = NONE;
            }
        }
        events.emit(Event::TurnStarted { seat });
    }

    /// K-T21, K-A3, K-A12: draws up to `n`, reshuffling the discard pile when the deck
    /// runs out. Returns the number drawn.
    pub(crate) fn draw(&mut self, seat: Seat, n: u8, events: &mut impl EventSink<Event>) -> u8 {
        let mut drawn = 0;
        for _ in 0..n {
            if !self.ensure_deck(seat, events) {
                break;
            }
            let z = self.zones_mut(seat);
            if let Some(c) = z.deck.pop() {
                z.hand_add(c);
                z.known_top = z.known_top.saturating_sub(1);
                drawn += 1;
            }
        }
        if drawn > 0 {
            events.emit(Event::Drew { seat, count: drawn });
        }
        drawn
    }

    /// Reshuffles the discard pile into an empty deck (K-T21). False if both are empty.
    pub(crate) fn ensure_deck(&mut self, seat: Seat, events: &mut impl EventSink<Event>) -> bool {
        let s = usize::from(seat);
        if !self.seats[s].deck.is_empty() {
            return true;
        }
        if self.seats[s].discard.is_empty() {
            return false;
        }
        let z = &mut self.seats[s];
        let count = z.discard.len() as u8;
        std::mem::swap(&mut z.deck, &mut z.discard);
        z.known_top = 0;
        z.deck.as_mut_slice().shuffle(&mut self.rng);
        events.emit(Event::Reshuffled { seat, count });
        true
    }

    /// K-T5: a card's effective gold this turn.
    pub fn effective_gold(&self, card: CardId) -> u8 {
        let printed = self.config.rules.card(card).gold;
        let base = i16::from(self.turn.gold_set.unwrap_or(printed));
        (base + i16::from(self.turn.gold_add)).clamp(0, 255) as u8
    }

    pub(crate) fn hand_gold(&self, seat: Seat) -> u16 {
        self.zones(seat)
            .hand
            .iter()
            .map(|&c| u16::from(self.effective_gold(c)))
            .sum()
    }

    /// Every card of the game, in any zone (for conservation checks).
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut out: Vec<CardId> = Vec::new();
        for z in &self.seats[..usize::from(self.n)] {
            out.extend(z.owned());
            out.extend(z.tomb.iter());
        }
        out.extend(self.stock.iter());
        out.extend(self.boneyard.iter());
        out.extend(self.pyramid_cards());
        out.extend(
            self.frames
                .iter()
                .filter(|f| f.revealed != NONE)
                .map(|f| f.revealed),
        );
        out.sort_unstable();
        out
    }
}
