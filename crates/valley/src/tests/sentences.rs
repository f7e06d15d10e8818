//! `describe_event`: the log of `tabletop play` is sentences, never JSON.

use engine::conformance::{check_config_options, check_event_sentences};

use crate::state::ValleyConfig;
use crate::Valley;

#[test]
fn every_event_of_random_games_is_a_sentence() {
    // Every preset, so that every kind of card action (and the pharaohs) shows up.
    for pool in ["base", "afterlife", "last_rites", "premium"] {
        let config = ValleyConfig {
            players: 3,
            pool: Some(pool.into()),
            pharaohs: true,
            ..ValleyConfig::default()
        };
        check_event_sentences::<Valley>(&config, 0..2);
    }
}

/// The options a "new game" form offers all start a game.
#[test]
fn every_config_option_starts_a_game() {
    check_config_options::<Valley>();
}
