//! The rulebook examples and the spec's conformance scenarios (K-C*).

use super::*;
use crate::pyramid::{B0, B1, B2, M0, M1, T};
use crate::scoring::{outcome_of, score_tomb};

fn buying_position() -> Valley {
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Tyet Amulet", "Book of the Netherworld"]);
    set_cost(&mut g, "Hapi Canopic Jar", 1);
    set_pyramid(
        &mut g,
        [
            Some("Hapi Canopic Jar"),
            Some("Statue of Bastet"),
            Some("Imsety Canopic Jar"),
            Some("Book of Gates"),
            Some("Book of the Heavens"),
            Some("Book of the Dead"),
        ],
    );
    g
}

#[test]
fn buying_statue_of_bastet() {
    // rule K-C3, K-T4, K-T5, K-A4, K-A6
    let mut g = buying_position();
    let (tyet, nether, bastet) = (
        id(&g, "Tyet Amulet"),
        id(&g, "Book of the Netherworld"),
        id(&g, "Statue of Bastet"),
    );
    assert_eq!(g.rules().card(bastet).cost, 4);
    assert!(legal(&g).contains(&Action::BeginPurchase { slot: B1 }));
    play(&mut g, Action::BeginPurchase { slot: B1 });
    play(&mut g, Action::Pay { card: tyet });
    assert!(matches!(g.phase, Phase::Paying { paid: 2, .. }));
    assert_eq!(legal(&g), vec![Action::Pay { card: nether }]);
    assert_eq!(g.pyramid_card(B1), Some(bastet));
    let ev = play(&mut g, Action::Pay { card: nether });
    assert_eq!(g.zones(0).discard.last(), Some(&bastet));
    assert_eq!(
        g.zones(0).in_play.to_vec(),
        vec![
            tyet | crate::state::GOLD_TAG,
            nether | crate::state::GOLD_TAG
        ]
    );
    assert!(ev.contains(&Event::Bought {
        seat: 0,
        card: bastet,
        slot: B1,
        paid: 5,
        lost: 1
    }));
    assert_eq!(g.turn.purchases.to_vec(), vec![4]);
    assert!(g.turn.pyramid_changed);
    // Both middle cards present: the crumble choice comes first.
    assert_eq!(
        legal(&g),
        vec![
            Action::CrumbleFrom { slot: M0 },
            Action::CrumbleFrom { slot: M1 }
        ]
    );
    play(&mut g, Action::CrumbleFrom { slot: M0 });
    assert!(g.zones(0).hand.is_empty());
    let after = legal(&g);
    assert!(
        !after.contains(&Action::BeginPurchase { slot: B0 }),
        "the lost gold is gone"
    );
    assert!(!after.iter().any(|a| matches!(a, Action::PlayAction { .. })));
}

#[test]
fn buying_needs_enough_gold_and_order_does_not_matter() {
    // rule K-C3 (C3b, C3c), K-T4
    let mut g = buying_position();
    set_hand(&mut g, 0, &["Tyet Amulet"]);
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: B1 }));
    // Bad input: an unaffordable purchase is refused and changes nothing.
    let before = g.clone();
    assert_eq!(
        g.apply(Action::BeginPurchase { slot: B1 }, &mut Vec::new())
            .map_err(|e| e.kind),
        Err(engine::ActionErrorKind::Illegal)
    );
    assert_eq!(g, before);

    let mut a = buying_position();
    let mut b = buying_position();
    let (tyet, nether) = (id(&a, "Tyet Amulet"), id(&a, "Book of the Netherworld"));
    run(
        &mut a,
        &[
            Action::BeginPurchase { slot: B1 },
            Action::Pay { card: tyet },
            Action::Pay { card: nether },
        ],
    );
    run(
        &mut b,
        &[
            Action::BeginPurchase { slot: B1 },
            Action::Pay { card: nether },
            Action::Pay { card: tyet },
        ],
    );
    assert_eq!(a.pyramid, b.pyramid);
    assert_eq!(a.zones(0).discard, b.zones(0).discard);
    assert_eq!(a.turn, b.turn);
    let mut ia = a.zones(0).in_play.to_vec();
    let mut ib = b.zones(0).in_play.to_vec();
    ia.sort_unstable();
    ib.sort_unstable();
    assert_eq!(ia, ib);
}

