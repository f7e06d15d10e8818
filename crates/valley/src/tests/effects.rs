//! The effect primitives (spec §6) and their playability (K-T7), on the known cards and on
//! cards given test actions through modified data.

use super::*;
use crate::data::{Filter, Part, Pred, Prim, Zone};
use crate::pyramid::{B0, B1, B2, M0, M1, T};

pub(crate) fn part(prim: Prim) -> Part {
    Part {
        prim,
        may: false,
        bind: None,
        slots: 0b11_1111,
        filter: Filter::default(),
        each_opponent: false,
        exempt_total_le: None,
        count: 1,
        min: 1,
    }
}

/// Gives the card `name` the action `parts` (test data).
pub(crate) fn set_action(g: &mut Valley, name: &str, parts: Vec<Part>) {
    let c = usize::from(id(g, name));
    with_rules(g, |r| r.cards[c].action = Some(parts));
}

#[test]
fn play_action_moves_the_card_to_play_and_logs_it() {
    // rule K-T6, K-Z3, K-E6, K-E0
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Book of the Netherworld"]);
    g.stock = set_pile(&g, &["Book of the Dead", "Book of Gates"]);
    let nether = id(&g, "Book of the Netherworld");
    let ev = play(&mut g, Action::PlayAction { card: nether });
    assert_eq!(g.zones(0).in_play.to_vec(), vec![nether]);
    assert!(g.turn.logged(nether));
    assert_eq!(g.zones(0).discard.last(), Some(&id(&g, "Book of Gates")));
    assert!(ev.contains(&Event::Taken {
        seat: 0,
        card: id(&g, "Book of Gates")
    }));
    assert!(g.turn.purchases.is_empty(), "a take is not a purchase");
    assert_eq!(g.phase, Phase::Play, "a take opens no reaction window");
    // An empty stock makes the take impossible (K-E6): not playable.
    g.stock.clear();
    set_hand(&mut g, 0, &["Book of the Netherworld"]);
    assert!(!legal(&g).contains(&Action::PlayAction { card: nether }));
}

#[test]
fn book_of_the_dead_takes_the_lowest_cost_card_to_the_tomb() {
    // rule K-E5, K-A16, K-E17, K-T13
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    set_cost(&mut g, "Hapi Canopic Jar", 2);
    set_cost(&mut g, "Book of the Heavens", 2);
    set_hand(&mut g, 0, &["Book of the Dead"]);
    let dead = id(&g, "Book of the Dead");
    play(&mut g, Action::PlayAction { card: dead });
    assert_eq!(
        legal(&g),
        vec![
            Action::ChooseSlot { slot: B0 },
            Action::ChooseSlot { slot: M1 }
        ],
        "ties: the chooser picks"
    );
    play(&mut g, Action::ChooseSlot { slot: M1 });
    assert_eq!(
        g.zones(0).tomb.to_vec(),
        vec![id(&g, "Book of the Heavens")]
    );
    assert_eq!(
        g.pyramid_card(M1),
        Some(id(&g, "Statue of Thoth")),
        "T fell into M1"
    );
    assert_eq!(g.turn.entombs_used, 0);
    assert!(g.turn.pyramid_changed);
}

#[test]
fn book_of_gates_reveals_executes_and_discards() {
    // rule K-E2, K-E3, K-E4, K-A13, K-T21
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Book of Gates"]);
    g.zones_mut(0).deck = set_pile(&g, &["Urn", "Book of the Netherworld", "Book of Gates"]);
    g.stock = set_pile(&g, &["Book of the Dead"]);
    let gates = id(&g, "Book of Gates");
    let nether = id(&g, "Book of the Netherworld");
    let ev = play(&mut g, Action::PlayAction { card: gates });
    // The revealed Book of Gates chains into the Netherworld, then both are discarded.
    assert!(ev.contains(&Event::Revealed {
        seat: 0,
        card: gates
    }));
    assert!(ev.contains(&Event::Executed {
        seat: 0,
        card: nether
    }));
    assert_eq!(
        names(&g, &g.zones(0).discard),
        vec![
            "Book of the Dead",
            "Book of the Netherworld",
            "Book of Gates"
        ]
    );
    assert_eq!(names(&g, &g.zones(0).deck), vec!["Urn"]);
    assert!(
        g.turn.logged(nether),
        "executed actions are in the action log (K-A14)"
    );
    // A revealed card without a playable action is simply discarded.
    set_hand(&mut g, 0, &["Book of Gates"]);
    let ev = play(&mut g, Action::PlayAction { card: gates });
    assert!(!ev.iter().any(|e| matches!(e, Event::Executed { .. })));
    assert_eq!(g.zones(0).discard.last(), Some(&id(&g, "Urn")));
    assert_eq!(g.phase, Phase::Play);
}

