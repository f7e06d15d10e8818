//! Valdora's fixed action space and observation tensor (the contract's optional extension,
//! `engine::encoding`). Layouts: `docs/contract.md`, "Action space and observations".
//!
//! Actions are small enums of small fields, so the space is every well-formed action:
//! one block per variant, each the product of its fields' ranges (486 in all). A few
//! indices are never legal (unloading a tool, moving to a space past the board's last);
//! that keeps decoding a mixed-radix split with no tables.
//!
//! The observation is encoded from the state, not from a built view (a view allocates),
//! reading only what `view(Some(seat))` shows: the other seats' completed commissions
//! and scores are left out unless the view shows them (V-I1), and of the books only the
//! public top faces and pile sizes are read, which `determinize` keeps (V-I3).

use engine::encoding::{relative_seat, seat_at_offset, Block, Features};
use engine::Seat;

use crate::actions::{Action, Items};
use crate::board::{Space, MAX_SPACES};
use crate::books::BookKind;
use crate::components::{CommissionFace, EquipmentFace, Face, Gem, Item, Side};
use crate::data::COMMISSION_CARDS;
use crate::state::{
    Committed, HeldCommission, Phase, Valdora, ValdoraConfig, MAX_COINS, MAX_INCOMPLETE,
};

const SIDES: usize = 2;
const ITEMS: usize = Item::ALL.len();
const GEMS: usize = Gem::ALL.len();
const COLORS: usize = 7;
/// Every subset of the seven items (a commission's payment).
const ITEM_SETS: usize = 1 << ITEMS;

/// The blocks of the action space, in this order.
const MOVE: usize = 0;
const PASS: usize = 1;
const TAKE_PROVISIONS: usize = 2;
const REFILL_SILVER: usize = 3;
const END: usize = 4;
const TURN: usize = 5;
const BUY_EQUIPMENT: usize = 6;
const BUY_COMMISSION: usize = 7;
const RETURN: usize = 8;
const LOAD: usize = 9;
const UNLOAD: usize = 10;
const COMPLETE: usize = 11;

const LAYOUT: ([Block; 12], usize) = Block::layout([
    MAX_SPACES,                 // move: destination space
    1,                          // pass
    1,                          // take provisions
    1,                          // refill silver
    1,                          // end
    SIDES,                      // turn: from side
    SIDES * ITEMS,              // buy equipment: side × item paying the gold
    SIDES,                      // buy commission: side
    MAX_INCOMPLETE * SIDES,     // return: held commission × side
    GEMS * ITEMS,               // load: gem × item
    ITEMS,                      // unload: item
    MAX_INCOMPLETE * ITEM_SETS, // complete: held commission × items paying
]);
const BLOCKS: [Block; 12] = LAYOUT.0;
/// The size of the action space (the same for every config).
pub const ACTION_COUNT: usize = LAYOUT.1;

fn side_index(side: Side) -> usize {
    side.index()
}

fn side_at(i: usize) -> Side {
    if i == 0 {
        Side::Left
    } else {
        Side::Right
    }
}

pub(crate) fn action_index(action: &Action) -> Option<usize> {
    let (block, local) = match *action {
        Action::Move { to } => (MOVE, usize::from(to)),
        Action::Pass => (PASS, 0),
        Action::TakeProvisions => (TAKE_PROVISIONS, 0),
        Action::RefillSilver => (REFILL_SILVER, 0),
        Action::End => (END, 0),
        Action::Turn { from } => (TURN, side_index(from)),
        Action::BuyEquipment { side, gold_from } => {
            (BUY_EQUIPMENT, side_index(side) * ITEMS + gold_from.index())
        }
        Action::BuyCommission { side } => (BUY_COMMISSION, side_index(side)),
        Action::Return { commission, side } => {
            let commission = usize::from(commission);
            if commission >= MAX_INCOMPLETE {
                return None;
            }
            (RETURN, commission * SIDES + side_index(side))
        }
        Action::Load { gem, onto } => (LOAD, gem.index() * ITEMS + onto.index()),
        Action::Unload { from } => (UNLOAD, from.index()),
        Action::Complete {
            commission,
            pay_from,
        } => {
            let commission = usize::from(commission);
            if commission >= MAX_INCOMPLETE || usize::from(pay_from.0) >= ITEM_SETS {
                return None;
            }
            (COMPLETE, commission * ITEM_SETS + usize::from(pay_from.0))
        }
    };
    BLOCKS[block].at(local)
}

