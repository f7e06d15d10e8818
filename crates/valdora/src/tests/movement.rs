use engine::Game;

use super::*;
use crate::board::SpaceKind;

fn destinations(g: &Valdora) -> Vec<String> {
    let mut names: Vec<String> = legal(g)
        .into_iter()
        .map(|a| match a {
            Action::Move { to } => g.rules().board.names[usize::from(to)].to_string(),
            other => panic!("only moves at turn start, got {other:?}"),
        })
        .collect();
    names.sort();
    names
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn movement_stops_at_the_next_city_without_provisions() {
    // rule V-T1, V-X6
    let mut g = new_game(3);
    at_turn_start(&mut g, 0, "g01");
    g.players[1].space = space(&g, "H");
    g.players[2].space = space(&g, "H");
    // From g01 one road leads to A (a city: may end there, not pass), the other to C.
    assert_eq!(destinations(&g), sorted(&["A", "pa", "g02", "m1", "C"]));
}

#[test]
fn with_provisions_one_city_may_be_passed_and_only_then_they_are_spent() {
    // rule V-T1, V-X6
    let mut g = new_game(3);
    at_turn_start(&mut g, 0, "g01");
    g.players[0].provisions = true;
    g.players[1].space = space(&g, "m2");
    g.players[2].space = space(&g, "m2");
    let all = destinations(&g);
    for far in [
        "pf", "g08", "pe", "g07", "D", "g09", "h1", "H", "g03", "pb", "B", "m3", "g10",
    ] {
        assert!(
            all.contains(&far.to_string()),
            "{far} is reachable through one city"
        );
    }
    assert!(
        !all.contains(&"g01".to_string()),
        "a path never ends where it started"
    );
    // Two cities would be needed for g11 (through C then B, or A then H): not reachable.
    assert!(!all.contains(&"g11".to_string()));

    // A destination reachable without passing a city keeps the provisions.
    let mut keep = g.clone();
    let events = play(
        &mut keep,
        Action::Move {
            to: space(&g, "m1"),
        },
    );
    assert!(keep.player(0).provisions);
    assert!(events.contains(&Event::Moved {
        seat: 0,
        from: space(&g, "g01"),
        to: space(&g, "m1"),
        provisions_spent: false
    }));
    // Ending on a city does not pass it.
    let mut city = g.clone();
    play(&mut city, Action::Move { to: space(&g, "A") });
    assert!(city.player(0).provisions);
    // Only the path that needs them spends them.
    let mut spend = g.clone();
    play(
        &mut spend,
        Action::Move {
            to: space(&g, "pf"),
        },
    );
    assert!(!spend.player(0).provisions);
}

#[test]
fn meeting_pawns_costs_a_coin_each() {
    // rule V-T2, V-X5
    let mut g = new_game(4);
    at_turn_start(&mut g, 0, "g01");
    let pa = space(&g, "pa");
    g.players[1].space = pa;
    g.players[2].space = pa;
    g.players[0].coins = 1;
    assert!(
        !legal(&g).contains(&Action::Move { to: pa }),
        "two pawns, one coin: not allowed"
    );
    g.players[0].coins = 2;
    g.players[1].coins = 6;
    g.players[2].coins = 3;
    let events = play(&mut g, Action::Move { to: pa });
    assert_eq!(g.player(0).coins, 0);
    assert_eq!(
        g.player(1).coins,
        6,
        "a receiver at 6: the coin goes to the bank"
    );
    assert_eq!(g.player(2).coins, 4);
    assert!(events.contains(&Event::MeetingFee {
        seat: 0,
        to: 1,
        banked: true
    }));
    assert!(events.contains(&Event::MeetingFee {
        seat: 0,
        to: 2,
        banked: false
    }));
}

#[test]
fn silver_mines_are_free_to_share() {
    // rule V-T2, V-X5
    let mut g = new_game(4);
    at_turn_start(&mut g, 0, "g02");
    let m1 = space(&g, "m1");
    g.players[1].space = m1;
    g.players[2].space = m1;
    g.players[3].space = m1;
    g.players[0].coins = 0;
    play(&mut g, Action::Move { to: m1 });
    assert_eq!(g.player(0).coins, 0);
    assert_eq!(g.player(1).coins, 2);
}

#[test]
fn a_player_with_no_affordable_destination_stays_and_loses_the_turn() {
    // rule V-T3: from g12 the reachable spaces are H, pg, g13 and D (no mine).
    let mut g = new_game(5);
    stand(&mut g, 4, "g03");
    g.players[0].space = space(&g, "g12");
    g.players[0].coins = 0;
    for (seat, at) in [(1, "H"), (2, "pg"), (3, "g13"), (4, "D")] {
        g.players[seat].space = space(&g, at);
    }
    // Seat 4 ends its turn; seat 0 is stuck, so seat 1 moves next.
    let events = play(&mut g, Action::Pass);
    assert!(events.contains(&Event::Stuck { seat: 0 }));
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.player(0).space, space(&g, "g12"));
}

