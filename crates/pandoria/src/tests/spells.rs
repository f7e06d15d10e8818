//! Spells (P-P1, P-SP1–P-SP13) and the buildings around them.

use super::*;
use crate::cards::Building::*;
use crate::components::Resource;
use crate::components::Terrain::*;
use crate::events::{Event, Reason};
use crate::spells::Pending;

/// A card with the given spell; its building is a Statue.
fn spell_card(spell: Spell, value: u8, crystal: u8) -> Card {
    Card {
        spell,
        spell_value: value,
        crystal_cost: crystal,
        ..building_card(Statue, 0, 3)
    }
}

/// Seat 0 (humans unless said) holds card 0 with `spell`, crystal 10.
fn with_spell(
    spell: Spell,
    value: u8,
    realms: &[Realm],
    keep: &[Cell],
    edit: impl FnOnce(&mut Rules),
) -> Pandoria {
    let rules = rules_with(|r| {
        r.cards[0] = spell_card(spell, value, 2);
        edit(r);
    });
    let mut g = scenario(realms, Mode::Full, &rules, keep);
    g.players[0].hand = 1;
    g.players[0].resources = [10, 5, 5];
    g
}

fn cast(g: &mut Pandoria) {
    play(g, Action::CastSpell { card: 0, pay: None });
}

const TWO: [Realm; 2] = [Realm::Humans, Realm::Elves];

// rule P-P1 / P-B9 / P-B10 / P-C6: cost, School, Shrine, spell pile.
#[test]
fn casting_pays_crystals_and_tops_the_spell_pile() {
    let mut g = with_spell(Spell::Conjure, 8, &TWO, &[], |_| {});
    g.players[0].resources = [5, 3, 3];
    cast(&mut g);
    assert_eq!(g.player(0).resources[0], 3, "cost 2 of 5");
    assert_eq!(g.player(0).last_spell, 0);
    assert_eq!(g.player(0).spell_pile, 1);
    assert_eq!(g.player(0).hand, 0);
    let mut g = with_spell(Spell::Conjure, 8, &TWO, &[], |r| {
        r.cards[1] = building_card(SchoolOfWizardry, 3, 7);
        r.cards[2] = building_card(Shrine, 2, 3);
    });
    give_building(&mut g, 0, 0, 1);
    give_building(&mut g, 0, 1, 2);
    assert_eq!(g.spell_cost(0, 0), 1, "max(1, 2 − 3)");
    cast(&mut g);
    assert_eq!(g.player(0).points[Reason::Shrine.index()], 2);
    // P-T7 / P-X17: a Market pays a crystal shortfall with one other resource.
    let mut g = with_spell(Spell::Conjure, 8, &TWO, &[], |r| {
        r.cards[1] = building_card(Market, 1, 3);
    });
    give_building(&mut g, 0, 0, 1);
    g.players[0].resources = [1, 0, 4];
    assert_eq!(
        legal(&g)
            .into_iter()
            .filter(|a| matches!(a, Action::CastSpell { .. }))
            .collect::<Vec<_>>(),
        vec![Action::CastSpell {
            card: 0,
            pay: Some(Resource::Wood)
        }]
    );
}

// rule P-SP5: Conjure sets a resource below v, is no gain (no Store point).
#[test]
fn conjure() {
    let mut g = with_spell(Spell::Conjure, 10, &TWO, &[], |r| {
        r.cards[1] = building_card(Store, 0, 3);
    });
    give_building(&mut g, 0, 0, 1);
    g.players[0].resources = [10, 10, 4];
    // After paying 2 crystals, crystal 8 < 10 too: two options.
    cast(&mut g);
    assert_eq!(
        legal(&g),
        vec![
            Action::SetResource {
                resource: Resource::Crystal
            },
            Action::SetResource {
                resource: Resource::Wood
            }
        ]
    );
    play(
        &mut g,
        Action::SetResource {
            resource: Resource::Wood,
        },
    );
    assert_eq!(g.player(0).resources, [8, 10, 10]);
    assert_eq!(g.player(0).points[Reason::Store.index()], 0);
}

