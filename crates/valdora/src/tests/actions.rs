use engine::Game;

use super::*;
use crate::actions::Items;
use crate::books::BookKind;
use crate::components::Face;

fn top(g: &Valdora, book: u8, side: Side) -> Option<Face> {
    g.book(book)
        .visible(g.rules(), BookKind::of_book(book), side)
}

#[test]
fn buying_equipment_costs_one_gold_from_a_chosen_card() {
    // rule V-A1, V-C5
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    let Some(Face::Equipment(face)) = top(&g, 0, Side::Right) else {
        panic!("equipment book")
    };
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::BuyEquipment { .. })),
        "no gold, no equipment"
    );
    give(&mut g, 0, Item::GoldPan, 0, Some(Gem::Gold));
    give(&mut g, 0, Item::Cart, 2, Some(Gem::Gold));
    let buys: Vec<Action> = legal(&g)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::BuyEquipment {
                    side: Side::Right,
                    ..
                }
            )
        })
        .collect();
    if face.item == Item::Cart {
        assert!(buys.is_empty(), "a second cart is not buyable");
        return;
    }
    assert_eq!(buys.len(), 2, "either gold pays: {buys:?}");
    play(
        &mut g,
        Action::BuyEquipment {
            side: Side::Right,
            gold_from: Item::Cart,
        },
    );
    let p = g.player(0);
    assert!(p.owns(face.item));
    assert_eq!(
        p.gems[face.item.index()],
        None,
        "a bought card arrives empty"
    );
    assert_eq!(p.gems[Item::Cart.index()], None);
    assert_eq!(p.gems[Item::GoldPan.index()], Some(Gem::Gold));
    assert_eq!(
        g.discard()[Gem::Gold.index()],
        1,
        "the gold goes to the discard area"
    );
    assert_eq!(
        g.book(0).pile(Side::Right).len(),
        17,
        "the whole card is gone"
    );
}

#[test]
fn an_item_type_already_owned_cannot_be_bought() {
    // rule V-A1, V-C5
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    give(&mut g, 0, Item::GoldPan, 0, Some(Gem::Gold));
    let Some(Face::Equipment(face)) = top(&g, 0, Side::Right) else {
        panic!("equipment book")
    };
    give(&mut g, 0, face.item, 2, None);
    assert!(!legal(&g).contains(&Action::BuyEquipment {
        side: Side::Right,
        gold_from: Item::GoldPan
    }));
}

#[test]
fn commissions_cost_a_coin_and_at_most_three_are_held() {
    // rule V-A1
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 6;
    for _ in 0..3 {
        play(&mut g, Action::BuyCommission { side: Side::Right });
    }
    assert_eq!(g.player(0).coins, 3);
    assert_eq!(g.player(0).incomplete.len(), 3);
    assert!(!legal(&g).contains(&Action::BuyCommission { side: Side::Right }));
    // Returning one is allowed only on the way to buying another.
    assert!(legal(&g).contains(&Action::Return {
        commission: 0,
        side: Side::Left
    }));
    let returned = g.player(0).incomplete[0];
    play(
        &mut g,
        Action::Return {
            commission: 0,
            side: Side::Left,
        },
    );
    assert!(
        !legal(&g).contains(&Action::End),
        "a return must be followed by a purchase"
    );
    // It shows the face of its new side.
    assert_eq!(
        top(&g, 2, Side::Left),
        Some(BookKind::Commission.face(g.rules(), returned.card, Side::Left))
    );
    assert_eq!(g.player(0).coins, 3, "no refund");
    play(&mut g, Action::BuyCommission { side: Side::Right });
    assert!(legal(&g).contains(&Action::End));
    play(&mut g, Action::End);
    assert_eq!(g.to_move(), Some(1));
}

#[test]
fn no_return_without_a_coin_for_the_purchase() {
    // rule V-A1 (the rulebooks: return one "if you want to buy another")
    let mut g = new_game(4);
    stand(&mut g, 0, "D");
    for _ in 0..3 {
        let c = commission_of(&mut g, Color::Grey, &[]);
        hold(&mut g, 0, c);
    }
    g.players[0].coins = 0;
    assert!(!legal(&g).iter().any(|a| matches!(a, Action::Return { .. })));
}

