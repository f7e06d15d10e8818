//! The conformance scenarios of the spec (P-C1–P-C20) that the engine can play today.

use super::*;
use crate::cards::Building::*;
use crate::components::Resource;
use crate::components::Terrain::*;
use crate::events::{Event, Reason};
use crate::hex::CellSet;

fn crystal(g: &Pandoria, seat: Seat) -> u8 {
    g.player(seat).resources[Resource::Crystal.index()]
}

// rule P-C1 (rulebook 7.2): leader weight 2, Tower large and small, the cap and the
// overflow; the closer may buy.
// rule P-R1 / P-R2 / P-R3 / P-R4 / P-R6 / P-T8 / P-T9 / P-G11
#[test]
fn c1_large_and_small_tower_example() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(TowerLarge, 0, 6);
        r.cards[1] = building_card(TowerSmall, 0, 3);
    });
    let m1 = centre();
    let m2 = walk(m1, &[0]);
    let e = walk(m2, &[0]);
    let e2 = walk(e, &[0]);
    let mut g = scenario(
        &[Realm::Humans, Realm::Mages],
        Mode::Full,
        &rules,
        &[m1, m2, e, e2],
    );
    put_tile(&mut g, m1, Mountain, 2);
    put_tile(&mut g, m2, Mountain, 1);
    put_figure(&mut g, walk(m1, &[2]), 0, true);
    put_figure(&mut g, walk(m1, &[3]), 0, false);
    put_figure(&mut g, walk(m2, &[1]), 1, false);
    give_building(&mut g, 0, 0, 0);
    give_building(&mut g, 0, 1, 1);
    g.players[0].resources[Resource::Crystal.index()] = 2;
    g.players[1].resources[Resource::Crystal.index()] = 4;
    g.players[1].resources[Resource::Gold.index()] = 10;
    let forest_first = (0..rules.double_tiles.len() as u8)
        .find(|&t| rules.double_tiles[usize::from(t)][0].terrain == Forest)
        .unwrap();
    g.players[1].tiles.push(forest_first);
    g.current = 1;
    g.phase = Phase::Place;
    play(
        &mut g,
        Action::PlaceTile {
            tile: forest_first,
            at: e,
            dir: 0,
        },
    );
    assert!(g.map.region(m1).unwrap().closed);
    play(&mut g, Action::Skip); // no figure
    assert_eq!(crystal(&g, 0), 10, "2 + 9 + 4 + 2 = 17, capped");
    assert_eq!(g.player(0).points[Reason::Overflow.index()], 2, "excess 7");
    assert_eq!(crystal(&g, 1), 7, "Blue gains 3");
    assert_eq!(g.phase, Phase::Buy, "Blue closed a region and may buy");
}

// rule P-C2 (6.3.3 with the FAQ erratum: 8 − 3 = 5).
// rule P-T6
#[test]
fn c2_monument_cost_with_the_erratum() {
    let rules = rules_with(|r| r.cards[0] = building_card(Statue, 0, 3));
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 2, 0);
    g.players[0].resources[Resource::Wood.index()] = 7;
    assert_eq!(g.monuments.last(), Some(&6));
    g.players[0].hand = 1 << 5;
    play(&mut g, Action::Monument { slot: 2, pay: None });
    let p = g.player(0);
    assert_eq!(p.resources[Resource::Wood.index()], 2, "paid 5");
    assert_eq!(p.points[Reason::Monuments.index()], 6);
    assert_eq!(p.monuments[2], 6);
    assert_eq!(p.slots[2], NO_CARD, "the building's effect ends");
    assert_eq!(p.covered, 1, "the building is covered, not lost");
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::Build { slot: 2, .. })),
        "nothing covers a monument"
    );
}

