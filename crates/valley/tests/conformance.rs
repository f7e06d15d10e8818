//! The generic conformance suite of `engine` on every version and player count.

use engine::conformance::{check_game, check_uniform_random_choice, Suite};
use valley::{StarterType, Valley, ValleyConfig};

fn config(players: u8, pool: &str) -> ValleyConfig {
    ValleyConfig {
        players,
        pool: pool.into(),
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
