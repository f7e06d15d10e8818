//! ISMCTS search speed on mid-game 4-player Valdora positions (the positions of the
//! valdora criterion benches: 1500 random actions from seeds 0..). Run:
//! `cargo run --release -p bots --example search_speed`
//! Prints iterations/s and actions/s (tree + rollout) for each rollout setting and
//! thread count. A measurement, not a test: the machine's load changes it.

use bots::{Bot, Budget, Ismcts, IsmctsConfig, Rollout, Step};
use engine::playout::random_playout;
use engine::{rng_from_seed, Game};
use valdora::{Valdora, ValdoraConfig};

fn main() {
    let positions: Vec<Valdora> = (0..4)
        .map(|seed| {
            let mut g = Valdora::new(&ValdoraConfig::default(), seed).expect("valid");
            random_playout(&mut g, &mut rng_from_seed(seed), &mut Vec::new(), 1500);
            assert!(g.to_move().is_some(), "mid-game");
            g
        })
        .collect();
    println!(
        "step    rollout  threads  iterations  seconds  iterations/s  actions/s  actions/iteration"
    );
    let turn = Step::Turn {
        plans: 8,
        replies: 2,
        root_nodes: 20_000,
    };
    for (step, rollout, iterations) in [
        (Step::Action, Rollout::Random(None), 2000),
        (Step::Action, Rollout::Random(Some(20)), 60_000),
        (Step::Action, Rollout::Random(Some(0)), 100_000),
        (Step::Action, Rollout::Greedy { turns: 1 }, 4000),
        (turn, Rollout::Random(Some(0)), 4000),
    ] {
        for threads in [1, 2] {
            let config = IsmctsConfig {
                budget: Budget::Iterations(iterations),
                step,
                rollout,
                threads,
                ..IsmctsConfig::default()
            };
            let (mut iters, mut actions, mut seconds) = (0u64, 0u64, 0f64);
            for (i, p) in positions.iter().enumerate() {
                let mut bot = Ismcts::<Valdora>::new(config, i as u64);
                bot.choose(p).expect("mid-game");
                let s = bot.last_search();
                iters += s.iterations;
                actions += s.tree_actions + s.rollout_actions;
                seconds += s.seconds;
            }
            println!(
                "{:<6}  {:>7}  {threads:>7}  {iters:>10}  {seconds:>7.2}  {:>12.0}  {:>9.0}  {:>17.1}",
                match step {
                    Step::Action => "action",
                    Step::Turn { .. } => "turn",
                },
                match rollout {
                    Rollout::Random(None) => "full".to_string(),
                    Rollout::Random(Some(n)) => n.to_string(),
                    Rollout::Greedy { .. } => "greedy".to_string(),
                },
                iters as f64 / seconds,
                actions as f64 / seconds,
                actions as f64 / iters as f64
            );
        }
    }
}
