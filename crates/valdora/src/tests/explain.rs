//! "Why not?": each refused action cites the first rule it breaks, with its reason code.

use engine::{Game, Refusal};
use serde_json::json;

use super::*;
use crate::actions::Items;
use crate::board::SpaceKind;
use crate::state::MAX_INCOMPLETE;

/// The refusal `seat` gets for `action`; panics when the action is legal.
fn refusal(g: &Valdora, seat: u8, action: Action) -> Refusal {
    g.explain(seat, &action)
        .unwrap_or_else(|| panic!("{action:?} is legal; legal: {:?}", legal(g)))
}

/// Asserts the rule and code of the refusal `seat` 0 gets for `action`.
fn refused(g: &Valdora, action: Action, rule: &str, code: &str) -> Refusal {
    let r = refusal(g, 0, action);
    assert_eq!((r.rule, r.reason.code), (rule, code), "{action:?}: {r:?}");
    r
}

fn patron_colour(g: &Valdora, name: &str) -> Color {
    match g.rules().board.kind(space(g, name)) {
        SpaceKind::PatronHouse { color } => color,
        other => panic!("{name} is a {other:?}"),
    }
}

#[test]
fn legal_actions_are_explained_as_legal_and_cite_their_rule() {
    // rule V-T1, V-A6
    let mut g = new_game(4);
    at_turn_start(&mut g, 0, "g01");
    let to = space(&g, "pa");
    assert_eq!(g.explain(0, &Action::Move { to }), None);
    assert_eq!(g.rule_of(&Action::Move { to }), "V-T1");
    stand(&mut g, 0, "g01");
    assert_eq!(g.explain(0, &Action::Pass), None);
    assert_eq!(g.rule_of(&Action::Pass), "V-A6");
    assert_eq!(g.rule_of(&Action::TakeProvisions), "V-A5");
    assert_eq!(g.rule_of(&Action::RefillSilver), "V-A4");
    assert_eq!(
        g.rule_of(&Action::Turn { from: Side::Left }),
        "V-A1",
        "a page turn is part of buying"
    );
    assert_eq!(g.rule_of(&Action::Unload { from: Item::Cart }), "V-A2");
    let complete = Action::Complete {
        commission: 0,
        pay_from: Items(0),
    };
    assert_eq!(g.rule_of(&complete), "V-A3");
}

#[test]
fn another_seat_is_told_whose_turn_it_is_and_the_end_is_the_end() {
    // rule V-C1, V-E1
    let mut g = new_game(4);
    at_turn_start(&mut g, 2, "g01");
    let to = space(&g, "pa");
    let r = refusal(&g, 0, Action::Move { to });
    assert_eq!((r.rule, r.reason.code), ("V-C1", "not_your_turn"));
    assert_eq!(r.reason.args["to_move"], json!(2));
    g.phase = Phase::Over;
    let r = refusal(&g, 2, Action::Move { to });
    assert_eq!((r.rule, r.reason.code), ("V-E1", "game_over"));
}

#[test]
fn steps_out_of_the_turns_order_name_the_step() {
    // rule V-T1, V-T4
    let mut g = new_game(4);
    at_turn_start(&mut g, 0, "A");
    let r = refused(&g, Action::Turn { from: Side::Right }, "V-T1", "move_first");
    assert_eq!(r.reason.args["step"], json!("movement"));
    stand(&mut g, 0, "A");
    let r = refused(
        &g,
        Action::Move {
            to: space(&g, "g01"),
        },
        "V-T1",
        "already_moved",
    );
    assert_eq!(r.reason.args["step"], json!("action"));
    refused(&g, Action::End, "V-T4", "nothing_to_end");
    play(&mut g, Action::Turn { from: Side::Right });
    refused(&g, Action::TakeProvisions, "V-T4", "committed_to_buy");
    refused(&g, Action::Pass, "V-T4", "committed_to_buy");
}

