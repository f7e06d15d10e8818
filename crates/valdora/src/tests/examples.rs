//! The rulebook's worked examples (V-X*), the end of the game (V-E*) and hidden
//! information (V-I*).

use engine::{rng_from_seed, Game};

use super::*;
use crate::actions::Items;
use crate::books::BookKind;
use crate::components::Face;

#[test]
fn page_turning_costs_three_coins_in_the_andres_example() {
    // rule V-X1: buy, turn (free), turn (1), buy, turn (1), turn (1).
    let mut g = new_game(4);
    stand(&mut g, 0, "C");
    g.players[0].coins = 5;
    play(&mut g, Action::BuyCommission { side: Side::Right });
    play(&mut g, Action::Turn { from: Side::Right });
    assert_eq!(g.player(0).coins, 4, "the first page turn is free");
    play(&mut g, Action::Turn { from: Side::Right });
    play(&mut g, Action::BuyCommission { side: Side::Left });
    play(&mut g, Action::Turn { from: Side::Right });
    play(&mut g, Action::Turn { from: Side::Right });
    play(&mut g, Action::End);
    // 2 coins for the commissions, 3 for turning.
    assert_eq!(g.player(0).coins, 0);
    assert_eq!(g.player(0).incomplete.len(), 2);
}

#[test]
fn loading_example_ruby_sapphire_and_emerald_on_the_cart() {
    // rule V-X2: 2 gold, 1 ruby, 2 sapphire, 1 emerald; empty ruby and sapphire tools, an
    // empty cart costing 2, gold already on the pan.
    let mut g = new_game(4);
    stand(&mut g, 0, "g02");
    let r = g.rules().board.road_index(space(&g, "g02")).expect("road") as usize;
    g.road_gems[r] = [2, 1, 2, 0, 1];
    give(&mut g, 0, Item::GoldPan, 0, Some(Gem::Gold));
    give(&mut g, 0, Item::RubyTool, 0, None);
    give(&mut g, 0, Item::SapphireTool, 0, None);
    give(&mut g, 0, Item::Cart, 2, None);
    g.players[0].coins = 3;
    // Gold could go on the cart; he chooses the emerald instead.
    assert!(legal(&g).contains(&Action::Load {
        gem: Gem::Gold,
        onto: Item::Cart
    }));
    play(
        &mut g,
        Action::Load {
            gem: Gem::Ruby,
            onto: Item::RubyTool,
        },
    );
    play(
        &mut g,
        Action::Load {
            gem: Gem::Sapphire,
            onto: Item::SapphireTool,
        },
    );
    play(
        &mut g,
        Action::Load {
            gem: Gem::Emerald,
            onto: Item::Cart,
        },
    );
    assert_eq!(g.player(0).coins, 1, "the cart cost 2");
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::Load { gem: Gem::Gold, .. })),
        "no card can take the gold now"
    );
    assert_eq!(g.road_gems[r], [2, 0, 1, 0, 0]);
    play(&mut g, Action::End);
}

#[test]
fn workshop_and_bonus_in_the_bernardo_example() {
    // rule V-X3, V-A3: supply violet 1, red 0, blue 1; he owns 1 violet and 1 blue
    // craftsman and delivers two amethysts (hammer and cart) to the violet patron.
    let mut g = new_game(4);
    g.craftsmen = [9, 9, 5, 1, 0, 1, 4];
    g.players[0].craftsmen[Color::Violet.index()] = 1;
    g.players[0].craftsmen[Color::Blue.index()] = 1;
    let first = commission_of(&mut g, Color::Violet, &[]);
    hold(&mut g, 0, first);
    let second = commission_of(&mut g, Color::Violet, &[first.card]);
    hold(&mut g, 0, second);
    give(&mut g, 0, Item::AmethystTool, 0, Some(Gem::Amethyst));
    give(&mut g, 0, Item::Cart, 2, Some(Gem::Amethyst));
    stand(&mut g, 0, "pd");

    let events = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(Item::AmethystTool.bit()),
        },
    );
    assert!(
        !events.contains(&Event::BonusTile { seat: 0 }),
        "opening a workshop earns no bonus"
    );
    assert!(events.contains(&Event::CraftsmanHired {
        seat: 0,
        color: Color::Violet
    }));
    assert!(events.contains(&Event::WorkshopTaken {
        seat: 0,
        color: Color::Violet
    }));

    let events = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(Item::Cart.bit()),
        },
    );
    assert_eq!(
        &events[1..],
        &[
            Event::BonusTile { seat: 0 },
            Event::CraftsmanHired {
                seat: 0,
                color: Color::Blue
            },
            Event::WorkshopTaken {
                seat: 0,
                color: Color::Blue
            },
        ],
        "bonus first, then the next colour clockwise (violet and red are empty)"
    );
    let p = g.player(0);
    assert_eq!(p.craftsmen[Color::Violet.index()], 2);
    assert_eq!(p.craftsmen[Color::Blue.index()], 2);
    assert_eq!(p.bonus_tiles, 1);
    assert_eq!(g.workshop_owner(Color::Violet), Some(0));
    assert_eq!(g.workshop_owner(Color::Blue), Some(0));
    assert_eq!(g.discard()[Gem::Amethyst.index()], 2);
    assert_eq!(g.completed_by(0).count(), 2);
}

