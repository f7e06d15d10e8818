//! Hot paths of random 4-player games: tile-placement generation, placing a tile with
//! region closing, the map update alone, and whole random playouts.
//! Run: `cargo bench -p pandoria`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::playout::{random_game, random_positions};
use engine::{Game, NoEvents};
use pandoria::{Action, Pandoria, PandoriaConfig, Phase};

/// Positions at the start of a turn (placement phase) after `turns` random turns.
fn placement_states(turns: u32) -> Vec<Pandoria> {
    random_positions(&PandoriaConfig::default(), 0..16, |g: &Pandoria, _| {
        g.turns() >= turns && g.phase() == Phase::Place
    })
}

fn benches(c: &mut Criterion) {
    let states = placement_states(20);
    let mut group = c.benchmark_group("pandoria_4p_turn_20");
    group.throughput(Throughput::Elements(states.len() as u64));
    let mut buf: Vec<Action> = Vec::with_capacity(1024);
    group.bench_function("placement_generation", |b| {
        b.iter(|| {
            for s in &states {
                buf.clear();
                s.legal_actions(&mut buf);
                black_box(buf.len());
            }
        })
    });
    let tiles: Vec<Action> = states
        .iter()
        .map(|s| {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            legal[legal.len() / 3]
        })
        .collect();
    group.bench_function("clone", |b| {
        b.iter(|| {
            for s in &states {
                black_box(s.clone());
            }
        })
    });
    group.bench_function("clone_and_place_with_closing", |b| {
        b.iter_batched_ref(
            || states.clone(),
            |copies| {
                for (s, a) in copies.iter_mut().zip(&tiles) {
                    s.apply_unchecked(*a, &mut NoEvents);
                }
            },
            BatchSize::SmallInput,
        )
    });
    let rules = pandoria::Rules::standard();
    let maps: Vec<(pandoria::map::Map, u8, u8)> = states
        .iter()
        .zip(&tiles)
        .filter_map(|(s, a)| match *a {
            Action::PlaceTile { at, dir, .. } => Some((*s.map(), at, dir)),
            _ => None,
        })
        .collect();
    group.bench_function("map_place_double_and_close", |b| {
        let [h1, h2] = rules.double_tiles[0];
        b.iter_batched_ref(
            || maps.clone(),
            |copies| {
                for (m, at, dir) in copies.iter_mut() {
                    black_box(m.place_double(&rules.board, *at, *dir, h1, h2));
                }
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = c.benchmark_group("pandoria_4p_playout");
    group.sample_size(20);
    group.bench_function("random_game", |b| {
        let mut seed = 0;
        let mut buf = Vec::with_capacity(1024);
        b.iter(|| {
            seed += 1;
            black_box(random_game::<Pandoria>(
                &PandoriaConfig::default(),
                seed,
                &mut buf,
            ))
        })
    });
    group.finish();
}

criterion_group!(pandoria_benches, benches);
criterion_main!(pandoria_benches);
