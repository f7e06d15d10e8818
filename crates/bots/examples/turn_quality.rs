//! How well greedy plays one turn, by how its turn search spends its positions: from
//! turn-start positions of 4-player Valdora games between greedy bots (every 7th turn of
//! seeds 1000..1003), each configuration plays the seat's whole turn, and the position it
//! ends in is judged as greedy judges it: the seat's evaluation minus the best other
//! seat's. Run: `cargo run --release -p bots --example turn_quality`
//! A measurement, not a test: the times depend on the machine's load.

use std::time::Instant;

use bots::{position_value, BotSpec, Evaluation};
use engine::{Game, NoEvents, Seat};
use valdora::{Valdora, ValdoraConfig};

/// Positions in the seat's turn from `state` (each reached by an action of the seat to
/// move), counted depth first up to `cap`.
fn turn_size(state: &Valdora, seat: Seat, cap: u64, count: &mut u64) {
    if state.to_move() != Some(seat) {
        return;
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    for action in legal {
        if *count >= cap {
            return;
        }
        *count += 1;
        let mut next = state.clone();
        next.apply_unchecked(action, &mut NoEvents);
        turn_size(&next, seat, cap, count);
    }
}

fn main() {
    let greedy: BotSpec = "greedy".parse().expect("valid");
    let mut positions = Vec::new();
    for seed in 1000..1003 {
        let mut game = Valdora::new(&ValdoraConfig::default(), seed).expect("valid");
        let mut bots: Vec<_> = (0..4).map(|s| greedy.build::<Valdora>(seed + s)).collect();
        let mut last = None;
        while let Some(seat) = game.to_move() {
            if last != Some(seat) && game.turns() % 7 == 0 {
                positions.push(game.clone());
            }
            last = Some(seat);
            let action = bots[usize::from(seat)].choose(&game).expect("not over");
            game.apply(action, &mut NoEvents).expect("legal");
        }
    }
    println!("{} turn-start positions", positions.len());
    const CAP: u64 = 200_000;
    let mut sizes: Vec<u64> = positions
        .iter()
        .map(|p| {
            let mut count = 0;
            turn_size(p, p.to_move().expect("not over"), CAP, &mut count);
            count
        })
        .collect();
    sizes.sort_unstable();
    println!(
        "positions in a turn (counted up to {CAP}): median {}, 90th percentile {}, at the cap {}",
        sizes[sizes.len() / 2],
        sizes[sizes.len() * 9 / 10],
        sizes.iter().filter(|&&n| n >= CAP).count()
    );
    println!("{:<50}  mean value  vs depth 20000  ms/turn", "bot");
    let mut baseline = None;
    for spec in [
        "greedy:spread=depth:nodes=20000",
        "greedy:spread=depth:nodes=2000",
        "greedy:spread=depth:nodes=200000",
        "greedy:spread=even:nodes=500",
        "greedy:spread=even:nodes=2000",
        "greedy:spread=even:nodes=20000",
        "greedy:spread=even:nodes=100000",
    ] {
        let spec: BotSpec = spec.parse().expect("valid");
        let mut bot = spec.build::<Valdora>(1);
        let start = Instant::now();
        let mut total = 0.0;
        for position in &positions {
            let mut game = position.clone();
            let seat = game.to_move().expect("not over");
            while game.to_move() == Some(seat) {
                let action = bot.choose(&game).expect("not over");
                game.apply(action, &mut NoEvents).expect("legal");
            }
            total += position_value(&game, seat, Evaluation::Heuristic);
        }
        let mean = total / positions.len() as f64;
        let base = *baseline.get_or_insert(mean);
        println!(
            "{:<50}  {mean:>10.2}  {:>+14.2}  {:>7.2}",
            spec.to_string(),
            mean - base,
            start.elapsed().as_secs_f64() * 1000.0 / positions.len() as f64
        );
    }
}
