//! The clients of the game server end to end: `tabletop play --server` and
//! `tabletop loadtest`, each against a real `tabletop serve` on a free port.

mod common;

use predicates::prelude::*;
use serde_json::Value;

use common::server::Server;
use common::{event_sentences, tabletop};

#[test]
fn loadtest_plays_random_games_and_reports_them() {
    let server = Server::with_sqlite();
    let pid = server.pid().to_string();
    let output = tabletop()
        .args([
            "loadtest",
            "--url",
            &server.base,
            "--games",
            "3",
            "--moves",
            "60",
        ])
        .args(["--seconds", "60", "--server-pid", &pid, "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report: Value = serde_json::from_slice(&output).expect("--json prints one JSON object");
    let moves = report["moves"].as_u64().expect("moves");
    assert!(moves > 0 && moves <= 60, "moves {moves} in {report}");
    assert_eq!(report["errors"], serde_json::json!({}), "{report}");
    assert_eq!(report["clients"], 12, "3 games of 4 seats: {report}");
    assert!(
        report["latency_ms"]["samples"].as_u64() > Some(0),
        "{report}"
    );
    assert!(report["latency_ms"]["p99"].as_f64() >= report["latency_ms"]["p50"].as_f64());
    assert!(
        report["update_bytes"]["max"].as_f64() > Some(0.0),
        "{report}"
    );
    assert!(
        report["state_bytes"]["samples"].as_u64() >= Some(12),
        "{report}"
    );
    assert!(
        report["server"]["cpu_seconds"].as_f64() >= Some(0.0),
        "{report}"
    );
    assert!(
        report["server"]["peak_rss_kib"].as_u64() > Some(0),
        "{report}"
    );
    for usage in [&report["server"], &report["load_generator"]] {
        let part = |name: &str| usage[name].as_f64().expect("a CPU time");
        assert!(
            (part("user_seconds") + part("system_seconds") - part("cpu_seconds")).abs() < 1e-9,
            "user and system make up the CPU time: {report}"
        );
        assert!(usage["micros_per_move"].as_f64() >= Some(0.0), "{report}");
    }
}

#[test]
fn loadtest_talks_only_to_this_machine() {
    tabletop()
        .args(["loadtest", "--url", "http://192.0.2.1:8080", "--games", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "only talks to a server on this machine",
        ));
    tabletop()
        .args([
            "loadtest",
            "--url",
            "http://127.0.0.1:1",
            "--games",
            "100000",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--games is 1 to"));
}

#[test]
fn play_on_a_server_through_a_pipe_then_come_back_to_the_seat() {
    let server = Server::with_sqlite();
    let output = tabletop()
        .args([
            "play",
            "valdora",
            "--players",
            "3",
            "--bots",
            "easy",
            "--seed",
            "5",
        ])
        .args(["--server", &server.base])
        .write_stdin("1\n".repeat(6))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("valdora, 3 players, game ")
                .and(predicate::str::contains("You are seat 0"))
                .and(predicate::str::contains("/api/games/"))
                .and(predicate::str::contains("    1) "))
                .and(predicate::str::contains("your choice (1-"))
                .and(predicate::str::contains("seat 0 (you): move to"))
                .and(predicate::str::contains("seat 1 (easy):"))
                .and(predicate::str::contains("End of input: leaving the game.")),
        )
        .get_output()
        .stdout
        .clone();
    let log = event_sentences(&output);
    assert!(log.iter().any(|line| line.contains(" moves from ")));

    // The invitation line names the game and the seat's token: play on from there.
    let text = String::from_utf8(output).expect("UTF-8");
    let again = text
        .lines()
        .find_map(|l| l.strip_prefix("Come back to your seat with: tabletop play valdora "))
        .expect("the come-back line");
    let words: Vec<&str> = again.split_whitespace().collect();
    let value_of = |flag: &str| {
        let i = words.iter().position(|w| *w == flag).expect(flag);
        words[i + 1].to_string()
    };
    let (id, token) = (value_of("--game-id"), value_of("--token"));
    tabletop()
        .args(["play", "valdora", "--server", &server.base])
        .args(["--game-id", &id, "--token", &token])
        .write_stdin("1\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains(format!("game {id} on "))
                .and(predicate::str::contains("    1) "))
                .and(predicate::str::contains("seat 0 (you): "))
                .and(predicate::str::contains("End of input: leaving the game.")),
        );
    // A token that is not the game's: the server's refusal is shown.
    tabletop()
        .args(["play", "valdora", "--server", &server.base])
        .args(["--game-id", &id, "--token", "not-a-token"])
        .write_stdin("1\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad_token"));
    // A game of another kind than the one named.
    tabletop()
        .args(["play", "valley", "--server", &server.base])
        .args(["--game-id", &id, "--token", &token])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a game of valdora"));
}

#[test]
fn play_on_a_server_shows_the_server_refusal() {
    let server = Server::with_sqlite();
    tabletop()
        .args([
            "play",
            "valdora",
            "--bots",
            "grandmaster",
            "--server",
            &server.base,
        ])
        .write_stdin("1\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("malformed"));
    tabletop()
        .args(["play", "valdora", "--server", "http://127.0.0.1:1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot reach the server"));
}