#[test]
fn movement_refusals_say_what_stands_in_the_way() {
    // rule V-T1, V-T2, V-C4
    let mut g = new_game(3);
    at_turn_start(&mut g, 0, "g01");
    // A path never ends where it started.
    refused(
        &g,
        Action::Move {
            to: space(&g, "g01"),
        },
        "V-T1",
        "not_reachable",
    );
    refused(
        &g,
        Action::Move {
            to: space(&g, "g11"),
        },
        "V-T1",
        "not_reachable",
    );
    refused(&g, Action::Move { to: 200 }, "V-C4", "no_such_space");
    let pa = space(&g, "pa");
    g.players[1].space = pa;
    g.players[2].space = pa;
    g.players[0].coins = 1;
    let r = refused(
        &g,
        Action::Move { to: pa },
        "V-T2",
        "meeting_fee_unaffordable",
    );
    assert_eq!(r.reason.args["need"], json!(2));
    assert_eq!(r.reason.args["have"], json!(1));
}

#[test]
fn a_far_city_needs_provisions() {
    // rule V-T1, V-X6
    let mut g = new_game(3);
    at_turn_start(&mut g, 0, "g01");
    g.players[1].space = space(&g, "m2");
    g.players[2].space = space(&g, "m2");
    refused(
        &g,
        Action::Move {
            to: space(&g, "pf"),
        },
        "V-T1",
        "needs_provisions",
    );
}

#[test]
fn provisions_and_silver_are_taken_where_they_are() {
    // rule V-A5, V-A4
    let mut g = new_game(4);
    stand(&mut g, 0, "g01");
    refused(&g, Action::TakeProvisions, "V-A5", "not_at_city");
    refused(&g, Action::RefillSilver, "V-A4", "not_at_silver_mine");
    stand(&mut g, 0, "A");
    g.players[0].provisions = true;
    refused(&g, Action::TakeProvisions, "V-A5", "already_provisioned");
    stand(&mut g, 0, "m1");
    g.players[0].coins = 6;
    let r = refused(&g, Action::RefillSilver, "V-A4", "coins_full");
    assert_eq!(r.reason.args["max"], json!(6));
}

#[test]
fn buying_refusals_name_the_missing_coin_gold_or_place() {
    // rule V-A1
    let mut g = new_game(4);
    stand(&mut g, 0, "g01");
    refused(
        &g,
        Action::Turn { from: Side::Left },
        "V-A1",
        "not_at_book_city",
    );
    stand(&mut g, 0, "C");
    let buy = Action::BuyEquipment {
        side: Side::Right,
        gold_from: Item::GoldPan,
    };
    refused(&g, buy, "V-A1", "not_equipment_city");
    refused(&g, Action::Turn { from: Side::Left }, "V-A1", "pile_empty");
    stand(&mut g, 0, "A");
    refused(
        &g,
        Action::BuyCommission { side: Side::Right },
        "V-A1",
        "not_commission_city",
    );
    let r = refused(&g, buy, "V-A1", "no_gold");
    assert_eq!(
        (r.reason.args["need"].clone(), r.reason.args["have"].clone()),
        (json!(1), json!(0))
    );
    // Gold on a horse or cart (whichever the shown face is not) pays, the pan is empty.
    let Some(crate::components::Face::Equipment(face)) =
        g.book(0)
            .visible(g.rules(), crate::books::BookKind::Equipment, Side::Right)
    else {
        panic!("an equipment face shows")
    };
    let holder = if face.item == Item::Cart {
        Item::Horse
    } else {
        Item::Cart
    };
    give(&mut g, 0, holder, 2, Some(Gem::Gold));
    refused(&g, buy, "V-A1", "gold_pan_empty");
    let from_tool = Action::BuyEquipment {
        side: Side::Right,
        gold_from: Item::for_gem(Gem::Ruby),
    };
    refused(&g, from_tool, "V-A1", "no_gold_on_item");
    play(&mut g, Action::Turn { from: Side::Right });
    g.players[0].coins = 0;
    let r = refused(
        &g,
        Action::Turn { from: Side::Left },
        "V-A1",
        "no_coin_for_page",
    );
    assert_eq!(
        (r.reason.args["need"].clone(), r.reason.args["have"].clone()),
        (json!(1), json!(0))
    );
}

#[test]
fn an_item_already_owned_is_not_bought_twice() {
    // rule V-A1
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    let Some(crate::components::Face::Equipment(face)) =
        g.book(0)
            .visible(g.rules(), crate::books::BookKind::Equipment, Side::Right)
    else {
        panic!("an equipment face shows")
    };
    give(&mut g, 0, face.item, 1, None);
    give(&mut g, 0, Item::GoldPan, 0, Some(Gem::Gold));
    let buy = Action::BuyEquipment {
        side: Side::Right,
        gold_from: Item::GoldPan,
    };
    refused(&g, buy, "V-A1", "already_own_item");
}

