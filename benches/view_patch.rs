//! The server's work per watching seat after a move: the seat's new view and its patch
//! from the view sent before. `whole_values` is how the server did it first (the view as a
//! `serde_json::Value`, `json_patch::diff` of the whole views); `records` is how it does it
//! now (`DynGame::observe`: the views of all the watchers at once with their records,
//! public members recorded once; one `server::patch::ViewPatcher` per move, which writes
//! and diffs only the parts whose records changed, and works out each change once for
//! every view that has it). Positions: consecutive views of every seat and the spectator
//! along one random 4-player game of each game.
//! Run: `cargo bench --bench view_patch`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::{DynGame, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

/// Every position of one random game (at most `moves` of them).
fn positions(game: &str, moves: usize) -> Vec<Box<dyn DynGame>> {
    let catalog = tabletop::games::catalog();
    let kind = catalog.get(game).expect("a game of the catalog");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut game = kind
        .begin(server::Setup {
            config: &json!({"players": 4}),
            seed: 7,
            data: None,
        })
        .expect("a 4-player game starts");
    let mut out = vec![game.box_clone()];
    while game.to_move().is_some() && out.len() < moves {
        let legal = game.legal_actions_json();
        let action = &legal[rng.gen_range(0..legal.len())].action;
        game.apply_json(action).expect("a legal action applies");
        out.push(game.box_clone());
    }
    out
}

/// `view` of every slot in every position but the last.
fn sent_views<T>(
    games: &[Box<dyn DynGame>],
    slots: &[Option<Seat>],
    view: impl Fn(&dyn DynGame, Option<Seat>) -> Result<T, engine::GameError>,
) -> Vec<Vec<T>> {
    games[..games.len() - 1]
        .iter()
        .map(|g| {
            slots
                .iter()
                .map(|&s| view(g.as_ref(), s).expect("a view"))
                .collect()
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    for name in ["valdora", "valley", "pandoria"] {
        let games = positions(name, 200);
        let slots: Vec<Option<Seat>> = (0..4).map(Some).chain([None]).collect();
        let mut group = c.benchmark_group(format!("view_patch_{name}"));
        group.throughput(Throughput::Elements(
            ((games.len() - 1) * slots.len()) as u64,
        ));
        // The views sent before each move, kept as the server keeps them.
        let sent_values = sent_views(&games, &slots, |g, s| g.view_json(s));
        let sent_observed: Vec<_> = games[..games.len() - 1]
            .iter()
            .map(|g| g.observe(&slots, None).expect("the views"))
            .collect();
        group.bench_function("whole_values", |b| {
            b.iter(|| {
                for (game, sent) in games[1..].iter().zip(&sent_values) {
                    for (&seat, sent) in slots.iter().zip(sent) {
                        let view = game.view_json(seat).expect("a view");
                        black_box(json_patch::diff(sent, &view));
                    }
                }
            })
        });
        group.bench_function("records", |b| {
            b.iter(|| {
                for ((game, before), sent) in games[1..].iter().zip(&games).zip(&sent_observed) {
                    let before = sent.public.as_ref().map(|p| (before.as_ref(), p));
                    let views = game.observe(&slots, before).expect("the views").views;
                    let mut patcher = server::patch::ViewPatcher::default();
                    for (sent, view) in sent.views.iter().zip(&views) {
                        black_box(patcher.patch(sent.as_ref(), view.as_ref()));
                    }
                }
            })
        });
        group.finish();
    }
}

criterion_group!(view_patch, benches);
criterion_main!(view_patch);