#[test]
fn gift_card_each_opponent_gives_a_card() {
    // rule K-E8, K-E9, K-A17, K-A21, K-R7
    let mut g = new_game(4);
    at_play(&mut g, 1);
    set_hand(&mut g, 1, &["Statue (unnamed 1)"]);
    set_hand(&mut g, 2, &["Urn", "Shabti"]);
    g.zones_mut(2).deck = set_pile(&g, &["Urn"; 5]);
    set_hand(&mut g, 3, &["Urn"]); // 1 card in total: exempt
    set_hand(&mut g, 0, &["Box of Food", "Offering Table"]);
    g.zones_mut(0).discard = set_pile(&g, &["Urn"; 4]);
    let gift = id(&g, "Statue (unnamed 1)");
    assert!(legal(&g).contains(&Action::PlayAction { card: gift }));
    play(&mut g, Action::PlayAction { card: gift });
    assert_eq!(g.to_move(), Some(2), "in turn order from the active seat");
    let shabti = id(&g, "Shabti");
    assert_eq!(
        legal(&g),
        ids(&g, &["Shabti", "Urn"])
            .into_iter()
            .map(|card| Action::Choose { card })
            .collect::<Vec<_>>()
    );
    play(&mut g, Action::Choose { card: shabti });
    assert_eq!(g.to_move(), Some(0), "seat 3 is exempt");
    let table = id(&g, "Offering Table");
    play(&mut g, Action::Choose { card: table });
    assert_eq!(
        g.zones(1).discard.to_vec(),
        vec![shabti, table],
        "in giving order"
    );
    assert_eq!(g.to_move(), Some(1));
    // Nobody can give: still playable (K-A17).
    set_hand(&mut g, 1, &["Statue (unnamed 1)"]);
    for s in [0, 2, 3] {
        g.zones_mut(s).hand.clear();
    }
    assert!(legal(&g).contains(&Action::PlayAction { card: gift }));
}

#[test]
fn canopic_jar_each_opponent_sacrifices() {
    // rule K-E7, K-E8, K-E17
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Qebehsenuef Canopic Jar"]);
    set_hand(&mut g, 1, &["Urn"]);
    set_hand(&mut g, 2, &[]);
    let jar = id(&g, "Qebehsenuef Canopic Jar");
    play(&mut g, Action::PlayAction { card: jar });
    assert_eq!(g.to_move(), Some(1));
    let card = id(&g, "Urn");
    play(&mut g, Action::Choose { card });
    assert_eq!(g.boneyard.last(), Some(&id(&g, "Urn")));
    assert_eq!(
        g.to_move(),
        Some(0),
        "seat 2 cannot comply and is passed over"
    );
}

#[test]
fn conditions_gate_the_action() {
    // rule K-E12, K-T7
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_action(
        &mut g,
        "Urn",
        vec![
            part(Prim::Condition(Pred::BoughtThisTurn)),
            part(Prim::GrantEntomb { n: 1 }),
        ],
    );
    set_hand(&mut g, 0, &["Urn"]);
    let urn = id(&g, "Urn");
    assert!(!legal(&g).contains(&Action::PlayAction { card: urn }));
    g.turn.purchases.push(3);
    assert!(legal(&g).contains(&Action::PlayAction { card: urn }));
    set_action(
        &mut g,
        "Urn",
        vec![part(Prim::Condition(Pred::HandSizeGe(2)))],
    );
    assert!(
        !legal(&g).contains(&Action::PlayAction { card: urn }),
        "the card itself has left the hand"
    );
    set_action(
        &mut g,
        "Urn",
        vec![part(Prim::Condition(Pred::PyramidNonempty))],
    );
    set_pyramid(&mut g, [None; 6]);
    assert!(!legal(&g).contains(&Action::PlayAction { card: urn }));
}

