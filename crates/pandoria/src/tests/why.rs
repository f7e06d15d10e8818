//! "Why not?": each kind of action is refused citing the first rule it breaks, legal
//! actions are not refused, and no well-formed action makes the explanation panic.

use super::*;
use crate::cards::Building::{Market, Statue};
use crate::components::Resource;
use crate::components::Terrain::{Forest, Hill};
use crate::fault::{Fault, Key};
use crate::rules::RULES;
use crate::spells::Pending;
use crate::state::MONUMENT_BASE;
use engine::Refusal;

const TWO: [Realm; 2] = [Realm::Humans, Realm::Elves];

/// The refusal of `action` for `seat`, checked to cite `rule` with `code`.
#[track_caller]
fn refused(g: &Pandoria, seat: Seat, action: Action, rule: &str, code: &str) -> Refusal {
    let refusal = g
        .explain(seat, &action)
        .unwrap_or_else(|| panic!("{action:?} explained as legal"));
    assert_eq!(
        (refusal.rule, refusal.reason.code),
        (rule, code),
        "{action:?}: {refusal:?}"
    );
    refusal
}

#[track_caller]
fn arg(refusal: &Refusal, name: &str) -> serde_json::Value {
    refusal.reason.args[name].clone()
}

/// Seat 0 holds card 0 with `spell` (crystal cost 2) and plenty of crystal.
fn with_spell(spell: Spell, value: u8, keep: &[Cell]) -> Pandoria {
    let rules = rules_with(|r| {
        r.cards[0] = Card {
            spell,
            spell_value: value,
            crystal_cost: 2,
            ..building_card(Statue, 0, 3)
        };
    });
    let mut g = scenario(&TWO, Mode::Full, &rules, keep);
    g.players[0].hand = 1;
    g.players[0].resources = [10, 5, 5];
    g
}

fn cast(g: &mut Pandoria) {
    play(g, Action::CastSpell { card: 0, pay: None });
}

/// A game at its first decision: seat 0 places.
fn start() -> Pandoria {
    let config = PandoriaConfig {
        players: 2,
        realms: [Some(Realm::Humans), Some(Realm::Elves), None, None],
        ..PandoriaConfig::default()
    };
    Pandoria::new(&config, 3).unwrap()
}

// rule P-SC6 / P-E2: out of turn, and after the end.
#[test]
fn whose_decision_comes_first() {
    let mut g = start();
    let a = legal(&g)[0];
    assert_eq!(g.explain(0, &a), None, "a legal action is not refused");
    assert!(RULES.contains(&g.rule_of(&a)));
    let r = refused(&g, 1, a, "P-SC6", "not_your_turn");
    assert_eq!(arg(&r, "to_move"), 0);
    g.phase = Phase::Over;
    refused(&g, 0, a, "P-E2", "game_over");
}

// rule P-T4 / P-X1: the step of the turn, before the action's own conditions.
#[test]
fn wrong_step_names_the_step() {
    let g = scenario(&TWO, Mode::Full, Rules::standard(), &[]);
    let tile = Action::PlaceTile {
        tile: 0,
        at: 0,
        dir: 0,
    };
    let r = refused(&g, 0, tile, "P-T4", "wrong_step");
    assert_eq!(arg(&r, "step"), "card");
    refused(&start(), 0, Action::Skip, "P-X1", "placement_mandatory");
}

