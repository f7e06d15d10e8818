//! `tabletop` end to end with Valley of the Kings: the engine protocol (with a config),
//! record and replay, and simulate.

mod common;

use serde_json::json;

use common::{replay_json, simulate_json, tabletop, Engine};

#[test]
fn a_whole_valley_game_through_the_protocol_replays() {
    // Always the first legal action: the game still ends by its rules (K-G6).
    let mut engine = Engine::start();
    let created = engine.ask(
        json!({"cmd":"new","game":"valley","players":3,"seed":5,"config":{"pool":"last_rites"}}),
    );
    assert_eq!(created["game"], "valley", "{created}");
    let mut replies = 1;
    loop {
        let legal = engine.ask(json!({"cmd":"legal","id":1}));
        replies += 1;
        if legal["to_move"].is_null() {
            break;
        }
        let applied = engine.ask(json!({"cmd":"apply","id":1,"action":legal["actions"][0]}));
        replies += 1;
        assert!(applied.get("error").is_none(), "{applied}");
        assert!(replies < 200_000, "the game does not end");
    }
    let outcome = engine.ask(json!({"cmd":"outcome","id":1}))["outcome"].clone();
    let record = engine.ask(json!({"cmd":"record","id":1}))["record"].clone();
    engine.quit();
    assert!(replies + 2 > 100);
    assert_eq!(
        outcome["seats"].as_array().map(Vec::len),
        Some(3),
        "{outcome}"
    );
    assert_eq!(record["config"]["pool"], "last_rites");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("valley.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    assert_eq!(replay_json(&file)["outcome"], outcome);
}

#[test]
fn simulate_valley() {
    let s = simulate_json(&["valley", "--players", "4", "--games", "50"]);
    assert_eq!(s["games"], 50);
    // 5-6 players need a mixed pool; the default config gives them the premium mix.
    tabletop()
        .args(["simulate", "valley", "--players", "6", "--games", "5"])
        .assert()
        .success();
}