// rule P-X12: a spell that changes nothing may be cast when its card can be paid for;
// it pays, tops the spell pile, gains the Shrine bonus and resolves with no step.
#[test]
fn x12_a_spell_without_effect_is_cast_and_shrine_pays() {
    let mut g = with_spell(Spell::Conjure, 6, &TWO, &[], |r| {
        r.cards[1] = building_card(Shrine, 2, 3);
    });
    give_building(&mut g, 0, 0, 1);
    g.players[0].resources = [10, 6, 6];
    assert!(
        legal(&g).contains(&Action::CastSpell { card: 0, pay: None }),
        "8 crystals left, all ≥ 6: no effect, but offered"
    );
    let mut events = Vec::new();
    g.apply(Action::CastSpell { card: 0, pay: None }, &mut events)
        .unwrap();
    assert_eq!(g.player(0).resources, [8, 6, 6], "paid, nothing set");
    assert_eq!(g.player(0).last_spell, 0);
    assert_eq!(g.player(0).points[Reason::Shrine.index()], 2, "Shrine pays");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ResourceSet { .. })),
        "{events:?}"
    );
    assert_eq!(g.turn.pending, Pending::None, "no step is waiting");
    // A card that cannot be paid for is still not offered.
    let mut g = with_spell(Spell::Conjure, 6, &TWO, &[], |_| {});
    g.players[0].resources = [1, 6, 6];
    assert!(!legal(&g)
        .iter()
        .any(|a| matches!(a, Action::CastSpell { .. })));
}

// rule P-SP1 / P-T10: Acquire takes for free, up to n, refills after the spell.
#[test]
fn acquire() {
    let mut g = with_spell(Spell::Acquire, 2, &TWO, &[], |r| {
        r.cards[1] = building_card(Bank, 3, 3);
    });
    give_building(&mut g, 0, 0, 1);
    let gold = g.player(0).resources[1];
    let deck = g.deck.len();
    cast(&mut g);
    assert!(!legal(&g).contains(&Action::Done), "Done only after a pick");
    let card = g.market[1];
    play(&mut g, Action::TakeCard { market: 1 });
    assert_eq!(g.market[1], NO_CARD, "refilled only after the spell");
    assert!(legal(&g).contains(&Action::Done));
    play(&mut g, Action::TakeCard { market: 2 });
    assert_eq!(g.player(0).resources[1], gold, "free");
    assert_ne!(g.player(0).hand & 1 << card, 0);
    assert_ne!(g.player(0).known & 1 << card, 0, "P-Z3: taken face up");
    assert_eq!(g.deck.len(), deck - 2);
    assert!(g.market.iter().all(|&c| c != NO_CARD));
}

// rule P-SP2 / P-X18: Adopt resolves an opponent's last spell; Adopt stays the last
// spell; one Shrine bonus. With nothing to adopt it is cast without effect (P-X12).
#[test]
fn adopt() {
    let mut g = with_spell(Spell::Adopt, 0, &TWO, &[], |r| {
        r.cards[1] = spell_card(Spell::Conjure, 10, 3);
        r.cards[2] = building_card(Shrine, 1, 3);
    });
    let mut nothing = g.clone();
    cast(&mut nothing);
    assert_eq!(nothing.turn.pending, Pending::None, "nothing to adopt");
    g.players[1].last_spell = 1;
    g.players[1].spell_pile = 0b10;
    give_building(&mut g, 0, 0, 2);
    g.players[0].resources = [10, 10, 3];
    cast(&mut g);
    assert_eq!(legal(&g), vec![Action::AdoptFrom { seat: 1 }]);
    play(&mut g, Action::AdoptFrom { seat: 1 });
    play(
        &mut g,
        Action::SetResource {
            resource: Resource::Wood,
        },
    );
    assert_eq!(g.player(0).resources[2], 10);
    assert_eq!(g.player(0).last_spell, 0);
    assert_eq!(g.player(0).points[Reason::Shrine.index()], 1);
    // An Adopt is never copied.
    let mut g = with_spell(Spell::Adopt, 0, &TWO, &[], |r| {
        r.cards[1] = spell_card(Spell::Adopt, 0, 3);
    });
    g.players[1].last_spell = 1;
    cast(&mut g);
    assert_eq!(g.turn.pending, Pending::None, "no Adopt to copy");
}