// rule P-C3 / P-B2: the Carpenter discount, and none when covering the Carpenter.
#[test]
fn c3_carpenter_discount_on_monuments() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Carpenter, 2, 5);
        r.cards[1] = building_card(Statue, 0, 3);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    give_building(&mut g, 0, 1, 1);
    assert_eq!(g.monument_cost(0, 1), Some(3), "8 − 3 − 2");
    assert_eq!(g.monument_cost(0, 0), Some(3), "8 − 5, no discount");
    assert_eq!(
        g.monument_cost(0, 2),
        None,
        "an empty slot holds no building"
    );
}

// rule P-C4 / P-T5: building costs, overbuilding and the minimum of 1.
#[test]
fn c4_building_costs() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Shrine, 1, 6);
        r.cards[1] = building_card(Store, 0, 5);
        r.cards[2] = building_card(Statue, 0, 3);
        r.cards[3] = building_card(Poorhouse, 0, 6);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    g.players[0].hand = 0b1101;
    assert_eq!(g.build_cost(0, 0, 0), Some(6), "empty slot: full cost");
    give_building(&mut g, 0, 1, 1);
    assert_eq!(g.build_cost(0, 0, 1), Some(1), "6 over 5");
    give_building(&mut g, 0, 2, 3);
    assert_eq!(g.build_cost(0, 2, 2), Some(1), "3 over 6: the minimum");
    assert_eq!(g.build_cost(0, 1, 0), None, "not in hand");
    // P-T5: building over a building while a slot is free is allowed.
    g.players[0].resources[Resource::Wood.index()] = 10;
    play(
        &mut g,
        Action::Build {
            card: 0,
            slot: 1,
            pay: None,
        },
    );
    assert_eq!(g.player(0).slots[1], 0);
    assert_eq!(g.player(0).covered, 0b10);
}

// rule P-C5 / P-T5: no two visible buildings share an id; Bank variants share one;
// large and small versions differ.
#[test]
fn c5_duplicate_buildings() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Bank, 1, 3);
        r.cards[1] = building_card(Bank, 3, 7);
        r.cards[2] = building_card(TowerSmall, 0, 3);
        r.cards[3] = building_card(TowerLarge, 0, 6);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    give_building(&mut g, 0, 1, 2);
    g.players[0].hand = 0b1010;
    assert_eq!(g.build_cost(0, 1, 2), None, "a second Bank");
    assert!(g.build_cost(0, 1, 0).is_some(), "over the Bank(1)");
    assert!(
        g.build_cost(0, 3, 2).is_some(),
        "Tower large next to Tower small"
    );
}

// rule P-C6 / P-T7 / P-B1 / P-B6: Bank discount, Market shortfall.
#[test]
fn c6_bank_and_market_payments() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Bank, 1, 3);
        r.cards[1] = building_card(Market, 2, 3);
        r.cards[2] = building_card(Statue, 0, 3);
        r.cards[3].gold_price = 2;
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    g.market[0] = 3;
    assert_eq!(g.buy_price(0, 0), Some(1), "2 − 1");
    give_building(&mut g, 0, 1, 1);
    g.players[0].hand = 1 << 2;
    g.players[0].resources = [0, 6, 1];
    let options: Vec<Action> = legal(&g)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::Build {
                    card: 2,
                    slot: 2,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(
        options,
        vec![Action::Build {
            card: 2,
            slot: 2,
            pay: Some(Resource::Gold)
        }],
        "crystal 0 cannot cover 2 × 2"
    );
    play(&mut g, options[0]);
    assert_eq!(g.player(0).resources, [0, 2, 0]);
    // P-X4: without the means there is no such action at all.
    let mut g2 = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    g2.players[0].hand = 1 << 2;
    g2.players[0].resources = [10, 10, 1];
    assert!(!legal(&g2)
        .iter()
        .any(|a| matches!(a, Action::Build { card: 2, .. })));
}

