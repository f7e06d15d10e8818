//! Rules tests: each cites the rule id (`shared/rules/valley_of_the_kings.md`) it checks.
//! Fixtures set zones directly, the way the rulebook examples describe positions.

mod barriers;
mod effects;
mod encoding;
mod examples;
mod explain;
mod hidden;
mod pyramid;
mod reactions;
mod render;
mod sentences;
mod setup;
mod turn;

use std::sync::Arc;

use engine::{Game, NoEvents, Seat};

use crate::actions::Action;
use crate::data::{CardId, Rules};
use crate::events::Event;
use crate::state::{Phase, SlotCard, TurnState, Valley, ValleyConfig, EMPTY_SLOT, NONE};

pub(crate) fn new_game(players: u8) -> Valley {
    let config = ValleyConfig {
        players,
        ..ValleyConfig::default()
    };
    Valley::new(&config, 42).expect("valid config")
}

pub(crate) fn id(g: &Valley, name: &str) -> CardId {
    g.rules()
        .card_named(name)
        .unwrap_or_else(|| panic!("no card {name:?}"))
}

pub(crate) fn ids(g: &Valley, names: &[&str]) -> Vec<CardId> {
    names.iter().map(|n| id(g, n)).collect()
}

pub(crate) fn legal(g: &Valley) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out
}

pub(crate) fn play(g: &mut Valley, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    g.apply(action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}; legal: {:?}", legal(g)));
    // K-Z11 holds between decisions, except while a base-centre crumble is being chosen.
    assert!(
        g.crumble.is_some() || g.pyramid_supported(),
        "K-Z11 broken after {action:?}"
    );
    events
}

/// Puts `seat` at the Play menu of a fresh turn with every zone of every seat empty.
pub(crate) fn at_play(g: &mut Valley, seat: Seat) {
    for s in 0..g.n {
        let z = g.zones_mut(s);
        z.hand.clear();
        z.deck.clear();
        z.discard.clear();
        z.in_play.clear();
        z.tomb.clear();
    }
    g.active = seat;
    g.phase = Phase::Play;
    g.turn = TurnState::fresh();
    g.frames.clear();
    g.crumble = None;
}

pub(crate) fn set_hand(g: &mut Valley, seat: Seat, names: &[&str]) {
    let cards = ids(g, names);
    let z = g.zones_mut(seat);
    z.hand.clear();
    for c in cards {
        z.hand_add(c);
    }
}

/// Bottom first.
pub(crate) fn set_pile(g: &Valley, names: &[&str]) -> crate::state::Pile {
    let mut p = crate::state::Pile::new();
    for c in ids(g, names) {
        p.push(c);
    }
    p
}

/// Slots in index order B0 B1 B2 M0 M1 T; `None` = empty.
pub(crate) fn set_pyramid(g: &mut Valley, slots: [Option<&str>; 6]) {
    for (i, s) in slots.iter().enumerate() {
        g.pyramid[i] = match s {
            Some(name) => SlotCard {
                card: id(g, name),
                reserved_by: NONE,
            },
            None => EMPTY_SLOT,
        };
    }
}

pub(crate) fn pyramid_names(g: &Valley) -> [Option<String>; 6] {
    std::array::from_fn(|i| {
        g.pyramid_card(i as u8)
            .map(|c| g.rules().card(c).name.clone())
    })
}

pub(crate) fn names(g: &Valley, cards: &[CardId]) -> Vec<String> {
    cards
        .iter()
        .map(|&c| g.rules().card(c).name.clone())
        .collect()
}

/// Gives the game a modified copy of its rules (e.g. a cost a rulebook example needs).
pub(crate) fn with_rules(g: &mut Valley, change: impl FnOnce(&mut Rules)) {
    let mut rules = g.rules().clone();
    change(&mut rules);
    g.config = Arc::new(ValleyConfig {
        rules: engine::DataRef::new(rules),
        ..(*g.config).clone()
    });
}

pub(crate) fn set_cost(g: &mut Valley, name: &str, cost: u8) {
    let c = usize::from(id(g, name));
    with_rules(g, |r| r.cards[c].cost = cost);
}

/// A full pyramid of level II/III cards: [B0, B1, B2 | M0, M1 | T].
pub(crate) const FULL_PYRAMID: [Option<&str>; 6] = [
    Some("Hapi Canopic Jar"),
    Some("Book of Gates"),
    Some("Imsety Canopic Jar"),
    Some("Book of the Dead"),
    Some("Book of the Heavens"),
    Some("Statue of Thoth"),
];

/// Buys the card in `slot`, paying with the first offered card each time (K-T4).
pub(crate) fn buy(g: &mut Valley, slot: u8) -> Vec<Event> {
    let mut events = play(g, Action::BeginPurchase { slot });
    while matches!(g.phase, Phase::Paying { .. }) {
        let pay = legal(g)[0];
        events.extend(play(g, pay));
    }
    events
}

pub(crate) fn run(g: &mut Valley, actions: &[Action]) {
    for &a in actions {
        play(g, a);
    }
}

#[allow(dead_code)]
pub(crate) fn quiet(g: &mut Valley, a: Action) {
    g.apply(a, &mut NoEvents).expect("legal");
}
