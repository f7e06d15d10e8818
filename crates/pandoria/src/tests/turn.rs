//! Setup, turn flow, hidden information and bad input.

use super::*;
use crate::components::Resource;
use crate::data::{CARDS, DOUBLE_TILES};
use crate::events::Event;
use crate::state::{figures_for, removed_for, SLOTS};
use engine::{rng_from_seed, ActionErrorKind, NoEvents};

fn new(players: u8, mode: Mode, seed: u64) -> Pandoria {
    Pandoria::new(
        &PandoriaConfig {
            players,
            mode,
            ..PandoriaConfig::default()
        },
        seed,
    )
    .unwrap()
}

// rule P-S1 / P-S2 / P-SC2 / P-SC3: player counts, teams only with 4, distinct realms.
#[test]
fn config_is_validated() {
    for players in [1, 5] {
        let config = PandoriaConfig {
            players,
            ..PandoriaConfig::default()
        };
        assert!(Pandoria::new(&config, 0).is_err());
    }
    let teams3 = PandoriaConfig {
        players: 3,
        teams: true,
        ..PandoriaConfig::default()
    };
    assert!(Pandoria::new(&teams3, 0).is_err());
    let twice = PandoriaConfig {
        players: 2,
        realms: [Some(Realm::Elves), Some(Realm::Elves), None, None],
        ..PandoriaConfig::default()
    };
    assert!(Pandoria::new(&twice, 0).is_err());
    let bad_start = PandoriaConfig {
        players: 2,
        start_seat: 2,
        ..PandoriaConfig::default()
    };
    assert!(Pandoria::new(&bad_start, 0).is_err());
    for seed in 0..20 {
        let g = new(4, Mode::Full, seed);
        let mut realms: Vec<Realm> = g.players.iter().map(|p| p.realm).collect();
        realms.sort();
        realms.dedup();
        assert_eq!(realms.len(), 4, "each player has a different realm");
    }
}

// rule P-S3 / P-S4 / P-S7 / P-S8 / P-S9 / P-S11 / P-SC1: the full-mode setup.
#[test]
fn full_setup() {
    for players in 2..=4u8 {
        let g = new(players, Mode::Full, 5);
        let rules = g.rules();
        let mut dealt_tiles = 0;
        for p in &g.players[..usize::from(players)] {
            assert!(p.side_b);
            assert_eq!(p.figures, figures_for(players));
            assert!(p.leader_in_reserve);
            assert_eq!(p.castles, 2);
            assert_eq!(p.resources, rules.realms[p.realm.index()][1]);
            assert_eq!(p.hand_len(), 4);
            assert_eq!(p.known, 0, "drawn cards are private");
            let want = if p.realm == Realm::Dwarves { 2 } else { 1 };
            assert_eq!(p.tiles.len(), want, "P-K2");
            dealt_tiles += want;
        }
        assert_eq!(g.removed.len(), removed_for(players));
        assert_eq!(
            g.double_stack.len(),
            DOUBLE_TILES - removed_for(players) - dealt_tiles
        );
        assert!(g.market.iter().all(|&c| c != NO_CARD));
        assert_eq!(
            g.deck.len(),
            CARDS - 4 - 4 * usize::from(players),
            "P-S6: all 54 shuffled"
        );
        let monuments: Vec<u8> = g.monuments.to_vec();
        let removed = match players {
            2 => 6,
            3 => 3,
            _ => 0,
        };
        assert_eq!(monuments.len(), 13 - removed);
        assert!(monuments.windows(2).all(|w| w[0] <= w[1]), "6s on top");
        assert_eq!(g.current, 0, "P-S12");
        assert_eq!(g.phase, Phase::Place);
    }
}

// rule P-S5: the starting tiles lie on the start pairs.
#[test]
fn starting_tiles_on_start_pairs() {
    for seed in 0..10 {
        let g = new(2, Mode::Full, seed);
        let rules = g.rules();
        let mut terrains = Vec::new();
        for pair in rules.board.start_pairs() {
            for &c in pair {
                terrains.push(g.map.land(c).expect("filled").terrain);
            }
        }
        let mut expected: Vec<_> = rules
            .starting_tiles
            .iter()
            .flatten()
            .map(|h| h.terrain)
            .collect();
        terrains.sort();
        expected.sort();
        assert_eq!(terrains, expected);
    }
}