// rule P-C7 / P-C8 are played in tests::geometry (holes and exits); here the scenario
// level: an open region keeps its figures.
// rule P-G12: closing returns figures on its hexes, leaders too; castle figures stay.
// rule P-C9 / P-X7: one castle closes two regions, scores both, one buy, no draw.
#[test]
fn c9_castle_closes_two_regions() {
    let x = centre();
    let h = walk(x, &[0]);
    let c = walk(x, &[3]);
    let rules = Rules::standard();
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves],
        Mode::Full,
        rules,
        &[x, h, c],
    );
    put_tile(&mut g, h, Hill, 2);
    put_tile(&mut g, c, City, 1);
    put_figure(&mut g, h, 1, true);
    g.players[0].tiles.push(0);
    g.players[0].resources = [5, 4, 5];
    let blue_gold = g.player(1).resources[Resource::Gold.index()];
    g.phase = Phase::Place;
    let mut events = Vec::new();
    g.apply(Action::PlaceCastle { at: x }, &mut events).unwrap();
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::RegionClosed { .. }))
            .count(),
        2
    );
    assert!(g.player(1).leader_in_reserve, "Blue's leader went home");
    assert_eq!(g.figure_at(h), None);
    play(
        &mut g,
        Action::PlaceFigure {
            at: x,
            leader: false,
        },
    );
    assert_eq!(g.player(0).resources[Resource::Gold.index()], 6);
    assert_eq!(g.player(0).points[Reason::CityRegions.index()], 1);
    assert_eq!(
        g.player(1).resources[Resource::Gold.index()],
        blue_gold,
        "no score"
    );
    assert_eq!(g.phase, Phase::Buy);
    let buy = legal(&g)[0];
    assert!(matches!(buy, Action::Buy { .. }));
    play(&mut g, buy);
    assert!(
        g.current != 0 || g.phase != Phase::Buy,
        "one purchase per turn"
    );
    assert_eq!(g.player(0).tiles.len(), 1, "a castle draws no tile");
    assert_eq!(g.player(0).castles, 1);
    assert_eq!(g.figure_at(x), Some((0, false)), "castle figures stay");
}

// rule P-C10 / P-X15 / P-R7: a figure removed in P-T2 does not score a neighbouring
// region closed by the same placement.
#[test]
fn c10_removal_comes_before_scoring() {
    let a = centre();
    let b = walk(a, &[0]);
    let x = walk(a, &[1]);
    let mut g = scenario(
        &[Realm::Humans, Realm::Mages],
        Mode::Full,
        Rules::standard(),
        &[a, b, x],
    );
    put_tile(&mut g, a, Forest, 2);
    put_tile(&mut g, b, Hill, 2);
    put_figure(&mut g, a, 1, false);
    let gold = g.player(1).resources[Resource::Gold.index()];
    g.phase = Phase::Place;
    play(&mut g, Action::PlaceCastle { at: x });
    assert!(g.map.region(a).unwrap().closed && g.map.region(b).unwrap().closed);
    play(&mut g, Action::Skip);
    assert_eq!(g.player(1).resources[Resource::Gold.index()], gold);
    assert_eq!(g.player(1).figures, 6, "back in the reserve");
}

// rule P-C11 / P-X6 / P-K1 / P-T3: the leader goes last except for humans-B, and may be
// taken back.
#[test]
fn c11_leader_rule() {
    let x = centre();
    let offered = |realm: Realm, figures: u8| {
        let mut g = scenario(&[realm, Realm::Mages], Mode::Full, Rules::standard(), &[x]);
        g.players[0].figures = figures;
        put_castle(&mut g, x, 0);
        g.turn.placed = [x, crate::hex::NO_CELL];
        g.phase = Phase::Figure;
        legal(&g)
            .into_iter()
            .filter_map(|a| match a {
                Action::PlaceFigure { leader, .. } => Some(leader),
                _ => None,
            })
            .collect::<Vec<bool>>()
    };
    assert_eq!(offered(Realm::Elves, 1), vec![false]);
    assert_eq!(offered(Realm::Elves, 0), vec![true]);
    assert_eq!(offered(Realm::Humans, 1), vec![false, true]);
    // Side A humans follow the rule.
    let mut g = scenario(
        &[Realm::Humans, Realm::Mages],
        Mode::Beginner,
        Rules::standard(),
        &[x],
    );
    put_castle(&mut g, x, 0);
    g.turn.placed = [x, crate::hex::NO_CELL];
    g.phase = Phase::Figure;
    assert!(!legal(&g).contains(&Action::PlaceFigure {
        at: x,
        leader: true
    }));
    // RemoveFigure may take the leader.
    let y = walk(x, &[0]);
    put_figure(&mut g, y, 0, true);
    assert!(legal(&g).contains(&Action::RemoveFigure { at: y }));
    play(&mut g, Action::RemoveFigure { at: y });
    assert!(g.player(0).leader_in_reserve);
}

