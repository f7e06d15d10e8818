//! The terminal table (`Game::render_view`): every piece is drawn, from the seat's view only
//! (K-Z12, K-Z13, K-A20).

use super::*;
use engine::rng_from_seed;

#[test]
fn the_pyramid_shows_each_card_by_slot_with_its_numbers_set_and_action() {
    // rule K-Z9, K-A20
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    let text = g.render_view(Some(0));
    let line = |slot: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{slot} ")))
            .unwrap_or_else(|| panic!("no line for slot {slot} in:\n{text}"))
            .to_string()
    };
    for (slot, name) in ["B0", "B1", "B2", "M0", "M1", "T"].iter().zip(FULL_PYRAMID) {
        assert!(
            line(slot).contains(name.expect("full")),
            "{slot}: {}",
            line(slot)
        );
    }
    let gates = g.rules().card(id(&g, "Book of Gates"));
    let b1 = line("B1");
    assert!(b1.contains(&format!("cost {}", gates.cost)), "{b1}");
    assert!(b1.contains(&format!("{} gold", gates.gold)), "{b1}");
    assert!(b1.contains("set Books"), "{b1}");
    assert!(
        b1.contains("action: reveal the top card of your deck"),
        "{b1}"
    );
    // Provisional data is marked, and the mark explained.
    assert!(b1.contains("Book of Gates*"), "{b1}");
    assert!(text.contains("* marks a card with provisional data"));
    assert!(text.contains("stock: "));
}

#[test]
fn the_owner_sees_hand_gold_in_play_and_piles_others_see_counts() {
    // rule K-Z12, K-T5
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Shabti", "Urn", "Boat"]);
    set_hand(&mut g, 1, &["Censer", "Urn"]);
    g.zones_mut(0).discard = set_pile(&g, &["Kite"]);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Urn"]);
    g.in_play_push(0, id(&g, "Menial"), true);
    let gold: u32 = ["Shabti", "Urn", "Boat"]
        .iter()
        .map(|n| u32::from(g.rules().card(id(&g, n)).gold))
        .sum();
    let mine = g.render_view(Some(0));
    assert!(
        mine.contains(&format!("hand (3 cards, {gold} gold available): ")),
        "{mine}"
    );
    assert!(mine.contains("Boat"), "{mine}");
    assert!(
        mine.contains("deck: 2 cards; discard pile: 1 card (top: Kite)"),
        "{mine}"
    );
    assert!(
        mine.contains("in play (") && mine.contains("Menial (gold)"),
        "{mine}"
    );
    assert!(
        mine.contains("hand: 2 cards"),
        "seat 1's hand is a count:\n{mine}"
    );
    assert!(!mine.contains("Censer"), "seat 1's hand is hidden:\n{mine}");
    let theirs = g.render_view(Some(1));
    assert!(
        theirs.contains("Censer") && !theirs.contains("Boat"),
        "{theirs}"
    );
}

#[test]
fn a_render_is_the_same_for_every_state_the_seat_cannot_tell_apart() {
    // rule K-Z13: the text is drawn from what the seat may know only
    let g = new_game(4);
    let mut rng = rng_from_seed(3);
    for seat in [Some(0), Some(2), None] {
        for _ in 0..10 {
            let d = g.determinize(seat, &mut rng);
            assert_eq!(d.render_view(seat), g.render_view(seat));
        }
    }
}

#[test]
fn tombs_are_grouped_by_set_with_their_points_now() {
    // rule K-G3
    let mut g = new_game(3);
    at_play(&mut g, 0);
    g.zones_mut(2).tomb = set_pile(
        &g,
        &[
            "Shabti",
            "Book of Gates",
            "Book of the Dead",
            "Hapi Canopic Jar",
        ],
    );
    let text = g.render_view(Some(0));
    let score = g.score(2);
    assert!(
        text.contains(&format!("tomb (4 cards, {} points now)", score.total)),
        "{text}"
    );
    assert!(
        text.contains("set Books (2 of 6 kinds), 4 points: Book of Gates, Book of the Dead"),
        "{text}"
    );
    assert!(
        text.contains("set Canopic Jars (1 of 4 kinds), 1 point: Hapi Canopic Jar"),
        "{text}"
    );
    assert!(text.contains("starters, 1 point: Shabti"), "{text}");
    assert!(text.contains("tomb: empty"), "seat 1's empty tomb:\n{text}");
}

#[test]
fn a_purchase_being_paid_shows_what_is_paid_of_the_cost() {
    // rule K-T4b
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    set_cost(&mut g, "Book of Gates", 3);
    set_hand(
        &mut g,
        0,
        &["Shabti", "Urn", "Box of Food", "Offering Table"],
    );
    play(&mut g, Action::BeginPurchase { slot: 1 });
    let pay = legal(&g)[0];
    play(&mut g, pay);
    let text = g.render_view(Some(0));
    assert!(
        text.contains("Buying Book of Gates from B1: 1 of 3 gold paid"),
        "{text}"
    );
}