#[test]
fn scoring_rulebook_example() {
    // rule K-C4, K-G3
    let g = Valley::new(
        &ValleyConfig {
            pool: Some("last_rites".into()),
            ..ValleyConfig::default()
        },
        1,
    )
    .expect("valid");
    let tomb = ids(
        &g,
        &[
            "Menial",
            "Menial",
            "Menial",
            "Carpenter",
            "Priest of Thoth",
            "Priest of Thoth",
            "Priest of Sobek",
        ],
    );
    let s = score_tomb(g.rules(), &tomb);
    assert_eq!(s.total, 8);
    assert_eq!(s.starters, 3);
    assert_eq!(s.tomb_size, 7);
    let set = |name: &str| {
        g.rules()
            .sets
            .iter()
            .position(|x| x.name == name)
            .expect("set")
    };
    assert_eq!(s.sets[set("Builders")], (1, 1));
    assert_eq!(s.sets[set("Priests")], (2, 4));
    // The second Priest of Thoth adds nothing.
    let mut fewer = tomb.clone();
    fewer.remove(5);
    assert_eq!(score_tomb(g.rules(), &fewer).total, 8);
}

#[test]
fn tie_break_fewer_tomb_cards() {
    // rule K-C5, K-G5, K-G4
    let g = new_game(4);
    let mk = |total: i32, size: usize| crate::scoring::TombScore {
        starters: total,
        uniques: 0,
        sets: vec![(0, 0); g.rules().sets.len()],
        total,
        tomb_size: size,
    };
    let o = outcome_of(g.rules(), &[mk(8, 7), mk(8, 9), mk(8, 7), mk(5, 1)]);
    let ranks: Vec<u8> = o.seats.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 3, 1, 4]);
    assert_eq!(o.winners().collect::<Vec<_>>(), vec![0, 2]);
    assert_eq!(o.seats[0].breakdown[0].category, "starters");
    assert_eq!(o.seats[1].tiebreaks, vec![-9]);
}

#[test]
fn rebuild_sacrifice_when_the_pyramid_was_not_changed() {
    // rule K-C6, K-T12, K-T13, K-A9
    let full = FULL_PYRAMID;
    // (a)
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, full);
    g.stock = set_pile(&g, &["Tyet Amulet"]);
    play(&mut g, Action::EndPlay);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(
        legal(&g),
        (0..6)
            .map(|slot| Action::Sacrifice { slot })
            .collect::<Vec<_>>()
    );
    let thoth = id(&g, "Statue of Thoth");
    let ev = play(&mut g, Action::Sacrifice { slot: T });
    assert!(!ev.iter().any(|e| matches!(e, Event::Crumbled { .. })));
    assert_eq!(g.boneyard.last(), Some(&thoth));
    assert_eq!(g.pyramid_card(T), Some(id(&g, "Tyet Amulet")));
    assert_eq!(g.active, 1);
    // (b) a purchase: no sacrifice, the refill fills the gaps.
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, full);
    set_hand(
        &mut g,
        0,
        &["Book of the Netherworld", "Book of the Netherworld"],
    );
    g.stock = set_pile(&g, &["Tyet Amulet"]);
    buy(&mut g, B0);
    play(&mut g, Action::EndPlay);
    assert_eq!(g.active, 1, "no sacrifice was asked");
    assert!((0..6).all(|s| g.pyramid_card(s).is_some()));
    // (c) sacrificing B1 under both middle cards: the crumble choice, then the refill.
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, full);
    g.stock = set_pile(&g, &["Tyet Amulet"]);
    run(&mut g, &[Action::EndPlay, Action::Sacrifice { slot: B1 }]);
    assert_eq!(
        legal(&g),
        vec![
            Action::CrumbleFrom { slot: M0 },
            Action::CrumbleFrom { slot: M1 }
        ]
    );
    play(&mut g, Action::CrumbleFrom { slot: M1 });
    assert_eq!(g.active, 1);
    assert_eq!(
        g.pyramid_card(T),
        Some(id(&g, "Tyet Amulet")),
        "refilled after the crumble"
    );
    // (d) empty pyramid and stock: straight to the draw.
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, [None; 6]);
    g.stock.clear();
    g.zones_mut(0).deck = set_pile(&g, &["Urn"; 6]);
    play(&mut g, Action::EndPlay);
    assert_eq!(g.active, 1);
    assert_eq!(g.zones(0).hand.len(), 5);
}

