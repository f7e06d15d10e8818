//! "Why not?": each refused action cites the first rule it breaks, with its reason code.

use engine::{Game, Refusal};
use serde_json::json;

use super::effects::{part, set_action};
use super::*;
use crate::data::{Prim, Zone};
use crate::pyramid::{B0, B1, M0, T};

/// The refusal `seat` gets for `action`; panics when the action is legal.
fn refusal(g: &Valley, seat: Seat, action: Action) -> Refusal {
    g.explain(seat, &action)
        .unwrap_or_else(|| panic!("{action:?} is legal; legal: {:?}", legal(g)))
}

/// Asserts the rule and code of the refusal the seat to move gets for `action`.
fn refused(g: &Valley, action: Action, rule: &str, code: &str) -> Refusal {
    let seat = g.to_move().unwrap_or(0);
    let r = refusal(g, seat, action);
    assert_eq!((r.rule, r.reason.code), (rule, code), "{action:?}: {r:?}");
    r
}

fn menu() -> Valley {
    let mut g = new_game(3);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    g
}

#[test]
fn legal_decisions_are_explained_as_legal_and_cite_their_step() {
    // rule K-T3, K-T4, K-T8, K-T10, K-T17, K-R4
    let mut g = menu();
    set_hand(&mut g, 0, &["Urn"]);
    let urn = id(&g, "Urn");
    assert_eq!(g.explain(0, &Action::EndPlay), None);
    assert_eq!(g.explain(0, &Action::Entomb { card: urn }), None);
    assert_eq!(g.rule_of(&Action::EndPlay), "K-T10");
    assert_eq!(g.rule_of(&Action::Entomb { card: urn }), "K-T8");
    assert_eq!(g.rule_of(&Action::Pay { card: urn }), "K-T4");
    assert_eq!(g.rule_of(&Action::CrumbleFrom { slot: M0 }), "K-T17");
    assert_eq!(g.rule_of(&Action::Decline), "K-R4");
    assert_eq!(g.rule_of(&Action::Sacrifice { slot: T }), "K-T12");
    assert_eq!(g.rule_of(&Action::UsePharaoh), "K-T9");
}

#[test]
fn other_seats_are_told_who_decides_and_the_end_is_the_end() {
    // rule K-T3, K-G1
    let mut g = menu();
    let r = refusal(&g, 1, Action::EndPlay);
    assert_eq!((r.rule, r.reason.code), ("K-T3", "not_your_turn"));
    assert_eq!(r.reason.args["to_move"], json!(0));
    g.phase = Phase::Over;
    let r = refusal(&g, 0, Action::EndPlay);
    assert_eq!((r.rule, r.reason.code), ("K-G1", "game_over"));
}

#[test]
fn purchases_name_the_slot_or_the_missing_gold() {
    // rule K-T4, K-Z9, K-E15
    let mut g = menu();
    set_hand(&mut g, 0, &["Urn"]);
    let r = refused(
        &g,
        Action::BeginPurchase { slot: B0 },
        "K-T4",
        "not_affordable",
    );
    let cost = g.rules().card(g.pyramid_card(B0).expect("full")).cost;
    assert_eq!(r.reason.args["need"], json!(cost));
    assert_eq!(r.reason.args["have"], json!(g.hand_gold(0)));
    refused(
        &g,
        Action::BeginPurchase { slot: M0 },
        "K-T4",
        "slot_not_in_base",
    );
    refused(
        &g,
        Action::BeginPurchase { slot: 6 },
        "K-Z9",
        "no_such_slot",
    );
    g.pyramid[usize::from(B1)].reserved_by = 2;
    refused(
        &g,
        Action::BeginPurchase { slot: B1 },
        "K-E15",
        "slot_reserved",
    );
    g.pyramid[usize::from(B0)] = crate::state::EMPTY_SLOT;
    refused(&g, Action::BeginPurchase { slot: B0 }, "K-T4", "slot_empty");
}

#[test]
fn cards_are_played_entombed_and_paid_from_the_hand() {
    // rule K-T6, K-T7, K-T8, K-T5, K-T9
    let mut g = menu();
    set_hand(&mut g, 0, &["Urn", "Book of the Netherworld"]);
    let (urn, boat) = (id(&g, "Urn"), id(&g, "Boat"));
    refused(
        &g,
        Action::PlayAction { card: boat },
        "K-T6",
        "card_not_in_hand",
    );
    refused(
        &g,
        Action::PlayAction { card: urn },
        "K-T6",
        "card_has_no_action",
    );
    set_action(
        &mut g,
        "Urn",
        vec![part(Prim::Discard { from: Zone::Hand }); 3],
    );
    refused(
        &g,
        Action::PlayAction { card: urn },
        "K-T7",
        "action_impossible",
    );
    refused(
        &g,
        Action::Entomb { card: boat },
        "K-T8",
        "card_not_in_hand",
    );
    play(&mut g, Action::Entomb { card: urn });
    let nether = id(&g, "Book of the Netherworld");
    let r = refused(
        &g,
        Action::Entomb { card: nether },
        "K-T8",
        "no_entomb_left",
    );
    assert_eq!(r.reason.args["allowed"], json!(1));
    refused(&g, Action::UsePharaoh, "K-T9", "no_pharaoh");
    refused(
        &g,
        Action::Pay { card: nether },
        "K-T3",
        "only_in_play_menu",
    );
}

