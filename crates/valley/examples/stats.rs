//! Random games: actions, turns and scores per game. `cargo run --release -p valley --example stats [players] [pool] [games]`

use engine::playout::random_action;
use engine::{rng_from_seed, Game, NoEvents};
use valley::{Valley, ValleyConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: u8 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let pool = args.get(2).cloned();
    let games: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let config = ValleyConfig {
        players,
        pool,
        ..ValleyConfig::default()
    };
    let (mut actions, mut turns) = (0u64, 0u64);
    let start = std::time::Instant::now();
    let mut buf = Vec::new();
    for seed in 0..games {
        let mut g = Valley::new(&config, seed).expect("valid config");
        let mut rng = rng_from_seed(seed);
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            g.apply_unchecked(a, &mut NoEvents);
            actions += 1;
        }
        turns += u64::from(g.turns());
        if seed == 0 {
            println!(
                "{:?}",
                g.outcome().map(|o| o
                    .seats
                    .iter()
                    .map(|s| (s.score, s.rank))
                    .collect::<Vec<_>>())
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games: {:.1} actions/game, {:.1} turns/game, {:.0} actions/s, {:.0} games/s",
        actions as f64 / games as f64,
        turns as f64 / games as f64,
        actions as f64 / secs,
        games as f64 / secs
    );
}