#[test]
fn end_of_the_game() {
    // rule K-C8, K-G1, K-G2
    let mut g = new_game(3);
    at_play(&mut g, 1);
    g.start_seat = 0;
    for s in 0..3 {
        g.zones_mut(s).turns = 4;
    }
    g.zones_mut(0).turns = 5;
    g.stock.clear();
    set_pyramid(
        &mut g,
        [Some("Hapi Canopic Jar"), None, None, None, None, None],
    );
    set_hand(
        &mut g,
        1,
        &["Book of the Netherworld", "Book of the Netherworld"],
    );
    buy(&mut g, B0);
    play(&mut g, Action::EndPlay);
    assert_eq!(g.to_move(), Some(2), "not over after seat 1's turn");
    set_hand(&mut g, 2, &["Book of the Earth", "Urn"]);
    let options = legal(&g);
    assert!(options.iter().any(|a| matches!(a, Action::Entomb { .. })));
    assert!(!options
        .iter()
        .any(|a| matches!(a, Action::BeginPurchase { .. } | Action::Sacrifice { .. })));
    play(&mut g, Action::EndPlay);
    assert_eq!(g.to_move(), None, "over after seat 2's draw");
    assert!(g.outcome().is_some());
    assert!((0..3).all(|s| g.zones(s).turns == 5));
}

#[test]
fn boat_window() {
    // rule K-C9, K-R1, K-R2, K-R3, K-R4, K-R5, K-R6, K-A5
    let setup = |boat_in_hand: bool| {
        let mut g = new_game(3);
        at_play(&mut g, 0);
        set_pyramid(&mut g, FULL_PYRAMID);
        set_hand(
            &mut g,
            0,
            &["Book of the Netherworld", "Book of the Netherworld"],
        );
        if boat_in_hand {
            set_hand(&mut g, 1, &["Boat", "Urn"]);
        } else {
            set_hand(&mut g, 1, &["Urn"]);
            g.zones_mut(1).deck = set_pile(&g, &["Boat"]);
        }
        set_hand(&mut g, 2, &["Urn", "Shabti"]);
        g
    };
    let mut g = setup(true);
    let boat = id(&g, "Boat");
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(
        legal(&g),
        vec![Action::React { card: boat }, Action::Decline]
    );
    play(&mut g, Action::React { card: boat });
    assert_eq!(g.to_move(), Some(1));
    play(&mut g, Action::ChooseSlot { slot: B2 });
    let imsety = id(&g, "Imsety Canopic Jar");
    let d = &g.zones(1).discard;
    assert_eq!(
        &d[d.len() - 2..],
        &[boat, imsety],
        "Boat, and the taken card on top"
    );
    assert!(
        g.crumble.is_none(),
        "B2 crumbles from M1 without a decision"
    );
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.phase, Phase::Play);
    assert!(g.turn.pyramid_changed);

    // Boat in the deck: asked anyway, can only decline.
    let mut g = setup(false);
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(legal(&g), vec![Action::Decline]);
    play(&mut g, Action::Decline);
    assert_eq!(g.to_move(), Some(0), "seat 2 is never asked");

    // Empty base after the purchase: nobody is asked.
    let mut g = setup(true);
    set_pyramid(
        &mut g,
        [Some("Hapi Canopic Jar"), None, None, None, None, None],
    );
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.phase, Phase::Play);
    // Bad input: a reaction from a seat that was not asked.
    let before = g.clone();
    assert!(g
        .apply(Action::React { card: boat }, &mut Vec::new())
        .is_err());
    assert_eq!(g, before);
}