// rule P-C12 / P-R6 / P-B5 / P-B11: Vault (3, 2) and Store on an overflow.
#[test]
fn c12_overflow_with_vault_and_store() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Vault, 0, 4);
        r.cards[0].building_rate = (3, 2);
        r.cards[1] = building_card(Store, 0, 4);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    give_building(&mut g, 0, 1, 1);
    g.players[0].resources[Resource::Gold.index()] = 9;
    g.gain(0, Resource::Gold, 8, &mut engine::NoEvents);
    let p = g.player(0);
    assert_eq!(p.resources[Resource::Gold.index()], 10);
    assert_eq!(p.points[Reason::Overflow.index()], 4);
    assert_eq!(p.points[Reason::Store.index()], 1);
    // Without excess no Store point; a gain within the cap is plain.
    g.players[0].resources[Resource::Gold.index()] = 3;
    g.gain(0, Resource::Gold, 7, &mut engine::NoEvents);
    assert_eq!(g.player(0).points[Reason::Store.index()], 1);
    assert_eq!(g.player(0).resources[Resource::Gold.index()], 10);
}

// rule P-C13 / P-R5 / P-X9: simultaneous regions are summed, then capped once.
#[test]
fn c13_simultaneous_regions_apply_once() {
    let f = centre();
    let h1 = [walk(f, &[0]), walk(f, &[0, 0])];
    let h2 = [walk(f, &[3]), walk(f, &[3, 3]), walk(f, &[3, 3, 3])];
    let mut keep = h1.to_vec();
    keep.extend(h2);
    let mut g = scenario(
        &[Realm::Humans, Realm::Mages],
        Mode::Full,
        Rules::standard(),
        &keep,
    );
    for (cell, s) in h1.iter().zip([2, 2]).chain(h2.iter().zip([2, 2, 1])) {
        put_tile(&mut g, *cell, Hill, s);
    }
    put_figure(&mut g, f, 0, false);
    let (r1, r2) = (g.map.region(h1[0]).unwrap(), g.map.region(h2[0]).unwrap());
    assert!(r1.closed && r2.closed && r1.root != r2.root);
    assert_eq!((r1.symbols, r2.symbols), (4, 5));
    g.turn.closed.push(r1.root);
    g.turn.closed.push(r2.root);
    g.players[0].resources[Resource::Gold.index()] = 8;
    g.score_closed(&mut engine::NoEvents);
    assert_eq!(g.player(0).resources[Resource::Gold.index()], 10);
    assert_eq!(
        g.player(0).points[Reason::Overflow.index()],
        2,
        "excess 7 → 2"
    );
}

/// Plays until the game is over: tiles when possible, otherwise `Skip` or the first
/// option. Returns the events.
fn play_out(g: &mut Pandoria) -> Vec<Event> {
    let mut events = Vec::new();
    while g.phase != Phase::Over {
        let options = legal(g);
        let pick = options
            .iter()
            .find(|a| matches!(a, Action::PlaceTile { .. }))
            .or_else(|| options.iter().find(|a| **a == Action::Skip))
            .copied()
            .unwrap_or(options[0]);
        g.apply(pick, &mut events).unwrap();
    }
    events
}

