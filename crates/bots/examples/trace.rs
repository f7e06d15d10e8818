//! Watch one bot (seat 0) against three others (random by default) in 4-player Valdora,
//! seed 11: `cargo run --release -p bots --example trace -- greedy 400 [random]` prints
//! its decisions with its evaluation before each, then the table.

use bots::BotSpec;
use engine::{Game, NoEvents};
use valdora::{Valdora, ValdoraConfig};

fn main() {
    let spec: BotSpec = std::env::args()
        .nth(1)
        .unwrap_or("greedy".into())
        .parse()
        .unwrap();
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(200);
    let mut g = Valdora::new(&ValdoraConfig::default(), 11).unwrap();
    let mut bot = spec.build::<Valdora>(1);
    let others: BotSpec = std::env::args()
        .nth(3)
        .unwrap_or("random".into())
        .parse()
        .unwrap();
    let mut rnd = others.build::<Valdora>(2);
    for _ in 0..n {
        let Some(seat) = g.to_move() else { break };
        let a = if seat == 0 {
            bot.choose(&g).unwrap()
        } else {
            rnd.choose(&g).unwrap()
        };
        if seat == 0 {
            println!(
                "t{} {:.1} {}",
                g.turns(),
                g.evaluate(0),
                g.describe_action(&a)
            );
        }
        g.apply(a, &mut NoEvents).unwrap();
    }
    println!("{}", g.render_view(Some(0)));
}
