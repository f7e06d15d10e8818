//! Random-playout statistics: game length, turns, spells cast, winners' scores.

use engine::{playout::random_action, rng_from_seed, Game, NoEvents};
use pandoria::{Pandoria, PandoriaConfig};

fn main() {
    let games = 200u64;
    let (mut actions, mut turns, mut score) = (0u64, 0u64, 0i64);
    for seed in 0..games {
        let mut g = Pandoria::new(&PandoriaConfig::default(), seed).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        while let Some(a) = random_action(&g, &mut rng, &mut buf) {
            g.apply_unchecked(a, &mut NoEvents);
            actions += 1;
        }
        turns += u64::from(g.turns());
        score += i64::from(
            g.outcome()
                .unwrap()
                .seats
                .iter()
                .map(|s| s.score)
                .max()
                .unwrap(),
        );
    }
    println!(
        "{games} random 4-player games: {:.1} actions, {:.1} turns, winner {:.1} points on average",
        actions as f64 / games as f64,
        turns as f64 / games as f64,
        score as f64 / games as f64
    );
}
