//! Valley of the Kings' fixed action space and observation tensor (the contract's optional
//! extension, `engine::encoding`). Layouts: `docs/contract.md`, "Action space and
//! observations".
//!
//! A choice names a card *kind* (K-SC5) or a pyramid slot, so the space is small: 4 slot
//! actions × 6 slots, 5 card actions × the kinds of the data file, and 6 plain decisions.
//! It depends on the config only through the data (every kind of the file, whatever the
//! preset: one layout per data file, so presets share their indices).
//!
//! Cards are encoded as counts by kind. The observation is written from the state, reading
//! only what `view(Some(seat))` shows (K-Z12, K-Z13): the seat's own hand and the known top
//! of its deck; of the others, the hand cards everyone saw arrive, and the public multiset
//! hand ∪ deck; the stock as a multiset; everything in play, discarded and entombed.

use engine::encoding::{relative_seat, seat_at_offset, Block, Features};
use engine::Seat;

use crate::actions::{Action, Slot};
use crate::data::CardId;
use crate::state::{
    Phase, Program, SeatZones, Stage, Valley, ValleyConfig, GOLD_TAG, MAX_FRAMES, NONE,
};

const SLOTS: usize = 6;

/// Blocks, in order: four slot actions, five card actions, six plain decisions.
const BEGIN_PURCHASE: usize = 0;
const SACRIFICE: usize = 1;
const CRUMBLE_FROM: usize = 2;
const CHOOSE_SLOT: usize = 3;
const PAY: usize = 4;
const PLAY_ACTION: usize = 5;
const ENTOMB: usize = 6;
const REACT: usize = 7;
const CHOOSE: usize = 8;
const USE_PHARAOH: usize = 9;
const END_PLAY: usize = 10;
const DECLINE: usize = 11;
const ACCEPT: usize = 12;
const SKIP: usize = 13;
const DONE: usize = 14;

fn kinds(config: &ValleyConfig) -> usize {
    config.rules.cards.len()
}

fn blocks(config: &ValleyConfig) -> ([Block; 15], usize) {
    let k = kinds(config);
    Block::layout([SLOTS, SLOTS, SLOTS, SLOTS, k, k, k, k, k, 1, 1, 1, 1, 1, 1])
}

pub(crate) fn action_count(config: &ValleyConfig) -> usize {
    blocks(config).1
}

pub(crate) fn action_index(config: &ValleyConfig, action: &Action) -> Option<usize> {
    let (block, local) = match *action {
        Action::BeginPurchase { slot } => (BEGIN_PURCHASE, usize::from(slot)),
        Action::Sacrifice { slot } => (SACRIFICE, usize::from(slot)),
        Action::CrumbleFrom { slot } => (CRUMBLE_FROM, usize::from(slot)),
        Action::ChooseSlot { slot } => (CHOOSE_SLOT, usize::from(slot)),
        Action::Pay { card } => (PAY, usize::from(card)),
        Action::PlayAction { card } => (PLAY_ACTION, usize::from(card)),
        Action::Entomb { card } => (ENTOMB, usize::from(card)),
        Action::React { card } => (REACT, usize::from(card)),
        Action::Choose { card } => (CHOOSE, usize::from(card)),
        Action::UsePharaoh => (USE_PHARAOH, 0),
        Action::EndPlay => (END_PLAY, 0),
        Action::Decline => (DECLINE, 0),
        Action::Accept => (ACCEPT, 0),
        Action::Skip => (SKIP, 0),
        Action::Done => (DONE, 0),
    };
    blocks(config).0[block].at(local)
}

