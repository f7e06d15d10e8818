//! Undo barriers (`Game::reveals`): hand tiles and unknown hand cards shown (P-Z2,
//! P-Z3), and draws (P-Z5), are barriers; figures and known cards are public (P-Z1).

use super::*;
use crate::components::Resource;

/// Plays `action` and says whether the move is a barrier.
fn barrier(g: &mut Pandoria, action: Action) -> bool {
    let before = g.clone();
    let mut events = Vec::new();
    g.apply(action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?}: {e}; legal {:?}", legal(g)));
    events.iter().any(|e| before.reveals(e))
}

// rule P-T1, P-Z2, P-T3: placing the hand tile shows it; the figure phase shows nothing.
#[test]
fn p_z2_placing_a_hand_tile_is_a_barrier_placing_a_figure_is_not() {
    let config = PandoriaConfig {
        players: 2,
        ..PandoriaConfig::default()
    };
    let mut g = Pandoria::new(&config, 4).unwrap();
    let place = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceTile { .. }))
        .unwrap();
    assert!(barrier(&mut g, place));
    assert_eq!(g.phase, Phase::Figure);
    let figure = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceFigure { .. }))
        .unwrap();
    assert!(!barrier(&mut g, figure));
}

// rule P-T5, P-Z3: a card every seat knows is in the hand shows nothing when built; an
// unknown one does.
#[test]
fn p_z3_building_a_known_card_is_no_barrier_an_unknown_one_is() {
    let rules = rules_with(|r| r.cards[0] = building_card(Building::Statue, 0, 1));
    for known in [true, false] {
        let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
        g.players[0].hand = 0b1;
        g.players[0].known = if known { 0b1 } else { 0 };
        g.players[0].resources[Resource::Wood.index()] = 10;
        // The next seat has a card, so its card phase is asked (P-T4) before the round
        // could end stalled (P-E3) and show the outcome.
        g.players[1].hand = 0b10;
        g.placed_this_round = true;
        let build = Action::Build {
            card: 0,
            slot: 0,
            pay: None,
        };
        assert_eq!(barrier(&mut g, build), !known, "known: {known}");
    }
}