// rule P-S6 / P-S8 / P-Z3: beginner mode: side A, start building, particular cards.
#[test]
fn beginner_setup() {
    let g = new(3, Mode::Beginner, 9);
    let rules = g.rules();
    for p in &g.players[..3] {
        assert!(!p.side_b);
        assert_eq!(p.resources, rules.realms[p.realm.index()][0]);
        let start = rules.cards[usize::from(p.slots[0])];
        assert_eq!((start.realm, start.marked_a), (Some(p.realm), true));
        assert_eq!(p.hand_len(), 3);
        assert_eq!(p.known.count_ones(), 1, "the particular card is known");
        let known = crate::turn::cards_of(p.known).next().unwrap();
        assert_eq!(rules.cards[usize::from(known)].realm, Some(p.realm));
        assert_eq!(p.tiles.len(), 1, "side A dwarves hold one tile");
    }
    // The other realms' particular cards are in the deck.
    let in_play: Vec<Realm> = g.players[..3].iter().map(|p| p.realm).collect();
    let deck_particular = g
        .deck
        .iter()
        .chain(g.market.iter())
        .filter(|&&c| rules.cards[usize::from(c)].realm.is_some())
        .count();
    let in_hands_or_deck = 2 * (5 - in_play.len());
    let drawn_particular: usize = g.players[..3]
        .iter()
        .map(|p| {
            crate::turn::cards_of(p.hand & !p.known)
                .filter(|&c| rules.cards[usize::from(c)].realm.is_some())
                .count()
        })
        .sum();
    assert_eq!(deck_particular + drawn_particular, in_hands_or_deck);
}

// rule P-T1 / P-X1: placing is mandatory: no Skip while a placement exists; both
// double tiles and castles are offered.
#[test]
fn placing_is_mandatory() {
    let g = new(4, Mode::Full, 2);
    let options = legal(&g);
    assert!(!options.contains(&Action::Skip));
    assert!(options
        .iter()
        .any(|a| matches!(a, Action::PlaceTile { .. })));
    assert!(options
        .iter()
        .any(|a| matches!(a, Action::PlaceCastle { .. })));
}

// rule P-T11 / P-K2: a double tile placed draws one (dwarves-B refill to 2); P-T3 then
// offers the hexes just placed.
#[test]
fn a_placed_tile_is_replaced() {
    let config = PandoriaConfig {
        players: 2,
        realms: [Some(Realm::Dwarves), Some(Realm::Humans), None, None],
        ..PandoriaConfig::default()
    };
    let mut g = Pandoria::new(&config, 4).unwrap();
    let stack = g.double_stack.len();
    let place = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceTile { .. }))
        .unwrap();
    play(&mut g, place);
    assert_eq!(g.phase, Phase::Figure);
    let Action::PlaceTile { at, .. } = place else {
        unreachable!()
    };
    assert!(legal(&g).contains(&Action::PlaceFigure { at, leader: false }));
    while g.current == 0 {
        play(&mut g, Action::Skip);
    }
    assert_eq!(g.player(0).tiles.len(), 2);
    assert_eq!(g.double_stack.len(), stack - 1);
}

// rule P-T4 / P-T9 / P-T12: the card phase is asked whenever the hand has a card; the
// buy is offered only after a closing (or for mages-B, P-K4).
#[test]
fn one_card_action_per_turn() {
    let rules = rules_with(|r| r.cards[0] = building_card(Building::Statue, 0, 1));
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
    g.players[0].hand = 0b11;
    g.players[0].resources[Resource::Wood.index()] = 10;
    play(
        &mut g,
        Action::Build {
            card: 0,
            slot: 0,
            pay: None,
        },
    );
    assert_ne!(g.current, 0, "the turn went on; no second card action");
}

// rule P-B7 / P-X16: Poorhouse lifts every resource at 0 to 2 at the end of the turn.
#[test]
fn poorhouse() {
    let rules = rules_with(|r| r.cards[0] = building_card(Building::Poorhouse, 0, 2));
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    g.players[0].resources = [0, 0, 4];
    g.players[0].hand = 0b10;
    play(&mut g, Action::Skip);
    assert_eq!(g.player(0).resources, [2, 2, 4]);
}

