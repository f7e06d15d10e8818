//! ISMCTS search speed on mid-game 4-player Valdora positions (the positions of the
//! valdora criterion benches: 1500 random actions from seeds 0..). Run:
//! `cargo run --release -p bots --example search_speed`
//! Prints iterations/s and actions/s (tree + rollout) for each rollout setting and
//! thread count. A measurement, not a test: the machine's load changes it.

use bots::{Bot, Budget, Ismcts, IsmctsConfig, Rollout};
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
    println!("rollout  threads  iterations  seconds  iterations/s  actions/s  actions/iteration");
    for (rollout, iterations) in [
        (Rollout::Random(None), 300),
        (Rollout::Random(Some(20)), 4000),
        (Rollout::Random(Some(0)), 8000),
        (
            Rollout::Greedy {
                turns: 1,
                nodes: 500,
            },
            400,
        ),
    ] {
        for threads in [1, 2] {
            let config = IsmctsConfig {
                budget: Budget::Iterations(iterations),
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
                "{:>7}  {threads:>7}  {iters:>10}  {seconds:>7.2}  {:>12.0}  {:>9.0}  {:>17.1}",
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