pub(crate) fn action_at(index: usize) -> Option<Action> {
    let (block, local) = Block::locate(&BLOCKS, index)?;
    let item = |i: usize| Item::ALL[i % ITEMS];
    Some(match block {
        MOVE => Action::Move { to: local as Space },
        PASS => Action::Pass,
        TAKE_PROVISIONS => Action::TakeProvisions,
        REFILL_SILVER => Action::RefillSilver,
        END => Action::End,
        TURN => Action::Turn {
            from: side_at(local),
        },
        BUY_EQUIPMENT => Action::BuyEquipment {
            side: side_at(local / ITEMS),
            gold_from: item(local),
        },
        BUY_COMMISSION => Action::BuyCommission {
            side: side_at(local),
        },
        RETURN => Action::Return {
            commission: (local / SIDES) as u8,
            side: side_at(local % SIDES),
        },
        LOAD => Action::Load {
            gem: Gem::ALL[local / ITEMS],
            onto: item(local),
        },
        UNLOAD => Action::Unload { from: item(local) },
        _ => Action::Complete {
            commission: (local / ITEM_SETS) as u8,
            pay_from: Items((local % ITEM_SETS) as u8),
        },
    })
}

// ----- observation ----------------------------------------------------------------------

/// Documented maxima the counts are divided by (values above are clamped to 1).
const MAX_TURN: f64 = 200.0;
const MAX_ROAD_GEMS: f64 = 6.0;
const MAX_DISCARD: f64 = 10.0;
const MAX_PILE: f64 = COMMISSION_CARDS as f64;
const MAX_LOAD_COST: f64 = 6.0;
const MAX_WANTED: f64 = 3.0;
const MAX_FACE_POINTS: f64 = 10.0;
const MAX_CRAFTSMEN: f64 = 6.0;
const MAX_COMPLETED: f64 = 10.0;
const MAX_SCORE: f64 = 150.0;
const MAX_PAGES: f64 = 6.0;
const MAX_LOADS: f64 = 3.0;
const ROAD_SPACES: usize = 13;
const BOOKS: usize = 4;

/// One book face: kind (2), item (7), load cost, colour (7), gems wanted (5), coins
/// wanted, points.
const FACE_LEN: usize = 2 + ITEMS + 1 + COLORS + GEMS + 1 + 1;
/// Phase (6), pages turned, gems loaded, end triggered, must buy, pending reload (2).
const PHASE_LEN: usize = 6 + 1 + 1 + 1 + 1 + 2;
/// Per seat: space, coins, provisions, items owned, gem on each item, load costs of horse
/// and cart, held commissions (presence + face), completed count, craftsmen, bonus tiles,
/// score known, score.
const SEAT_LEN: usize = MAX_SPACES
    + 1
    + 1
    + ITEMS
    + ITEMS * GEMS
    + 2
    + MAX_INCOMPLETE * (1 + FACE_LEN)
    + 1
    + COLORS
    + 1
    + 2;

pub(crate) fn observation_len(config: &ValdoraConfig) -> usize {
    let seats = usize::from(config.players);
    PHASE_LEN
        + 1 // turn
        + 2 * seats // seat to move, start player
        + ROAD_SPACES * GEMS
        + GEMS // discard
        + BOOKS * SIDES * (1 + FACE_LEN)
        + COLORS // craftsmen supply
        + COLORS * seats // workshop owners
        + 1 // bonus tiles supply
        + seats * SEAT_LEN
}

fn face(f: &mut Features, face: Option<Face>) {
    match face {
        None => f.skip(FACE_LEN),
        Some(Face::Equipment(e)) => equipment_face(f, e),
        Some(Face::Commission(c)) => {
            f.flag(false);
            f.flag(true);
            f.skip(ITEMS + 1);
            commission_face(f, c);
        }
    }
}

fn equipment_face(f: &mut Features, e: EquipmentFace) {
    f.flag(true);
    f.flag(false);
    f.one_hot(Some(e.item.index()), ITEMS);
    f.scaled(f64::from(e.load_cost), MAX_LOAD_COST);
    f.skip(COLORS + GEMS + 2);
}

fn commission_face(f: &mut Features, c: CommissionFace) {
    f.one_hot(Some(c.color.index()), COLORS);
    for wanted in c.wants.gems {
        f.scaled(f64::from(wanted), MAX_WANTED);
    }
    f.scaled(f64::from(c.wants.coins), MAX_WANTED);
    f.scaled(f64::from(c.points), MAX_FACE_POINTS);
}

