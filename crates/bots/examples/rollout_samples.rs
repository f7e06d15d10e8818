//! How much a search spec does in one decision: over the decisions of seat 0 in 4-player
//! games of four `greedy` bots (seeds 1000..), the spec (default `hard`) searches each
//! position as a hint would, and the distribution of its samples (or iterations),
//! candidates, milliseconds and legal actions is printed per game. Run:
//! `cargo run --release -p bots --example rollout_samples -- [SPEC] [GAMES]`
//! A measurement, not a test: the times, and with them the samples, depend on the load.

use bots::{hint, BotSpec, Stop, MAX_TOP};
use engine::{Game, NoEvents};
use pandoria::Pandoria;
use valdora::Valdora;
use valley::Valley;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn measure<G: Game>(spec: &str, games: u64) {
    let search = match spec.parse::<BotSpec>().expect("a valid spec") {
        BotSpec::Level(level) => level.bot_for(G::NAME),
        other => other,
    };
    let greedy: BotSpec = "greedy".parse().expect("valid");
    let (mut samples, mut candidates, mut millis) = (Vec::new(), Vec::new(), Vec::new());
    let (mut legal, mut actions) = (Vec::new(), Vec::new());
    for seed in 1000..1000 + games {
        let mut game = G::new(&G::Config::default(), seed).expect("valid");
        let mut bots: Vec<_> = (0..game.seats() as u64)
            .map(|s| greedy.build::<G>(seed * 10 + s))
            .collect();
        while let Some(seat) = game.to_move() {
            if seat == 0 {
                let answer =
                    hint(&game, 0, search, seed, &Stop::never(), MAX_TOP).expect("to move");
                actions.clear();
                game.legal_actions(&mut actions);
                legal.push(actions.len() as f64);
                samples.push(answer.search.iterations as f64);
                candidates.push(answer.actions.len() as f64);
                millis.push(answer.search.seconds * 1000.0);
            }
            let action = bots[usize::from(seat)].choose(&game).expect("not over");
            game.apply(action, &mut NoEvents).expect("legal");
        }
    }
    for v in [&mut samples, &mut candidates, &mut millis, &mut legal] {
        v.sort_by(f64::total_cmp);
    }
    let line = |name: &str, v: &[f64]| {
        println!(
            "  {name:<11} p10 {:>8.1}  median {:>8.1}  p90 {:>8.1}  mean {:>8.1}",
            percentile(v, 0.1),
            percentile(v, 0.5),
            percentile(v, 0.9),
            v.iter().sum::<f64>() / v.len().max(1) as f64
        )
    };
    println!(
        "{} ({} decisions of seat 0): {search}",
        G::NAME,
        samples.len()
    );
    line("samples", &samples);
    line("candidates", &candidates);
    line("ms", &millis);
    line("legal", &legal);
}

fn main() {
    let spec = std::env::args().nth(1).unwrap_or("hard".into());
    let games = std::env::args()
        .nth(2)
        .map(|s| s.parse().expect("a number of games"))
        .unwrap_or(2);
    measure::<Valdora>(&spec, games);
    measure::<Valley>(&spec, games);
    measure::<Pandoria>(&spec, games);
}
