//! The remaining rules: building bonuses and rates, views, events, constants.

use super::*;
use crate::cards::Building::*;
use crate::components::Resource;
use crate::components::Terrain::*;
use crate::events::{Event, Reason};
use crate::state::{MARKET, MONUMENT_BASE, RESOURCE_CAP, SLOTS};
use engine::{rng_from_seed, NoEvents};

// rule P-G4: the yield of each terrain.
#[test]
fn terrains_yield_their_resource() {
    assert_eq!(Forest.resource(), Some(Resource::Wood));
    assert_eq!(Hill.resource(), Some(Resource::Gold));
    assert_eq!(Mountain.resource(), Some(Resource::Crystal));
    assert_eq!(City.resource(), None, "points");
}

// rule P-SC5: the rule constants live in code.
#[test]
fn rule_constants() {
    assert_eq!((MARKET, SLOTS, RESOURCE_CAP, MONUMENT_BASE), (4, 5, 10, 8));
    assert_eq!([2, 3, 4].map(crate::state::figures_for), [6, 5, 4], "P-S3");
}

// rule P-B3 / P-B4 / P-B5: Lumberyard (wood), Repository (crystal) and Vault (gold) set
// their resource's rate, in overflow and at the end.
#[test]
fn rate_buildings() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Lumberyard, 0, 4);
        r.cards[0].building_rate = (2, 1);
        r.cards[1] = building_card(Repository, 0, 4);
        r.cards[1].building_rate = (3, 2);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    give_building(&mut g, 0, 1, 1);
    assert_eq!(g.rate(0, Resource::Wood), (2, 1));
    assert_eq!(g.rate(0, Resource::Crystal), (3, 2));
    assert_eq!(g.rate(0, Resource::Gold), (3, 1));
    g.players[0].resources = [9, 9, 9];
    g.gain(0, Resource::Wood, 6, &mut NoEvents);
    assert_eq!(
        g.player(0).points[Reason::Overflow.index()],
        2,
        "excess 5 at 2:1"
    );
    g.players[0].resources = [9, 0, 9];
    assert_eq!(g.end_points(0), (0, 6 + 4, 1), "9/3×2 + 9/2; leftover 1");
}

// rule P-B8 / P-R4: Saw Mills, Treasuries and the Statue add per hex, once, not per
// figure; large and small stack.
#[test]
fn hex_bonus_buildings() {
    let f = centre();
    let forest = [walk(f, &[0]), walk(f, &[0, 0])];
    let hill = walk(f, &[3]);
    let city = walk(f, &[2]);
    let mut keep = forest.to_vec();
    keep.extend([hill, city]);
    let rules = rules_with(|r| {
        r.cards[0] = building_card(SawMillLarge, 0, 6);
        r.cards[1] = building_card(SawMillSmall, 0, 3);
        r.cards[2] = building_card(TreasurySmall, 0, 3);
        r.cards[3] = building_card(Statue, 0, 3);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Elves], Mode::Full, &rules, &keep);
    for c in forest {
        put_tile(&mut g, c, Forest, 1);
    }
    put_tile(&mut g, hill, Hill, 2);
    put_tile(&mut g, city, City, 1);
    put_figure(&mut g, f, 0, true);
    for slot in 0..4 {
        give_building(&mut g, 0, slot, slot as CardId);
    }
    for c in [forest[0], hill, city] {
        let root = g.map.region(c).unwrap().root;
        g.turn.closed.push(root);
    }
    let gains = g.closed_gains()[0];
    assert_eq!(gains.resources[Resource::Wood.index()], 2 * 2 + 2 * 2 + 2);
    assert_eq!(gains.resources[Resource::Gold.index()], 2 * 2 + 1);
    assert_eq!((gains.city, gains.statue), (2, 1));
    assert_eq!(
        g.closed_gains()[1],
        Default::default(),
        "no figure, no bonus"
    );
}

// rule P-R9 / P-X5: a closed region with no adjacent figure scores nothing but still
// opens the purchase.
#[test]
fn empty_closing_still_allows_a_purchase() {
    let x = centre();
    let h = walk(x, &[0]);
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves],
        Mode::Full,
        Rules::standard(),
        &[x, h],
    );
    put_tile(&mut g, h, Hill, 2);
    g.players[0].resources = [5, 5, 5];
    g.players[0].figures = 0;
    g.players[0].leader_in_reserve = false;
    g.phase = Phase::Place;
    play(&mut g, Action::PlaceCastle { at: x });
    assert_eq!(g.player(0).resources, [5, 5, 5]);
    assert_eq!(g.phase, Phase::Buy);
}

// rule P-R10 / P-R11: the score is unbounded and broken down by category; the lines
// add up to the score.
#[test]
fn score_breakdown() {
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves],
        Mode::Full,
        Rules::standard(),
        &[],
    );
    for (i, r) in Reason::ALL.iter().enumerate() {
        g.players[0].add_points(*r, 30 + i as u16);
    }
    g.final_scoring(&mut NoEvents);
    let o = g.outcome().unwrap();
    let me = &o.seats[0];
    assert!(me.score > 240, "no lap limit");
    let names: Vec<&str> = me.breakdown.iter().map(|l| l.category.as_str()).collect();
    assert_eq!(
        names,
        [
            "city regions",
            "overflow",
            "monuments",
            "Shrine",
            "Statue",
            "Store",
            "end-game cards",
            "end-game resources"
        ]
    );
    assert_eq!(me.breakdown.iter().map(|l| l.points).sum::<i32>(), me.score);
    assert_eq!(me.rank, 1);
}