// rule P-SP2 / P-X18: in the teams variant Adopt copies an opponent, never the partner
// (seats 0 and 2 are partners).
#[test]
fn adopt_never_copies_a_partner_in_teams() {
    let four = [
        Realm::Humans,
        Realm::Elves,
        Realm::Dwarves,
        Realm::Halflings,
    ];
    let rules = rules_with(|r| {
        r.cards[0] = spell_card(Spell::Adopt, 0, 2);
        r.cards[1] = spell_card(Spell::Conjure, 10, 3);
        r.cards[2] = spell_card(Spell::Conjure, 10, 3);
    });
    for teams in [false, true] {
        let mut cfg = config(&four, Mode::Full, &rules);
        cfg.teams = teams;
        let mut g = scenario(&four, Mode::Full, &rules, &[]);
        g.config = cfg.clone();
        g.players[0].hand = 1;
        g.players[0].resources = [10, 5, 5];
        g.players[1].last_spell = 1;
        g.players[2].last_spell = 2;
        cast(&mut g);
        let mut expected = vec![Action::AdoptFrom { seat: 1 }];
        if !teams {
            expected.push(Action::AdoptFrom { seat: 2 });
        }
        assert_eq!(legal(&g), expected, "teams: {teams}");
        if teams {
            // Only the partner has a spell: nothing to adopt, cast without effect.
            let mut g = scenario(&four, Mode::Full, &rules, &[]);
            g.config = cfg;
            g.players[0].hand = 1;
            g.players[0].resources = [10, 5, 5];
            g.players[2].last_spell = 2;
            cast(&mut g);
            assert_eq!(g.turn.pending, Pending::None);
            assert!(!legal(&g).contains(&Action::AdoptFrom { seat: 2 }));
        }
    }
}

// rule P-SP3 / P-X13 / P-G12: a figure on a ship scores the regions next to its ship
// cell and never returns when they close.
#[test]
fn astral_ship() {
    let board = &Rules::standard().board;
    let ship = board.ships().iter().next().unwrap();
    let land = board
        .neighbours(ship)
        .iter()
        .copied()
        .find(|&n| n != crate::hex::NO_CELL && board.field().contains(n))
        .unwrap();
    let mut g = with_spell(Spell::AstralShip, 0, &TWO, &[land], |_| {});
    cast(&mut g);
    let options = legal(&g);
    assert!(options.contains(&Action::PlaceFigure {
        at: ship,
        leader: false
    }));
    assert!(
        !options.contains(&Action::PlaceFigure {
            at: ship,
            leader: true
        }) || g.player(0).is(Realm::Humans)
    );
    play(
        &mut g,
        Action::PlaceFigure {
            at: ship,
            leader: false,
        },
    );
    assert_eq!(g.figure_at(ship), Some((0, false)));
    g.turn = crate::state::Turn::default();
    put_tile(&mut g, land, Hill, 2);
    let root = g.map.region(land).unwrap();
    assert!(root.closed);
    assert_eq!(g.weight(0, root.root), 1, "the ship is adjacent");
}

