use engine::{Game, SetupError};

use super::*;
use crate::board::SpaceKind;
use crate::books::BookKind;
use crate::components::Face;
use crate::data::{Rules, EQUIPMENT_CARDS};

#[test]
fn player_counts_three_to_five() {
    // rule V-C1
    for players in 3..=5 {
        let g = new_game(players);
        assert_eq!(g.seats(), usize::from(players));
        assert_eq!(g.to_move(), Some(0), "seat 0 starts unless asked otherwise");
    }
    for players in [0, 1, 2, 6] {
        let err = Valdora::new(
            &ValdoraConfig {
                players,
                ..ValdoraConfig::default()
            },
            1,
        )
        .expect_err("out of range");
        assert!(
            matches!(err, SetupError::PlayerCount { min: 3, max: 5, .. }),
            "{err}"
        );
    }
}

#[test]
fn random_start_player_comes_from_the_seed() {
    // rule V-C1, V-S2
    let config = ValdoraConfig {
        players: 5,
        random_start_player: true,
        ..ValdoraConfig::default()
    };
    let starts: Vec<u8> = (0..40)
        .map(|seed| Valdora::new(&config, seed).expect("valid").start_player())
        .collect();
    assert!(
        starts.iter().any(|&s| s != 0),
        "some seed picks another start player"
    );
    for seed in 0..40 {
        let g = Valdora::new(&config, seed).expect("valid");
        assert_eq!(g.start_player(), starts[seed as usize], "deterministic");
        assert_eq!(g.to_move(), Some(g.start_player()));
        // V-S2: the start player 1 coin, then clockwise one more each.
        for k in 0..5u8 {
            assert_eq!(g.player((g.start_player() + k) % 5).coins, 1 + k);
        }
    }
}

#[test]
fn gems_all_on_the_road_spaces_at_setup() {
    // rule V-C2, V-S3
    let g = new_game(4);
    assert_eq!(g.gem_totals(), [22, 13, 13, 15, 15]);
    assert_eq!(
        g.gem_totals().iter().map(|&n| u32::from(n)).sum::<u32>(),
        78
    );
    let board = &g.rules().board;
    for s in 0..board.len() as u8 {
        if board.kind(s) == SpaceKind::Road {
            let gems = g.gems_at(s).expect("road");
            assert_eq!(
                gems.iter().sum::<u8>(),
                6,
                "six gems on {}",
                board.names[usize::from(s)]
            );
        } else {
            assert!(g.gems_at(s).is_none());
        }
    }
    assert_eq!(g.discard(), [0; 5]);
    // The shuffle depends on the seed.
    let other = Valdora::new(&ValdoraConfig::default(), 43).expect("valid");
    assert_ne!(g.road_gems, other.road_gems);
}

#[test]
fn coins_start_one_to_five_and_never_exceed_six() {
    // rule V-C3, V-S2
    let g = new_game(5);
    let coins: Vec<u8> = (0..5).map(|s| g.player(s).coins).collect();
    assert_eq!(coins, vec![1, 2, 3, 4, 5]);
}

#[test]
fn board_has_the_printed_kinds_and_counts() {
    // rule V-C4
    let board = &Rules::standard().board;
    let count = |f: &dyn Fn(SpaceKind) -> bool| board.kinds.iter().filter(|k| f(**k)).count();
    assert_eq!(count(&|k| k.is_city()), 5);
    assert_eq!(count(&|k| k == SpaceKind::Road), 13);
    assert_eq!(count(&|k| k == SpaceKind::SilverMine), 3);
    assert_eq!(count(&|k| matches!(k, SpaceKind::PatronHouse { .. })), 7);
    assert_eq!(count(&|k| matches!(k, SpaceKind::Harbour { .. })), 2);
    assert_eq!(board.kind(board.start), SpaceKind::HarbourCity { ships: 1 });
    // The house colours are data: every colour has one house.
    for c in Color::ALL {
        assert_eq!(count(&|k| k == SpaceKind::PatronHouse { color: c }), 1);
    }
}

#[test]
fn every_player_starts_with_an_empty_gold_pan_on_the_harbour_city() {
    // rule V-S1, V-C5
    let g = new_game(4);
    for s in 0..4 {
        let p = g.player(s);
        assert_eq!(p.space, g.rules().board.start);
        assert_eq!(p.owned, Item::GoldPan.bit());
        assert_eq!(p.gems, [None; 7]);
        assert!(!p.provisions);
        assert!(p.incomplete.is_empty());
    }
}

#[test]
fn books_start_on_the_right_showing_the_top_recto() {
    // rule V-C6, V-S4
    let g = new_game(4);
    for b in 0..4u8 {
        let book = g.book(b);
        assert!(book.pile(Side::Left).is_empty());
        let expected = if b < 2 {
            EQUIPMENT_CARDS
        } else {
            COMMISSION_CARDS
        };
        assert_eq!(book.pile(Side::Right).len(), expected);
        let kind = BookKind::of_book(b);
        let top = book.top(Side::Right).expect("full");
        assert_eq!(
            book.visible(g.rules(), kind, Side::Right),
            Some(kind.face(g.rules(), top.card(), Side::Right))
        );
        match (kind, book.visible(g.rules(), kind, Side::Right)) {
            (BookKind::Equipment, Some(Face::Equipment(_)))
            | (BookKind::Commission, Some(Face::Commission(_))) => {}
            other => panic!("book {b} shows {other:?}"),
        }
    }
}

#[test]
fn commission_faces_ask_for_a_gem_three_gems_or_a_coin() {
    // rule V-C7
    let rules = Rules::standard();
    for card in &rules.commission_cards {
        for face in card {
            let gems: u8 = face.wants.gems.iter().sum();
            match face.color {
                Color::Grey => assert_eq!((gems, face.wants.coins), (0, 1)),
                Color::White => assert_eq!((gems, face.wants.coins), (3, 0)),
                _ => assert_eq!((gems, face.wants.coins), (1, 0)),
            }
        }
    }
}

#[test]
fn three_players_play_without_one_violet_red_blue_and_green_craftsman() {
    // rule V-C8
    assert_eq!(new_game(4).craftsmen_supply(), [9, 9, 5, 4, 4, 4, 4]);
    assert_eq!(new_game(5).craftsmen_supply(), [9, 9, 5, 4, 4, 4, 4]);
    assert_eq!(new_game(3).craftsmen_supply(), [9, 9, 5, 3, 3, 3, 3]);
    assert_eq!(
        Rules::standard().clockwise,
        [
            Color::Grey,
            Color::Yellow,
            Color::White,
            Color::Violet,
            Color::Red,
            Color::Blue,
            Color::Green
        ]
    );
}

#[test]
fn workshops_one_per_colour_and_thirteen_bonus_tiles() {
    // rule V-C9
    let g = new_game(4);
    for c in Color::ALL {
        assert_eq!(g.workshop_owner(c), None);
    }
    assert_eq!(g.bonus_supply(), 13);
    assert_eq!(g.rules().bonus_points, 10);
    // Confirmed by the rulebook example: violet and blue need 2 craftsmen.
    assert_eq!(g.rules().workshop_needed[Color::Violet.index()], 2);
    assert_eq!(g.rules().workshop_needed[Color::Blue.index()], 2);
}
