use super::*;
use crate::pyramid::{above, B0, B1, B2, M0, M1, T};

const P: &str = "Hapi Canopic Jar";
const Q: &str = "Imsety Canopic Jar";
const Y: &str = "Duamutef Canopic Jar";
const R: &str = "Book of Gates";
const Z: &str = "Book of the Heavens";

/// A game where seat 0 can afford anything in the base (6 gold).
fn rich() -> Valley {
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(
        &mut g,
        0,
        &["Book of the Netherworld", "Book of the Netherworld"],
    );
    g
}

#[test]
fn diagonally_above() {
    // rule K-Z10, K-Z9
    assert_eq!(above(B0), &[M0]);
    assert_eq!(above(B1), &[M0, M1]);
    assert_eq!(above(B2), &[M1]);
    assert_eq!(above(M0), &[T]);
    assert_eq!(above(M1), &[T]);
    assert!(above(T).is_empty());
}

#[test]
fn crumbling_rulebook_example() {
    // rule K-C1, K-T17, K-T19, K-A7
    let mut g = rich();
    set_pyramid(
        &mut g,
        [
            Some(P),
            Some("Middle Sarcophagus"),
            Some(Q),
            Some("Statue of Bastet"),
            Some(Y),
            Some("Heart Scarab Amulet"),
        ],
    );
    let stock = g.stock;
    buy(&mut g, B1);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(
        legal(&g),
        vec![
            Action::CrumbleFrom { slot: M0 },
            Action::CrumbleFrom { slot: M1 }
        ]
    );
    let ev = play(&mut g, Action::CrumbleFrom { slot: M0 });
    let crumbles: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Crumbled { .. }))
        .collect();
    assert_eq!(
        crumbles,
        vec![
            &Event::Crumbled { from: M0, to: B1 },
            &Event::Crumbled { from: T, to: M0 }
        ]
    );
    let want = [
        Some(P),
        Some("Statue of Bastet"),
        Some(Q),
        Some("Heart Scarab Amulet"),
        Some(Y),
        None,
    ];
    assert_eq!(pyramid_names(&g), want.map(|s| s.map(String::from)));
    assert_eq!(g.stock, stock, "no refill during the turn");
}

#[test]
fn crumbling_variant_from_the_right() {
    // rule K-C1, K-T17 (variant C1b)
    let mut g = rich();
    set_pyramid(
        &mut g,
        [
            Some(P),
            Some("Middle Sarcophagus"),
            Some(Q),
            Some(Y),
            Some("Statue of Bastet"),
            Some("Heart Scarab Amulet"),
        ],
    );
    buy(&mut g, B1);
    play(&mut g, Action::CrumbleFrom { slot: M1 });
    let want = [
        Some(P),
        Some("Statue of Bastet"),
        Some(Q),
        Some(Y),
        Some("Heart Scarab Amulet"),
        None,
    ];
    assert_eq!(pyramid_names(&g), want.map(|s| s.map(String::from)));
}

#[test]
fn single_candidate_needs_no_decision() {
    // rule K-C2, K-T18
    let mut g = rich();
    set_pyramid(&mut g, [Some(P), Some(R), Some(Q), None, Some(Y), None]);
    buy(&mut g, B1);
    assert!(g.crumble.is_none());
    assert_eq!(
        pyramid_names(&g),
        [Some(P), Some(Y), Some(Q), None, None, None].map(|s| s.map(String::from))
    );

    let mut g = rich();
    set_pyramid(
        &mut g,
        [
            Some(P),
            Some(R),
            Some(Q),
            Some("Middle Sarcophagus"),
            Some(Y),
            Some(Z),
        ],
    );
    buy(&mut g, B0);
    assert_eq!(
        pyramid_names(&g),
        [
            Some("Middle Sarcophagus"),
            Some(R),
            Some(Q),
            Some(Z),
            Some(Y),
            None
        ]
        .map(|s| s.map(String::from))
    );

    // Removing T crumbles nothing.
    let mut g = rich();
    set_pyramid(
        &mut g,
        [
            Some(P),
            Some(R),
            Some(Q),
            Some("Middle Sarcophagus"),
            Some(Y),
            Some(Z),
        ],
    );
    let mut ev = Vec::new();
    g.remove_from_pyramid(T);
    g.crumble_into(T, 0, &mut ev);
    assert!(ev.is_empty());
}

