//! The generic conformance suite of `engine` on every version and player count.

use engine::conformance::{check_game, check_uniform_random_choice, Suite};
use engine::Game;
use valley::{StarterType, Valley, ValleyConfig};

fn config(players: u8, pool: &str) -> ValleyConfig {
    ValleyConfig {
        players,
        pool: Some(pool.into()),
        ..ValleyConfig::default()
    }
}

fn suite(seeds: u64) -> Suite {
    Suite {
        seeds: 0..seeds,
        max_actions: 20_000,
        deep_check_every: 7,
    }
}

#[test]
fn base_game_every_player_count() {
    for players in 2..=4 {
        check_game::<Valley>(&config(players, "base"), &suite(4));
    }
}

#[test]
fn every_preset_and_starter_type() {
    for pool in ["afterlife", "last_rites", "premium"] {
        check_game::<Valley>(&config(3, pool), &suite(2));
    }
    let mixed = ValleyConfig {
        starters: Some(StarterType::LastRites),
        ..config(4, "base")
    };
    check_game::<Valley>(&mixed, &suite(3));
}

#[test]
fn five_and_six_players_with_pharaohs() {
    for players in [5, 6] {
        let c = ValleyConfig {
            pharaohs: true,
            ..config(players, "premium")
        };
        check_game::<Valley>(&c, &suite(2));
    }
}

#[test]
fn random_choice_is_uniform() {
    check_uniform_random_choice::<Valley>(&config(4, "base"), 3, 20);
}

/// The shipped data with test actions on the base starters, so that the suite also runs the
/// primitives no known card uses yet (looks, optional draws, reservations, boneyard takes).
fn exercise_pack() -> ValleyConfig {
    let mut text = valley::data::STANDARD_DATA.to_string();
    for (card, action) in [
        (
            "Shabti",
            r#"[{ op = "look_top", n = 2, may_discard = true }]"#,
        ),
        (
            "Urn",
            r#"[{ op = "draw", n = 1, may = true }, { op = "discard", from = "hand", count = 2, up_to = true }]"#,
        ),
        ("Box of Food", r#"[{ op = "reserve", slots = "any" }]"#),
        (
            "Offering Table",
            r#"[{ op = "take", from = "boneyard_any", cost_le = 3, to = "hand" }, { op = "grant_entomb", n = 1 }]"#,
        ),
    ] {
        let at = text
            .find(&format!("name = \"{card}\""))
            .expect("card entry");
        let rel = text[at..]
            .find("action = \"unknown\"")
            .expect("unknown action");
        text.replace_range(
            at + rel..at + rel + "action = \"unknown\"".len(),
            &format!("action = {action}"),
        );
    }
    let mut config = ValleyConfig {
        players: 3,
        ..ValleyConfig::default()
    };
    Valley::load_data(&mut config, &text).expect("valid test pack");
    config
}

#[test]
fn every_primitive_under_the_suite() {
    // rule K-E16, K-E15, K-E1, K-E6, K-E13, K-T7, K-Z12
    let config = exercise_pack();
    check_game::<Valley>(&config, &suite(4));
    // The pack really is exercised by random play.
    let mut g = Valley::new(&config, 1).expect("valid");
    let mut rng = engine::rng_from_seed(1);
    let (mut buf, mut events) = (Vec::new(), Vec::new());
    while let Some(a) = engine::playout::random_action(&g, &mut rng, &mut buf) {
        g.apply(a, &mut events).expect("legal");
    }
    assert!(events
        .iter()
        .any(|e| matches!(e, valley::Event::Looked { .. })));
    assert!(events
        .iter()
        .any(|e| matches!(e, valley::Event::Reserved { .. })));
}
