//! The engine's generic conformance suite, run on Pandoria in every mode and at every
//! player count.

use engine::conformance::{check_game, check_uniform_random_choice, Suite};
use pandoria::{Mode, Pandoria, PandoriaConfig};

fn config(players: u8, mode: Mode, teams: bool) -> PandoriaConfig {
    PandoriaConfig {
        players,
        mode,
        teams,
        start_seat: players - 1,
        ..PandoriaConfig::default()
    }
}

fn suite(seeds: std::ops::Range<u64>) -> Suite {
    Suite {
        seeds,
        max_actions: 20_000,
        deep_check_every: 5,
    }
}

#[test]
fn contract_holds_for_2_players() {
    check_game::<Pandoria>(&config(2, Mode::Full, false), &suite(0..4));
}

#[test]
fn contract_holds_for_3_players() {
    check_game::<Pandoria>(&config(3, Mode::Full, false), &suite(10..14));
}

#[test]
fn contract_holds_for_4_players() {
    check_game::<Pandoria>(&config(4, Mode::Full, false), &suite(20..24));
}

#[test]
fn contract_holds_for_4_player_teams() {
    check_game::<Pandoria>(&config(4, Mode::Full, true), &suite(30..33));
}

#[test]
fn contract_holds_in_beginner_mode() {
    check_game::<Pandoria>(&config(3, Mode::Beginner, false), &suite(40..43));
    check_game::<Pandoria>(&config(4, Mode::Beginner, false), &suite(50..52));
}

#[test]
fn random_choice_is_uniform() {
    check_uniform_random_choice::<Pandoria>(&config(4, Mode::Full, false), 3, 40);
}