#[test]
fn grant_entomb_raises_the_allowance() {
    // rule K-E13, K-T8
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_action(&mut g, "Urn", vec![part(Prim::GrantEntomb { n: 1 })]);
    set_hand(&mut g, 0, &["Urn", "Shabti", "Box of Food"]);
    let urn = id(&g, "Urn");
    play(&mut g, Action::PlayAction { card: urn });
    let card = id(&g, "Shabti");
    play(&mut g, Action::Entomb { card });
    assert!(legal(&g).contains(&Action::Entomb {
        card: id(&g, "Box of Food")
    }));
    let card = id(&g, "Box of Food");
    play(&mut g, Action::Entomb { card });
    assert_eq!(g.turn.entombs_used, 2);
}

#[test]
fn menial_purchase_scope_any_slot_once() {
    // rule K-E14
    let mut g = Valley::new(
        &ValleyConfig {
            pool: Some("last_rites".into()),
            players: 3,
            ..ValleyConfig::default()
        },
        3,
    )
    .expect("valid");
    at_play(&mut g, 0);
    set_pyramid(
        &mut g,
        [
            Some("Priest of Thoth"),
            Some("Priest of Thoth"),
            Some("Priest of Thoth"),
            Some("Carpenter"),
            Some("Carpenter"),
            Some("Priest of Sobek"),
        ],
    );
    set_hand(
        &mut g,
        0,
        &["Menial", "Menial", "Medjay", "Embalmer", "Embalmer"],
    );
    set_cost(&mut g, "Priest of Sobek", 3);
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: T }));
    let menial = id(&g, "Menial");
    play(&mut g, Action::PlayAction { card: menial });
    assert!(legal(&g).contains(&Action::BeginPurchase { slot: T }));
    buy(&mut g, T);
    assert_eq!(g.zones(0).discard.last(), Some(&id(&g, "Priest of Sobek")));
    assert!(
        !legal(&g).contains(&Action::BeginPurchase { slot: M0 }),
        "one use only"
    );
}

#[test]
fn kite_reserves_a_card_until_the_next_turn() {
    // rule K-E15, K-A22, K-T1
    let mut g = Valley::new(
        &ValleyConfig {
            pool: Some("last_rites".into()),
            players: 2,
            ..ValleyConfig::default()
        },
        3,
    )
    .expect("valid");
    at_play(&mut g, 0);
    set_hand(&mut g, 0, &["Kite"]);
    let kite = id(&g, "Kite");
    play(&mut g, Action::PlayAction { card: kite });
    assert_eq!(legal(&g).len(), 6);
    let ev = play(&mut g, Action::ChooseSlot { slot: B2 });
    assert!(ev.contains(&Event::Reserved { seat: 0, slot: B2 }));
    assert!(
        !g.turn.pyramid_changed,
        "a reservation is not a change (K-A8)"
    );
    let reserved = g.pyramid_card(B2);
    // Seat 0 changed nothing, so it sacrifices; its own reservation does not protect from itself.
    play(&mut g, Action::EndPlay);
    assert_eq!(legal(&g).len(), 6);
    play(&mut g, Action::Sacrifice { slot: T });
    // Seat 1 cannot buy or sacrifice it.
    assert_eq!(g.active, 1);
    set_hand(
        &mut g,
        1,
        &["Menial", "Menial", "Menial", "Menial", "Menial"],
    );
    assert!(!legal(&g).contains(&Action::BeginPurchase { slot: B2 }));
    play(&mut g, Action::EndPlay);
    assert!(!legal(&g).contains(&Action::Sacrifice { slot: B2 }));
    play(&mut g, Action::Sacrifice { slot: B0 });
    // At seat 0's next turn the reservation ends.
    assert_eq!(g.active, 0);
    assert!(g.pyramid.iter().all(|s| s.reserved_by == NONE));
    assert!(g.pyramid.iter().any(|s| Some(s.card) == reserved));
}

