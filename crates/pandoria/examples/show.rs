//! Shows a position as text: `cargo run -p pandoria --example show -- [SEED] [ACTIONS]`
//! plays ACTIONS uniformly random actions of a 4-player game from SEED (default: to the
//! end), printing each action, then the map and the players.

use engine::{playout::random_action, rng_from_seed, Game, NoEvents};
use pandoria::{Pandoria, PandoriaConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let limit: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let mut g = match Pandoria::new(&PandoriaConfig::default(), seed) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut n = 0;
    while n < limit {
        let Some(a) = random_action(&g, &mut rng, &mut buf) else {
            break;
        };
        println!(
            "{:>4} seat {}: {}",
            n + 1,
            g.current(),
            g.describe_action(&a)
        );
        g.apply_unchecked(a, &mut NoEvents);
        n += 1;
    }
    print!("{}", g.render());
    if let Some(o) = g.outcome() {
        for s in &o.seats {
            println!("seat {}: {} points, rank {}", s.seat, s.score, s.rank);
        }
    }
}
