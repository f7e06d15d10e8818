//! `describe_event`: the log of `tabletop play` is sentences, never JSON.

use engine::conformance::{check_config_options, check_event_sentences};

use crate::state::{Mode, Pandoria, PandoriaConfig};

#[test]
fn every_event_of_random_games_is_a_sentence() {
    for (players, mode) in [(2, Mode::Full), (4, Mode::Full), (3, Mode::Beginner)] {
        let config = PandoriaConfig {
            players,
            mode,
            ..PandoriaConfig::default()
        };
        check_event_sentences::<Pandoria>(&config, 0..3);
    }
}

/// The options a "new game" form offers all start a game.
#[test]
fn every_config_option_starts_a_game() {
    check_config_options::<Pandoria>();
}
