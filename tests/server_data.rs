//! Corrected component data on a running server: records replayed with their data file
//! over and over leave the server's memory where it was (each text parsed once while in
//! use, freed after; nothing kept per request).

mod common;

use std::time::Duration;

use common::server::Server;
use serde_json::{json, Value};

/// The server's resident memory, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("process status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}

/// The record of a short finished bot game of Valdora on the shipped data.
async fn finished_record(server: &Server) -> Value {
    let bots: Vec<Value> = (0..3)
        .map(|_| json!({"kind": "bot", "bot": "random"}))
        .collect();
    let (id, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": bots}))
        .await;
    server.wait_over(&id, Duration::from_secs(60)).await;
    let (status, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    record
}

/// Replays `record` on copy `copy` of `data` (a distinct text each: a comment names the
/// copy), checking the answer.
async fn replay_copy(server: &Server, record: &Value, data: &str, copy: usize) {
    let mut record = record.clone();
    record["data_toml"] = json!(format!("# copy {copy}\n{data}"));
    let (status, replay) = server.post("/api/replay", &json!({"record": record})).await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(
        replay["view"]["provisional_data"], false,
        "played on the copy"
    );
}

#[tokio::test]
async fn replays_with_corrected_data_leave_memory_where_it_was() {
    let shipped = std::fs::read_to_string("data/valdora.toml").expect("shipped data");
    // Only the confidence marks change: the game plays alike, and the view says so.
    let corrected = shipped
        .replace(r#"= "inferred""#, r#"= "confirmed""#)
        .replace(r#"= "unknown""#, r#"= "confirmed""#);
    assert_ne!(corrected, shipped);
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start_with(
        &format!("sqlite://{}", dir.path().join("data.db").display()),
        &[
            "--bot-pace-ms",
            "0",
            "--bot-game-turn-cap",
            "3",
            "--post-limit",
            "0",
        ],
    );
    let record = finished_record(&server).await;
    // Warm-up: the allocator's and the runtime's own growth happen here.
    for copy in 0..300 {
        replay_copy(&server, &record, &corrected, copy).await;
    }
    let warm = resident_kib(server.pid());
    // Each parse of the data is about 11 KB: 1,500 kept parses would be 16 MB.
    for copy in 300..1_800 {
        replay_copy(&server, &record, &corrected, copy).await;
    }
    let after = resident_kib(server.pid());
    let growth = after.saturating_sub(warm);
    assert!(
        growth < 4 * 1024,
        "resident memory grew by {growth} KiB over 1,500 replays ({warm} → {after} KiB)"
    );
}

/// The tables a board draws from (`Game::components`), served for the data each game plays
/// on: the kinds' for new games (here a corrected Valley file, the shipped Pandoria data), a
/// table's own, a replay's for its record's data; none for Valdora, whose views carry all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn component_tables_are_served_for_the_data_each_game_plays_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::fs::read_to_string("data/valley.toml").expect("shipped data");
    // Boat's cost read off a card (the client's corrected tables are of the same file).
    let corrected = shipped.replacen("name = \"Boat\"\n", "name = \"Boat\"\ncost = 9\n", 1);
    assert_ne!(corrected, shipped);
    let file = dir.path().join("valley.toml");
    std::fs::write(&file, &corrected).expect("write the data");
    let db = format!("sqlite://{}", dir.path().join("tables.db").display());
    let flag = format!("valley={}", file.display());
    let server = Server::start_with(&db, &["--bot-pace-ms", "0", "--data", &flag]);
    let boat_cost = |tables: &Value| {
        let cards = tables["cards"].as_array().expect("cards");
        let boat = cards.iter().find(|c| c["key"] == "boat").expect("Boat");
        boat["cost"].clone()
    };
    let built_in = |game: &str| -> Value {
        let text = std::fs::read_to_string(format!("web/src/generated/tables/{game}.json"))
            .expect("the client's built-in tables");
        serde_json::from_str(&text).expect("json")
    };

    let (status, valley) = server.get("/api/games/kinds/valley/data").await;
    assert_eq!((status, boat_cost(&valley)), (200, json!(9)), "{valley}");
    assert_eq!(valley, built_in("valley-corrected"));
    let (status, pandoria) = server.get("/api/games/kinds/pandoria/data").await;
    assert_eq!((status, &pandoria), (200, &built_in("pandoria")));
    for (game, want) in [
        ("valdora", (404, "not_found")),
        ("nope", (400, "malformed")),
    ] {
        let (status, body) = server.get(&format!("/api/games/kinds/{game}/data")).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (want.0, Some(want.1)),
            "{body}"
        );
    }

    let seats = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| json!({"kind": "bot", "bot": "random"}))
            .collect()
    };
    let (valley_game, _) = server
        .create(json!({"game": "valley", "config": {"players": 2}, "seats": seats(2)}))
        .await;
    let (status, tables) = server
        .get(&format!("/api/games/{valley_game}/components"))
        .await;
    assert_eq!((status, &tables), (200, &valley), "a table's own data");
    let (valdora_game, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": seats(3)}))
        .await;
    for id in [valdora_game.as_str(), "no-such-game"] {
        let (status, body) = server.get(&format!("/api/games/{id}/components")).await;
        assert_eq!(
            (status, &body["kind"]),
            (404, &json!("not_found")),
            "{body}"
        );
    }

    let record = |data: Option<&str>| {
        let mut record =
            json!({"game": "valley", "config": {"players": 2}, "seed": 7, "actions": []});
        if let Some(data) = data {
            record["data_toml"] = json!(data);
        }
        json!({"record": record, "seat": null})
    };
    let (status, replay) = server.post("/api/replay", &record(Some(&corrected))).await;
    assert_eq!((status, boat_cost(&replay["components"])), (200, json!(9)));
    let (status, replay) = server.post("/api/replay", &record(None)).await;
    assert_eq!(status, 200, "{replay}");
    assert!(
        replay.get("components").is_none(),
        "the shipped data's are built in"
    );
}