pub(crate) fn action_at(config: &ValleyConfig, index: usize) -> Option<Action> {
    let (blocks, _) = blocks(config);
    let (block, local) = Block::locate(&blocks, index)?;
    let slot = local as Slot;
    let card = local as CardId;
    Some(match block {
        BEGIN_PURCHASE => Action::BeginPurchase { slot },
        SACRIFICE => Action::Sacrifice { slot },
        CRUMBLE_FROM => Action::CrumbleFrom { slot },
        CHOOSE_SLOT => Action::ChooseSlot { slot },
        PAY => Action::Pay { card },
        PLAY_ACTION => Action::PlayAction { card },
        ENTOMB => Action::Entomb { card },
        REACT => Action::React { card },
        CHOOSE => Action::Choose { card },
        USE_PHARAOH => Action::UsePharaoh,
        END_PLAY => Action::EndPlay,
        DECLINE => Action::Decline,
        ACCEPT => Action::Accept,
        SKIP => Action::Skip,
        _ => Action::Done,
    })
}

// ----- observation ----------------------------------------------------------------------

/// Documented maxima the counts are divided by (values above are clamped to 1).
const MAX_COPIES: f64 = 8.0;
const MAX_PILE: f64 = 40.0;
const MAX_TURNS: f64 = 30.0;
const MAX_GOLD: f64 = 20.0;
const MAX_SMALL: f64 = 6.0;
const PHASES: usize = 6;
const PROGRAMS: usize = 4;
const STAGES: usize = 5;

/// Per-kind blocks per seat: hand (own; others: the publicly known cards), known top of
/// the deck (own only), hand ∪ deck, in play, in play for gold, discard, tomb.
const SEAT_KIND_BLOCKS: usize = 7;
/// Per-seat scalars: hand size, deck size, known top, turns, has a pharaoh.
const SEAT_SCALARS: usize = 5;

pub(crate) fn observation_len(config: &ValleyConfig) -> usize {
    let k = kinds(config);
    let seats = usize::from(config.players);
    PHASES + 3 // phase, paying: paid and cost, window offset
        + 1 // crumble pending
        + 3 * seats // active, start seat, to move
        + SLOTS * (k + seats) // pyramid: card, reserved by
        + 1 + k // stock: size, contents
        + k // boneyard
        + 1 + PROGRAMS + k + STAGES + seats + 2 // frames: count, the top frame
        + 6 + k // turn state, kinds whose action ran
        + seats * (SEAT_KIND_BLOCKS * k + SEAT_SCALARS)
}

fn cards(pile: &[CardId]) -> impl Iterator<Item = usize> + '_ {
    pile.iter().map(|&c| usize::from(c & !GOLD_TAG))
}

impl Valley {
    pub(crate) fn encode_observation(&self, seat: Seat, out: &mut [f32]) {
        let k = kinds(&self.config);
        let seats = usize::from(self.n);
        let relative = |s: Seat| relative_seat(s, seat, seats);
        let mut f = Features::new(out);
        self.encode_phase(&mut f);
        f.one_hot(Some(relative(self.active)), seats);
        f.one_hot(Some(relative(self.start_seat)), seats);
        f.one_hot(self.decider().map(relative), seats);
        for slot in &self.pyramid {
            let card = (slot.card != NONE).then_some(usize::from(slot.card));
            f.one_hot(card, k);
            let reserved = (slot.reserved_by != NONE).then(|| relative(slot.reserved_by));
            f.one_hot(reserved, seats);
        }
        f.scaled(self.stock.len() as f64, MAX_PILE);
        f.counts(cards(&self.stock), k, MAX_COPIES);
        f.counts(cards(&self.boneyard), k, MAX_COPIES);
        self.encode_frames(&mut f, relative);
        self.encode_turn(&mut f);
        for offset in 0..seats {
            let other = seat_at_offset(seat, offset, seats);
            encode_seat(&mut f, self.zones(other), other == seat, k);
        }
        debug_assert_eq!(f.written(), observation_len(&self.config));
    }