#[test]
fn craftsmen_come_clockwise_when_a_stack_is_empty() {
    // rule V-X4, V-A3: red empty, one blue and one green left; two red commissions.
    let mut g = new_game(4);
    g.craftsmen = [9, 9, 5, 4, 0, 1, 1];
    let a = commission_of(&mut g, Color::Red, &[]);
    hold(&mut g, 0, a);
    let b = commission_of(&mut g, Color::Red, &[a.card]);
    hold(&mut g, 0, b);
    give(&mut g, 0, Item::RubyTool, 0, Some(Gem::Ruby));
    give(&mut g, 0, Item::Horse, 2, Some(Gem::Ruby));
    stand(&mut g, 0, "pe");
    let hired = |events: &[Event]| {
        events.iter().find_map(|e| match e {
            Event::CraftsmanHired { color, .. } => Some(*color),
            _ => None,
        })
    };
    let e = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(Item::RubyTool.bit()),
        },
    );
    assert_eq!(hired(&e), Some(Color::Blue));
    let e = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(Item::Horse.bit()),
        },
    );
    assert_eq!(hired(&e), Some(Color::Green));
    // Past the last colour the order wraps around to grey.
    g.craftsmen = [1, 0, 0, 0, 0, 0, 0];
    let c = commission_of(&mut g, Color::Green, &[a.card, b.card]);
    hold(&mut g, 0, c);
    give(&mut g, 0, Item::EmeraldTool, 0, Some(Gem::Emerald));
    stand(&mut g, 0, "pg");
    let e = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(Item::EmeraldTool.bit()),
        },
    );
    assert_eq!(hired(&e), Some(Color::Grey));
}

#[test]
fn with_every_stack_empty_no_craftsman_is_hired() {
    // rule V-A3, V-E1
    let mut g = new_game(4);
    g.craftsmen = [0; 7];
    g.end_triggered = true;
    let c = commission_of(&mut g, Color::Grey, &[]);
    hold(&mut g, 0, c);
    stand(&mut g, 0, "pa");
    let e = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(0),
        },
    );
    assert!(!e.iter().any(|e| matches!(e, Event::CraftsmanHired { .. })));
    assert_eq!(g.completed_by(0).count(), 1, "the commission still counts");
}

/// Seat 0 (the start player) completes a grey commission that leaves one colour.
fn trigger_end(players: u8) -> Valdora {
    let mut g = new_game(players);
    g.craftsmen = [2, 0, 0, 0, 0, 0, 0];
    let c = commission_of(&mut g, Color::Grey, &[]);
    hold(&mut g, 0, c);
    stand(&mut g, 0, "pa");
    let e = play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(0),
        },
    );
    assert!(e.contains(&Event::EndTriggered { seat: 0 }));
    g
}

#[test]
fn the_round_is_finished_after_the_trigger() {
    // rule V-E1, V-X7
    let mut g = trigger_end(4);
    play(&mut g, Action::End);
    let mut movers = Vec::new();
    while let Some(seat) = g.to_move() {
        if matches!(g.phase, Phase::Move) {
            movers.push(seat);
        }
        let a = legal(&g)[0];
        let a = if matches!(a, Action::Move { .. }) {
            a
        } else {
            Action::Pass
        };
        play(&mut g, a);
    }
    assert_eq!(
        movers,
        vec![1, 2, 3],
        "every other player gets one more turn"
    );
    assert!(g.outcome().is_some());
    assert!(!g.outcome().expect("over").truncated);
}

#[test]
fn the_trigger_in_the_last_seat_ends_the_game_at_once() {
    // rule V-E1
    let mut g = new_game(3);
    g.craftsmen = [1, 1, 0, 0, 0, 0, 0];
    let c = commission_of(&mut g, Color::Grey, &[]);
    hold(&mut g, 2, c);
    stand(&mut g, 2, "pa");
    play(
        &mut g,
        Action::Complete {
            commission: 0,
            pay_from: Items(0),
        },
    );
    play(&mut g, Action::End);
    assert_eq!(g.to_move(), None);
}

