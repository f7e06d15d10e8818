//! The game state: setup (V-S*), the turn (V-T*), the actions (V-A*) and the end (V-E1).

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use tinyvec::ArrayVec;

use crate::actions::{Action, Items};
use crate::board::{Space, SpaceKind};
use crate::books::{Book, BookKind};
use crate::components::{Color, CommissionFace, Face, Gem, Gems, Item, Side};
use crate::data::{Rules, COMMISSION_CARDS, EQUIPMENT_CARDS};
use crate::events::Event;
use engine::{EventSink, Rng, Seat, SetupError};

pub const MIN_PLAYERS: u8 = 3;
pub const MAX_PLAYERS: u8 = 5;
/// A player holds at most this many coins (V-C3).
pub const MAX_COINS: u8 = 6;
/// A player holds at most this many incomplete commissions (V-A1).
pub const MAX_INCOMPLETE: usize = 3;

/// The data a game runs on: the shipped file unless a corrected one was loaded.
pub type RulesRef = engine::DataRef<Rules>;

/// How a game is set up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(default, deny_unknown_fields)]
pub struct ValdoraConfig {
    /// 3 to 5 (V-C1).
    pub players: u8,
    /// Draw the start player from the seed instead of seat 0 (V-C1).
    pub random_start_player: bool,
    /// Simulation only, never for real games: end after this many turns in all. Such a
    /// game's outcome is marked `truncated`.
    pub turn_cap: Option<u32>,
    /// Show every seat's completed commissions and running score to all (V-I1). Off by
    /// default, as in the seed: they lie under each adventurer card, and another seat sees
    /// only how many.
    pub open_scores: bool,
    /// Component data; set by `--data FILE`, not part of the JSON config.
    #[serde(skip)]
    pub rules: RulesRef,
}

impl Default for ValdoraConfig {
    fn default() -> Self {
        Self {
            players: 4,
            random_start_player: false,
            turn_cap: None,
            open_scores: false,
            rules: RulesRef::default(),
        }
    }
}

/// An incomplete commission in a player's hand: the card and the face it was bought on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HeldCommission {
    pub card: u8,
    pub side: Side,
}

impl HeldCommission {
    pub fn face(self, rules: &Rules) -> CommissionFace {
        match BookKind::Commission.face(rules, self.card, self.side) {
            Face::Commission(f) => f,
            Face::Equipment(_) => unreachable!("commission cards have commission faces"),
        }
    }
}

/// One seat's pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Player {
    pub space: Space,
    pub coins: u8,
    pub provisions: bool,
    /// Items owned, as a bitset of [`Item::bit`].
    pub owned: u8,
    /// The gem on each item (at most one per card).
    pub gems: [Option<Gem>; 7],
    /// Coins to load the horse and the cart.
    pub load_cost: [u8; 2],
    pub incomplete: ArrayVec<[HeldCommission; MAX_INCOMPLETE]>,
    pub craftsmen: [u8; 7],
    pub bonus_tiles: u8,
}

impl Player {
    pub fn owns(&self, item: Item) -> bool {
        self.owned & item.bit() != 0
    }

    pub fn cost_to_load(&self, item: Item) -> u8 {
        match item {
            Item::Horse => self.load_cost[0],
            Item::Cart => self.load_cost[1],
            _ => 0,
        }
    }

    pub fn gems_carried(&self) -> u8 {
        self.gems.iter().flatten().count() as u8
    }
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// V-T1: the pawn must move.
    Move,
    /// V-T4: after moving; `committed` is the action begun, if any.
    Act {
        committed: Option<Committed>,
    },
    Over,
}

/// The compound action a player has begun this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Committed {
    Buy,
    Load,
    Complete,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    Rules,
    TurnCap,
    Stalled,
}

