//! Undo barriers (`Game::reveals`): only what shows a book face no one has seen (V-I2),
//! and the end, are barriers; movement, loading and passing are public (V-I1).

use engine::Game;

use super::{at_turn_start, legal, new_game, play, stand};
use crate::actions::Action;
use crate::components::Side;
use crate::state::Valdora;

/// Plays `action` and says whether the move is a barrier.
fn barrier(g: &mut Valdora, action: Action) -> bool {
    let before = g.clone();
    play(g, action).iter().any(|e| before.reveals(e))
}

#[test]
fn v_i2_turning_an_unseen_page_is_a_barrier_turning_it_back_is_not() {
    // rule V-A1, V-C6, V-I2
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 6;
    // The top card's verso and the recto under it show for the first time.
    assert!(barrier(&mut g, Action::Turn { from: Side::Right }));
    // The left pile holds only cards whose faces are both known.
    assert!(!barrier(&mut g, Action::Turn { from: Side::Left }));
    // The card is known now, and the one under it showed its recto already.
    assert!(!barrier(&mut g, Action::Turn { from: Side::Right }));
}

#[test]
fn v_i2_buying_a_known_card_is_no_barrier_buying_an_unseen_one_is() {
    // rule V-A1, V-I2
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 6;
    assert!(barrier(&mut g, Action::Turn { from: Side::Right }));
    // Both faces of the turned card are known; the left pile under it is empty.
    assert!(!barrier(&mut g, Action::BuyCommission { side: Side::Left }));
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 6;
    // The top recto showed, but its verso (the buyer holds both faces up) did not.
    assert!(barrier(&mut g, Action::BuyCommission { side: Side::Right }));
}

#[test]
fn v_i1_moving_and_passing_are_no_barriers() {
    // rule V-T1, V-A6, V-I1
    let mut g = new_game(3);
    at_turn_start(&mut g, 0, "g01");
    let to = legal(&g)[0];
    assert!(matches!(to, Action::Move { .. }));
    assert!(!barrier(&mut g, to));
    assert!(!barrier(&mut g, Action::Pass));
}
