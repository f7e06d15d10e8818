//! Reactions beyond the K-C9 scenario (K-R*).

use super::*;
use crate::pyramid::B0;

fn boat_game() -> Valley {
    let mut g = new_game(4);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    set_hand(
        &mut g,
        0,
        &["Book of the Netherworld", "Book of the Netherworld", "Boat"],
    );
    g
}

#[test]
fn seats_are_asked_in_turn_order_and_react_once() {
    // rule K-R3, K-R4, K-R5, K-R6, K-R2, K-T19
    let mut g = boat_game();
    set_hand(&mut g, 2, &["Boat"]);
    set_hand(&mut g, 3, &["Urn"]);
    g.zones_mut(3).deck = set_pile(&g, &["Boat"]);
    set_hand(&mut g, 1, &["Urn"]);
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(2), "seat 1 has no Boat anywhere");
    let boat = id(&g, "Boat");
    play(&mut g, Action::React { card: boat });
    play(&mut g, Action::ChooseSlot { slot: 1 });
    // K-T19: the reacting seat chooses the crumble, at once, during seat 0's turn.
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(
        legal(&g),
        vec![
            Action::CrumbleFrom { slot: 3 },
            Action::CrumbleFrom { slot: 4 }
        ]
    );
    play(&mut g, Action::CrumbleFrom { slot: 4 });
    assert_eq!(g.to_move(), Some(3));
    assert_eq!(legal(&g), vec![Action::Decline]);
    play(&mut g, Action::Decline);
    assert_eq!((g.to_move(), g.phase), (Some(0), Phase::Play));
}

#[test]
fn boat_on_its_owners_turn_is_gold_or_entombed() {
    // rule K-A23, K-R1
    let mut g = boat_game();
    let boat = id(&g, "Boat");
    let l = legal(&g);
    assert!(!l.contains(&Action::PlayAction { card: boat }));
    assert!(!l.contains(&Action::React { card: boat }));
    assert!(l.contains(&Action::Entomb { card: boat }));
    play(&mut g, Action::BeginPurchase { slot: B0 });
    assert!(legal(&g).contains(&Action::Pay { card: boat }));
}

#[test]
fn takes_and_sacrifices_open_no_window() {
    // rule K-R2, K-R7
    let mut g = boat_game();
    set_hand(&mut g, 1, &["Boat"]);
    set_hand(&mut g, 0, &["Book of the Dead"]);
    let card = id(&g, "Book of the Dead");
    play(&mut g, Action::PlayAction { card });
    let lowest = legal(&g)[0];
    play(&mut g, lowest);
    assert_eq!((g.to_move(), g.phase), (Some(0), Phase::Play));
}