// rule P-S10: the single stack holds the 8 single tiles in a seeded random order.
#[test]
fn single_stack_is_shuffled() {
    let orders: std::collections::HashSet<Vec<u8>> = (0..10)
        .map(|seed| {
            let g = Pandoria::new(&PandoriaConfig::default(), seed).unwrap();
            let mut sorted = g.single_stack.to_vec();
            sorted.sort();
            assert_eq!(sorted, (0..8).collect::<Vec<u8>>());
            g.single_stack.to_vec()
        })
        .collect();
    assert!(orders.len() > 5);
}

// rule P-S12 / P-SC6 / P-E2: the start seat plays first and its right-hand neighbour
// closes each round; to_move is always the active seat.
#[test]
fn start_seat_and_seat_to_move() {
    let config = PandoriaConfig {
        players: 3,
        start_seat: 2,
        ..PandoriaConfig::default()
    };
    let mut g = Pandoria::new(&config, 4).unwrap();
    assert_eq!(g.current, 2);
    assert_eq!(g.last_seat(), 1);
    let mut rng = rng_from_seed(4);
    let mut buf = Vec::new();
    while let Some(a) = engine::playout::random_action(&g, &mut rng, &mut buf) {
        assert_eq!(g.to_move(), Some(g.current));
        g.apply(a, &mut NoEvents).unwrap();
    }
    assert_eq!(g.current, 1, "the game ends after seat 1's turn");
}

// rule P-X3: an empty deck leaves market slots empty; nothing is reshuffled.
#[test]
fn empty_deck_leaves_the_market_empty() {
    let x = centre();
    let h = walk(x, &[0]);
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves],
        Mode::Full,
        Rules::standard(),
        &[x, h],
    );
    put_tile(&mut g, h, Hill, 1);
    g.deck.clear();
    g.players[0].resources = [5, 10, 5];
    g.phase = Phase::Place;
    play(&mut g, Action::PlaceCastle { at: x });
    play(&mut g, Action::Skip);
    play(
        &mut g,
        Action::Buy {
            market: 0,
            pay: None,
        },
    );
    assert_eq!(g.market[0], NO_CARD);
}

// rule P-X11 / P-D1: variant values are printed per card: two Banks with different k
// are different cards that share one building id.
#[test]
fn variant_values_are_per_card() {
    let rules = Rules::standard();
    let banks: Vec<u8> = rules
        .cards
        .iter()
        .filter(|c| c.building == Bank)
        .map(|c| c.building_value)
        .collect();
    assert!(banks.len() > 1);
    assert!(banks.iter().all(|k| (1..=3).contains(k)));
}

// rule P-X19: a printed hex closed at setup is closed, but no turn ever scores it.
#[test]
fn printed_hex_closed_at_setup_is_never_scored() {
    let board = crate::board::Board::new(
        &[
            (
                Axial::new(0, 0),
                crate::board::CellKind::Printed {
                    terrain: City,
                    symbols: 2,
                },
            ),
            (Axial::new(1, 0), crate::board::CellKind::Lake),
            (Axial::new(2, 0), crate::board::CellKind::Field),
            (Axial::new(3, 0), crate::board::CellKind::Field),
        ],
        &[],
    )
    .unwrap();
    let mut map = Map::new(&board);
    assert!(map.region(0).unwrap().closed);
    let closed = map.place_castle(&board, 2, 0);
    assert!(closed.is_empty(), "not reported by any placement");
}

// rule P-Z4 / P-Z5: the view shows the public globals and hides every order.
#[test]
fn public_globals_and_hidden_orders() {
    let g = Pandoria::new(&PandoriaConfig::default(), 6).unwrap();
    let v = g.view(None);
    assert_eq!(v.market.map(|c| c.unwrap()), g.market);
    assert_eq!(v.monuments, g.monuments.to_vec());
    assert_eq!(v.deck_size, g.deck.len());
    assert_eq!(v.double_stack_size, g.double_stack.len());
    assert_eq!(
        v.single_tiles_left,
        (0..8).collect::<Vec<u8>>(),
        "a sorted set"
    );
    let mut rng = rng_from_seed(2);
    let mut other = g.determinize(None, &mut rng);
    while other.deck == g.deck {
        other = g.determinize(None, &mut rng);
    }
    assert_eq!(other.view(None), v, "deck order is in no view");
    for seat in 0..4 {
        assert_eq!(other.view(Some(seat)).deck_size, v.deck_size);
    }
}

// rule P-Z8: after setup the state has no randomness: draws take stack tops, so the
// same actions always give the same state (see also tests::turn::determinism).
#[test]
fn draws_take_the_stack_top() {
    let mut g = Pandoria::new(&PandoriaConfig::default(), 12).unwrap();
    let next = *g.double_stack.last().unwrap();
    let place = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceTile { .. }))
        .unwrap();
    play(&mut g, place);
    while g.current == 0 {
        play(&mut g, Action::Skip);
    }
    assert_eq!(g.player(0).tiles.as_slice(), &[next]);
}

// rule P-Z9 / P-Z6: events carry ids and numbers; a tile draw names no tile.
#[test]
fn events_name_no_hidden_ids() {
    let mut g = Pandoria::new(&PandoriaConfig::default(), 13).unwrap();
    let mut events = Vec::new();
    let place = legal(&g)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceTile { .. }))
        .unwrap();
    g.apply(place, &mut events).unwrap();
    while g.current == 0 {
        g.apply(Action::Skip, &mut events).unwrap();
    }
    assert!(events.iter().any(|e| matches!(e, Event::TilePlaced { .. })));
    let drawn = events
        .iter()
        .find(|e| matches!(e, Event::TileDrawn { .. }))
        .unwrap();
    let json = serde_json_like(drawn);
    assert!(!json.contains("tile"), "{json}");
}

fn serde_json_like(e: &Event) -> String {
    format!("{e:?}")
}