// rule P-T1 / P-G6 / P-G7: what a placement needs.
#[test]
fn placements() {
    let mut g = start();
    let board = &Rules::standard().board;
    let tile = g.player(0).tiles[0];
    let other = (0..48).find(|t| !g.player(0).tiles.contains(t)).unwrap();
    let place = |tile, at, dir| Action::PlaceTile { tile, at, dir };
    let r = refused(&g, 0, place(other, 0, 0), "P-T1", "tile_not_in_hand");
    assert_eq!(arg(&r, "tile"), other);
    refused(&g, 0, place(tile, 250, 0), "P-G6", "cell_off_map");
    refused(&g, 0, place(tile, 0, 6), "P-G6", "no_such_direction");
    let start_cell = board.start_pairs()[0][0];
    refused(&g, 0, place(tile, start_cell, 0), "P-G6", "cell_occupied");
    let lake = (0..board.len() as Cell)
        .find(|&c| matches!(board.kind(c), crate::board::CellKind::Lake))
        .unwrap();
    refused(&g, 0, place(tile, lake, 0), "P-G6", "not_a_field_cell");
    // An empty pair far from every anchor.
    let (far, dir) = (0..board.len() as Cell)
        .flat_map(|c| (0..6).map(move |d| (c, d)))
        .find(|&(c, d)| {
            let m = g.map();
            board.neighbour(c, d).is_some_and(|n| {
                m.is_empty_field(c)
                    && m.is_empty_field(n)
                    && !m.single_legal(c)
                    && !m.single_legal(n)
            })
        })
        .unwrap();
    refused(&g, 0, place(tile, far, dir), "P-G6", "not_next_to_anchor");
    refused(
        &g,
        0,
        Action::PlaceCastle { at: far },
        "P-G7",
        "not_next_to_anchor",
    );
    g.players[0].castles = 0;
    refused(
        &g,
        0,
        Action::PlaceCastle { at: far },
        "P-T1",
        "no_castle_left",
    );
}

// rule P-T3 / P-X6: a figure goes on the piece just placed, the leader last.
#[test]
fn figure_step() {
    let a = centre();
    let b = walk(a, &[0]);
    let mut g = scenario(
        &[Realm::Elves, Realm::Humans],
        Mode::Full,
        Rules::standard(),
        &[a, b],
    );
    put_tile(&mut g, a, Forest, 1);
    put_figure(&mut g, b, 1, false);
    g.turn.placed = [a, Cell::MAX];
    g.phase = Phase::Figure;
    let c = walk(a, &[3]);
    let put = |at, leader| Action::PlaceFigure { at, leader };
    refused(&g, 0, put(c, false), "P-T3", "not_on_placed_piece");
    let r = refused(&g, 0, put(a, true), "P-X6", "leader_goes_last");
    assert!(arg(&r, "figures").as_u64().unwrap() > 0);
    refused(
        &g,
        0,
        Action::RemoveFigure { at: b },
        "P-T3",
        "not_own_figure",
    );
    refused(
        &g,
        0,
        Action::RemoveFigure { at: c },
        "P-T3",
        "no_figure_there",
    );
    g.players[0].figures = 0;
    refused(&g, 0, put(a, false), "P-T3", "no_figure_left");
    assert_eq!(
        g.explain(0, &put(a, true)),
        None,
        "the last one is the leader"
    );
    assert_eq!(g.rule_of(&put(a, true)), "P-T3");
}

// rule P-P1 / P-T7 / P-B6 / P-X17: a spell needs its card and its crystals.
#[test]
fn casting_and_paying() {
    let mut g = with_spell(Spell::Conjure, 8, &[]);
    let spell = |card, pay| Action::CastSpell { card, pay };
    refused(&g, 0, spell(1, None), "P-P1", "card_not_in_hand");
    g.players[0].resources = [1, 0, 9];
    let r = refused(&g, 0, spell(0, None), "P-T7", "not_enough");
    assert_eq!(
        (arg(&r, "resource"), arg(&r, "need"), arg(&r, "have")),
        ("crystal".into(), 2.into(), 1.into())
    );
    refused(&g, 0, spell(0, Some(Resource::Wood)), "P-B6", "no_market");
    give_building(&mut g, 0, 0, 5);
    let conjure = g.rules().cards[0];
    g.config.rules = engine::DataRef::new(rules_with(|r| {
        r.cards[0] = conjure;
        r.cards[5] = building_card(Market, 2, 3);
    }));
    let r = refused(
        &g,
        0,
        spell(0, Some(Resource::Gold)),
        "P-T7",
        "not_enough_to_exchange",
    );
    assert_eq!((arg(&r, "need"), arg(&r, "have")), (2.into(), 0.into()));
    refused(
        &g,
        0,
        spell(0, Some(Resource::Crystal)),
        "P-X17",
        "pay_with_same_resource",
    );
    assert_eq!(g.explain(0, &spell(0, Some(Resource::Wood))), None);
    g.players[0].resources = [9, 0, 9];
    refused(
        &g,
        0,
        spell(0, Some(Resource::Wood)),
        "P-T7",
        "pay_not_needed",
    );
}