#[test]
fn commission_purchases_and_returns_follow_the_hand_limit() {
    // rule V-A1
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 0;
    let buy = Action::BuyCommission { side: Side::Right };
    let r = refused(&g, buy, "V-A1", "no_coin_for_commission");
    assert_eq!(r.reason.args["have"], json!(0));
    let ret = Action::Return {
        commission: 0,
        side: Side::Right,
    };
    refused(&g, ret, "V-A1", "return_needs_full_hand");
    g.players[0].coins = 3;
    for colour in [Color::Grey, Color::Grey, Color::Yellow] {
        let held = commission_of(&mut g, colour, &[]);
        hold(&mut g, 0, held);
    }
    let r = refused(&g, buy, "V-A1", "commissions_full");
    assert_eq!(r.reason.args["max"], json!(3));
    let far = Action::Return {
        commission: 3,
        side: Side::Left,
    };
    refused(&g, far, "V-A1", "no_such_commission");
    play(&mut g, ret);
    refused(&g, Action::End, "V-A1", "must_buy_commission");
}

#[test]
fn loading_refusals_name_the_card_the_gem_or_the_ships() {
    // rule V-A2, V-C5
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    let load = |gem, onto| Action::Load { gem, onto };
    refused(
        &g,
        load(Gem::Gold, Item::GoldPan),
        "V-A2",
        "not_at_loading_space",
    );
    stand(&mut g, 0, "g01");
    let here = g.gems_at(space(&g, "g01")).expect("a road space");
    let present = Gem::ALL.into_iter().find(|gem| here[gem.index()] > 0);
    let missing = Gem::ALL.into_iter().find(|gem| here[gem.index()] == 0);
    let present = present.expect("gems at setup");
    if let Some(missing) = missing {
        refused(&g, load(missing, Item::Cart), "V-A2", "gem_not_here");
    }
    refused(&g, load(present, Item::Cart), "V-A2", "item_not_owned");
    give(&mut g, 0, Item::Cart, 2, None);
    g.players[0].coins = 1;
    let r = refused(
        &g,
        load(present, Item::Cart),
        "V-A2",
        "load_cost_unaffordable",
    );
    assert_eq!(
        (r.reason.args["need"].clone(), r.reason.args["have"].clone()),
        (json!(2), json!(1))
    );
    let other_tool = Item::for_gem(if present == Gem::Ruby {
        Gem::Emerald
    } else {
        Gem::Ruby
    });
    give(&mut g, 0, other_tool, 0, None);
    refused(
        &g,
        load(present, other_tool),
        "V-C5",
        "item_cannot_load_gem",
    );
    give(&mut g, 0, Item::Cart, 2, Some(present));
    refused(&g, load(present, Item::Cart), "V-C5", "item_full");
    refused(&g, Action::End, "V-T4", "nothing_to_end");
    refused(
        &g,
        Action::Unload {
            from: Item::GoldPan,
        },
        "V-A2",
        "unload_horse_cart_only",
    );
    refused(
        &g,
        Action::Unload { from: Item::Horse },
        "V-A2",
        "item_empty",
    );
    g.players[0].coins = 2;
    play(&mut g, Action::Unload { from: Item::Cart });
    refused(&g, Action::End, "V-A2", "must_reload");
    refused(&g, load(Gem::Gold, Item::GoldPan), "V-A2", "must_reload");
}

#[test]
fn a_harbour_loads_one_gem_per_ship() {
    // rule V-A2
    let mut g = new_game(4);
    stand(&mut g, 0, "H");
    g.discard = [2, 0, 0, 0, 0];
    play(
        &mut g,
        Action::Load {
            gem: Gem::Gold,
            onto: Item::GoldPan,
        },
    );
    give(&mut g, 0, Item::Cart, 0, None);
    let r = refused(
        &g,
        Action::Load {
            gem: Gem::Gold,
            onto: Item::Cart,
        },
        "V-A2",
        "ships_used",
    );
    assert_eq!(r.reason.args["ships"], json!(1));
    g.discard = [0; 5];
    let mut road = new_game(4);
    stand(&mut road, 0, "g01");
    road.road_gems = [[0; 5]; 13];
    give(&mut road, 0, Item::Cart, 0, Some(Gem::Gold));
    refused(
        &road,
        Action::Unload { from: Item::Cart },
        "V-A2",
        "nothing_to_reload",
    );
}

