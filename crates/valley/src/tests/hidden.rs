//! Hidden information (K-Z*): views, events and determinization.

use super::*;
use engine::rng_from_seed;

#[test]
fn views_hide_hands_and_orders() {
    // rule K-Z1, K-Z2, K-Z4, K-Z5, K-Z8, K-Z12, K-Z13
    let g = new_game(3);
    let own = g.view(Some(0));
    assert_eq!(own.seats[0].hand.as_deref(), Some(&g.zones(0).hand[..]));
    assert!(own.seats[1].hand.is_none() && own.seats[2].hand.is_none());
    assert_eq!(own.seats[1].hand_size, 5);
    assert_eq!(own.seats[1].deck_size, 5);
    let spectator = g.view(None);
    assert!(spectator.seats.iter().all(|s| s.hand.is_none()));
    assert_eq!(spectator.stock_size, g.stock.len());
    assert_eq!(spectator.stock_level_ii, 22);
    let json = serde_json::to_string(&spectator).expect("serializes");
    assert!(!json.contains("rng"));
    // The public multiset of hand and deck (K-Z12a).
    let mut hd: Vec<CardId> = g
        .zones(1)
        .hand
        .iter()
        .chain(g.zones(1).deck.iter())
        .copied()
        .collect();
    hd.sort_unstable();
    assert_eq!(own.seats[1].hand_and_deck, hd);
}

#[test]
fn determinize_resamples_consistently() {
    // rule K-Z13, K-Z7, K-Z12
    let g = new_game(4);
    let mut rng = rng_from_seed(5);
    let mut moved = false;
    for _ in 0..20 {
        let d = g.determinize(Some(1), &mut rng);
        assert_eq!(d.view(Some(1)), g.view(Some(1)));
        assert_eq!(d.zones(1).hand, g.zones(1).hand);
        let levels: Vec<u8> = d.stock.iter().map(|&c| d.rules().card(c).level).collect();
        let first_ii = levels.iter().position(|&l| l == 2).unwrap_or(levels.len());
        assert!(
            levels[first_ii..].iter().all(|&l| l == 2),
            "level II above level III"
        );
        let mut a = d.all_cards();
        let mut b = g.all_cards();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        moved |= d.zones(2).hand != g.zones(2).hand || d.stock != g.stock;
        assert_ne!(d.rng, g.rng, "the RNG is reseeded");
    }
    assert!(moved, "hidden things are resampled");
}

#[test]
fn draw_events_carry_counts_only() {
    // rule K-Z14
    let mut g = new_game(3);
    let seat = g.active;
    let ev = play(&mut g, Action::EndPlay);
    let ev = if g.active == seat {
        let a = legal(&g)[0];
        play(&mut g, a)
    } else {
        ev
    };
    assert!(ev.contains(&Event::Drew { seat, count: 5 }));
    let json = serde_json::to_string(&ev).expect("serializes");
    assert!(!json.contains("name"));
}

#[test]
fn pyramid_and_tomb_are_public() {
    // rule K-Z9, K-Z11, K-Z5
    let g = new_game(3);
    let v = g.view(None);
    for slot in 0..6 {
        assert_eq!(v.pyramid[slot].map(|s| s.card), g.pyramid_card(slot as u8));
    }
    assert!(g.pyramid_supported());
}

#[test]
fn cards_taken_to_the_hand_are_known_to_all() {
    // rule K-Z12, K-Z13, K-E6
    use crate::data::{Dest, Filter, Part, Prim, Zone};
    let mut g = new_game(3);
    at_play(&mut g, 0);
    let take = Part {
        prim: Prim::Take {
            from: Zone::StockTop,
            to: Dest::Hand,
        },
        may: false,
        bind: None,
        slots: 0b11_1111,
        filter: Filter::default(),
        each_opponent: false,
        exempt_total_le: None,
        count: 1,
        min: 1,
    };
    let urn = id(&g, "Urn");
    with_rules(&mut g, |r| {
        r.cards[usize::from(urn)].action = Some(vec![take])
    });
    set_hand(&mut g, 0, &["Urn", "Shabti"]);
    g.zones_mut(0).deck = set_pile(&g, &["Medjay", "Kite", "Menial"]);
    g.stock = set_pile(&g, &["Book of the Dead"]);
    play(&mut g, Action::PlayAction { card: urn });
    let dead = id(&g, "Book of the Dead");
    assert_eq!(g.view(Some(1)).seats[0].known_in_hand, vec![dead]);
    let mut rng = rng_from_seed(8);
    for _ in 0..10 {
        let d = g.determinize(Some(1), &mut rng);
        assert!(
            d.zones(0).hand.contains(&dead),
            "a sample keeps the known card in hand"
        );
        assert_eq!(d.view(Some(1)), g.view(Some(1)));
    }
    // Once it leaves the hand, it is no longer known to be there.
    play(&mut g, Action::Entomb { card: dead });
    assert!(g.view(Some(1)).seats[0].known_in_hand.is_empty());
}