// rule P-T5 / P-T6: building and monuments.
#[test]
fn building_and_monuments() {
    let rules = rules_with(|r| {
        r.cards[0] = building_card(Statue, 0, 2);
        r.cards[1] = building_card(Statue, 0, 2);
    });
    let mut g = scenario(&TWO, Mode::Full, &rules, &[]);
    g.players[0].hand = 0b11;
    g.players[0].resources = [0, 0, 9];
    let build = |card, slot| Action::Build {
        card,
        slot,
        pay: None,
    };
    refused(&g, 0, build(2, 0), "P-T5", "card_not_in_hand");
    refused(&g, 0, build(0, 5), "P-T5", "no_such_slot");
    give_building(&mut g, 0, 1, 1);
    let r = refused(&g, 0, build(0, 0), "P-T5", "duplicate_building");
    assert_eq!(arg(&r, "slot"), 1);
    g.players[0].monuments[2] = 3;
    refused(&g, 0, build(0, 2), "P-T5", "slot_has_monument");
    let monument = |slot| Action::Monument { slot, pay: None };
    refused(&g, 0, monument(0), "P-T6", "no_building_in_slot");
    refused(&g, 0, monument(2), "P-T6", "slot_has_monument");
    g.players[0].resources = [0, 0, 1];
    let r = refused(&g, 0, monument(1), "P-T7", "not_enough");
    assert_eq!(arg(&r, "need"), MONUMENT_BASE - 2);
    g.monuments.clear();
    refused(&g, 0, monument(1), "P-T6", "no_monument_left");
}

// rule P-T9: buying from the market.
#[test]
fn buying() {
    let mut g = scenario(&TWO, Mode::Full, Rules::standard(), &[]);
    g.phase = Phase::Buy;
    g.players[0].resources = [0, 0, 0];
    let buy = |market| Action::Buy { market, pay: None };
    refused(&g, 0, buy(4), "P-T9", "no_such_market_slot");
    g.market[1] = NO_CARD;
    refused(&g, 0, buy(1), "P-T9", "market_slot_empty");
    let r = refused(&g, 0, buy(0), "P-T7", "not_enough");
    assert_eq!(arg(&r, "resource"), "gold");
    assert_eq!(g.rule_of(&buy(0)), "P-T9");
}

// rule P-K3: the elves' move.
#[test]
fn elf_moves() {
    let a = centre();
    let near = walk(a, &[0]);
    let far = walk(a, &[0, 0, 0]);
    let mut g = scenario(
        &[Realm::Elves, Realm::Humans],
        Mode::Full,
        Rules::standard(),
        &[a, near, far],
    );
    put_tile(&mut g, a, Forest, 1);
    put_tile(&mut g, near, Hill, 1);
    put_tile(&mut g, far, Hill, 1);
    put_figure(&mut g, a, 0, false);
    g.phase = Phase::ElfMove;
    let step = |from, to| Action::MoveFigure { from, to };
    let r = refused(&g, 0, step(a, far), "P-K3", "too_far");
    assert_eq!(arg(&r, "distance"), 3);
    refused(&g, 0, step(near, a), "P-K3", "no_figure_there");
    g.occupant[usize::from(a)] |= crate::state::LEADER;
    refused(&g, 0, step(a, near), "P-K3", "leader_cannot_move");
}