// rule P-SP4: Clone picks next to own figures, a fresh clone counts, Done after one.
#[test]
fn clone() {
    let a = centre();
    let b = walk(a, &[0]);
    let c = walk(b, &[0]);
    let far = walk(a, &[3, 3]);
    let holes = [walk(a, &[1]), walk(b, &[1]), walk(c, &[1]), walk(far, &[1])];
    let mut keep = vec![a, b, c, far];
    keep.extend(holes);
    let mut g = with_spell(
        Spell::Clone,
        2,
        &[Realm::Elves, Realm::Humans],
        &keep,
        |_| {},
    );
    for (cell, t) in [(a, Forest), (b, Hill), (c, Forest), (far, City)] {
        put_tile(&mut g, cell, t, 1);
    }
    put_figure(&mut g, a, 0, false);
    cast(&mut g);
    let cells: Vec<Cell> = legal(&g)
        .into_iter()
        .filter_map(|x| match x {
            Action::PlaceFigure { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(cells, vec![b], "only next to own figures");
    play(
        &mut g,
        Action::PlaceFigure {
            at: b,
            leader: false,
        },
    );
    assert!(
        legal(&g).contains(&Action::PlaceFigure {
            at: c,
            leader: false
        }),
        "the clone counts"
    );
    assert!(legal(&g).contains(&Action::Done));
    play(
        &mut g,
        Action::PlaceFigure {
            at: c,
            leader: false,
        },
    );
    assert_ne!(g.phase, Phase::Spell, "n = 2 picks made");
}

// rule P-SP10 / P-G13 / P-X8 / P-X20: Muster onto open land hexes, printed ones too;
// never closed hexes, castles, ships or occupied hexes.
#[test]
fn muster_targets() {
    let a = centre();
    let b = walk(a, &[0]);
    let open = walk(b, &[0]);
    let closed = walk(a, &[3, 3]);
    let hole = walk(a, &[1]);
    let mut g = with_spell(Spell::Muster, 2, &TWO, &[a, b, open, closed, hole], |_| {});
    put_tile(&mut g, a, Forest, 1);
    put_tile(&mut g, b, Hill, 1);
    put_tile(&mut g, closed, City, 1);
    put_figure(&mut g, b, 1, false);
    cast(&mut g);
    let cells: Vec<Cell> = legal(&g)
        .into_iter()
        .filter_map(|x| match x {
            Action::PlaceFigure { at, leader: false } => Some(at),
            _ => None,
        })
        .collect();
    assert!(cells.contains(&a));
    assert!(!cells.contains(&b), "occupied");
    assert!(!cells.contains(&closed), "closed");
    let printed = Rules::standard().board.printed();
    assert!(
        cells.iter().all(|&c| g.map.land(c).is_some()),
        "never a castle or a ship"
    );
    let printed_open: Vec<Cell> = printed
        .iter()
        .filter(|&c| !g.map.in_closed_region(c))
        .collect();
    for p in printed_open {
        assert!(cells.contains(&p), "printed hexes are targets");
    }
}

// rule P-SP7 / P-X7: Enchanted Castle: castle, then a figure on it (mandatory), closing
// scored in P-T8, no tile drawn, buy allowed.
#[test]
fn enchanted_castle() {
    let x = centre();
    let h = walk(x, &[0]);
    let mut g = with_spell(Spell::EnchantedCastle, 0, &TWO, &[x, h], |_| {});
    put_tile(&mut g, h, Hill, 2);
    g.players[0].tiles.push(3);
    let gold = g.player(0).resources[1];
    cast(&mut g);
    assert_eq!(legal(&g), vec![Action::PlaceCastle { at: x }]);
    play(&mut g, Action::PlaceCastle { at: x });
    assert_eq!(
        legal(&g),
        vec![
            Action::PlaceFigure {
                at: x,
                leader: false
            },
            Action::PlaceFigure {
                at: x,
                leader: true
            }
        ],
        "humans-B choose; no Skip"
    );
    play(
        &mut g,
        Action::PlaceFigure {
            at: x,
            leader: true,
        },
    );
    assert_eq!(
        g.player(0).resources[1],
        gold + 4,
        "leader weight 2 × 2 symbols"
    );
    assert_eq!(g.player(0).tiles.len(), 1, "no draw");
    assert_eq!(g.phase, Phase::Buy);
}

// rule P-SP7: the castle goes down with a figure on it; without a reserve figure the
// spell cannot be cast (nor adopted).
#[test]
fn enchanted_castle_needs_a_reserve_figure() {
    let x = centre();
    let mut g = with_spell(Spell::EnchantedCastle, 0, &TWO, &[x], |_| {});
    assert!(legal(&g).contains(&Action::CastSpell { card: 0, pay: None }));
    g.players[0].figures = 0;
    g.players[0].leader_in_reserve = false;
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::CastSpell { .. })),
        "no reserve figure: not castable"
    );
    // The leader alone is a reserve figure (P-X20).
    g.players[0].leader_in_reserve = true;
    assert!(legal(&g).contains(&Action::CastSpell { card: 0, pay: None }));
}