#[test]
fn scoring_counts_every_category() {
    // rule V-E2
    let mut g = new_game(4);
    let a = commission_of(&mut g, Color::Violet, &[]);
    let b = commission_of(&mut g, Color::Grey, &[a.card]);
    let incomplete = commission_of(&mut g, Color::Yellow, &[a.card, b.card]);
    g.completed[usize::from(a.card)] = Some((1, a.side));
    g.completed[usize::from(b.card)] = Some((1, b.side));
    hold(&mut g, 1, incomplete);
    g.players[1].craftsmen = [3, 0, 0, 2, 1, 0, 0];
    g.players[1].bonus_tiles = 2;
    g.workshop_owner[Color::Violet.index()] = Some(1);
    g.workshop_owner[Color::Grey.index()] = Some(1);
    give(&mut g, 1, Item::GoldPan, 0, Some(Gem::Gold));
    give(&mut g, 1, Item::Horse, 2, Some(Gem::Ruby));
    let s = g.score(1);
    assert_eq!(
        s.commissions,
        i32::from(a.face(g.rules()).points + b.face(g.rules()).points)
    );
    assert_eq!(s.craftsmen, 30, "10 per colour held, not per tile");
    assert_eq!(
        s.workshops,
        i32::from(
            g.rules().workshop_points[Color::Violet.index()]
                + g.rules().workshop_points[Color::Grey.index()]
        )
    );
    assert_eq!(s.bonus_tiles, 20);
    assert_eq!(s.gems, 2);
    assert_eq!(
        s.total(),
        s.commissions + 30 + s.workshops + 20 + 2,
        "incomplete ones score nothing"
    );
}

#[test]
fn ties_go_to_coins_then_are_shared() {
    // rule V-E3, V-X7
    let mut g = trigger_end(4);
    for seat in 0..4 {
        g.players[seat].craftsmen = [0; 7];
        g.completed = [None; 2 * COMMISSION_CARDS];
    }
    g.players[0].coins = 2;
    g.players[1].coins = 5;
    g.players[2].coins = 5;
    g.players[3].coins = 1;
    give(&mut g, 3, Item::GoldPan, 0, Some(Gem::Gold));
    play(&mut g, Action::End);
    run_to_end_with_passes(&mut g);
    let outcome = g.outcome().expect("over");
    let by_seat: Vec<(i32, u8)> = outcome.seats.iter().map(|s| (s.score, s.rank)).collect();
    let coins: Vec<i32> = outcome.seats.iter().map(|s| s.tiebreaks[0]).collect();
    // Seat 3 leads on points; 1 and 2 tie on points and coins; 0 has fewer coins.
    assert_eq!(by_seat[3].1, 1);
    let (one, two, zero) = (
        outcome.seats[1].rank,
        outcome.seats[2].rank,
        outcome.seats[0].rank,
    );
    if coins[1] == coins[2] && by_seat[1].0 == by_seat[2].0 {
        assert_eq!(one, two, "same points and coins share the rank");
    }
    if by_seat[0].0 == by_seat[1].0 && coins[0] < coins[1] {
        assert!(zero > one, "fewer coins rank lower");
    }
    assert_eq!(outcome.winners().collect::<Vec<_>>(), vec![3]);
}

#[test]
fn completed_commissions_and_scores_of_others_are_hidden() {
    // rule V-I1: completed commissions lie under the owner's adventurer card. Another seat
    // (and a spectator) sees how many a seat completed, not which nor their points, and no
    // running score of others; the owner sees its own.
    let mut g = new_game(4);
    let c = commission_of(&mut g, Color::Violet, &[]);
    g.completed[usize::from(c.card)] = Some((2, c.side));
    let owner = g.view(Some(2));
    let own = owner.own.as_ref().expect("a seat sees its own");
    assert_eq!(own.completed, vec![c.face(g.rules())]);
    assert_eq!(own.score, g.score(2).total());
    assert_eq!(owner.seats[2].completed_count, 1);
    assert_eq!(g.view(Some(0)).own.map(|o| o.completed), Some(vec![]));
    assert_eq!(g.view(None).own, None, "a spectator has no card of its own");
    for observer in [Some(0), Some(1), Some(2), Some(3), None] {
        let v = g.view(observer);
        assert_eq!(
            v.seats[2].completed_count, 1,
            "{observer:?}: the count is public"
        );
        assert_eq!(v.seats[2].completed, None, "{observer:?}: not which");
        assert_eq!(v.seats[2].score, None, "{observer:?}: nor the points");
        assert_eq!(
            v.seats[0].score, None,
            "{observer:?}: no running score of others"
        );
    }
    // Everything else is the same for every seat (no private hands).
    let spectator = g.view(None);
    for seat in [0, 1, 2, 3] {
        let mut v = g.view(Some(seat));
        v.seat = None;
        v.own = None;
        assert_eq!(v, spectator);
    }
    // The terminal of another seat says "hidden", never the points.
    assert!(g.render_view(Some(0)).contains("points hidden"));
}