// rule P-P1 / P-SP1 / P-SP5 / P-SP6: spell steps.
#[test]
fn spell_steps() {
    let mut g = with_spell(Spell::Acquire, 2, &[]);
    cast(&mut g);
    refused(&g, 0, Action::Done, "P-P1", "done_before_first_pick");
    g.market[2] = NO_CARD;
    refused(
        &g,
        0,
        Action::TakeCard { market: 2 },
        "P-SP1",
        "market_slot_empty",
    );
    let r = refused(&g, 0, Action::Skip, "P-SP1", "wrong_spell_step");
    assert_eq!(arg(&r, "spell"), "acquire");

    let mut g = with_spell(Spell::Conjure, 4, &[]);
    g.players[0].resources = [10, 5, 1];
    cast(&mut g);
    let set = |resource| Action::SetResource { resource };
    refused(&g, 0, set(Resource::Gold), "P-SP5", "resource_not_below");
    assert_eq!(g.explain(0, &set(Resource::Wood)), None);

    let rules = rules_with(|r| {
        r.cards[0] = Card {
            spell: Spell::Construct,
            ..building_card(Statue, 0, 3)
        };
        r.cards[1] = building_card(Market, 1, 3);
    });
    let mut g = scenario(&TWO, Mode::Full, &rules, &[]);
    g.players[0].hand = 0b11;
    g.players[0].resources = [5, 0, 0];
    cast(&mut g);
    let paid = Action::Build {
        card: 1,
        slot: 0,
        pay: Some(Resource::Crystal),
    };
    refused(&g, 0, paid, "P-SP6", "construct_is_free");
    assert_eq!(
        g.rule_of(&Action::Build {
            card: 1,
            slot: 0,
            pay: None
        }),
        "P-SP6"
    );
}

// rule P-SP2 / P-SP11 / P-SP12 / P-G13 / P-SP13: picks of spells.
#[test]
fn spell_picks() {
    let g = {
        let mut g = with_spell(Spell::Adopt, 0, &[]);
        g.players[1].last_spell = NO_CARD;
        cast(&mut g);
        g
    };
    // Nothing to adopt: the spell ended at once (P-X12), so it is the buy or next turn.
    assert_ne!(g.turn.pending, Pending::Adopt);

    let a = centre();
    let b = walk(a, &[0]);
    let mut g = with_spell(Spell::Adopt, 0, &[]);
    g.config.rules = engine::DataRef::new(rules_with(|r| {
        r.cards[0] = with_spell(Spell::Adopt, 0, &[]).rules().cards[0];
        r.cards[1] = Card {
            spell: Spell::Conjure,
            spell_value: 8,
            ..building_card(Statue, 0, 3)
        };
    }));
    g.players[1].last_spell = 1;
    cast(&mut g);
    assert_eq!(g.turn.pending, Pending::Adopt);
    refused(
        &g,
        0,
        Action::AdoptFrom { seat: 0 },
        "P-SP2",
        "adopt_own_spell",
    );
    refused(
        &g,
        0,
        Action::AdoptFrom { seat: 3 },
        "P-SP2",
        "no_such_seat",
    );
    assert_eq!(g.explain(0, &Action::AdoptFrom { seat: 1 }), None);
    g.players[1].last_spell = 0;
    refused(&g, 0, Action::AdoptFrom { seat: 1 }, "P-SP2", "adopt_adopt");

    let mut g = with_spell(Spell::Rage, 3, &[a, b]);
    put_tile(&mut g, a, Forest, 1);
    put_figure(&mut g, a, 0, false);
    put_figure(&mut g, b, 0, true);
    cast(&mut g);
    refused(
        &g,
        0,
        Action::RageOn { at: b },
        "P-SP11",
        "leader_cannot_rage",
    );

    let t = walk(b, &[0]);
    let mut g = with_spell(Spell::Teleport, 2, &[a, b, t, walk(t, &[0])]);
    put_castle(&mut g, a, 0);
    put_tile(&mut g, b, Forest, 1);
    put_tile(&mut g, t, Hill, 1);
    put_figure(&mut g, a, 0, false);
    cast(&mut g);
    let r = refused(
        &g,
        0,
        Action::MoveFigure { from: a, to: b },
        "P-G13",
        "region_closed",
    );
    assert_eq!(arg(&r, "cell"), b);

    let mut g = with_spell(Spell::Terrain, 0, &[a, b]);
    g.single_stack.clear();
    cast(&mut g);
    let r = refused(
        &g,
        0,
        Action::DrawFrom { single: true },
        "P-SP13",
        "stack_empty",
    );
    assert_eq!(arg(&r, "single"), true);
}

