//! `describe_event`: the log of `tabletop play` is sentences, never JSON.

use engine::conformance::{check_config_options, check_event_sentences};

use crate::state::ValdoraConfig;
use crate::Valdora;

#[test]
fn every_event_of_random_games_is_a_sentence() {
    check_event_sentences::<Valdora>(&ValdoraConfig::default(), 0..3);
    // The turn cap's own event.
    let capped = ValdoraConfig {
        players: 3,
        turn_cap: Some(12),
        ..ValdoraConfig::default()
    };
    check_event_sentences::<Valdora>(&capped, 0..2);
}

/// The options a "new game" form offers all start a game.
#[test]
fn every_config_option_starts_a_game() {
    check_config_options::<Valdora>();
}