/// Whether some set of at most `pawns` occupied spaces, each holding a pawn, leaves every
/// pawn with only occupied destinations (`chosen` so far, candidates from `next` on).
fn all_pawns_can_be_stuck(reach: &[u64], chosen: u64, next: usize, pawns: u32) -> bool {
    let occupied_everywhere = chosen != 0
        && (0..reach.len())
            .filter(|s| chosen >> s & 1 == 1)
            .all(|s| reach[s] & !chosen == 0);
    if occupied_everywhere {
        return true;
    }
    chosen.count_ones() < pawns
        && (next..reach.len()).any(|s| all_pawns_can_be_stuck(reach, chosen | 1 << s, s + 1, pawns))
}

#[test]
fn on_the_shipped_board_the_seats_can_never_all_be_stuck() {
    // rule V-T3: a seat is stuck when no destination is affordable. Even with no coins at
    // all, that needs another pawn on every space it can reach, and no silver mine among
    // them. No placement of up to 5 pawns does that to every pawn at once, so the engine's
    // `Ending::Stalled` guard (every seat stuck in a row) cannot happen with shipped data.
    let g = new_game(5);
    let board = &g.rules().board;
    let reach: Vec<u64> = (0..board.len() as Space)
        .map(|s| {
            let plain = u64::from(board.reach_plain(s));
            let mine_reachable = (0..board.len() as Space)
                .any(|t| plain >> t & 1 == 1 && board.kind(t) == SpaceKind::SilverMine);
            // A pawn that can reach a silver mine is never stuck: mark it unsatisfiable.
            if mine_reachable {
                u64::MAX
            } else {
                plain
            }
        })
        .collect();
    assert!(!all_pawns_can_be_stuck(&reach, 0, 0, 5));
    // The search finds such a placement where one exists: three spaces that only reach
    // each other, and a fourth that reaches a mine.
    let triangle = [0b0110, 0b0101, 0b0011, u64::MAX];
    assert!(all_pawns_can_be_stuck(&triangle, 0, 0, 3));
    assert!(!all_pawns_can_be_stuck(&triangle, 0, 0, 2));
}

#[test]
fn the_space_decides_the_action_and_its_first_step_commits() {
    // rule V-T4
    let mut g = new_game(4);
    stand(&mut g, 0, "A");
    let options = legal(&g);
    assert!(options.contains(&Action::Pass));
    assert!(options.contains(&Action::TakeProvisions));
    assert!(options.contains(&Action::Turn { from: Side::Right }));
    assert!(!options.iter().any(|a| matches!(a, Action::Load { .. })));
    play(&mut g, Action::Turn { from: Side::Right });
    assert_eq!(committed(&g), Some(Committed::Buy));
    let options = legal(&g);
    assert!(
        !options.contains(&Action::TakeProvisions),
        "turning a page commits to buying"
    );
    assert!(!options.contains(&Action::Pass));
    assert!(options.contains(&Action::End));

    stand(&mut g, 0, "m2");
    g.players[0].coins = 2;
    assert_eq!(legal(&g), vec![Action::Pass, Action::RefillSilver]);
    stand(&mut g, 0, "pa");
    assert_eq!(
        legal(&g),
        vec![Action::Pass],
        "no grey commission held: nothing to do"
    );
}