#[test]
fn determinize_keeps_completed_commissions_a_seat_saw_completed_in_the_log() {
    // rule V-I1: hidden from the views of others, but each completion was a public event
    // naming the face, so the bots' samples keep them (docs/bots.md).
    let mut g = new_game(4);
    let c = commission_of(&mut g, Color::Violet, &[]);
    g.completed[usize::from(c.card)] = Some((2, c.side));
    for seed in 0..4 {
        let sample = g.determinize(Some(0), &mut rng_from_seed(seed));
        assert_eq!(sample.completed, g.completed);
        assert_eq!(sample.view(Some(0)), g.view(Some(0)));
    }
}

#[test]
fn open_scores_and_the_end_of_the_game_show_every_commission() {
    // rule V-I1: a config option opens scores; the outcome at game end shows everything.
    let config = ValdoraConfig {
        open_scores: true,
        ..ValdoraConfig::default()
    };
    let mut g = Valdora::new(&config, 42).expect("valid config");
    let c = commission_of(&mut g, Color::Violet, &[]);
    g.completed[usize::from(c.card)] = Some((2, c.side));
    for observer in [Some(0), None] {
        let v = g.view(observer);
        assert_eq!(v.seats[2].completed, Some(vec![c.face(g.rules())]));
        assert_eq!(v.seats[2].score, Some(g.score(2).total()));
    }
    let mut g = new_game(4);
    let c = commission_of(&mut g, Color::Violet, &[]);
    g.completed[usize::from(c.card)] = Some((2, c.side));
    g.phase = Phase::Over;
    let v = g.view(None);
    assert_eq!(v.seats[2].completed, Some(vec![c.face(g.rules())]));
    assert!(v.seats.iter().all(|p| p.score.is_some()));
}

#[test]
fn unseen_book_faces_are_in_no_view() {
    // rule V-I2
    let mut g = new_game(4);
    let view = g.view(Some(0));
    for book in &view.books {
        let (below, top) = book.right.split_at(book.right.len() - 1);
        assert!(top[0].recto.is_some() && top[0].verso.is_none());
        assert!(below.iter().all(|c| c.recto.is_none() && c.verso.is_none()));
    }
    // A face seen once stays known to all.
    stand(&mut g, 0, "C");
    let card = g.book(2).top(Side::Right).expect("full").card();
    play(&mut g, Action::Turn { from: Side::Right });
    play(&mut g, Action::Turn { from: Side::Left });
    let view = g.view(Some(1));
    let top = view.books[2].right.last().expect("full");
    assert_eq!(
        top.recto,
        Some(BookKind::Commission.face(g.rules(), card, Side::Right))
    );
    assert_eq!(
        top.verso,
        Some(BookKind::Commission.face(g.rules(), card, Side::Left))
    );
    // The next card down has shown its recto when the top was turned away.
    assert!(view.books[2].right[view.books[2].right.len() - 2]
        .recto
        .is_some());
}

#[test]
fn determinization_resamples_only_the_unseen_cards() {
    // rule V-I3
    let g = new_game(4);
    let mut rng = rng_from_seed(9);
    let mut changed = false;
    for _ in 0..10 {
        let d = g.determinize(Some(1), &mut rng);
        assert_eq!(d.view(Some(1)), g.view(Some(1)));
        changed |= d.books != g.books;
        // The visible top keeps its face.
        for b in 0..4u8 {
            let kind = BookKind::of_book(b);
            assert_eq!(
                d.book(b).visible(g.rules(), kind, Side::Right),
                g.book(b).visible(g.rules(), kind, Side::Right)
            );
        }
    }
    assert!(changed, "the hidden order is resampled");
    // Same card multiset per book.
    let d = g.determinize(Some(1), &mut rng);
    for b in 0..4u8 {
        let mut x: Vec<u8> = g
            .book(b)
            .pile(Side::Right)
            .iter()
            .map(|c| c.card())
            .collect();
        let mut y: Vec<u8> = d
            .book(b)
            .pile(Side::Right)
            .iter()
            .map(|c| c.card())
            .collect();
        x.sort();
        y.sort();
        assert_eq!(x, y);
    }
    let _ = Face::Commission;
}
