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
