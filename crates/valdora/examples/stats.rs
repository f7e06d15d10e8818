use engine::{playout::random_playout, rng_from_seed, Game};
use valdora::{Valdora, ValdoraConfig};
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut buf = Vec::new();
    let (mut acts, mut turns, mut trunc, mut maxt) = (0u64, 0u64, 0u64, 0u32);
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut g = Valdora::new(
            &ValdoraConfig {
                players: 4,
                ..Default::default()
            },
            seed,
        )
        .unwrap();
        let mut rng = rng_from_seed(seed);
        acts += random_playout(&mut g, &mut rng, &mut buf, u64::MAX);
        turns += g.turns() as u64;
        maxt = maxt.max(g.turns());
        if g.outcome().unwrap().truncated {
            trunc += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("games {n} actions/game {:.0} turns/game {:.0} max turns {maxt} truncated {trunc} actions/s {:.0} games/s {:.0}", acts as f64 / n as f64, turns as f64 / n as f64, acts as f64 / s, n as f64 / s);
}
