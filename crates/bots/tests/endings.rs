//! Greedy ends a game it wins when it can (issue 29: levels that end games).

use bots::BotSpec;
use engine::Game;
use valdora::{Action, Valdora, ValdoraConfig};

/// A three-player Valdora of three greedies (`tabletop arena --game valdora --bots
/// greedy,greedy,greedy --seed 9`, before the fix) up to the leader's arrival, last in the
/// round, on the patron house of a commission it holds and can pay: completing it takes
/// the last craftsman but one (V-E1) and so ends the game, which the leader wins. It used to
/// pass there, and the game ran past 30,000 actions.
const LEADER_CAN_END: &str = include_str!("fixtures/valdora-leader-can-end.json");

#[test]
fn greedy_ends_a_game_it_wins() {
    let fixture: serde_json::Value = serde_json::from_str(LEADER_CAN_END).expect("JSON");
    let config = ValdoraConfig {
        players: 3,
        ..ValdoraConfig::default()
    };
    let mut game = Valdora::new(&config, fixture["seed"].as_u64().expect("seed")).expect("valid");
    for action in fixture["actions"].as_array().expect("actions") {
        let action: Action = serde_json::from_value(action.clone()).expect("an action");
        game.apply(action, &mut engine::NoEvents)
            .expect("the record replays");
    }
    let leader = game.to_move().expect("running");
    for seed in 0..8 {
        let spec: BotSpec = "greedy".parse().expect("spec");
        let mut bot = spec.build::<Valdora>(seed);
        let mut ending = game.clone();
        // Its turn: the completion, then `End`.
        while ending.to_move() == Some(leader) {
            let action = bot.choose(&ending).expect("an action");
            ending.apply(action, &mut engine::NoEvents).expect("legal");
        }
        let outcome = ending
            .outcome()
            .expect("the game is over after the leader's turn");
        assert!(!outcome.truncated);
        assert!(outcome.winners().any(|s| s == leader), "{outcome:?}");
    }
}