#[test]
fn may_parts_offer_accept_and_skip() {
    // rule K-E1, K-T7, K-R8
    let mut g = new_game(3);
    at_play(&mut g, 0);
    let mut draw = part(Prim::Draw { n: 2 });
    draw.may = true;
    let mut discard = part(Prim::Discard { from: Zone::Hand });
    discard.may = true;
    set_action(&mut g, "Urn", vec![draw, discard]);
    set_hand(&mut g, 0, &["Urn", "Shabti"]);
    g.zones_mut(0).deck = set_pile(&g, &["Box of Food", "Box of Food"]);
    let card = id(&g, "Urn");
    play(&mut g, Action::PlayAction { card });
    assert_eq!(legal(&g), vec![Action::Accept, Action::Skip]);
    play(&mut g, Action::Accept);
    assert_eq!(g.zones(0).hand.len(), 3);
    assert_eq!(
        legal(&g),
        vec![
            Action::Choose {
                card: id(&g, "Shabti")
            },
            Action::Choose {
                card: id(&g, "Box of Food")
            },
            Action::Skip
        ]
    );
    play(&mut g, Action::Skip);
    assert_eq!(g.phase, Phase::Play);
    assert!(g.frames.is_empty());
}

#[test]
fn parts_that_fail_on_revealed_cards_are_skipped() {
    // rule K-T7, K-E1
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_action(
        &mut g,
        "Urn",
        vec![
            part(Prim::Draw { n: 1 }),
            part(Prim::Condition(Pred::HandSizeGe(9))),
        ],
    );
    set_hand(&mut g, 0, &["Urn"]);
    g.zones_mut(0).deck = set_pile(&g, &["Shabti"]);
    let urn = id(&g, "Urn");
    assert!(
        legal(&g).contains(&Action::PlayAction { card: urn }),
        "a draw depends on unseen cards: possible"
    );
    let ev = play(&mut g, Action::PlayAction { card: urn });
    assert!(ev.contains(&Event::PartSkipped { seat: 0 }));
    assert_eq!(
        g.zones(0).in_play.to_vec(),
        vec![urn],
        "the action still counts as played"
    );
}

#[test]
fn pharaoh_ability_once_per_turn() {
    // rule K-T9, K-Z6, K-A19, K-S9
    let mut g = Valley::new(
        &ValleyConfig {
            pharaohs: true,
            players: 3,
            ..ValleyConfig::default()
        },
        5,
    )
    .expect("valid");
    at_play(&mut g, 0);
    assert!(
        !legal(&g).contains(&Action::UsePharaoh),
        "unknown abilities: nothing to use"
    );
    let ph = usize::from(g.zones(0).pharaoh);
    with_rules(&mut g, |r| {
        r.pharaohs[ph].ability = Some(vec![part(Prim::GrantEntomb { n: 1 })])
    });
    assert!(legal(&g).contains(&Action::UsePharaoh));
    play(&mut g, Action::UsePharaoh);
    assert_eq!(g.turn.entomb_allowance, 2);
    assert!(!legal(&g).contains(&Action::UsePharaoh));
    assert!(g.turn.action_log == [0, 0], "not in the action log");
    assert!(g.zones(0).in_play.is_empty(), "the pharaoh never moves");
}

#[test]
fn sacrifice_from_the_pyramid_and_take_from_the_boneyard() {
    // rule K-E7, K-E6, K-E0
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    let mut sac = part(Prim::Sacrifice {
        from: Zone::Pyramid,
    });
    sac.slots = 0b111;
    set_action(
        &mut g,
        "Urn",
        vec![
            sac,
            part(Prim::Take {
                from: Zone::BoneyardTop,
                to: crate::data::Dest::Tomb,
            }),
        ],
    );
    set_hand(&mut g, 0, &["Urn"]);
    let card = id(&g, "Urn");
    play(&mut g, Action::PlayAction { card });
    assert_eq!(
        legal(&g),
        vec![
            Action::ChooseSlot { slot: B0 },
            Action::ChooseSlot { slot: B1 },
            Action::ChooseSlot { slot: B2 }
        ]
    );
    play(&mut g, Action::ChooseSlot { slot: B1 });
    // The crumble choice belongs to the acting seat, inside the action.
    assert_eq!(
        legal(&g),
        vec![
            Action::CrumbleFrom { slot: M0 },
            Action::CrumbleFrom { slot: M1 }
        ]
    );
    play(&mut g, Action::CrumbleFrom { slot: M0 });
    assert_eq!(g.zones(0).tomb.to_vec(), vec![id(&g, "Book of Gates")]);
    assert_eq!(g.phase, Phase::Play);
    let _ = (B2, M1, T);
}