// rule P-SP8: Flee returns own figures one by one; Done after the first.
#[test]
fn flee() {
    let a = centre();
    let b = walk(a, &[0]);
    let mut g = with_spell(Spell::Flee, 0, &TWO, &[a, b], |_| {});
    put_tile(&mut g, a, Forest, 1);
    put_tile(&mut g, b, Hill, 1);
    put_figure(&mut g, a, 0, true);
    put_figure(&mut g, b, 0, false);
    cast(&mut g);
    assert!(!legal(&g).contains(&Action::Done));
    play(&mut g, Action::RemoveFigure { at: a });
    assert!(g.player(0).leader_in_reserve);
    assert!(legal(&g).contains(&Action::Done));
    play(&mut g, Action::Done);
    assert_eq!(g.figure_at(b), Some((0, false)));
}

// rule P-SP9 / P-B2: Master Builder builds then raises a monument; the Carpenter rule
// holds for each step.
#[test]
fn master_builder() {
    let mut g = with_spell(Spell::MasterBuilder, 0, &TWO, &[], |r| {
        r.cards[1] = building_card(Carpenter, 2, 5);
        r.cards[2] = building_card(Statue, 0, 3);
    });
    give_building(&mut g, 0, 0, 1);
    g.players[0].hand = 0b101;
    g.players[0].resources = [10, 0, 10];
    cast(&mut g);
    assert!(legal(&g).contains(&Action::Skip));
    play(
        &mut g,
        Action::Build {
            card: 2,
            slot: 0,
            pay: None,
        },
    );
    assert_eq!(
        g.player(0).resources[2],
        9,
        "3 over 5 → 1, no discount over the Carpenter"
    );
    assert_eq!(
        legal(&g),
        vec![Action::Monument { slot: 0, pay: None }, Action::Skip]
    );
    play(&mut g, Action::Monument { slot: 0, pay: None });
    assert_eq!(g.player(0).resources[2], 4, "8 − 3, the Carpenter is gone");
}

// rule P-SP6: Construct builds or raises a monument for 0 wood.
#[test]
fn construct() {
    let mut g = with_spell(Spell::Construct, 0, &TWO, &[], |r| {
        r.cards[1] = building_card(Statue, 0, 9);
    });
    g.players[0].hand = 0b11;
    g.players[0].resources = [10, 0, 0];
    cast(&mut g);
    assert!(!legal(&g).contains(&Action::Skip));
    play(
        &mut g,
        Action::Build {
            card: 1,
            slot: 3,
            pay: None,
        },
    );
    assert_eq!(g.player(0).slots[3], 1);
    assert_eq!(g.player(0).resources, [8, 0, 0]);
}

// rule P-SP11 / P-R8 / P-X10: Rage sets one own figure's weight for every region
// scored this turn, for the active player only.
#[test]
fn rage() {
    let f = centre();
    let h = walk(f, &[0]);
    let c = walk(f, &[3]);
    let mut g = with_spell(Spell::Rage, 3, &TWO, &[h, c], |_| {});
    put_tile(&mut g, h, Hill, 2);
    put_tile(&mut g, c, City, 1);
    put_figure(&mut g, f, 0, false);
    let (rh, rc) = (g.map.region(h).unwrap().root, g.map.region(c).unwrap().root);
    g.turn.closed.push(rh);
    g.turn.closed.push(rc);
    g.players[0].resources[1] = 2;
    cast(&mut g);
    play(&mut g, Action::RageOn { at: f });
    assert_eq!(g.player(0).resources[1], 2 + 6, "2 symbols × 3");
    assert_eq!(g.player(0).points[Reason::CityRegions.index()], 3);
}