#[test]
fn page_turns_move_the_top_card_and_show_its_other_face() {
    // rule V-A1, V-C6
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    let card = g.book(2).top(Side::Right).expect("full").card();
    play(&mut g, Action::Turn { from: Side::Right });
    assert_eq!(g.book(2).top(Side::Left).map(|c| c.card()), Some(card));
    assert_eq!(
        top(&g, 2, Side::Left),
        Some(BookKind::Commission.face(g.rules(), card, Side::Left))
    );
    // Turning back is allowed (and the second turn costs a coin).
    let coins = g.player(0).coins;
    play(&mut g, Action::Turn { from: Side::Left });
    assert_eq!(g.player(0).coins, coins - 1);
    assert_eq!(g.book(2).top(Side::Right).map(|c| c.card()), Some(card));
    assert!(g.book(2).pile(Side::Left).is_empty());
}

#[test]
fn an_empty_book_offers_no_buy_but_still_provisions() {
    // rule V-A1, V-A5
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    while g.books[0].take(Side::Right).is_some() {}
    assert_eq!(legal(&g), vec![Action::Pass, Action::TakeProvisions]);
}

#[test]
fn loading_takes_gems_the_items_accept() {
    // rule V-A2
    let mut g = new_game(4);
    stand(&mut g, 0, "g01");
    let r = g.rules().board.road_index(space(&g, "g01")).expect("road") as usize;
    g.road_gems[r] = [1, 1, 0, 0, 0];
    give(&mut g, 0, Item::Horse, 3, None);
    g.players[0].coins = 2;
    // The pan takes gold; the horse would take anything but costs 3.
    assert_eq!(
        legal(&g),
        vec![
            Action::Pass,
            Action::Load {
                gem: Gem::Gold,
                onto: Item::GoldPan
            }
        ]
    );
    g.players[0].coins = 3;
    play(
        &mut g,
        Action::Load {
            gem: Gem::Ruby,
            onto: Item::Horse,
        },
    );
    assert_eq!(g.player(0).coins, 0);
    assert_eq!(g.road_gems[r], [1, 0, 0, 0, 0]);
    assert!(!legal(&g).contains(&Action::Pass), "loading commits");
    play(
        &mut g,
        Action::Load {
            gem: Gem::Gold,
            onto: Item::GoldPan,
        },
    );
    assert_eq!(legal(&g), vec![Action::End]);
}

#[test]
fn unloading_a_horse_frees_it_for_another_gem_at_a_price() {
    // rule V-A2
    let mut g = new_game(4);
    stand(&mut g, 0, "g01");
    let r = g.rules().board.road_index(space(&g, "g01")).expect("road") as usize;
    g.road_gems[r] = [0, 0, 2, 0, 0];
    give(&mut g, 0, Item::Horse, 2, Some(Gem::Gold));
    g.players[0].coins = 2;
    play(&mut g, Action::Unload { from: Item::Horse });
    assert_eq!(g.discard(), [1, 0, 0, 0, 0]);
    // The unloaded card must be loaded again before anything else.
    assert_eq!(
        legal(&g),
        vec![Action::Load {
            gem: Gem::Sapphire,
            onto: Item::Horse
        }]
    );
    play(
        &mut g,
        Action::Load {
            gem: Gem::Sapphire,
            onto: Item::Horse,
        },
    );
    assert_eq!(g.player(0).coins, 0);
    assert_eq!(legal(&g), vec![Action::End]);
}