#[test]
fn known_cards_are_encoded_as_the_spec_says() {
    // rule K-E17, K-SC4
    let g = new_game(3);
    let action = |name: &str| g.rules().card(id(&g, name)).action.clone();
    let prims = |name: &str| {
        action(name)
            .unwrap_or_default()
            .iter()
            .map(|p| p.prim)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        prims("Book of Gates"),
        vec![
            Prim::Reveal,
            Prim::Execute,
            Prim::Discard {
                from: Zone::Revealed
            }
        ]
    );
    assert_eq!(
        prims("Book of the Dead"),
        vec![Prim::Entomb {
            from: Zone::Pyramid,
            extra: true
        }]
    );
    assert_eq!(
        prims("Book of the Heavens"),
        vec![
            Prim::Condition(Pred::DiscardSizeGe(5)),
            Prim::Entomb {
                from: Zone::Discard,
                extra: true
            }
        ]
    );
    assert_eq!(
        prims("Book of the Netherworld"),
        vec![Prim::Take {
            from: Zone::StockTop,
            to: crate::data::Dest::Discard
        }]
    );
    assert_eq!(
        prims("Statue of Thoth"),
        vec![Prim::GoldModifier {
            set: true,
            value: 4
        }]
    );
    assert_eq!(prims("Tyet Amulet"), vec![Prim::RepeatAction]);
    assert!(action("Book of Traversing Eternity").is_none());
    for name in ["Boat", "Censer", "Statue of Thoth"] {
        assert!(g.rules().card(id(&g, name)).not_repeatable, "{name}");
    }
    let boat = g.rules().card(id(&g, "Boat"));
    assert!(boat.action.is_none() && boat.reaction.is_some());
    assert_eq!(g.rules().card(id(&g, "Book of the Netherworld")).gold, 3);
    assert_eq!(g.rules().card(id(&g, "Tyet Amulet")).gold, 2);
    assert_eq!(g.rules().card(id(&g, "Statue of Bastet")).cost, 4);
}

#[test]
fn look_at_the_top_cards_discard_and_arrange() {
    // rule K-E16, K-Z13
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_action(
        &mut g,
        "Urn",
        vec![part(Prim::LookTop {
            n: 3,
            discard: true,
        })],
    );
    set_hand(&mut g, 0, &["Urn"]);
    // Deck, bottom first: the top three are Shabti, Box of Food, Offering Table.
    g.zones_mut(0).deck = set_pile(&g, &["Medjay", "Offering Table", "Box of Food", "Shabti"]);
    let (shabti, food, table) = (
        id(&g, "Shabti"),
        id(&g, "Box of Food"),
        id(&g, "Offering Table"),
    );
    let urn = id(&g, "Urn");
    let ev = play(&mut g, Action::PlayAction { card: urn });
    assert!(ev.contains(&Event::Looked { seat: 0, count: 3 }));
    let mut options = vec![
        Action::Choose { card: shabti },
        Action::Choose { card: food },
        Action::Choose { card: table },
    ];
    options.sort_by_key(|a| match a {
        Action::Choose { card } => *card,
        _ => 0,
    });
    let mut offered = legal(&g);
    let skip = offered.pop();
    offered.sort_by_key(|a| match a {
        Action::Choose { card } => *card,
        _ => 0,
    });
    assert_eq!((offered, skip), (options, Some(Action::Skip)));
    // The owner sees them; nobody else does, and the owner's sample keeps them on top.
    assert_eq!(
        g.view(Some(0)).seats[0]
            .deck_known_top
            .as_ref()
            .map(Vec::len),
        Some(3)
    );
    assert!(g.view(Some(1)).seats[0].deck_known_top.is_none());
    let mut rng = engine::rng_from_seed(3);
    for _ in 0..5 {
        let d = g.determinize(Some(0), &mut rng);
        assert_eq!(d.zones(0).deck[1..], g.zones(0).deck[1..]);
    }
    play(&mut g, Action::Choose { card: food });
    assert_eq!(g.zones(0).discard.last(), Some(&food));
    play(&mut g, Action::Skip);
    // Arrange: the first card chosen goes on top.
    assert_eq!(legal(&g).len(), 2);
    play(&mut g, Action::Choose { card: table });
    play(&mut g, Action::Choose { card: shabti });
    assert_eq!(
        names(&g, &g.zones(0).deck),
        vec!["Medjay", "Shabti", "Offering Table"]
    );
    assert_eq!(g.zones(0).known_top, 2);
    assert_eq!(g.phase, Phase::Play);
    assert!(g.frames.is_empty());
    // Drawing uses up the known cards.
    g.draw(0, 1, &mut NoEvents);
    assert_eq!(g.zones(0).known_top, 1);
}