// rule P-SP12: Teleport moves distinct figures (from a castle too) to spell targets.
#[test]
fn teleport() {
    let a = centre();
    let b = walk(a, &[0]);
    let t = walk(b, &[0]);
    let mut g = with_spell(Spell::Teleport, 2, &TWO, &[a, b, t, walk(t, &[0])], |_| {});
    put_castle(&mut g, a, 0);
    put_tile(&mut g, b, Forest, 1);
    put_tile(&mut g, t, Hill, 1);
    put_figure(&mut g, a, 0, false);
    cast(&mut g);
    assert!(!g.spell_targets().contains(b), "b is closed");
    assert!(legal(&g).contains(&Action::MoveFigure { from: a, to: t }));
    assert!(!legal(&g).contains(&Action::MoveFigure { from: a, to: b }));
    play(&mut g, Action::MoveFigure { from: a, to: t });
    assert!(
        !legal(&g)
            .iter()
            .any(|x| matches!(x, Action::MoveFigure { from, .. } if *from == t)),
        "a moved figure does not move again"
    );
}

// rule P-SP13 / P-C20: Terrain with a single tile closes a region: figures inside go
// home at once, it scores in P-T8, the player may buy; nothing is drawn.
#[test]
fn terrain_single_closes() {
    let a = centre();
    let x = walk(a, &[0]);
    let mut g = with_spell(Spell::Terrain, 0, &TWO, &[a, x], |_| {});
    put_tile(&mut g, a, City, 1);
    put_figure(&mut g, a, 0, false);
    put_figure(&mut g, walk(a, &[3]), 0, true);
    g.double_stack.clear();
    cast(&mut g);
    assert_eq!(
        legal(&g),
        vec![Action::DrawFrom { single: true }],
        "the double stack is empty"
    );
    let mut events = Vec::new();
    g.apply(Action::DrawFrom { single: true }, &mut events)
        .unwrap();
    assert!(matches!(
        g.turn.pending,
        Pending::TerrainPlace { single: true, .. }
    ));
    assert_eq!(
        g.view(Some(1)).pending,
        g.turn.pending,
        "the drawn tile is public"
    );
    assert_eq!(legal(&g), vec![Action::PlaceDrawn { at: x, dir: 0 }]);
    play(&mut g, Action::PlaceDrawn { at: x, dir: 0 });
    assert_eq!(g.figure_at(a), None, "returned at once");
    let region = g.map.region(a).unwrap();
    assert!(region.closed);
    assert_eq!(
        g.player(0).points[Reason::CityRegions.index()],
        2 * region.symbols,
        "the leader scores"
    );
    assert_eq!(g.phase, Phase::Buy);
    assert!(!g.end_triggered, "no draw, no trigger");
}

// rule P-C19 / P-K5: halflings who cast first get no build.
#[test]
fn halflings_cast_first_no_build() {
    let halflings = || {
        let mut g = with_spell(
            Spell::Conjure,
            10,
            &[Realm::Halflings, Realm::Humans],
            &[],
            |r| r.cards[1] = building_card(Statue, 0, 1),
        );
        g.players[0].hand = 0b11;
        g.players[0].resources = [10, 3, 3];
        g
    };
    let mut g = halflings();
    cast(&mut g);
    play(
        &mut g,
        Action::SetResource {
            resource: Resource::Gold,
        },
    );
    assert!(!legal(&g).iter().any(|a| matches!(a, Action::Build { .. })));
    // After a build they may cast.
    let mut g = halflings();
    play(
        &mut g,
        Action::Build {
            card: 1,
            slot: 0,
            pay: None,
        },
    );
    assert!(legal(&g).contains(&Action::CastSpell { card: 0, pay: None }));
    let _ = Event::GameOver;
}
