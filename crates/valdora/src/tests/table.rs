//! The terminal table and action descriptions: what a person needs to decide is written
//! out (roads, tools, load costs, workshops, bonus tiles, fees), in correct English.

use super::*;

#[test]
fn the_table_shows_roads_tools_load_costs_workshops_and_bonus_tiles() {
    // rule V-C5, V-C9, V-T1
    let mut g = new_game(4);
    give(&mut g, 0, Item::RubyTool, 0, Some(Gem::Ruby));
    give(&mut g, 0, Item::Horse, 2, None);
    g.players[0].coins = 1;
    let text = g.render_view(Some(0));
    // The ruby on the tool is worth a point (V-E2): one of each, in the singular.
    let tool = g.rules().item_names[Item::RubyTool.index()].clone();
    let horse = g.rules().item_names[Item::Horse.index()].clone();
    assert!(
        text.contains(&format!("{tool} (takes ruby): ruby")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{horse} (takes any gem for 2 coins): empty")),
        "{text}"
    );
    assert!(
        text.contains("seat 0 (you): 1 point, 1 coin, at "),
        "{text}"
    );
    // Every space lists the spaces it joins.
    assert!(text.contains("roads (each space and the spaces it joins):"));
    assert!(text.contains("    g01 (road): A, pa"), "{text}");
    let red = Color::Red.index();
    assert!(
        text.contains(&format!(
            "red ({} craftsmen, {} points): in the supply",
            g.rules().workshop_needed[red],
            g.rules().workshop_points[red]
        )),
        "{text}"
    );
    assert!(
        text.contains("bonus tiles left: 13 (10 points each)"),
        "{text}"
    );
}

#[test]
fn a_move_says_its_meeting_fee_and_a_page_turn_its_coin_cost() {
    // rule V-T2, V-A1
    let mut g = new_game(4);
    at_turn_start(&mut g, 0, "g01");
    let pa = space(&g, "pa");
    g.players[1].space = pa;
    g.players[2].space = pa;
    g.players[0].coins = 2;
    assert_eq!(
        g.describe_action(&Action::Move { to: pa }),
        "move to pa (grey patron), paying a meeting fee of 2 coins (seat 1, seat 2)"
    );
    g.players[2].space = space(&g, "A");
    assert!(g
        .describe_action(&Action::Move { to: pa })
        .ends_with("meeting fee of 1 coin (seat 1)"));
    assert_eq!(
        g.describe_action(&Action::Move {
            to: space(&g, "g02")
        }),
        "move to g02 (road)"
    );

    stand(&mut g, 0, "C");
    let turn = Action::Turn { from: Side::Right };
    assert_eq!(
        g.describe_action(&turn),
        "turn a page from the Right pile (free)"
    );
    play(&mut g, turn);
    assert_eq!(
        g.describe_action(&Action::Turn { from: Side::Left }),
        "turn a page from the Left pile (1 coin)"
    );
}