/// A Valdora game. Cloning is a flat copy of a few KiB.
#[derive(Clone, PartialEq)]
pub struct Valdora {
    /// The config, whose `rules` (shared, not copied) every rule of the game reads.
    pub(crate) config: ValdoraConfig,
    pub(crate) seats: u8,
    pub(crate) start_player: Seat,
    /// Whose turn it is.
    pub(crate) current: Seat,
    /// Turns begun so far.
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
    pub(crate) ending: Option<Ending>,
    pub(crate) end_triggered: bool,
    /// Steps of the committed action that count for `End`: turns and buys, loads,
    /// completions.
    pub(crate) progress: u8,
    pub(crate) pages_turned: u8,
    /// Gems loaded this action (the ships limit of harbours).
    pub(crate) loads: u8,
    pub(crate) consecutive_stuck: u8,
    /// A commission was returned: a commission must be bought before `End` (V-A1).
    pub(crate) must_buy: bool,
    /// A horse or cart was unloaded: the next step loads it again (V-A2).
    pub(crate) pending_reload: Option<Item>,
    pub(crate) players: ArrayVec<[Player; MAX_PLAYERS as usize]>,
    pub(crate) road_gems: [Gems; 13],
    pub(crate) discard: Gems,
    pub(crate) books: [Book; 4],
    pub(crate) craftsmen: [u8; 7],
    pub(crate) workshop_owner: [Option<Seat>; 7],
    pub(crate) bonus_supply: u8,
    /// Completed commissions by card id: who completed it and on which face (V-I1).
    pub(crate) completed: [Option<(Seat, Side)>; 2 * COMMISSION_CARDS],
}

impl std::fmt::Debug for Valdora {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Valdora")
            .field("config", &self.config)
            .field("current", &self.current)
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("ending", &self.ending)
            .field("end_triggered", &self.end_triggered)
            .field("progress", &(self.progress, self.pages_turned, self.loads))
            .field("must_buy", &self.must_buy)
            .field("pending_reload", &self.pending_reload)
            .field("players", &self.players)
            .field("road_gems", &self.road_gems)
            .field("discard", &self.discard)
            .field("books", &self.books)
            .field("craftsmen", &self.craftsmen)
            .field("workshop_owner", &self.workshop_owner)
            .field("bonus_supply", &self.bonus_supply)
            .field("completed", &self.completed)
            .finish()
    }
}

