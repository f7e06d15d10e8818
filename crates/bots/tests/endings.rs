//! Greedy ends a game it wins when it can (issue 29: levels that end games).

use bots::{BotSpec, Budget, Level};
use engine::Game;
use valdora::{Action, Valdora, ValdoraConfig};

/// A three-player Valdora of three greedies (`tabletop arena --game valdora --bots
/// greedy,greedy,greedy --seed 9`, before the fix) up to the leader's arrival, last in the
/// round, on the patron house of a commission it holds and can pay: completing it takes
/// the last craftsman but one (V-E1) and so ends the game, which the leader wins. It used to
/// pass there, and the game ran past 30,000 actions.
const LEADER_CAN_END: &str = include_str!("fixtures/valdora-leader-can-end.json");

/// The position a three-player record (`{"seed", "actions"}`) leads to.
fn replayed(record: &str) -> Valdora {
    let fixture: serde_json::Value = serde_json::from_str(record).expect("JSON");
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
    game
}

#[test]
fn greedy_ends_a_game_it_wins() {
    let game = replayed(LEADER_CAN_END);
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

/// Three `medium` bots in three-player Valdora (`tabletop arena --game valdora --players 3
/// --bots medium,medium,medium --games 1000 --seed 20000`, game 910, seed 20910) up to its
/// 1,000th turn. By then nothing had scored for hundreds of turns: one white craftsman was
/// left (V-E1 ends the game when it goes), only the two trailing seats held white
/// commissions, and the leader held commissions of exhausted colours only. Completing
/// would have ended the game with the completer behind, so the trailing seats walked and
/// passed, and the game reached the 20,000-turn cap. Greedy and ISMCTS (whose rollouts
/// are greedy's) both walked on from here before they judged a stalled game by its points.
const STALLED: &str = include_str!("fixtures/valdora-stall.json");

#[test]
fn levels_end_a_game_that_only_a_losing_seat_can_end() {
    let game = replayed(STALLED);
    assert_eq!(game.turns(), 1_000);
    assert!(
        !game.stalled(),
        "stalled only past Valdora::STALLED_AFTER_TURNS"
    );
    // `hard` on a sample budget: its time budget would make the test depend on the
    // machine's speed.
    let mut hard = Level::named("hard")
        .expect("a level")
        .bot_for(Valdora::NAME);
    if let BotSpec::Rollout(config) = &mut hard {
        config.budget = Budget::Iterations(24);
    }
    let others = ["ismcts:iters=200:eval=fitted", "medium", "easy"];
    let specs = others.map(|level| level.parse::<BotSpec>().expect("spec"));
    for (level, spec) in std::iter::once(("hard", hard)).chain(others.into_iter().zip(specs)) {
        let mut bots: Vec<_> = (0..3).map(|seed| spec.build::<Valdora>(seed)).collect();
        let mut playing = game.clone();
        while let Some(seat) = playing.to_move() {
            assert!(
                playing.turns() < 1_200,
                "{level}: still running at turn {}",
                playing.turns()
            );
            let action = bots[usize::from(seat)].choose(&playing).expect("an action");
            playing.apply(action, &mut engine::NoEvents).expect("legal");
        }
        let outcome = playing.outcome().expect("over");
        assert!(!outcome.truncated, "{level}: ended by the rules");
    }
}