#[test]
fn completing_refusals_name_the_house_and_the_requirement() {
    // rule V-A3
    let mut g = new_game(4);
    let complete = |commission, items: &[Item]| Action::Complete {
        commission,
        pay_from: items.iter().copied().collect(),
    };
    stand(&mut g, 0, "g01");
    refused(&g, complete(0, &[]), "V-A3", "not_at_patron_house");
    stand(&mut g, 0, "pa");
    refused(&g, complete(0, &[]), "V-A3", "no_such_commission");
    let house = patron_colour(&g, "pa");
    let other = Color::ALL
        .into_iter()
        .find(|&c| c != house)
        .expect("seven colours");
    let held = commission_of(&mut g, other, &[]);
    hold(&mut g, 0, held);
    refused(&g, complete(0, &[]), "V-A3", "wrong_patron");
    g.players[0].incomplete.clear();
    let held = commission_of(&mut g, house, &[]);
    let face = hold(&mut g, 0, held);
    if face.wants.coins > 0 {
        g.players[0].coins = 0;
        let r = refused(&g, complete(0, &[]), "V-A3", "not_enough_coins");
        assert_eq!(r.reason.args["have"], json!(0));
        return;
    }
    refused(&g, complete(0, &[]), "V-A3", "requirement_not_met");
    // Carry what it wants, plus a gold pan of gold that is not part of the payment.
    let mut cards = vec![];
    for gem in Gem::ALL {
        for k in 0..face.wants.gems[gem.index()] {
            let item = [Item::for_gem(gem), Item::Horse, Item::Cart][usize::from(k)];
            give(&mut g, 0, item, 0, Some(gem));
            cards.push(item);
        }
    }
    if !cards.contains(&Item::GoldPan) {
        give(&mut g, 0, Item::GoldPan, 0, Some(Gem::Gold));
        cards.push(Item::GoldPan);
        refused(&g, complete(0, &cards), "V-A3", "wrong_payment");
    }
}

#[test]
fn out_of_range_indices_and_spaces_are_refused_without_panicking() {
    // rule V-C4, V-A1, V-A3
    let mut g = new_game(4);
    for at in ["g01", "A", "C", "H", "m1", "pa"] {
        for phase in [Phase::Move, Phase::Act { committed: None }, Phase::Over] {
            stand(&mut g, 0, at);
            g.phase = phase;
            let spaces = [g.rules().board.kinds.len() as u8, 32, 100, u8::MAX];
            let moves = spaces.map(|to| Action::Move { to });
            let indices = [MAX_INCOMPLETE as u8, 4, 100, u8::MAX];
            let returns = indices.map(|commission| Action::Return {
                commission,
                side: Side::Left,
            });
            let completions = indices.map(|commission| Action::Complete {
                commission,
                pay_from: Items(u8::MAX),
            });
            for action in moves.iter().chain(&returns).chain(&completions) {
                for seat in 0..4 {
                    assert!(g.explain(seat, action).is_some(), "{action:?}");
                    let _ = g.rule_of(action);
                }
            }
        }
    }
}

// The checks list the legal actions, so their refusals are built in the playout loop: a
// small `Copy` fault, turned into a `Refusal` (which allocates) only when "why not?" asks.
#[test]
fn a_fault_is_small_and_becomes_the_refusal_it_names() {
    use crate::fault::{Fault, Key};
    assert!(
        std::mem::size_of::<Result<(), Fault>>() < 128,
        "clippy's large-error bound"
    );
    let r: Refusal = Fault::new("V-T2", "meeting_fee_unaffordable")
        .with(Key::Need, 2u8)
        .with(Key::Have, 1u8)
        .into();
    assert_eq!(
        (
            r.rule,
            r.reason.code,
            serde_json::Value::Object(r.reason.args)
        ),
        (
            "V-T2",
            "meeting_fee_unaffordable",
            json!({"need": 2, "have": 1})
        )
    );
    let step: Refusal = Fault::new("V-T1", "move_first")
        .with(Key::Step, &"movement")
        .into();
    assert_eq!(
        serde_json::Value::Object(step.reason.args),
        json!({"step": "movement"})
    );
}