    fn encode_phase(&self, f: &mut Features) {
        let (phase, paid, cost, offset) = match self.phase {
            Phase::Play => (0, 0, 0, 0),
            Phase::Paying { paid, cost, .. } => (1, paid, cost, 0),
            Phase::Window { offset, .. } => (2, 0, 0, offset),
            Phase::Rebuild => (3, 0, 0, 0),
            Phase::Finishing => (4, 0, 0, 0),
            Phase::Over => (5, 0, 0, 0),
        };
        f.one_hot(Some(phase), PHASES);
        f.scaled(f64::from(paid), MAX_GOLD);
        f.scaled(f64::from(cost), MAX_GOLD);
        f.scaled(f64::from(offset), MAX_SMALL);
        f.flag(self.crumble.is_some());
    }

    /// How many frames are being resolved, and the innermost one (whose part decides).
    fn encode_frames(&self, f: &mut Features, relative: impl Fn(Seat) -> usize) {
        let k = kinds(&self.config);
        f.scaled(self.frames.len() as f64, MAX_FRAMES as f64);
        let Some(frame) = self.frames.last() else {
            f.skip(PROGRAMS + k + STAGES + usize::from(self.n) + 2);
            return;
        };
        let (program, card) = match frame.program {
            Program::None => (0, None),
            Program::Card(c) => (1, Some(usize::from(c))),
            Program::Pharaoh(_) => (2, None),
            Program::Reaction(c) => (3, Some(usize::from(c))),
        };
        f.one_hot(Some(program), PROGRAMS);
        f.one_hot(card, k);
        let stage = match frame.stage {
            Stage::Enter => 0,
            Stage::Choosing => 1,
            Stage::AcceptOrSkip => 2,
            Stage::LookDiscard => 3,
            Stage::LookArrange => 4,
        };
        f.one_hot(Some(stage), STAGES);
        f.one_hot(Some(relative(frame.actor)), usize::from(self.n));
        f.scaled(f64::from(frame.part), MAX_SMALL);
        f.scaled(f64::from(frame.picks), MAX_SMALL);
    }

    fn encode_turn(&self, f: &mut Features) {
        let t = &self.turn;
        f.scaled(f64::from(t.entomb_allowance), MAX_SMALL);
        f.scaled(f64::from(t.entombs_used), MAX_SMALL);
        f.flag(t.pharaoh_used);
        f.scaled(t.purchases.len() as f64, MAX_SMALL);
        f.scaled(f64::from(t.gold_set.unwrap_or(0)), MAX_GOLD);
        f.scaled(f64::from(t.gold_add.max(0)), MAX_GOLD);
        let k = kinds(&self.config);
        f.counts((0..k).filter(|&c| t.logged(c as CardId)), k, 1.0);
    }
}

/// One seat's zones as the observer may know them (K-Z12).
fn encode_seat(f: &mut Features, z: &SeatZones, own: bool, k: usize) {
    if own {
        f.counts(cards(&z.hand), k, MAX_COPIES);
        let known = usize::from(z.known_top).min(z.deck.len());
        f.counts(cards(&z.deck[z.deck.len() - known..]), k, MAX_COPIES);
    } else {
        f.counts(cards(&z.known_in_hand), k, MAX_COPIES);
        f.skip(k);
    }
    f.counts(cards(&z.hand).chain(cards(&z.deck)), k, MAX_COPIES);
    let in_play = |gold: bool| {
        z.in_play
            .iter()
            .filter(move |&&c| (c & GOLD_TAG != 0) == gold)
            .map(|&c| usize::from(c & !GOLD_TAG))
    };
    f.counts(in_play(false), k, MAX_COPIES);
    f.counts(in_play(true), k, MAX_COPIES);
    f.counts(cards(&z.discard), k, MAX_COPIES);
    f.counts(cards(&z.tomb), k, MAX_COPIES);
    f.scaled(z.hand.len() as f64, MAX_SMALL);
    f.scaled(z.deck.len() as f64, MAX_PILE);
    f.scaled(f64::from(z.known_top), MAX_SMALL);
    f.scaled(f64::from(z.turns), MAX_TURNS);
    f.flag(z.pharaoh != NONE);
}