impl Valdora {
    pub(crate) fn encode_observation(&self, seat: Seat, out: &mut [f32]) {
        let seats = usize::from(self.seats);
        let relative = |s: Seat| relative_seat(s, seat, seats);
        let mut f = Features::new(out);
        self.encode_phase(&mut f);
        f.scaled(f64::from(self.turn), MAX_TURN);
        let to_move = match self.phase {
            Phase::Over => None,
            _ => Some(relative(self.current)),
        };
        f.one_hot(to_move, seats);
        f.one_hot(Some(relative(self.start_player)), seats);
        for road in &self.road_gems {
            for &n in road {
                f.scaled(f64::from(n), MAX_ROAD_GEMS);
            }
        }
        for n in self.discard {
            f.scaled(f64::from(n), MAX_DISCARD);
        }
        self.encode_books(&mut f);
        for n in self.craftsmen {
            f.scaled(f64::from(n), MAX_CRAFTSMEN);
        }
        for owner in self.workshop_owner {
            f.one_hot(owner.map(relative), seats);
        }
        let rules = self.rules();
        f.scaled(f64::from(self.bonus_supply), f64::from(rules.bonus_tiles));
        for offset in 0..seats {
            self.encode_seat(&mut f, seat, seat_at_offset(seat, offset, seats));
        }
        debug_assert_eq!(f.written(), observation_len(&self.config));
    }

    fn encode_phase(&self, f: &mut Features) {
        let phase = match self.phase {
            Phase::Move => 0,
            Phase::Act { committed: None } => 1,
            Phase::Act {
                committed: Some(Committed::Buy),
            } => 2,
            Phase::Act {
                committed: Some(Committed::Load),
            } => 3,
            Phase::Act {
                committed: Some(Committed::Complete),
            } => 4,
            Phase::Over => 5,
        };
        f.one_hot(Some(phase), 6);
        f.scaled(f64::from(self.pages_turned), MAX_PAGES);
        f.scaled(f64::from(self.loads), MAX_LOADS);
        f.flag(self.end_triggered);
        f.flag(self.must_buy);
        let reload = match self.pending_reload {
            Some(Item::Horse) => Some(0),
            Some(Item::Cart) => Some(1),
            _ => None,
        };
        f.one_hot(reload, 2);
    }

    /// Each pile's size and the face on its top: all the table sees of the books.
    fn encode_books(&self, f: &mut Features) {
        let rules = self.rules();
        for (b, book) in self.books.iter().enumerate() {
            let kind = BookKind::of_book(b as u8);
            for side in [Side::Left, Side::Right] {
                f.scaled(book.pile(side).len() as f64, MAX_PILE);
                face(f, book.visible(rules, kind, side));
            }
        }
    }

    /// `seat`'s side as `observer` sees it (V-I1: the completed commissions' points only
    /// for the observer itself, or when the view shows every score).
    fn encode_seat(&self, f: &mut Features, observer: Seat, seat: Seat) {
        let rules = self.rules();
        let p = self.player(seat);
        f.one_hot(Some(usize::from(p.space)), MAX_SPACES);
        f.scaled(f64::from(p.coins), f64::from(MAX_COINS));
        f.flag(p.provisions);
        f.bits(u64::from(p.owned), ITEMS);
        for gem in p.gems {
            f.one_hot(gem.map(Gem::index), GEMS);
        }
        for cost in p.load_cost {
            f.scaled(f64::from(cost), MAX_LOAD_COST);
        }
        for slot in 0..MAX_INCOMPLETE {
            match p.incomplete.get(slot) {
                Some(&held) => {
                    f.flag(true);
                    face(f, Some(Face::Commission(HeldCommission::face(held, rules))));
                }
                None => f.skip(1 + FACE_LEN),
            }
        }
        let completed = self.completed.iter().flatten();
        let count = completed.filter(|(s, _)| *s == seat).count();
        f.scaled(count as f64, MAX_COMPLETED);
        for n in p.craftsmen {
            f.scaled(f64::from(n), MAX_CRAFTSMEN);
        }
        f.scaled(f64::from(p.bonus_tiles), f64::from(rules.bonus_tiles));
        let known = seat == observer || self.scores_shown();
        f.flag(known);
        if known {
            f.scaled(f64::from(self.score(seat).total().max(0)), MAX_SCORE);
        } else {
            f.skip(1);
        }
    }
}