// Bad input: out-of-range cells, cards, slots, and actions of the wrong phase are
// refused with a typed error; the state is unchanged; nothing panics.
#[test]
fn bad_input_is_refused() {
    let mut g = new(4, Mode::Full, 8);
    let before = g.clone();
    let tile = g.player(0).tiles[0];
    let occupied = g.rules().board.start_pairs()[0][0];
    for action in [
        Action::PlaceTile {
            tile,
            at: 250,
            dir: 0,
        },
        Action::PlaceTile {
            tile,
            at: 0,
            dir: 9,
        },
        Action::PlaceTile {
            tile,
            at: occupied,
            dir: 0,
        },
        Action::PlaceTile {
            tile: 200,
            at: 0,
            dir: 0,
        },
        Action::PlaceCastle { at: 255 },
        Action::PlaceCastle { at: occupied },
        Action::PlaceFigure {
            at: 3,
            leader: true,
        },
        Action::Build {
            card: 99,
            slot: 7,
            pay: None,
        },
        Action::Monument { slot: 0, pay: None },
        Action::Buy {
            market: 9,
            pay: Some(Resource::Wood),
        },
        Action::Skip,
        Action::Done,
        Action::CastSpell { card: 0, pay: None },
    ] {
        let mut events = Vec::new();
        let err = g.apply(action, &mut events).unwrap_err();
        assert_eq!(err.kind, ActionErrorKind::Illegal, "{action:?}");
        assert!(events.is_empty());
        assert_eq!(g, before);
    }
    // A second card action after a build (P-T4).
    let rules = rules_with(|r| r.cards[0] = building_card(Building::Statue, 0, 1));
    let keep = [centre(), walk(centre(), &[0])];
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &keep);
    g.players[0].hand = 0b11;
    g.players[0].resources = [0, 0, 10];
    play(
        &mut g,
        Action::Build {
            card: 0,
            slot: 0,
            pay: None,
        },
    );
    assert_eq!((g.current, g.phase), (1, Phase::Place));
    let err = g
        .apply(
            Action::Build {
                card: 1,
                slot: 1,
                pay: None,
            },
            &mut NoEvents,
        )
        .unwrap_err();
    assert_eq!(err.kind, ActionErrorKind::Illegal);
    // Unaffordable: a monument with no wood and no Market.
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    g.players[0].hand = 0b10;
    g.players[0].resources = [10, 10, 0];
    assert!(g
        .apply(Action::Monument { slot: 0, pay: None }, &mut NoEvents)
        .is_err());
    assert!(g
        .apply(
            Action::Monument {
                slot: 0,
                pay: Some(Resource::Gold)
            },
            &mut NoEvents
        )
        .is_err());
}

// rule P-Z2 / P-Z6: a seat sees its own hand and tiles, nobody else's.
// rule P-Z7: determinize keeps the seat's own items and every count.
#[test]
fn hidden_information() {
    let g = new(4, Mode::Full, 11);
    for seat in 0..4u8 {
        let view = g.view(Some(seat));
        for (s, p) in view.players.iter().enumerate() {
            assert_eq!(p.hand.is_some(), s == usize::from(seat));
            assert_eq!(p.tiles.is_some(), s == usize::from(seat));
            assert_eq!(p.hand_size, 4);
        }
        let mut rng = rng_from_seed(u64::from(seat));
        let sample = g.determinize(Some(seat), &mut rng);
        assert_eq!(sample.view(Some(seat)), view);
        assert_eq!(sample.player(seat).hand, g.player(seat).hand);
        assert_eq!(sample.player(seat).tiles, g.player(seat).tiles);
    }
    let spectator = g.view(None);
    assert!(spectator.players.iter().all(|p| p.hand.is_none()));
    // Over many samples, others' hands do change.
    let mut rng = rng_from_seed(1);
    let changed =
        (0..20).any(|_| g.determinize(Some(0), &mut rng).player(1).hand != g.player(1).hand);
    assert!(changed);
    // A known card (P-Z3) stays where it is.
    let g = new(3, Mode::Beginner, 2);
    let known = g.player(1).known;
    for _ in 0..20 {
        let sample = g.determinize(Some(0), &mut rng);
        assert_eq!(sample.player(1).hand & known, known);
    }
}

// Determinism: a game is a pure function of (config, seed, actions).
#[test]
fn determinism() {
    let play_random = |seed: u64| {
        let mut g = new(3, Mode::Full, seed);
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        let mut trace = Vec::new();
        while let Some(a) = engine::playout::random_action(&g, &mut rng, &mut buf) {
            trace.push(a);
            g.apply(a, &mut NoEvents).unwrap();
        }
        (g, trace)
    };
    let (a, ta) = play_random(17);
    let (b, tb) = play_random(17);
    assert_eq!(ta, tb);
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert_eq!(SLOTS, 5);
}

// rule P-E5 / P-E6: teams pool points and leftovers, partners share a rank.
#[test]
fn teams_share_the_standing() {
    let mut g = new(4, Mode::Full, 21);
    g.config.teams = true;
    for (s, points) in [(0usize, 10u16), (1, 7), (2, 1), (3, 4)] {
        g.players[s].points = [0; 8];
        g.players[s].points[0] = points;
    }
    g.leftovers = [1, 0, 0, 0];
    g.phase = Phase::Over;
    let o = g.outcome().unwrap();
    assert_eq!(o.seats[0].score, 11);
    assert_eq!(o.seats[2].score, 11);
    assert_eq!(o.seats[1].score, 11);
    assert_eq!(o.seats[0].rank, 1, "tie broken by leftovers");
    assert_eq!(o.seats[2].rank, 1);
    assert_eq!(o.seats[1].rank, 3);
    for s in &o.seats {
        let sum: i32 = s.breakdown.iter().map(|l| l.points).sum();
        assert_eq!(sum, s.score, "breakdown adds up");
    }
    let _ = Event::GameOver;
}