// A reason stays small: the legal-action generators build them in their loops.
#[test]
fn a_fault_is_small() {
    assert!(
        std::mem::size_of::<Fault>() < 128,
        "clippy's large-error bound"
    );
    let r: Refusal = Fault::new("P-T7", "not_enough")
        .with(Key::Resource, Resource::Wood)
        .with(Key::Need, 3u8)
        .with(Key::Have, 1u8)
        .into();
    assert_eq!(r.reason.args.len(), 3);
}

/// Every action kind with `v` in each of its index fields.
fn with_index(v: u8) -> Vec<Action> {
    let pays = [
        None,
        Some(Resource::Crystal),
        Some(Resource::Gold),
        Some(Resource::Wood),
    ];
    let mut out = vec![
        Action::PlaceTile {
            tile: v,
            at: v,
            dir: v,
        },
        Action::PlaceTile {
            tile: 0,
            at: v,
            dir: 0,
        },
        Action::PlaceTile {
            tile: 0,
            at: 0,
            dir: v,
        },
        Action::PlaceCastle { at: v },
        Action::PlaceFigure {
            at: v,
            leader: false,
        },
        Action::PlaceFigure {
            at: v,
            leader: true,
        },
        Action::RemoveFigure { at: v },
        Action::MoveFigure { from: v, to: v },
        Action::MoveFigure { from: v, to: 0 },
        Action::MoveFigure { from: 0, to: v },
        Action::TakeCard { market: v },
        Action::AdoptFrom { seat: v },
        Action::RageOn { at: v },
        Action::PlaceDrawn { at: v, dir: v },
        Action::PlaceDrawn { at: 0, dir: v },
        Action::DrawFrom {
            single: v.is_multiple_of(2),
        },
        Action::Skip,
        Action::Done,
    ];
    for pay in pays {
        out.push(Action::CastSpell { card: v, pay });
        out.push(Action::Build {
            card: v,
            slot: v,
            pay,
        });
        out.push(Action::Build {
            card: 0,
            slot: v,
            pay,
        });
        out.push(Action::Monument { slot: v, pay });
        out.push(Action::Buy { market: v, pay });
    }
    for resource in Resource::ALL {
        out.push(Action::SetResource { resource });
    }
    out
}

// Out-of-range cells, tiles, cards, slots, markets, seats and directions are refused,
// never a panic, in every step random games reach.
#[test]
fn no_index_panics() {
    let values: Vec<u8> = (0..=255u8)
        .step_by(17)
        .chain([5, 47, 48, 63, 64, 191, 192, 254, 255])
        .collect();
    for seed in 0..4usize {
        let config = PandoriaConfig {
            players: 2 + (seed % 3) as u8,
            ..PandoriaConfig::default()
        };
        let mut g = Pandoria::new(&config, seed as u64).unwrap();
        for step in 0..150usize {
            for &v in &values {
                for a in with_index(v) {
                    for seat in [g.current, g.current + 1, 200] {
                        if let Some(r) = g.explain(seat, &a) {
                            assert!(RULES.contains(&r.rule), "{a:?}: {r:?}");
                        }
                    }
                    assert!(RULES.contains(&g.rule_of(&a)));
                }
            }
            let options = legal(&g);
            if options.is_empty() {
                break;
            }
            play(&mut g, options[(step * 7 + seed) % options.len()]);
        }
    }
}
