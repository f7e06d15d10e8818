//! A decision ends at its stop with a legal move, whatever the bot's budget: the stop is
//! checked inside the search (every iteration, rollout step and searched position).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bots::{BotSpec, Stop};
use engine::playout::random_playout;
use engine::{rng_from_seed, Game};
use pandoria::{Pandoria, PandoriaConfig};
use valdora::{Valdora, ValdoraConfig};
use valley::{Valley, ValleyConfig};

/// Specs whose budgets, unstopped, take from a fraction of a second to hours.
const SPECS: [&str; 8] = [
    "greedy",
    "greedy:nodes=4000000000:spread=depth",
    "ismcts",
    "ismcts:step=action:rollout=full:iters=5000",
    "ismcts:iters=1:rollout=greedy:turns=4294967295:nodes=4000000000",
    "rollout",
    "rollout:samples=1000000:turns=4294967295:nodes=4000000000",
    "rollout:samples=1000000:candidates=64:prune=3:fill=yes",
];

/// Positions of `G` where a seat is to move and has a choice: the start and a few random
/// plays in.
fn positions<G: Game>(config: &G::Config) -> Vec<G> {
    let mut out = Vec::new();
    for (seed, depth) in [(1u64, 0u64), (2, 30), (3, 200)] {
        let mut game = G::new(config, seed).expect("a valid config");
        random_playout(&mut game, &mut rng_from_seed(seed), &mut Vec::new(), depth);
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        if game.to_move().is_some() && legal.len() > 1 {
            out.push(game);
        }
    }
    assert!(!out.is_empty(), "no position with a choice");
    out
}

/// Every spec, stopped by `stop`, answers with one of the position's legal actions.
fn stopped_bots_move<G: Game>(config: &G::Config, stop: impl Fn() -> Stop) {
    for position in positions::<G>(config) {
        let mut legal = Vec::new();
        position.legal_actions(&mut legal);
        for text in SPECS {
            let spec: BotSpec = text.parse().expect("a valid spec");
            let action = spec.build::<G>(7).decide(&position, &stop());
            let action = action.unwrap_or_else(|| panic!("{text}: no move"));
            assert!(legal.contains(&action), "{text}: {action:?} is not legal");
        }
    }
}

fn passed() -> Stop {
    Stop::at(Instant::now())
}

#[test]
fn a_passed_deadline_still_gives_a_legal_move_in_valdora() {
    stopped_bots_move::<Valdora>(&ValdoraConfig::default(), passed);
}

#[test]
fn a_passed_deadline_still_gives_a_legal_move_in_valley() {
    stopped_bots_move::<Valley>(&ValleyConfig::default(), passed);
}

#[test]
fn a_passed_deadline_still_gives_a_legal_move_in_pandoria() {
    stopped_bots_move::<Pandoria>(&PandoriaConfig::default(), passed);
}

#[test]
fn a_raised_flag_stops_a_pathological_search() {
    // Raised before the search: a server shutting down.
    let raised = || Stop::never().or_flag(Arc::new(AtomicBool::new(true)));
    stopped_bots_move::<Valdora>(&ValdoraConfig::default(), raised);
}

#[test]
fn a_short_deadline_ends_a_pathological_search_with_a_legal_move() {
    // Unstopped, these run for hours; the deadline falls mid-search.
    let soon = || Stop::at(Instant::now() + Duration::from_millis(50));
    stopped_bots_move::<Valdora>(&ValdoraConfig::default(), soon);
    stopped_bots_move::<Pandoria>(&PandoriaConfig::default(), soon);
}

#[test]
fn with_no_stop_reached_a_decision_is_the_unstopped_one() {
    let later = || Stop::at(Instant::now() + Duration::from_secs(3600));
    for position in positions::<Valdora>(&ValdoraConfig::default()) {
        for text in [
            "greedy",
            "ismcts:iters=200",
            "ismcts:step=action:iters=300:rollout=20",
            "rollout:samples=20:nodes=300",
            "rollout:samples=20:nodes=300:prune=1.5:fill=yes",
        ] {
            let spec: BotSpec = text.parse().expect("a valid spec");
            let unstopped = spec.build::<Valdora>(5).choose(&position);
            let within = spec.build::<Valdora>(5).decide(&position, &later());
            assert_eq!(unstopped, within, "{text}");
        }
    }
}