impl Valdora {
    /// rules V-S1..V-S4: the start position.
    pub fn setup(config: &ValdoraConfig, seed: u64) -> Result<Valdora, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&config.players) {
            return Err(SetupError::PlayerCount {
                game: "valdora",
                players: usize::from(config.players),
                min: usize::from(MIN_PLAYERS),
                max: usize::from(MAX_PLAYERS),
            });
        }
        if config.turn_cap == Some(0) {
            return Err(SetupError::Config("turn_cap must be at least 1".into()));
        }
        let rules = &config.rules;
        let mut rng = engine::rng_from_seed(seed);
        let n = config.players;
        let start_player = if config.random_start_player {
            rand::Rng::gen_range(&mut rng, 0..n)
        } else {
            0
        };
        let players = (0..n)
            .map(|seat| Player {
                space: rules.board.start,
                // V-S2: the start player 1 coin, then clockwise 2, 3, 4, 5.
                coins: 1 + (seat + n - start_player) % n,
                provisions: false,
                owned: Item::GoldPan.bit(),
                gems: [None; 7],
                load_cost: [0; 2],
                incomplete: ArrayVec::new(),
                craftsmen: [0; 7],
                bonus_tiles: 0,
            })
            .collect();
        // V-S3: the 78 gems, shuffled, 6 on each road space.
        let mut bag: ArrayVec<[Gem; 78]> = ArrayVec::new();
        for g in Gem::ALL {
            for _ in 0..rules.gems[g.index()] {
                bag.push(g);
            }
        }
        bag.shuffle(&mut rng);
        let mut road_gems = [[0u8; 5]; 13];
        for (i, g) in bag.iter().enumerate() {
            road_gems[i / 6][g.index()] += 1;
        }
        let books = std::array::from_fn(|b| {
            let (set, size) = if b < 2 {
                (b, EQUIPMENT_CARDS)
            } else {
                (b - 2, COMMISSION_CARDS)
            };
            Book::shuffled((set * size) as u8, size as u8, &mut rng)
        });
        // V-C8: with 3 players one violet, red, blue and green craftsman leave the game.
        let craftsmen = if n == 3 {
            rules.craftsmen_3p
        } else {
            rules.craftsmen
        };
        let mut game = Valdora {
            config: config.clone(),
            seats: n,
            start_player,
            current: start_player,
            turn: 0,
            phase: Phase::Move,
            ending: None,
            end_triggered: false,
            progress: 0,
            pages_turned: 0,
            loads: 0,
            consecutive_stuck: 0,
            must_buy: false,
            pending_reload: None,
            players,
            road_gems,
            discard: [0; 5],
            books,
            craftsmen,
            workshop_owner: [None; 7],
            bonus_supply: rules.bonus_tiles,
            completed: [None; 2 * COMMISSION_CARDS],
        };
        game.begin_turn(&mut engine::NoEvents);
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[usize::from(seat)]
    }

    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn start_player(&self) -> Seat {
        self.start_player
    }

    pub fn end_triggered(&self) -> bool {
        self.end_triggered
    }

    pub fn discard(&self) -> Gems {
        self.discard
    }

    pub fn craftsmen_supply(&self) -> [u8; 7] {
        self.craftsmen
    }

    pub fn workshop_owner(&self, color: Color) -> Option<Seat> {
        self.workshop_owner[color.index()]
    }

    pub fn bonus_supply(&self) -> u8 {
        self.bonus_supply
    }

    pub fn book(&self, book: u8) -> &Book {
        &self.books[usize::from(book)]
    }

    /// Gems on a road space.
    pub fn gems_at(&self, space: Space) -> Option<Gems> {
        self.config
            .rules
            .board
            .road_index(space)
            .map(|r| self.road_gems[usize::from(r)])
    }

    /// Commissions `seat` has completed, in card order.
    pub fn completed_by(&self, seat: Seat) -> impl Iterator<Item = CommissionFace> + '_ {
        self.completed
            .iter()
            .enumerate()
            .filter_map(move |(card, c)| match c {
                Some((s, side)) if *s == seat => Some(
                    HeldCommission {
                        card: card as u8,
                        side: *side,
                    }
                    .face(&self.config.rules),
                ),
                _ => None,
            })
    }

    /// Gems everywhere (V-C2 conservation): road spaces, discard area, equipment.
    pub fn gem_totals(&self) -> Gems {
        let mut total = self.discard;
        for space in &self.road_gems {
            for g in 0..5 {
                total[g] += space[g];
            }
        }
        for p in &self.players {
            for g in p.gems.iter().flatten() {
                total[g.index()] += 1;
            }
        }
        total
    }

    pub(crate) fn me(&self) -> &Player {
        &self.players[usize::from(self.current)]
    }

    fn me_mut(&mut self) -> &mut Player {
        &mut self.players[usize::from(self.current)]
    }

    // ----- movement ---------------------------------------------------------------------

    /// rule V-T2: the seats whose pawns a move of the current seat to `to` meets, each
    /// owed one coin; nobody on a silver mine.
    pub(crate) fn pawns_met(&self, to: Space) -> impl Iterator<Item = Seat> + '_ {
        // An iterator, not a list: the fee check of every destination only counts them.
        let fee_free = self.config.rules.board.kind(to) == SpaceKind::SilverMine;
        (0..self.seats).filter(move |&other| {
            !fee_free && other != self.current && self.players[usize::from(other)].space == to
        })
    }

    /// rule V-A1: what the next page turn of this turn costs: the first is free, each
    /// further one costs 1 coin.
    pub(crate) fn page_turn_cost(&self) -> u8 {
        u8::from(self.pages_turned > 0)
    }

    fn apply_move(&mut self, to: Space, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        let board = &self.config.rules.board;
        let from = self.me().space;
        // Prefer the path that keeps the provisions (V-T1).
        let provisions_spent = board.reach_plain(from) & 1 << to == 0;
        {
            let me = self.me_mut();
            me.space = to;
            if provisions_spent {
                me.provisions = false;
            }
        }
        events.emit(Event::Moved {
            seat,
            from,
            to,
            provisions_spent,
        });
        // rule V-T2: one coin to each other pawn's owner met.
        let met: ArrayVec<[Seat; MAX_PLAYERS as usize]> = self.pawns_met(to).collect();
        for other in met {
            self.me_mut().coins -= 1;
            let receiver = &mut self.players[usize::from(other)];
            let banked = receiver.coins >= MAX_COINS;
            if !banked {
                receiver.coins += 1;
            }
            events.emit(Event::MeetingFee {
                seat,
                to: other,
                banked,
            });
        }
        self.phase = Phase::Act { committed: None };
        self.progress = 0;
        self.pages_turned = 0;
        self.loads = 0;
        self.must_buy = false;
        self.pending_reload = None;
    }

    // ----- turn flow --------------------------------------------------------------------

    fn begin_turn(&mut self, events: &mut impl EventSink<Event>) {
        loop {
            if let Some(cap) = self.config.turn_cap {
                if self.turn >= cap {
                    events.emit(Event::TurnCapReached { turns: self.turn });
                    self.finish(Ending::TurnCap, events);
                    return;
                }
            }
            self.turn += 1;
            self.phase = Phase::Move;
            events.emit(Event::TurnBegan {
                seat: self.current,
                turn: self.turn,
            });
            if self.has_destination() {
                self.consecutive_stuck = 0;
                return;
            }
            // rule V-T3: no affordable destination: the pawn stays, no action.
            events.emit(Event::Stuck { seat: self.current });
            self.consecutive_stuck += 1;
            if self.consecutive_stuck >= self.seats {
                events.emit(Event::Stalled);
                self.finish(Ending::Stalled, events);
                return;
            }
            if self.last_turn_of_game() {
                self.finish(Ending::Rules, events);
                return;
            }
            self.current = (self.current + 1) % self.seats;
        }
    }

    /// rule V-E1: once triggered, the game ends after the turn of the player to the right
    /// of the start player, so that everybody has had the same number of turns.
    fn last_turn_of_game(&self) -> bool {
        self.end_triggered && (self.current + 1) % self.seats == self.start_player
    }

    fn end_turn(&mut self, events: &mut impl EventSink<Event>) {
        if self.last_turn_of_game() {
            self.finish(Ending::Rules, events);
            return;
        }
        self.current = (self.current + 1) % self.seats;
        self.begin_turn(events);
    }

    fn finish(&mut self, ending: Ending, events: &mut impl EventSink<Event>) {
        self.phase = Phase::Over;
        self.ending = Some(ending);
        events.emit(Event::GameOver);
    }

    // ----- applying ---------------------------------------------------------------------

    pub(crate) fn apply_action(&mut self, action: Action, events: &mut impl EventSink<Event>) {
        let seat = self.current;
        match action {
            Action::Move { to } => self.apply_move(to, events),
            Action::Pass => {
                events.emit(Event::Passed { seat });
                self.end_turn(events);
            }
            Action::TakeProvisions => {
                // rule V-A5
                self.me_mut().provisions = true;
                events.emit(Event::ProvisionsTaken { seat });
                self.end_turn(events);
            }
            Action::RefillSilver => {
                // rule V-A4
                self.me_mut().coins = MAX_COINS;
                events.emit(Event::SilverRefilled { seat });
                self.end_turn(events);
            }
            Action::End => {
                events.emit(Event::ActionEnded { seat });
                self.end_turn(events);
            }
            Action::Turn { from } => self.apply_turn(from, events),
            Action::BuyEquipment { side, gold_from } => {
                self.apply_buy_equipment(side, gold_from, events)
            }
            Action::BuyCommission { side } => self.apply_buy_commission(side, events),
            Action::Return { commission, side } => self.apply_return(commission, side, events),
            Action::Load { gem, onto } => self.apply_load(gem, onto, events),
            Action::Unload { from } => {
                // rule V-A2: unloading is for loading that card again, so that comes next.
                self.commit(Committed::Load);
                self.pending_reload = Some(from);
                let gem = self.me_mut().gems[from.index()]
                    .take()
                    .expect("legal unload has a gem");
                self.discard[gem.index()] += 1;
                events.emit(Event::Unloaded { seat, gem, from });
            }
            Action::Complete {
                commission,
                pay_from,
            } => self.apply_complete(commission, pay_from, events),
        }
    }

    fn current_book(&self) -> u8 {
        self.config
            .rules
            .board
            .book_at(self.me().space)
            .expect("buy steps only at book cities")
    }

    fn emit_tops(&self, b: u8, events: &mut impl EventSink<Event>) {
        let book = &self.books[usize::from(b)];
        let kind = BookKind::of_book(b);
        events.emit(Event::BookTops {
            book: b,
            left: book.visible(&self.config.rules, kind, Side::Left),
            right: book.visible(&self.config.rules, kind, Side::Right),
        });
    }

    fn commit(&mut self, action: Committed) {
        self.phase = Phase::Act {
            committed: Some(action),
        };
    }

    fn apply_turn(&mut self, from: Side, events: &mut impl EventSink<Event>) {
        let cost = self.page_turn_cost();
        self.commit(Committed::Buy);
        self.me_mut().coins -= cost;
        self.pages_turned += 1;
        self.progress += 1;
        let b = self.current_book();
        self.books[usize::from(b)].turn(from);
        let book = &self.books[usize::from(b)];
        let kind = BookKind::of_book(b);
        events.emit(Event::PageTurned {
            seat: self.current,
            book: b,
            from,
            cost,
            left: book.visible(&self.config.rules, kind, Side::Left),
            right: book.visible(&self.config.rules, kind, Side::Right),
        });
    }

    fn apply_buy_equipment(
        &mut self,
        side: Side,
        gold_from: Item,
        events: &mut impl EventSink<Event>,
    ) {
        self.commit(Committed::Buy);
        self.progress += 1;
        let b = self.current_book();
        let card = self.books[usize::from(b)]
            .take(side)
            .expect("legal buy has a card");
        let Face::Equipment(face) = BookKind::Equipment.face(&self.config.rules, card, side) else {
            unreachable!("equipment books hold equipment")
        };
        let other_face = BookKind::Equipment.face(&self.config.rules, card, side.other());
        let me = self.me_mut();
        me.gems[gold_from.index()] = None;
        me.owned |= face.item.bit();
        match face.item {
            Item::Horse => me.load_cost[0] = face.load_cost,
            Item::Cart => me.load_cost[1] = face.load_cost,
            _ => {}
        }
        self.discard[Gem::Gold.index()] += 1;
        events.emit(Event::EquipmentBought {
            seat: self.current,
            book: b,
            side,
            face,
            other_face,
            gold_from,
        });
        self.emit_tops(b, events);
    }

    fn apply_buy_commission(&mut self, side: Side, events: &mut impl EventSink<Event>) {
        self.commit(Committed::Buy);
        self.progress += 1;
        let b = self.current_book();
        let card = self.books[usize::from(b)]
            .take(side)
            .expect("legal buy has a card");
        let held = HeldCommission { card, side };
        let face = held.face(&self.config.rules);
        self.must_buy = false;
        let me = self.me_mut();
        me.coins -= 1;
        me.incomplete.push(held);
        events.emit(Event::CommissionBought {
            seat: self.current,
            book: b,
            side,
            face,
            other_face: BookKind::Commission.face(&self.config.rules, card, side.other()),
        });
        self.emit_tops(b, events);
    }

    fn apply_return(&mut self, commission: u8, side: Side, events: &mut impl EventSink<Event>) {
        self.commit(Committed::Buy);
        let b = self.current_book();
        let held = self.me_mut().incomplete.remove(usize::from(commission));
        self.must_buy = true;
        self.books[usize::from(b)].put(side, held.card);
        events.emit(Event::CommissionReturned {
            seat: self.current,
            book: b,
            side,
            shows: BookKind::Commission.face(&self.config.rules, held.card, side),
        });
        self.emit_tops(b, events);
    }

    fn apply_load(&mut self, gem: Gem, onto: Item, events: &mut impl EventSink<Event>) {
        self.commit(Committed::Load);
        self.progress += 1;
        self.loads += 1;
        let space = self.me().space;
        match self.config.rules.board.road_index(space) {
            Some(r) => self.road_gems[usize::from(r)][gem.index()] -= 1,
            None => self.discard[gem.index()] -= 1,
        }
        self.pending_reload = None;
        let me = self.me_mut();
        let cost = me.cost_to_load(onto);
        me.coins -= cost;
        me.gems[onto.index()] = Some(gem);
        events.emit(Event::Loaded {
            seat: self.current,
            gem,
            onto,
            cost,
        });
    }

    fn apply_complete(
        &mut self,
        commission: u8,
        pay_from: Items,
        events: &mut impl EventSink<Event>,
    ) {
        self.commit(Committed::Complete);
        self.progress += 1;
        let seat = self.current;
        let held = self.me_mut().incomplete.remove(usize::from(commission));
        let face = held.face(&self.config.rules);
        if face.wants.coins > 0 {
            self.me_mut().coins -= face.wants.coins;
        }
        for item in pay_from.iter() {
            let gem = self.me_mut().gems[item.index()]
                .take()
                .expect("legal payment carries gems");
            self.discard[gem.index()] += 1;
        }
        self.completed[usize::from(held.card)] = Some((seat, held.side));
        events.emit(Event::CommissionCompleted { seat, face });
        let color = face.color.index();
        // 1. bonus tile if the player already owns this colour's workshop.
        if self.workshop_owner[color] == Some(seat) && self.bonus_supply > 0 {
            self.bonus_supply -= 1;
            self.me_mut().bonus_tiles += 1;
            events.emit(Event::BonusTile { seat });
        }
        // 2. hire: this colour's craftsman, else the next non-empty stack clockwise.
        let order = &self.config.rules.clockwise;
        let at = order
            .iter()
            .position(|c| c.index() == color)
            .expect("all colours");
        let hired = (0..7)
            .map(|k| order[(at + k) % 7])
            .find(|c| self.craftsmen[c.index()] > 0);
        if let Some(hired) = hired {
            let h = hired.index();
            self.craftsmen[h] -= 1;
            self.me_mut().craftsmen[h] += 1;
            events.emit(Event::CraftsmanHired { seat, color: hired });
            // 3. workshop of the hired colour, once the player has enough of them.
            if self.workshop_owner[h].is_none()
                && self.me().craftsmen[h] >= self.config.rules.workshop_needed[h]
            {
                self.workshop_owner[h] = Some(seat);
                events.emit(Event::WorkshopTaken { seat, color: hired });
            }
        }
        // rule V-E1: at most one colour of craftsmen left triggers the last round.
        if !self.end_triggered && self.craftsmen.iter().filter(|&&n| n > 0).count() <= 1 {
            self.end_triggered = true;
            events.emit(Event::EndTriggered { seat });
        }
    }

    /// rule V-I3: a copy with the unseen cards of every book resampled. Valdora hides
    /// nothing from one seat that another knows, so every observer gets the same kind of
    /// sample.
    /// Completed commissions are kept as they are although other seats' views hide them
    /// (V-I1): each was public while held and completing it is a public event, so a seat
    /// that remembers the log knows them (the bots' choice, `docs/bots.md`).
    pub(crate) fn resample(&self, rng: &mut Rng) -> Valdora {
        let mut copy = self.clone();
        for (b, book) in copy.books.iter_mut().enumerate() {
            book.resample_unseen(&self.config.rules, BookKind::of_book(b as u8), rng);
        }
        copy
    }
}