#[test]
fn harbours_load_from_the_discard_area_up_to_their_ships() {
    // rule V-A2
    let mut g = new_game(4);
    g.discard = [3, 0, 0, 1, 0];
    give(&mut g, 0, Item::AmethystTool, 0, None);
    give(&mut g, 0, Item::Cart, 2, None);
    g.players[0].coins = 6;
    stand(&mut g, 0, "h1"); // one ship
    play(
        &mut g,
        Action::Load {
            gem: Gem::Gold,
            onto: Item::GoldPan,
        },
    );
    assert_eq!(legal(&g), vec![Action::End], "one ship: one gem");
    stand(&mut g, 0, "h2"); // two ships
    play(
        &mut g,
        Action::Load {
            gem: Gem::Amethyst,
            onto: Item::AmethystTool,
        },
    );
    play(
        &mut g,
        Action::Load {
            gem: Gem::Gold,
            onto: Item::Cart,
        },
    );
    assert_eq!(legal(&g), vec![Action::End]);
    assert_eq!(g.discard(), [1, 0, 0, 0, 0]);
    // The harbour city has one ship and loads from the discard area too.
    stand(&mut g, 1, "H");
    assert!(legal(&g).contains(&Action::Load {
        gem: Gem::Gold,
        onto: Item::GoldPan
    }));
}

#[test]
fn completing_pays_exactly_the_requirement() {
    // rule V-A3, V-C7
    let mut g = new_game(4);
    let white = commission_of(&mut g, Color::White, &[]);
    let face = hold(&mut g, 0, white);
    let grey = commission_of(&mut g, Color::Grey, &[white.card]);
    hold(&mut g, 0, grey);
    // Carry the white commission's gems, one of them twice over.
    let mut items = Vec::new();
    for gem in Gem::ALL {
        for _ in 0..face.wants.gems[gem.index()] {
            let item = if g.player(0).owns(Item::for_gem(gem)) && gem != Gem::Gold {
                Item::Horse
            } else {
                Item::for_gem(gem)
            };
            give(&mut g, 0, item, 2, Some(gem));
            items.push(item);
        }
    }
    stand(&mut g, 0, "pc"); // the white house
    let pay: Items = items.iter().copied().collect();
    let completes: Vec<Action> = legal(&g)
        .into_iter()
        .filter(|a| matches!(a, Action::Complete { .. }))
        .collect();
    assert_eq!(
        completes,
        vec![Action::Complete {
            commission: 0,
            pay_from: pay
        }]
    );
    play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: pay,
        },
    );
    assert_eq!(g.player(0).gems_carried(), 0);
    assert_eq!(g.completed_by(0).collect::<Vec<_>>(), vec![face]);
    // The grey commission is not this house's colour.
    assert_eq!(legal(&g), vec![Action::End]);
    stand(&mut g, 0, "pa"); // grey house: one silver coin
    g.players[0].coins = 1;
    play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(0),
        },
    );
    assert_eq!(g.player(0).coins, 0);
}

#[test]
fn refilling_silver_at_a_mine() {
    // rule V-A4
    let mut g = new_game(4);
    stand(&mut g, 0, "m1");
    g.players[0].coins = 1;
    play(&mut g, Action::RefillSilver);
    assert_eq!(g.player(0).coins, 6);
    assert_eq!(g.to_move(), Some(1));
    stand(&mut g, 1, "m1");
    g.players[1].coins = 6;
    assert_eq!(
        legal(&g),
        vec![Action::Pass],
        "already full: refilling does nothing"
    );
}

#[test]
fn provisions_at_any_city_once() {
    // rule V-A5
    let mut g = new_game(4);
    for city in ["A", "B", "C", "D", "H"] {
        stand(&mut g, 0, city);
        g.players[0].provisions = false;
        assert!(legal(&g).contains(&Action::TakeProvisions), "{city}");
        g.players[0].provisions = true;
        assert!(!legal(&g).contains(&Action::TakeProvisions), "{city}");
    }
    stand(&mut g, 0, "g01");
    assert!(!legal(&g).contains(&Action::TakeProvisions));
    stand(&mut g, 0, "H");
    g.players[0].provisions = false;
    play(&mut g, Action::TakeProvisions);
    assert!(g.player(0).provisions);
}

#[test]
fn passing_ends_the_turn_without_an_action() {
    // rule V-A6
    let mut g = new_game(4);
    stand(&mut g, 2, "g05");
    let before = g.players;
    let events = play(&mut g, Action::Pass);
    assert_eq!(events[0], Event::Passed { seat: 2 });
    assert_eq!(g.players, before);
    assert_eq!(g.to_move(), Some(3));
}
