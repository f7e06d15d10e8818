//! The engines' speed work must not change a single game: `tabletop simulate` of fixed
//! seeds gives, for every game and player count, the summary recorded in
//! `tests/golden/simulate/` (every field but the run's timings and thread counts). A
//! change to a rule or to the shipped data changes these on purpose; then regenerate them
//! with the command the failure prints and say so in the commit.

mod common;

use std::path::PathBuf;

use common::simulate_json;
use serde_json::Value;

/// The fields that depend on the machine or the split, not on the games played.
const RUN_FIELDS: [&str; 5] = [
    "seconds",
    "games_per_s",
    "actions_per_s",
    "threads",
    "threads_requested",
];

fn golden_path(game: &str, players: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/simulate")
        .join(format!("{game}-{players}.json"))
}

fn check(game: &str, players: u64, games: u64) {
    let (p, n) = (players.to_string(), games.to_string());
    // `simulate_json` adds `--json`.
    let args = [
        game,
        "--players",
        &p,
        "--games",
        &n,
        "--seed",
        "1",
        "--threads",
        "2",
    ];
    let mut summary = simulate_json(&args);
    let object = summary.as_object_mut().expect("a JSON object");
    for field in RUN_FIELDS {
        object.remove(field);
    }
    let path = golden_path(game, players);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let golden: Value = serde_json::from_str(&text).expect("golden JSON");
    assert_eq!(
        summary,
        golden,
        "tabletop simulate {} no longer plays the recorded games ({}). If the rules or the \
         shipped data changed on purpose, write the new summary there without the fields \
         {RUN_FIELDS:?}.",
        args.join(" "),
        path.display()
    );
}

#[test]
fn valdora_plays_the_recorded_games() {
    for players in [3, 4, 5] {
        check("valdora", players, 200);
    }
}

#[test]
fn valley_plays_the_recorded_games() {
    for players in [2, 3, 4, 5] {
        check("valley", players, 1000);
    }
}

#[test]
fn pandoria_plays_the_recorded_games() {
    for players in [2, 3, 4] {
        check("pandoria", players, 1000);
    }
}