#[test]
fn setup_base_four_seats() {
    // rule K-C10, K-S3, K-S4, K-S5, K-S6, K-S7, K-Z7
    let config = ValleyConfig::default();
    let g = Valley::new(&config, 9).expect("valid");
    let starters = ids(&g, &["Shabti", "Urn", "Box of Food", "Offering Table"]);
    for s in 0..4 {
        let z = g.zones(s);
        assert_eq!((z.hand.len(), z.deck.len()), (5, 5));
        let all: Vec<CardId> = z.hand.iter().chain(z.deck.iter()).copied().collect();
        let counts: Vec<usize> = starters
            .iter()
            .map(|c| all.iter().filter(|x| *x == c).count())
            .collect();
        assert_eq!(counts, vec![4, 3, 2, 1]);
    }
    for slot in 0..6 {
        assert_eq!(g.rules().card(g.pyramid_card(slot).expect("full")).level, 2);
    }
    assert_eq!(g.boneyard.len(), 1);
    assert_eq!(g.rules().card(g.boneyard[0]).level, 2);
    assert_eq!(g.stock.len(), 49);
    let levels: Vec<u8> = g.stock.iter().map(|&c| g.rules().card(c).level).collect();
    assert_eq!(levels.iter().filter(|&&l| l == 2).count(), 22);
    assert!(levels[..27].iter().all(|&l| l == 3) && levels[27..].iter().all(|&l| l == 2));
    assert_eq!(g, Valley::new(&config, 9).expect("valid"));
    assert_eq!(
        format!("{g:?}"),
        format!("{:?}", Valley::new(&config, 9).expect("valid"))
    );
}

#[test]
fn drawing_with_reshuffle() {
    // rule K-C11, K-T21, K-A3, K-A12
    let mut g = new_game(3);
    at_play(&mut g, 0);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Urn"]);
    g.zones_mut(0).discard = set_pile(&g, &["Shabti"; 6]);
    let mut ev = Vec::new();
    assert_eq!(g.draw(0, 5, &mut ev), 5);
    assert!(ev.contains(&Event::Reshuffled { seat: 0, count: 6 }));
    assert_eq!((g.zones(0).deck.len(), g.zones(0).discard.len()), (3, 0));
    let urn = id(&g, "Urn");
    assert_eq!(
        g.zones(0).hand.iter().filter(|&&c| c == urn).count(),
        2,
        "the deck's cards came first"
    );
    let mut g = new_game(3);
    at_play(&mut g, 0);
    let mut ev = Vec::new();
    assert_eq!(g.draw(0, 5, &mut ev), 0);
    assert!(ev.is_empty());
}

#[test]
fn playability_of_book_of_the_earth() {
    // rule K-C12, K-T7, K-E7, K-E6
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_cost(&mut g, "Urn", 1);
    set_cost(&mut g, "Shabti", 1);
    set_hand(&mut g, 0, &["Book of the Earth", "Urn", "Shabti"]);
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
    let earth = id(&g, "Book of the Earth");
    assert!(g.rules().card(id(&g, "Hapi Canopic Jar")).cost >= 3);
    assert!(!legal(&g).contains(&Action::PlayAction { card: earth }));
    // Bad input: playing a card whose mandatory part cannot be done.
    let before = g.clone();
    assert!(g
        .apply(Action::PlayAction { card: earth }, &mut Vec::new())
        .is_err());
    assert_eq!(g, before);

    set_cost(&mut g, "Box of Food", 2);
    set_cost(&mut g, "Hapi Canopic Jar", 4);
    set_hand(&mut g, 0, &["Book of the Earth", "Urn", "Box of Food"]);
    set_pyramid(
        &mut g,
        [Some("Hapi Canopic Jar"), None, None, None, None, None],
    );
    assert!(legal(&g).contains(&Action::PlayAction { card: earth }));
    play(&mut g, Action::PlayAction { card: earth });
    let food = id(&g, "Box of Food");
    assert_eq!(
        legal(&g),
        vec![Action::Choose { card: food }],
        "only c2 keeps the take possible"
    );
    play(&mut g, Action::Choose { card: food });
    assert_eq!(g.boneyard.last(), Some(&food));
    assert_eq!(legal(&g), vec![Action::ChooseSlot { slot: B0 }]);
    play(&mut g, Action::ChooseSlot { slot: B0 });
    assert_eq!(g.zones(0).discard.last(), Some(&id(&g, "Hapi Canopic Jar")));
    assert_eq!(g.phase, Phase::Play);
}

