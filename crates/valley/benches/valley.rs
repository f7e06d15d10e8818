//! Hot paths on mid-game 4-player base positions: `legal_actions`, `apply`, `clone`, and
//! whole random playouts. Run: `cargo bench -p valley`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::playout::{random_game, random_positions};
use engine::{Game, NoEvents};
use valley::{Action, Valley, ValleyConfig};

/// Positions after `depth` random actions, from 16 seeds.
fn mid_game_states(config: &ValleyConfig, depth: u64) -> Vec<Valley> {
    random_positions(config, 0..16, |_, applied| applied == depth)
}

fn benches(c: &mut Criterion) {
    let states = mid_game_states(&ValleyConfig::default(), 120);
    let mut group = c.benchmark_group("valley_4p_mid_game");
    group.throughput(Throughput::Elements(states.len() as u64));
    let mut buf: Vec<Action> = Vec::with_capacity(64);
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            for s in &states {
                buf.clear();
                s.legal_actions(&mut buf);
                black_box(buf.len());
            }
        })
    });
    // The same games with the pool named in the config (as clients send it): the config
    // then owns heap values, which a state clone must not copy.
    let named_pool = ValleyConfig {
        pool: Some("base".into()),
        ..ValleyConfig::default()
    };
    let named_states = mid_game_states(&named_pool, 120);
    for (name, positions) in [("clone", &states), ("clone_named_pool", &named_states)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for s in positions {
                    black_box(s.clone());
                }
            })
        });
    }
    let first_actions: Vec<Action> = states
        .iter()
        .map(|s| {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            legal[legal.len() / 2]
        })
        .collect();
    group.bench_function("clone_and_apply_unchecked", |b| {
        b.iter_batched_ref(
            || states.clone(),
            |copies| {
                for (s, a) in copies.iter_mut().zip(&first_actions) {
                    s.apply_unchecked(*a, &mut NoEvents);
                }
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = c.benchmark_group("valley_4p_playout");
    group.sample_size(20);
    group.bench_function("random_game", |b| {
        let mut seed = 0;
        let mut buf = Vec::with_capacity(64);
        b.iter(|| {
            seed += 1;
            black_box(random_game::<Valley>(
                &ValleyConfig::default(),
                seed,
                &mut buf,
            ))
        })
    });
    group.finish();
}

criterion_group!(valley_benches, benches);
criterion_main!(valley_benches);
