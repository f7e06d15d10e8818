//! Undo barriers (`Game::reveals`, K-Z12): draws, reveals, refills and hand cards the
//! others could not be sure of are barriers; buying from the face-up pyramid is not.

use super::*;
use crate::pyramid::B0;

/// Plays `action` and says whether the move is a barrier.
fn barrier(g: &mut Valley, action: Action) -> bool {
    let before = g.clone();
    play(g, action).iter().any(|e| before.reveals(e))
}

/// Seat 0 at the Play menu before a full pyramid, holding `hand` over an empty deck.
fn known_hand(hand: &[&str]) -> Valley {
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    set_hand(&mut g, 0, hand);
    g
}

#[test]
fn k_t4_buying_from_the_pyramid_with_a_known_hand_is_no_barrier() {
    // rule K-T4, K-Z9, K-Z12: with an empty deck everyone knows the hand (hand ∪ deck).
    let mut g = known_hand(&["Book of the Netherworld", "Book of the Netherworld", "Boat"]);
    assert!(!barrier(&mut g, Action::BeginPurchase { slot: B0 }));
    while matches!(g.phase, Phase::Paying { .. }) {
        let pay = legal(&g)[0];
        assert!(!barrier(&mut g, pay), "{pay:?}");
    }
}

#[test]
fn k_z12_paying_with_a_card_the_deck_could_hide_is_a_barrier() {
    // rule K-T4b, K-Z12: the others knew only that the card was in hand ∪ deck.
    let mut g = known_hand(&["Book of the Netherworld", "Book of the Netherworld", "Boat"]);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Shabti"]);
    play(&mut g, Action::BeginPurchase { slot: B0 });
    let pay = legal(&g)[0];
    assert!(barrier(&mut g, pay));
}

#[test]
fn k_t11_k_t12_ending_play_with_a_known_hand_is_no_barrier_the_refill_is() {
    // rule K-T10, K-T11, K-T12, K-T14: the pyramid is unchanged, so a sacrifice comes
    // before the refill turns stock cards face up.
    let mut g = known_hand(&["Urn", "Shabti"]);
    assert!(!barrier(&mut g, Action::EndPlay));
    assert_eq!(g.phase, Phase::Rebuild);
    assert!(barrier(&mut g, Action::Sacrifice { slot: 5 }));
}

#[test]
fn k_t11_ending_play_shows_a_hand_the_deck_could_hide() {
    // rule K-T11, K-Z12
    let mut g = known_hand(&["Urn", "Shabti"]);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Box of Food"]);
    assert!(barrier(&mut g, Action::EndPlay));
}

#[test]
fn k_t15_the_end_of_turn_draws() {
    // rule K-T15, K-T21: after a purchase no sacrifice is asked; ending play draws.
    let mut g = known_hand(&["Book of the Netherworld", "Book of the Netherworld", "Boat"]);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Shabti", "Urn", "Urn", "Urn"]);
    buy(&mut g, B0);
    assert!(barrier(&mut g, Action::EndPlay));
}

#[test]
fn k_r4_declining_is_no_barrier() {
    // rule K-R3, K-R4, K-C9: seat 1's Boat lies in its deck; it is asked, and declines.
    let mut g = known_hand(&["Book of the Netherworld", "Book of the Netherworld", "Boat"]);
    set_hand(&mut g, 1, &["Urn"]);
    g.zones_mut(1).deck = set_pile(&g, &["Boat"]);
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(1));
    assert!(!barrier(&mut g, Action::Decline));
}
