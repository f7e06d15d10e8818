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

/// Counts read in the right number: "1 point", "2 points", "1 resource".
#[test]
fn scoring_sentences_count_in_the_right_number() {
    use crate::events::{Event, Reason};
    use engine::Game;
    let g = Pandoria::new(&PandoriaConfig::default(), 1).expect("valid");
    let gained = |points| Event::PointsGained {
        seat: 1,
        points,
        reason: Reason::Monuments,
    };
    assert!(g
        .describe_event(&gained(1))
        .starts_with("Seat 1 scores 1 point for "));
    assert!(g
        .describe_event(&gained(2))
        .starts_with("Seat 1 scores 2 points for "));
    let end = Event::FinalScored {
        seat: 0,
        points: 1,
        leftovers: 1,
    };
    assert_eq!(
        g.describe_event(&end),
        "Seat 0 scores 1 point at the end (1 resource left over)"
    );
}
