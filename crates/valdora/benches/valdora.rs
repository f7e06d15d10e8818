//! Hot paths on mid-game 4-player positions: `legal_actions`, `apply`, `clone`, and whole
//! random playouts. Run: `cargo bench -p valdora`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::playout::{random_game, random_positions};
use engine::{rng_from_seed, DynGame, ErasedGame, Game, NoEvents};
use valdora::{Action, Valdora, ValdoraConfig};

fn benches(c: &mut Criterion) {
    let config = ValdoraConfig::default();
    let states: Vec<Valdora> = random_positions(&config, 0..16, |_, applied| applied == 1500);
    let mut group = c.benchmark_group("valdora_4p_mid_game");
    group.throughput(Throughput::Elements(states.len() as u64));
    let mut buf: Vec<Action> = Vec::with_capacity(256);
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            for s in &states {
                buf.clear();
                s.legal_actions(&mut buf);
                black_box(buf.len());
            }
        })
    });
    group.bench_function("clone", |b| {
        b.iter(|| {
            for s in &states {
                black_box(s.clone());
            }
        })
    });
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
    group.bench_function("clone_and_apply_checked", |b| {
        b.iter_batched_ref(
            || states.clone(),
            |copies| {
                for (s, a) in copies.iter_mut().zip(&first_actions) {
                    s.apply(*a, &mut NoEvents).expect("legal");
                }
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = c.benchmark_group("valdora_4p_playout");
    group.sample_size(20);
    group.bench_function("random_game", |b| {
        let mut seed = 0;
        let mut buf = Vec::with_capacity(256);
        b.iter(|| {
            seed += 1;
            black_box(random_game::<Valdora>(&config, seed, &mut buf))
        })
    });
    group.finish();
}

/// What a learning environment does per step through the index fast path: the mover's
/// observation, the legal indices (the action mask), and one uniformly chosen index applied;
/// a finished game is replaced by the next seed's (the cost of that setup is included).
fn spaces(c: &mut Criterion) {
    let config = ValdoraConfig::default();
    let new_game = |seed| ErasedGame::<Valdora>::new(&config, seed).expect("default config");
    let mut game = new_game(0);
    let mut seed = 0;
    let mut observation = vec![0.0f32; game.observation_len().expect("valdora has spaces")];
    let mut legal = Vec::with_capacity(512);
    let mut rng = rng_from_seed(1);
    let mut group = c.benchmark_group("valdora_4p_spaces");
    group.throughput(Throughput::Elements(1));
    group.bench_function("observe_legal_indices_apply_index_step", |b| {
        b.iter(|| {
            let Some(seat) = game.to_move() else {
                seed += 1;
                game = new_game(seed);
                return;
            };
            game.observe_into(seat, &mut observation)
                .expect("right length");
            legal.clear();
            game.legal_indices(&mut legal).expect("valdora has spaces");
            let index = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
            game.apply_index(black_box(index)).expect("legal");
        })
    });
    group.finish();
}

criterion_group!(valdora_benches, benches, spaces);
criterion_main!(valdora_benches);
