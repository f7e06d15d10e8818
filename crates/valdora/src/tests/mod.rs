//! Rules tests: each cites the rule id (`shared/rules/valdora.md`) it checks. They set up
//! positions directly, the way the rulebook examples describe them.

mod actions;
mod barriers;
mod encoding;
mod examples;
mod explain;
mod movement;
mod sentences;
mod setup;
mod table;

use engine::{Game, NoEvents};

use crate::actions::Action;
use crate::board::Space;
use crate::components::{Color, CommissionFace, Gem, Item, Side};
use crate::data::COMMISSION_CARDS;
use crate::events::Event;
use crate::state::{Committed, HeldCommission, Phase, Valdora, ValdoraConfig};

pub(crate) fn new_game(players: u8) -> Valdora {
    Valdora::new(
        &ValdoraConfig {
            players,
            ..ValdoraConfig::default()
        },
        42,
    )
    .expect("valid config")
}

pub(crate) fn space(g: &Valdora, name: &str) -> Space {
    g.rules().board.space_named(name).expect("space exists")
}

pub(crate) fn legal(g: &Valdora) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out
}

pub(crate) fn play(g: &mut Valdora, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    g.apply(action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}; legal: {:?}", legal(g)));
    events
}

/// Puts `seat` to move at `space`, about to choose an action (after its movement).
pub(crate) fn stand(g: &mut Valdora, seat: u8, space_name: &str) {
    let s = space(g, space_name);
    g.current = seat;
    g.players[usize::from(seat)].space = s;
    g.phase = Phase::Act { committed: None };
    g.progress = 0;
    g.pages_turned = 0;
    g.loads = 0;
}

/// Puts `seat` to move at the start of its turn, at `space`.
pub(crate) fn at_turn_start(g: &mut Valdora, seat: u8, space_name: &str) {
    stand(g, seat, space_name);
    g.phase = Phase::Move;
}

pub(crate) fn give(g: &mut Valdora, seat: u8, item: Item, load_cost: u8, gem: Option<Gem>) {
    let p = &mut g.players[usize::from(seat)];
    p.owned |= item.bit();
    match item {
        Item::Horse => p.load_cost[0] = load_cost,
        Item::Cart => p.load_cost[1] = load_cost,
        _ => {}
    }
    p.gems[item.index()] = gem;
}

/// A commission card (not yet used by this test) with a face of `color`; taken out of
/// its book so cards stay conserved.
pub(crate) fn commission_of(g: &mut Valdora, color: Color, avoid: &[u8]) -> HeldCommission {
    for card in 0..(2 * COMMISSION_CARDS) as u8 {
        if avoid.contains(&card) {
            continue;
        }
        for side in [Side::Right, Side::Left] {
            let held = HeldCommission { card, side };
            if held.face(g.rules()).color == color && take_out_of_books(g, card) {
                return held;
            }
        }
    }
    panic!("no {color:?} commission card left");
}

fn take_out_of_books(g: &mut Valdora, card: u8) -> bool {
    g.books[2..].iter_mut().any(|b| b.remove_card(card))
}

pub(crate) fn hold(g: &mut Valdora, seat: u8, held: HeldCommission) -> CommissionFace {
    g.players[usize::from(seat)].incomplete.push(held);
    held.face(g.rules())
}

pub(crate) fn committed(g: &Valdora) -> Option<Committed> {
    match g.phase {
        Phase::Act { committed } => committed,
        _ => None,
    }
}

pub(crate) fn run_to_end_with_passes(g: &mut Valdora) {
    // Everybody moves to the first legal destination and passes.
    while g.to_move().is_some() {
        let a = legal(g)[0];
        let a = if matches!(a, Action::Move { .. }) {
            a
        } else {
            Action::Pass
        };
        g.apply(a, &mut NoEvents).expect("legal");
    }
}