#[test]
fn refill_from_the_base_up() {
    // rule K-C7, K-T14, K-A1
    let mut g = rich();
    set_pyramid(&mut g, [Some(P), None, Some(Q), None, None, None]);
    g.stock = set_pile(&g, &["Book of the Dead", R]); // R on top
    g.refill(&mut NoEvents);
    assert_eq!(
        pyramid_names(&g),
        [
            Some(P),
            Some(R),
            Some(Q),
            Some("Book of the Dead"),
            None,
            None
        ]
        .map(|s| s.map(String::from))
    );
    assert!(g.stock.is_empty());
    assert!(g.pyramid_supported());

    let mut g = rich();
    set_pyramid(&mut g, [Some(P), None, Some(Q), None, None, None]);
    g.stock = set_pile(&g, &["Statue of Thoth", Y, Z, "Book of the Dead", R]);
    g.refill(&mut NoEvents);
    assert_eq!(
        pyramid_names(&g),
        [
            Some(P),
            Some(R),
            Some(Q),
            Some("Book of the Dead"),
            Some(Z),
            Some(Y)
        ]
        .map(|s| s.map(String::from))
    );
    assert_eq!(names(&g, &g.stock), vec!["Statue of Thoth"]);
}

#[test]
fn reserved_card_crumbles_and_keeps_its_reservation() {
    // rule K-T20, K-E15
    let mut g = rich();
    set_pyramid(&mut g, [Some(P), Some(R), Some(Q), Some(Y), None, None]);
    g.pyramid[usize::from(M0)].reserved_by = 2;
    buy(&mut g, B0);
    assert_eq!(g.pyramid_card(B0), Some(id(&g, Y)));
    assert_eq!(g.pyramid[usize::from(B0)].reserved_by, 2);
    // Seat 0 may not buy it while seat 2 holds it.
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: B0 }));
    assert!(
        !legal(&g).contains(&Action::BeginPurchase { slot: B2 }) || g.pyramid_card(B2).is_some()
    );
    let _ = B2;
}

#[test]
fn a_purchase_or_sacrifice_is_told_before_the_crumbling_it_causes() {
    // rule K-T17, K-T4c, K-T10: events follow the order things happen at the table.
    let full = [
        Some(P),
        Some("Middle Sarcophagus"),
        Some(Q),
        Some("Statue of Bastet"),
        Some(Y),
        Some("Heart Scarab Amulet"),
    ];
    let position = |ev: &[Event], what: fn(&Event) -> bool| {
        ev.iter()
            .position(what)
            .unwrap_or_else(|| panic!("missing event in {ev:?}"))
    };
    // A purchase from B0: M0 falls into B0, then T into M0.
    let mut g = rich();
    set_pyramid(&mut g, full);
    let ev = buy(&mut g, B0);
    let bought = position(&ev, |e| matches!(e, Event::Bought { .. }));
    let crumbled = position(&ev, |e| matches!(e, Event::Crumbled { .. }));
    assert!(bought < crumbled, "{ev:?}");
    // A sacrifice from B2: M1 falls into B2, then T into M1.
    let mut g = rich();
    set_pyramid(&mut g, full);
    play(&mut g, Action::EndPlay);
    let ev = play(&mut g, Action::Sacrifice { slot: B2 });
    let sacrificed = position(&ev, |e| matches!(e, Event::Sacrificed { .. }));
    let crumbled = position(&ev, |e| matches!(e, Event::Crumbled { .. }));
    assert!(sacrificed < crumbled, "{ev:?}");
}
