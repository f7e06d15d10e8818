//! The turn structure (K-T*), end and termination (K-G*), ambiguities (K-A*).

use super::*;
use crate::pyramid::{B0, B1};
use crate::state::GOLD_TAG;

#[test]
fn play_menu_items() {
    // rule K-T3, K-T10, K-SC5, K-A11
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(
        &mut g,
        [
            Some("Hapi Canopic Jar"),
            Some("Imsety Canopic Jar"),
            Some("Book of Gates"),
            None,
            None,
            None,
        ],
    );
    set_hand(&mut g, 0, &["Urn", "Urn", "Shabti"]);
    let (shabti, urn) = (id(&g, "Shabti"), id(&g, "Urn"));
    assert!(shabti < urn);
    // Starters have no known action; one Entomb per kind, in canonical order.
    assert_eq!(
        legal(&g),
        vec![
            Action::BeginPurchase { slot: 0 },
            Action::BeginPurchase { slot: 1 },
            Action::BeginPurchase { slot: 2 },
            Action::Entomb { card: shabti },
            Action::Entomb { card: urn },
            Action::EndPlay,
        ]
    );
    // An empty hand still offers EndPlay (a single option is still a decision).
    set_hand(&mut g, 0, &[]);
    assert_eq!(legal(&g), vec![Action::EndPlay]);
}

#[test]
fn a_card_is_used_once_for_one_purpose() {
    // rule K-T3, K-T5, K-T6
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(
        &mut g,
        [Some("Hapi Canopic Jar"), None, None, None, None, None],
    );
    set_hand(&mut g, 0, &["Book of the Netherworld", "Urn"]);
    g.stock = set_pile(&g, &["Book of Gates"]);
    let nether = id(&g, "Book of the Netherworld");
    play(&mut g, Action::PlayAction { card: nether });
    // The Netherworld's gold no longer counts: 1 gold left < cost 3.
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: B0 }));
    assert!(!legal(&g)
        .iter()
        .any(|a| matches!(a, Action::Entomb { card } if *card == nether)));
}

#[test]
fn paying_offers_no_zero_gold_cards_and_no_cancel() {
    // rule K-T4, K-A4, K-A6
    let mut g = new_game(3);
    at_play(&mut g, 0);
    with_rules(&mut g, |r| {
        let s = r.card_named("Shabti").expect("shabti");
        r.cards[usize::from(s)].gold = 0;
    });
    set_pyramid(
        &mut g,
        [Some("Hapi Canopic Jar"), None, None, None, None, None],
    );
    set_hand(&mut g, 0, &["Shabti", "Urn", "Book of the Netherworld"]);
    play(&mut g, Action::BeginPurchase { slot: B0 });
    let l = legal(&g);
    assert_eq!(
        l,
        vec![
            Action::Pay {
                card: id(&g, "Urn")
            },
            Action::Pay {
                card: id(&g, "Book of the Netherworld")
            }
        ]
    );
    assert!(!l.contains(&Action::EndPlay));
    // A zero-cost card is bought at once, without payment.
    set_cost(&mut g, "Imsety Canopic Jar", 0);
    let mut g2 = new_game(3);
    at_play(&mut g2, 0);
    g2.config = g.config.clone();
    set_pyramid(
        &mut g2,
        [Some("Imsety Canopic Jar"), None, None, None, None, None],
    );
    let ev = play(&mut g2, Action::BeginPurchase { slot: B0 });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Bought {
            paid: 0,
            lost: 0,
            ..
        }
    )));
}

#[test]
fn end_of_turn_discard_rebuild_draw_and_next_seat() {
    // rule K-T11, K-A10, K-T14, K-T15, K-T16, K-T1, K-T2, K-A2
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(
        &mut g,
        [
            Some("Hapi Canopic Jar"),
            Some("Book of Gates"),
            None,
            None,
            None,
            None,
        ],
    );
    g.stock = set_pile(&g, &["Book of the Dead", "Statue of Thoth"]);
    set_hand(
        &mut g,
        0,
        &["Urn", "Shabti", "Book of the Netherworld", "Offering Table"],
    );
    g.zones_mut(0).deck = set_pile(&g, &["Box of Food"; 7]);
    let hapi = id(&g, "Hapi Canopic Jar");
    play(&mut g, Action::BeginPurchase { slot: B0 });
    let card = id(&g, "Book of the Netherworld");
    play(&mut g, Action::Pay { card });
    // K-A2: the bought card is in the discard pile, not the hand.
    assert!(!legal(&g).contains(&Action::Entomb { card: hapi }));
    let card = id(&g, "Offering Table");
    play(&mut g, Action::Entomb { card });
    play(&mut g, Action::EndPlay);
    // In-play cards (play order), then the hand (canonical order), onto the discard pile.
    assert_eq!(
        names(&g, &g.zones(0).discard),
        vec![
            "Hapi Canopic Jar",
            "Book of the Netherworld",
            "Shabti",
            "Urn"
        ]
    );
    assert!(g.zones(0).in_play.is_empty());
    assert_eq!(g.zones(0).hand.len(), 5);
    assert_eq!(g.zones(0).turns, 1);
    assert_eq!(g.active, 1);
    assert_eq!(g.turn, TurnState::fresh());
    // The gap left by the purchase was refilled from the stock: B0 then B2.
    assert_eq!(g.pyramid_card(0), Some(id(&g, "Statue of Thoth")));
    let _ = (B1, GOLD_TAG);
}

#[test]
fn views_carry_the_turn_state() {
    // rule K-T2, K-Z3, K-Z13
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Urn", "Shabti"]);
    let card = id(&g, "Urn");
    play(&mut g, Action::Entomb { card });
    let v = g.view(Some(1));
    assert_eq!(v.turn.entombs_used, 1);
    assert_eq!(v.active, 0);
    assert_eq!(v.to_move, Some(0));
    assert!(
        v.legal.is_empty(),
        "legal actions only for the seat that decides"
    );
    assert!(!g.view(Some(0)).legal.is_empty());
    assert_eq!(v.seats[0].tomb, ids(&g, &["Urn"]));
}

#[test]
fn games_end_and_are_deterministic() {
    // rule K-G6, K-G1
    use engine::playout::random_playout;
    for players in 2..=6u8 {
        let pool = if players > 4 { "premium" } else { "base" };
        let config = ValleyConfig {
            players,
            pool: Some(pool.into()),
            ..ValleyConfig::default()
        };
        let mut g = Valley::new(&config, u64::from(players)).expect("valid");
        let mut h = g.clone();
        let n = random_playout(
            &mut g,
            &mut engine::rng_from_seed(1),
            &mut Vec::new(),
            100_000,
        );
        random_playout(
            &mut h,
            &mut engine::rng_from_seed(1),
            &mut Vec::new(),
            100_000,
        );
        assert!(
            g.to_move().is_none(),
            "{players} players: not over after {n} actions"
        );
        assert_eq!(g, h);
        let turns = g.zones(0).turns;
        assert!((0..players).all(|s| g.zones(s).turns == turns));
        assert!(g.stock.is_empty() && g.pyramid_empty());
    }
}
