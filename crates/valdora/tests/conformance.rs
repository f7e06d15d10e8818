//! The engine's generic conformance suite, run on Valdora at every player count.

use engine::conformance::{check_game, check_uniform_random_choice, Suite};
use valdora::{Valdora, ValdoraConfig};

fn config(players: u8) -> ValdoraConfig {
    ValdoraConfig {
        players,
        random_start_player: true,
        ..ValdoraConfig::default()
    }
}

#[test]
fn contract_holds_for_3_players() {
    check_game::<Valdora>(
        &config(3),
        &Suite {
            seeds: 0..4,
            max_actions: 200_000,
            deep_check_every: 7,
        },
    );
}

#[test]
fn contract_holds_for_4_players() {
    check_game::<Valdora>(
        &config(4),
        &Suite {
            seeds: 10..14,
            max_actions: 200_000,
            deep_check_every: 7,
        },
    );
}

#[test]
fn contract_holds_for_5_players() {
    check_game::<Valdora>(
        &config(5),
        &Suite {
            seeds: 20..24,
            max_actions: 200_000,
            deep_check_every: 7,
        },
    );
}

#[test]
fn random_choice_is_uniform() {
    check_uniform_random_choice::<Valdora>(&config(4), 3, 40);
}

#[test]
fn determinization_depends_only_on_the_view() {
    use engine::conformance::check_fair_determinization;
    for players in 3..=5 {
        check_fair_determinization::<Valdora>(&config(players), 0..3, 97);
    }
}