// rule P-C14 / P-E1 / P-E2 / P-T11: the round is finished after the trigger.
#[test]
fn c14_end_of_the_game() {
    for (tiles_left, trigger) in [(1usize, 1u8), (2, 2)] {
        let config = config(
            &[Realm::Humans, Realm::Elves, Realm::Mages],
            Mode::Full,
            Rules::standard(),
        );
        let mut g = Pandoria::new(&config, 3).unwrap();
        g.double_stack.truncate(tiles_left);
        let events = play_out(&mut g);
        let triggered: Vec<Seat> = events
            .iter()
            .filter_map(|e| match e {
                Event::EndTriggered { seat } => Some(*seat),
                _ => None,
            })
            .collect();
        assert_eq!(triggered, vec![trigger]);
        assert_eq!(g.current, 2, "the game ends after the start player's right");
        assert_eq!(g.turns, 3, "one round");
        assert!(g.outcome().is_some());
    }
}

// rule P-C15 / P-E4: cards and resources at the end, leftovers.
#[test]
fn c15_final_scoring() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Vault, 0, 4);
        r.cards[0].building_rate = (2, 1);
    });
    let mut g = scenario(&[Realm::Humans, Realm::Mages], Mode::Full, &rules, &[]);
    give_building(&mut g, 0, 0, 0);
    g.players[0].resources = [10, 5, 2];
    g.players[0].hand = 0b1110;
    assert_eq!(g.end_points(0), (3, 5, 4));
}

// rule P-C16 / P-K4 / P-T9 / P-X5: mages-B buy without closing; elves-B do not.
#[test]
fn c16_mages_buy_every_turn() {
    for (realm, offered) in [(Realm::Mages, true), (Realm::Elves, false)] {
        let mut g = scenario(&[realm, Realm::Humans], Mode::Full, Rules::standard(), &[]);
        g.players[0].resources[Resource::Gold.index()] = 10;
        g.players[0].hand = 1 << 20;
        play(&mut g, Action::Skip);
        assert_eq!(
            g.phase == Phase::Buy && g.current == 0,
            offered,
            "{realm:?}"
        );
    }
}

// rule P-C17 / P-K3: elves move 1 or 2; a distance-2 move needs a passable middle cell.
#[test]
fn c17_elves_move() {
    let from = centre();
    let mid = walk(from, &[0]);
    let to = walk(mid, &[0]);
    let open = walk(to, &[0]);
    let setup = |middle: Option<(Terrain, bool)>, rival_castle: bool| {
        let mut g = scenario(
            &[Realm::Elves, Realm::Humans],
            Mode::Full,
            Rules::standard(),
            &[from, mid, to, open],
        );
        put_tile(&mut g, from, Forest, 1);
        put_tile(&mut g, to, Forest, 1);
        if rival_castle {
            put_castle(&mut g, mid, 1);
        }
        if let Some((terrain, occupied)) = middle {
            put_tile(&mut g, mid, terrain, 1);
            if occupied {
                put_figure(&mut g, mid, 1, false);
            }
        }
        put_figure(&mut g, from, 0, false);
        g
    };
    let reaches = |g: &Pandoria| g.elf_targets(0, from).contains(to);
    assert!(!reaches(&setup(None, true)), "a rival castle blocks");
    // P-K3 (seed wins): a hex without a tile may be passed.
    assert!(reaches(&setup(None, false)), "an empty cell is passable");
    assert!(
        reaches(&setup(Some((Hill, true)), false)),
        "an occupied hex is passable"
    );
    let closed = setup(Some((City, false)), false);
    assert!(closed.map.in_closed_region(mid));
    assert!(reaches(&closed), "a closed hex is passable");
    assert!(!closed.elf_targets(0, from).contains(mid), "but no target");
    // A lake never is: the lakes of the board are no targets either.
    let lakes: CellSet = (0..Rules::standard().board.len() as Cell)
        .filter(|&c| Rules::standard().board.kind(c) == crate::board::CellKind::Lake)
        .collect();
    assert!(closed.elf_targets(0, from).intersection(lakes).is_empty());
}