#[test]
fn entombing_once_and_book_of_the_heavens() {
    // rule K-C13, K-T8, K-E5, K-E12
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Urn", "Shabti", "Book of the Heavens"]);
    let (urn, shabti, heavens) = (
        id(&g, "Urn"),
        id(&g, "Shabti"),
        id(&g, "Book of the Heavens"),
    );
    play(&mut g, Action::Entomb { card: urn });
    assert!(!legal(&g).iter().any(|a| matches!(a, Action::Entomb { .. })));
    // Bad input: entombing twice.
    let before = g.clone();
    assert!(g
        .apply(Action::Entomb { card: shabti }, &mut Vec::new())
        .is_err());
    assert_eq!(g, before);
    g.zones_mut(0).discard = set_pile(&g, &["Urn", "Shabti", "Menial", "Kite"]);
    assert!(!legal(&g).contains(&Action::PlayAction { card: heavens }));
    g.zones_mut(0).discard = set_pile(&g, &["Urn", "Shabti", "Menial", "Kite", "Medjay"]);
    assert!(legal(&g).contains(&Action::PlayAction { card: heavens }));
    play(&mut g, Action::PlayAction { card: heavens });
    let menial = id(&g, "Menial");
    play(&mut g, Action::Choose { card: menial });
    assert_eq!(
        names(&g, &g.zones(0).discard),
        vec!["Urn", "Shabti", "Kite", "Medjay"]
    );
    assert_eq!(g.zones(0).tomb.to_vec(), vec![urn, menial]);
    assert_eq!(
        g.turn.entombs_used, 1,
        "the extra entombment uses no allowance"
    );
}

#[test]
fn statue_of_thoth_sets_gold_to_four() {
    // rule K-C14, K-E10, K-A15, K-T5
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_cost(&mut g, "Book of the Dead", 8);
    with_rules(&mut g, |r| {
        let urn = r.card_named("Urn").expect("urn");
        r.cards[usize::from(urn)].gold = 5;
        let thoth = r.card_named("Statue of Thoth").expect("thoth");
        r.cards[usize::from(thoth)].gold = 1;
    });
    set_hand(&mut g, 0, &["Statue of Thoth", "Shabti", "Urn"]);
    set_pyramid(
        &mut g,
        [Some("Book of the Dead"), None, None, None, None, None],
    );
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: B0 }));
    let thoth = id(&g, "Statue of Thoth");
    play(&mut g, Action::PlayAction { card: thoth });
    assert_eq!(g.effective_gold(id(&g, "Shabti")), 4);
    assert_eq!(g.effective_gold(id(&g, "Urn")), 4);
    assert!(legal(&g).contains(&Action::BeginPurchase { slot: B0 }));
    // Cards drawn later are covered too.
    g.zones_mut(0).deck = set_pile(&g, &["Offering Table"]);
    g.draw(0, 1, &mut NoEvents);
    assert_eq!(g.effective_gold(id(&g, "Offering Table")), 4);
}

#[test]
fn tyet_amulet_repeats_an_action() {
    // rule K-C15, K-E11, K-A14
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Tyet Amulet"]);
    let tyet = id(&g, "Tyet Amulet");
    g.turn.log(id(&g, "Statue of Thoth"));
    assert!(!legal(&g).contains(&Action::PlayAction { card: tyet }));
    g.turn = TurnState::fresh();
    let nether = id(&g, "Book of the Netherworld");
    g.turn.log(nether);
    g.stock = set_pile(&g, &["Book of Gates", "Book of the Dead"]);
    assert!(legal(&g).contains(&Action::PlayAction { card: tyet }));
    play(&mut g, Action::PlayAction { card: tyet });
    assert_eq!(legal(&g), vec![Action::Choose { card: nether }]);
    play(&mut g, Action::Choose { card: nether });
    assert_eq!(g.zones(0).discard.last(), Some(&id(&g, "Book of the Dead")));
    assert_eq!(g.stock.len(), 1);
    assert_eq!(g.phase, Phase::Play);
    let _ = (B2, M1);
}