#[test]
fn paying_takes_one_gold_card_at_a_time() {
    // rule K-T4, K-T5
    let mut g = menu();
    with_rules(&mut g, |r| {
        let s = r.card_named("Shabti").expect("shabti");
        r.cards[usize::from(s)].gold = 0;
    });
    set_hand(
        &mut g,
        0,
        &[
            "Shabti",
            "Book of the Netherworld",
            "Book of the Netherworld",
        ],
    );
    play(&mut g, Action::BeginPurchase { slot: B0 });
    let shabti = id(&g, "Shabti");
    refused(&g, Action::Pay { card: shabti }, "K-T5", "card_has_no_gold");
    let r = refused(&g, Action::EndPlay, "K-T4", "must_pay");
    assert_eq!(r.reason.args["step"], json!("paying"));
}

#[test]
fn reactions_and_crumbles_are_asked_of_their_seat() {
    // rule K-R4, K-R1, K-T17, K-T19
    let mut g = new_game(4);
    at_play(&mut g, 0);
    set_pyramid(&mut g, FULL_PYRAMID);
    set_hand(
        &mut g,
        0,
        &["Book of the Netherworld", "Book of the Netherworld", "Boat"],
    );
    set_hand(&mut g, 2, &["Boat", "Urn"]);
    buy(&mut g, B0);
    assert_eq!(g.to_move(), Some(2));
    let (boat, urn) = (id(&g, "Boat"), id(&g, "Urn"));
    let r = refusal(&g, 0, Action::EndPlay);
    assert_eq!((r.rule, r.reason.code), ("K-R4", "not_your_turn"));
    refused(
        &g,
        Action::React { card: urn },
        "K-R1",
        "card_has_no_reaction",
    );
    refused(
        &g,
        Action::React {
            card: id(&g, "Shabti"),
        },
        "K-R4",
        "card_not_in_hand",
    );
    refused(&g, Action::EndPlay, "K-R4", "must_react_or_decline");
    play(&mut g, Action::React { card: boat });
    play(&mut g, Action::ChooseSlot { slot: B1 });
    refused(
        &g,
        Action::CrumbleFrom { slot: T },
        "K-T17",
        "not_a_middle_slot",
    );
    refused(&g, Action::Decline, "K-T17", "must_choose_crumble");
    let r = refusal(&g, 0, Action::CrumbleFrom { slot: M0 });
    assert_eq!((r.rule, r.reason.code), ("K-T19", "not_your_turn"));
}

#[test]
fn effect_decisions_name_the_part() {
    // rule K-T7, K-E4, K-E0
    let mut g = menu();
    let mut two = part(Prim::Discard { from: Zone::Hand });
    two.count = 2;
    two.min = 2;
    set_action(&mut g, "Urn", vec![two]);
    set_hand(&mut g, 0, &["Urn", "Shabti", "Shabti", "Box of Food"]);
    let urn = id(&g, "Urn");
    play(&mut g, Action::PlayAction { card: urn });
    refused(&g, Action::EndPlay, "K-T6", "must_finish_action");
    refused(&g, Action::Choose { card: urn }, "K-E4", "not_a_choice");
    refused(&g, Action::Skip, "K-T7", "part_not_optional");
    let shabti = id(&g, "Shabti");
    play(&mut g, Action::Choose { card: shabti });
    let r = refused(&g, Action::Done, "K-T7", "more_picks_needed");
    assert_eq!(
        (r.reason.args["need"].clone(), r.reason.args["have"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(g.rule_of(&Action::Choose { card: urn }), "K-E4");
}

#[test]
fn the_rebuild_sacrifice_names_the_slot() {
    // rule K-T12, K-Z9
    let mut g = menu();
    play(&mut g, Action::EndPlay);
    assert_eq!(g.phase, Phase::Rebuild);
    refused(&g, Action::Sacrifice { slot: 9 }, "K-Z9", "no_such_slot");
    refused(&g, Action::EndPlay, "K-T12", "must_sacrifice");
    g.pyramid[usize::from(T)] = crate::state::EMPTY_SLOT;
    refused(&g, Action::Sacrifice { slot: T }, "K-T12", "slot_empty");
}

#[test]
fn out_of_range_slots_and_card_ids_are_refused_without_panicking() {
    // rule K-Z9, K-T3
    let mut g = menu();
    set_hand(
        &mut g,
        0,
        &["Book of the Netherworld", "Book of the Netherworld", "Boat"],
    );
    let mut states = vec![g.clone()];
    play(&mut g, Action::BeginPurchase { slot: B0 });
    states.push(g.clone());
    let mut rebuild = menu();
    play(&mut rebuild, Action::EndPlay);
    states.push(rebuild);
    let mut effect = menu();
    set_action(
        &mut effect,
        "Urn",
        vec![part(Prim::Discard { from: Zone::Hand })],
    );
    set_hand(&mut effect, 0, &["Urn", "Shabti"]);
    let urn = id(&effect, "Urn");
    play(&mut effect, Action::PlayAction { card: urn });
    states.push(effect);
    let cards = g.rules().cards.len();
    for state in &states {
        for index in [6u8, 7, 100, u8::MAX] {
            // Card ids past the data's cards.
            let card = u8::try_from(cards).unwrap_or(u8::MAX).max(index);
            let actions = [
                Action::BeginPurchase { slot: index },
                Action::Sacrifice { slot: index },
                Action::CrumbleFrom { slot: index },
                Action::ChooseSlot { slot: index },
                Action::Pay { card },
                Action::PlayAction { card },
                Action::Entomb { card },
                Action::React { card },
                Action::Choose { card },
            ];
            for action in actions {
                for seat in 0..3 {
                    assert!(state.explain(seat, &action).is_some(), "{action:?}");
                    let _ = state.rule_of(&action);
                }
            }
        }
    }
}
