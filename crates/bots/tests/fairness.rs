//! Bots decide only from what their seat may know, deterministically under a seed.

use bots::{Bot, BotSpec, Ismcts, IsmctsConfig};
use engine::playout::random_playout;
use engine::{rng_from_seed, Game, NoEvents};
use valdora::{Valdora, ValdoraConfig};

const SPECS: [&str; 12] = [
    "random",
    "greedy",
    "greedy:lookahead=ply",
    "greedy:spread=depth:nodes=3000",
    "ismcts:iters=60:nodes=300:root_nodes=3000:threads=2",
    "ismcts:iters=60:step=action:rollout=greedy:turns=2:nodes=200",
    "ismcts:iters=150:step=action:rollout=10:c=0.7:temperature=5",
    "ismcts:iters=100:step=action:rollout=0:threads=2",
    "ismcts:iters=40:step=action:rollout=full",
    "rollout:samples=10:nodes=300:root_nodes=3000",
    "rollout:samples=6:candidates=8:turns=2:eval=fitted",
    "rollout:samples=14:candidates=6:turns=2:nodes=300:prune=1:fill=yes",
];

/// Positions reached by random play, each with a twin that differs only in the unseen
/// book cards (resampled), so that the seat to move sees exactly the same.
fn twins() -> Vec<(Valdora, Valdora)> {
    let mut out = Vec::new();
    for seed in 0..6u64 {
        for depth in [0u64, 40, 300, 900] {
            let mut a = Valdora::new(&ValdoraConfig::default(), seed).expect("valid config");
            random_playout(
                &mut a,
                &mut rng_from_seed(seed + 100),
                &mut Vec::new(),
                depth,
            );
            let Some(seat) = a.to_move() else { continue };
            // Draw until the hidden part really differs (rarely equal late in a game).
            let twin = (0..20)
                .map(|k| a.determinize(Some(seat), &mut rng_from_seed(seed * 1000 + k)))
                .find(|b| *b != a);
            if let Some(b) = twin {
                assert_eq!(a.view(Some(seat)), b.view(Some(seat)));
                out.push((a, b));
            }
        }
    }
    assert!(out.len() >= 15, "enough positions with hidden information");
    out
}

#[test]
fn decisions_are_identical_for_states_that_differ_only_in_hidden_information() {
    for (a, b) in twins() {
        for spec in SPECS {
            let spec: BotSpec = spec.parse().expect("valid spec");
            for seed in [1u64, 2] {
                let on_a = spec.build::<Valdora>(seed).choose(&a);
                let on_b = spec.build::<Valdora>(seed).choose(&b);
                assert!(on_a.is_some());
                assert_eq!(on_a, on_b, "{spec} with seed {seed} at turn {}", a.turns());
            }
        }
    }
}

/// The comparison can fail: a bot whose choice depends on the true state (here on the
/// whole state, hidden cards included) decides differently on some twin.
#[test]
fn a_bot_reading_the_true_state_would_be_caught() {
    use std::hash::{DefaultHasher, Hash, Hasher};
    struct Peeking;
    impl Bot<Valdora> for Peeking {
        fn decide(&mut self, state: &Valdora, _: &bots::Stop) -> Option<valdora::Action> {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let mut h = DefaultHasher::new();
            format!("{state:?}").hash(&mut h);
            legal.get(h.finish() as usize % legal.len().max(1)).copied()
        }
    }
    let caught = twins()
        .iter()
        .any(|(a, b)| Peeking.choose(a) != Peeking.choose(b));
    assert!(caught, "the peeking bot decided the same everywhere");
}

#[test]
fn ismcts_is_deterministic_under_a_seed_for_a_fixed_thread_count() {
    let mut g = Valdora::new(&ValdoraConfig::default(), 5).expect("valid");
    random_playout(&mut g, &mut rng_from_seed(5), &mut Vec::new(), 200);
    for threads in [1, 2] {
        let config = IsmctsConfig {
            budget: bots::Budget::Iterations(300),
            threads,
            ..IsmctsConfig::default()
        };
        let run = || {
            let mut bot = Ismcts::<Valdora>::new(config, 9);
            let mut s = g.clone();
            let mut chosen = Vec::new();
            for _ in 0..12 {
                let Some(a) = bot.choose(&s) else { break };
                chosen.push(a);
                s.apply(a, &mut NoEvents)
                    .expect("bots choose legal actions");
            }
            (chosen, bot.last_search().iterations)
        };
        let first = run();
        assert_eq!(first, run(), "threads = {threads}");
    }
}

#[test]
fn every_bot_plays_a_capped_game_to_its_end_with_legal_actions() {
    let config = ValdoraConfig {
        players: 3,
        turn_cap: Some(60),
        ..ValdoraConfig::default()
    };
    for spec in SPECS {
        let spec: BotSpec = spec.parse().expect("valid spec");
        let mut g = Valdora::new(&config, 3).expect("valid");
        let mut seats: Vec<Box<dyn Bot<Valdora>>> = (0..3).map(|s| spec.build(s)).collect();
        while let Some(seat) = g.to_move() {
            let a = seats[usize::from(seat)].choose(&g).expect("not over");
            g.apply(a, &mut NoEvents).expect("legal");
        }
        assert!(g.outcome().is_some(), "{spec}");
    }
}

/// A hint reads what its seat may know only: twins that differ in hidden information get
/// the same hint (actions, values and visits), with turn steps, action steps and rollouts.
#[test]
fn hints_are_identical_for_states_that_differ_only_in_hidden_information() {
    let configs = [
        "ismcts:iters=60:nodes=300:root_nodes=3000",
        "ismcts:iters=100:step=action:rollout=10",
        "rollout:samples=6:nodes=300:root_nodes=3000:turns=2",
    ];
    for (a, b) in twins() {
        let seat = usize::from(
            a.to_move()
                .expect("twins are positions with a seat to move"),
        );
        for spec in configs {
            let config: BotSpec = spec.parse().expect("valid spec");
            let stop = bots::Stop::never();
            let on_a = bots::hint(&a, seat, config, 3, &stop, 3).expect("a hint");
            let on_b = bots::hint(&b, seat, config, 3, &stop, 3).expect("a hint");
            assert_eq!(on_a.actions, on_b.actions, "{spec} at turn {}", a.turns());
            assert!(!on_a.actions.is_empty());
        }
    }
}