#[test]
fn up_to_k_picks_with_done() {
    // rule K-T7, K-E4, K-E7
    let mut g = new_game(3);
    at_play(&mut g, 0);
    let mut sac = part(Prim::Sacrifice { from: Zone::Hand });
    sac.count = 2;
    sac.min = 0;
    let mut two = part(Prim::Discard { from: Zone::Hand });
    two.count = 2;
    two.min = 2;
    set_action(&mut g, "Urn", vec![two, sac]);
    set_hand(&mut g, 0, &["Urn", "Shabti", "Shabti", "Box of Food"]);
    let (urn, shabti, food) = (id(&g, "Urn"), id(&g, "Shabti"), id(&g, "Box of Food"));
    play(&mut g, Action::PlayAction { card: urn });
    // Exactly two discards: no Done before the second.
    assert_eq!(
        legal(&g),
        vec![
            Action::Choose { card: shabti },
            Action::Choose { card: food }
        ]
    );
    play(&mut g, Action::Choose { card: shabti });
    assert_eq!(
        legal(&g),
        vec![
            Action::Choose { card: shabti },
            Action::Choose { card: food }
        ]
    );
    play(&mut g, Action::Choose { card: shabti });
    // Up to two sacrifices: Done at once.
    assert_eq!(legal(&g), vec![Action::Choose { card: food }, Action::Done]);
    play(&mut g, Action::Choose { card: food });
    assert_eq!(g.boneyard.last(), Some(&food));
    assert!(g.frames.is_empty(), "no card left to pick: the part ends");
    // A hand of one card cannot discard two.
    set_hand(&mut g, 0, &["Urn", "Shabti"]);
    assert!(!legal(&g).contains(&Action::PlayAction { card: urn }));
}

#[test]
fn quick_playability_agrees_with_the_probe() {
    // rule K-T7
    use crate::state::Program;
    use engine::playout::random_action;
    let mut checked = 0;
    for seed in 0..30 {
        let mut g = Valley::new(&ValleyConfig::default(), seed).expect("valid");
        let mut rng = engine::rng_from_seed(seed);
        let mut buf = Vec::new();
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            if g.phase == Phase::Play && g.frames.is_empty() && g.crumble.is_none() {
                let seat = g.active;
                for &card in g.zones(seat).hand.iter() {
                    if g.rules().card(card).action.is_none() {
                        continue;
                    }
                    if let Some(quick) = g.quick_playable(Program::Card(card), seat) {
                        let full = g.probe_playable(Program::Card(card), seat, |h| {
                            h.zones_mut(seat).hand_remove(card);
                            h.in_play_push(seat, card, false);
                            h.turn.log(card);
                        });
                        assert_eq!(quick, full, "{}", g.rules().card(card).name);
                        checked += 1;
                    }
                }
            }
            g.apply_unchecked(a, &mut NoEvents);
        }
    }
    assert!(checked > 100, "{checked}");
}