// Bad input / contract §1: the fast `is_legal` agrees with the list, for listed actions
// and for arbitrary (also out-of-range) placements.
#[test]
fn is_legal_agrees_with_the_list() {
    let mut rng = rng_from_seed(99);
    for seed in 0..6 {
        let mut g = new(2 + (seed % 3) as u8, Mode::Full, seed);
        let mut buf = Vec::new();
        while let Some(a) = engine::playout::random_action(&g, &mut rng, &mut buf) {
            if g.phase == Phase::Place {
                let listed = legal(&g);
                for tile in [0u8, 5, 47, 48, 200] {
                    for at in [0u8, 17, 40, 77, 127, 128, 200, 255] {
                        for dir in [0u8, 2, 3, 5, 6, 255] {
                            let x = Action::PlaceTile { tile, at, dir };
                            assert_eq!(g.is_legal(&x), listed.contains(&x), "{x:?}");
                        }
                        let c = Action::PlaceCastle { at };
                        assert_eq!(g.is_legal(&c), listed.contains(&c), "{c:?}");
                    }
                }
                for x in &listed {
                    assert!(g.is_legal(x));
                }
                assert!(!g.is_legal(&Action::Skip));
            }
            g.apply(a, &mut NoEvents).unwrap();
        }
    }
}

// rule P-Z2 / P-T4 (contract §5.6): the card phase is asked whenever the hand holds a
// card, even with `Skip` alone, so the trace never shows that the hand is unplayable.
#[test]
fn card_phase_is_asked_with_an_unplayable_hand() {
    let rules = rules_with(|r| r.cards[0] = building_card(Building::Statue, 0, 9));
    let x = centre();
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[x]);
    g.players[0].hand = 1;
    g.players[0].resources = [0, 0, 0];
    g.phase = Phase::Place;
    play(&mut g, Action::PlaceCastle { at: x });
    play(&mut g, Action::Skip); // no figure
    assert_eq!((g.current, g.phase), (0, Phase::Card));
    assert_eq!(legal(&g), vec![Action::Skip]);
}

// rule P-SC4: a corrected data file loads without recompiling (`--data FILE`); a bad one
// is refused with a data error and leaves the config alone.
#[test]
fn corrected_data_files_load() {
    let mut config = PandoriaConfig::default();
    let text = crate::data::STANDARD_DATA.replacen("gold_price = 2", "gold_price = 7", 1);
    Pandoria::load_data(&mut config, &text).unwrap();
    assert_ne!(config.rules, PandoriaConfig::default().rules);
    assert!(config.rules.cards.iter().any(|c| c.gold_price == 7));
    let g = Pandoria::new(&config, 1).unwrap();
    assert!(std::ptr::eq(g.rules(), &*config.rules));
    let mut config2 = PandoriaConfig::default();
    let err = Pandoria::load_data(&mut config2, "schema_version = 1").unwrap_err();
    assert!(matches!(err, engine::SetupError::Data(_)), "{err}");
    assert_eq!(config2.rules, PandoriaConfig::default().rules);
}

// rule P-T9 / P-T7 / P-P1: the log follows the table: the purchase (or cast) is told
// first, then what the payment left ("buys …", then "now has N gold").
#[test]
fn an_act_is_told_before_the_resource_it_leaves() {
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves],
        Mode::Full,
        Rules::standard(),
        &[],
    );
    g.phase = Phase::Buy;
    g.players[0].resources = [5, 10, 5];
    let buy = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::Buy { pay: None, .. }))
        .expect("a purchase is offered");
    let mut events = Vec::new();
    g.apply(buy, &mut events).unwrap();
    let bought = events
        .iter()
        .position(|e| matches!(e, Event::CardBought { .. }))
        .expect("bought");
    let gold = events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::ResourceChanged {
                    resource: Resource::Gold,
                    ..
                }
            )
        })
        .expect("gold changed");
    assert!(bought < gold, "{events:?}");
    // A spell: "casts", then "now has N crystal".
    let rules = rules_with(|r| r.cards[0].crystal_cost = 2);
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
    g.players[0].hand = 1;
    g.players[0].resources = [5, 5, 5];
    let mut events = Vec::new();
    g.apply(Action::CastSpell { card: 0, pay: None }, &mut events)
        .unwrap();
    let cast = events
        .iter()
        .position(|e| matches!(e, Event::SpellCast { .. }))
        .expect("cast");
    let crystal = events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::ResourceChanged {
                    resource: Resource::Crystal,
                    ..
                }
            )
        })
        .expect("crystal changed");
    assert!(cast < crystal, "{events:?}");
}
