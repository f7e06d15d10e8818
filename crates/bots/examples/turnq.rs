use bots::BotSpec;
use engine::{Game, NoEvents};
use valdora::{Valdora, ValdoraConfig};

fn value(g: &Valdora, seat: u8) -> f64 {
    let mine = g.evaluate(seat);
    let o = (0..g.seats() as u8)
        .filter(|&s| s != seat)
        .map(|s| g.evaluate(s))
        .fold(f64::NEG_INFINITY, f64::max);
    mine - o
}
fn dfs(g: &Valdora, seat: u8, nodes: &mut u64, cap: u64) -> f64 {
    if g.to_move() != Some(seat) || *nodes >= cap {
        return value(g, seat);
    }
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut best = f64::NEG_INFINITY;
    for a in legal {
        *nodes += 1;
        let mut n = g.clone();
        n.apply_unchecked(a, &mut NoEvents);
        best = best.max(dfs(&n, seat, nodes, cap));
    }
    best
}
fn split(g: &Valdora, seat: u8, budget: u64, used: &mut u64) -> f64 {
    if g.to_move() != Some(seat) {
        return value(g, seat);
    }
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let n = legal.len() as u64;
    if budget < n {
        return value(g, seat);
    }
    let rest = budget - n;
    let mut best = f64::NEG_INFINITY;
    for (i, a) in legal.into_iter().enumerate() {
        *used += 1;
        let b = rest / n + u64::from((i as u64) < rest % n);
        let mut c = g.clone();
        c.apply_unchecked(a, &mut NoEvents);
        best = best.max(split(&c, seat, b, used));
    }
    best
}
// iterative deepening-ish: ply-greedy descent
fn plygreedy(g: &Valdora, seat: u8, used: &mut u64) -> f64 {
    let mut g = g.clone();
    while g.to_move() == Some(seat) {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let mut best = (f64::NEG_INFINITY, legal[0]);
        for a in legal {
            *used += 1;
            let mut c = g.clone();
            c.apply_unchecked(a, &mut NoEvents);
            let v = value(&c, seat);
            if v > best.0 {
                best = (v, a);
            }
        }
        g.apply_unchecked(best.1, &mut NoEvents);
    }
    value(&g, seat)
}

fn main() {
    let spec: BotSpec = "greedy".parse().unwrap();
    let mut bots: Vec<_> = (0..4).map(|i| spec.build::<Valdora>(i)).collect();
    let mut positions = Vec::new();
    for seed in 1000..1003 {
        let mut g = Valdora::new(&ValdoraConfig::default(), seed).unwrap();
        let mut last = None;
        while let Some(seat) = g.to_move() {
            if last != Some(seat) && g.turns() % 7 == 0 {
                positions.push(g.clone());
            }
            last = Some(seat);
            let a = bots[seat as usize].choose(&g).unwrap();
            g.apply(a, &mut NoEvents).unwrap();
        }
    }
    println!("{} positions", positions.len());
    let methods: Vec<(&str, Box<dyn Fn(&Valdora, u8, &mut u64) -> f64>)> = vec![
        ("dfs20k", Box::new(|g, s, u| dfs(g, s, u, 20_000))),
        ("dfs2k", Box::new(|g, s, u| dfs(g, s, u, 2_000))),
        ("dfs500", Box::new(|g, s, u| dfs(g, s, u, 500))),
        ("split20k", Box::new(|g, s, u| split(g, s, 20_000, u))),
        ("split2k", Box::new(|g, s, u| split(g, s, 2_000, u))),
        ("split500", Box::new(|g, s, u| split(g, s, 500, u))),
        ("split200", Box::new(|g, s, u| split(g, s, 200, u))),
        ("ply", Box::new(|g, s, u| plygreedy(g, s, u))),
    ];
    let base: Vec<f64> = positions
        .iter()
        .map(|g| {
            let mut u = 0;
            dfs(g, g.to_move().unwrap(), &mut u, 200_000)
        })
        .collect();
    for (name, f) in &methods {
        let mut loss = 0.0;
        let mut used = 0;
        let mut worse = 0;
        let t = std::time::Instant::now();
        for (g, b) in positions.iter().zip(&base) {
            let seat = g.to_move().unwrap();
            let mut cur = g.clone();
            while cur.to_move() == Some(seat) {
                let mut legal = Vec::new();
                cur.legal_actions(&mut legal);
                let mut best = (f64::NEG_INFINITY, legal[0]);
                let mut u = 0;
                for a in legal {
                    let mut c = cur.clone();
                    c.apply_unchecked(a, &mut NoEvents);
                    let v = f(&c, seat, &mut u);
                    if v > best.0 {
                        best = (v, a);
                    }
                }
                used += u;
                cur.apply_unchecked(best.1, &mut NoEvents);
            }
            let v = value(&cur, seat);
            loss += b - v;
            if b - v > 0.5 {
                worse += 1;
            }
        }
        println!(
            "{name:10} mean loss {:.3} worse {worse} nodes/pos {} us/pos {}",
            loss / positions.len() as f64,
            used / positions.len() as u64,
            t.elapsed().as_micros() / positions.len() as u128
        );
    }
}