// rule P-K3: a 2-hex elf move may pass over any hex of the board except a rival castle or
// a lake: a hex without a tile and an own castle are passed (occupied and closed hexes:
// P-C17 above), a rival castle and a lake are not. The move is straight, so the middle hex is the only
// cell next to both ends.
#[test]
fn k3_elves_pass_anything_but_rival_castles_and_lakes() {
    let board = &Rules::standard().board;
    // An elf on `from`, a forest on `to` kept open by an empty field cell beyond it, and
    // `middle` (the only cell next to both) set up by `edit`.
    let reaches = |from: Cell, middle: Cell, to: Cell, edit: &dyn Fn(&mut Pandoria)| {
        let beyond = board
            .neighbours(to)
            .iter()
            .copied()
            .find(|&n| n != middle && board.field().contains(n) && board.distance(from, n) == 3)
            .expect("an open cell beyond the target");
        let mut g = scenario(
            &[Realm::Elves, Realm::Humans],
            Mode::Full,
            Rules::standard(),
            &[from, middle, to, beyond],
        );
        put_tile(&mut g, from, Forest, 1);
        put_tile(&mut g, to, Forest, 1);
        edit(&mut g);
        put_figure(&mut g, from, 0, false);
        assert!(!g.map.in_closed_region(to));
        g.elf_targets(0, from).contains(to)
    };
    let from = centre();
    let mid = walk(from, &[1]);
    let to = walk(mid, &[1]);
    assert!(reaches(from, mid, to, &|_| {}), "a hex without a tile");
    assert!(
        reaches(from, mid, to, &|g| put_castle(g, mid, 0)),
        "an own castle"
    );
    assert!(
        !reaches(from, mid, to, &|g| put_castle(g, mid, 1)),
        "a rival castle"
    );
    // A lake, found on the standard board with field cells on two opposite sides.
    let (lake, dir) = (0..board.len() as Cell)
        .filter(|&c| board.kind(c) == crate::board::CellKind::Lake)
        .find_map(|c| {
            (0..3).find_map(|d| {
                let a = board.neighbour(c, d)?;
                let b = board.neighbour(c, d + 3)?;
                (board.field().contains(a) && board.field().contains(b)).then_some((c, d))
            })
        })
        .expect("the standard board has a lake between two field cells");
    let a = board.neighbour(lake, dir).unwrap();
    let b = board.neighbour(lake, dir + 3).unwrap();
    assert_eq!(board.distance(a, b), 2);
    assert!(!reaches(a, lake, b, &|_| {}), "a lake is never passed");
}

// rule P-C18 / P-E3 / P-X2: a round without placements ends the game.
#[test]
fn c18_stall() {
    let mut g = scenario(
        &[Realm::Humans, Realm::Elves, Realm::Dwarves],
        Mode::Full,
        Rules::standard(),
        &[],
    );
    for p in g.players.iter_mut() {
        p.tiles.push(0);
    }
    let mut events = Vec::new();
    g.begin_turn(&mut events);
    let impossible = events
        .iter()
        .filter(|e| matches!(e, Event::PlacementImpossible { .. }))
        .count();
    assert_eq!(impossible, 3);
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(events.last(), Some(&Event::GameOver));
}

// rule P-C19 / P-K5: halflings-B may follow a build with a spell; side A may not.
#[test]
fn c19_halflings_follow_up() {
    for (mode, follow_up) in [(Mode::Full, true), (Mode::Beginner, false)] {
        let rules = rules_with(|r| r.cards[0] = building_card(Statue, 0, 3));
        let mut g = scenario(&[Realm::Halflings, Realm::Humans], mode, &rules, &[]);
        g.players[0].hand = 0b11;
        g.players[0].resources[Resource::Wood.index()] = 5;
        play(
            &mut g,
            Action::Build {
                card: 0,
                slot: 0,
                pay: None,
            },
        );
        assert_eq!(g.phase == Phase::FollowUp, follow_up, "{mode:?}");
        if follow_up {
            assert!(
                !legal(&g).iter().any(|a| matches!(a, Action::Build { .. })),
                "no second card action"
            );
        }
    }
}
