//! The server's per-move views and patches, as `hub::prepare_update` makes them: every
//! watcher's view built at once (`DynGame::observe`, public members recorded once, those a
//! move left alike taken from the position before) is that watcher's own view, recorded as
//! it would be on its own, and the patches
//! (`server::patch::ViewPatcher`, one per move for every seat and the spectator), applied
//! to each previous view, give exactly the new one; along random games of every game of
//! the catalog.

use engine::{DynGame, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

fn check_game(name: &str, seed: u64) {
    let catalog = tabletop::games::catalog();
    let kind = catalog.get(name).expect("a game of the catalog");
    let mut game: Box<dyn DynGame> = kind
        .begin(server::Setup {
            config: &json!({}),
            seed,
            data: None,
        })
        .expect("the game starts");
    let slots: Vec<Option<Seat>> = (0..game.seats() as Seat).map(Some).chain([None]).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = game.observe(&slots, None).expect("the views");
    let (mut sent, mut public) = (first.views, first.public);
    let mut values: Vec<Value> = slots
        .iter()
        .map(|&s| game.view_json(s).expect("a view"))
        .collect();
    let mut moves = 0;
    while game.to_move().is_some() && moves < 3_000 {
        let legal = game.legal_actions_json();
        let action = &legal[rng.gen_range(0..legal.len())].action;
        let before = game.box_clone();
        game.apply_json(action).expect("a legal action applies");
        moves += 1;
        let observed = game
            .observe(&slots, public.as_ref().map(|p| (before.as_ref(), p)))
            .expect("the views");
        let views = observed.views;
        public = observed.public;
        for (view, &seat) in views.iter().zip(&slots) {
            let own = game.observe(&[seat], None).expect("a view").views;
            assert_eq!(
                view.print(),
                own[0].print(),
                "{name} seed {seed} move {moves}: the views recorded together differ from {seat:?}'s own"
            );
        }
        let mut patcher = server::patch::ViewPatcher::default();
        for (i, &seat) in slots.iter().enumerate() {
            let patch = patcher.patch(sent[i].as_ref(), views[i].as_ref());
            json_patch::patch(&mut values[i], &patch).expect("the patch applies");
            assert_eq!(
                values[i],
                game.view_json(seat).expect("a view"),
                "{name} seed {seed} move {moves}: the patched view of {seat:?} is not its view"
            );
        }
        drop(patcher);
        sent = views;
    }
}

#[test]
fn patched_views_are_the_views_in_every_game() {
    for name in tabletop::games::names() {
        for seed in 0..3 {
            check_game(name, seed);
        }
    }
}
