//! CLI hygiene (issue 13, section 3): the binary end to end on the inputs a careless user
//! or a hostile client gives it.

mod common;

use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;
use serde_json::Value;

use common::{simulate_json, tabletop, BIN};

#[test]
fn top_level_help_names_every_command_that_exists() {
    let out = tabletop().arg("--help").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let about = text.lines().next().unwrap_or_default();
    for command in ["serve", "simulate", "engine", "replay", "arena", "play"] {
        assert!(about.contains(command), "about line: {about}");
        // And each one really exists.
        tabletop().args([command, "--help"]).assert().success();
    }
}

#[test]
fn a_closed_stderr_keeps_exit_code_2() {
    let mut child = StdCommand::new(BIN)
        .args(["simulate", "chess"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabletop");
    // Close the reading end at once: the error line meets a broken pipe.
    drop(child.stderr.take());
    let status = child.wait().expect("tabletop exits");
    assert_eq!(status.code(), Some(2));
}

#[test]
fn engine_without_data_files_refuses_every_path() {
    let mut child = StdCommand::new(BIN)
        .args(["engine", "--no-data-files"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tabletop engine");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        r#"{{"cmd":"new","game":"valdora","data":"data/valdora.toml"}}"#
    )
    .expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("engine exits");
    let reply: Value = serde_json::from_slice(&out.stdout).expect("one JSON reply");
    assert_eq!(reply["error"]["kind"], "data_refused", "{reply}");
}

#[test]
fn engine_answers_an_overlong_line_and_goes_on() {
    let mut input = "x".repeat(70_000);
    input.push('\n');
    input.push_str("\u{feff}{\"cmd\":\"games\"}\n");
    let out = tabletop()
        .arg("engine")
        .write_stdin(input)
        .assert()
        .success();
    let replies: Vec<Value> = String::from_utf8_lossy(&out.get_output().stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0]["error"]["kind"], "too_long");
    assert!(replies[1]["games"].is_array(), "a BOM is accepted");
}

#[test]
fn simulate_says_no_scored_games_instead_of_empty_statistics() {
    tabletop()
        .args(["simulate", "valdora", "--games", "3", "--turn-cap", "1"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("no scored games").and(predicate::str::contains("NaN").not()),
        );
    let s = simulate_json(&["valdora", "--games", "3", "--turn-cap", "1"]);
    assert_eq!(s["scored_games"], 0);
    assert_eq!(s["wins_by_seat"], Value::Null, "no row of zeros: {s}");
}

#[test]
fn arena_says_no_scored_games_instead_of_nan_and_draws_no_empty_chart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("chart.svg");
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "2",
            "--turn-cap",
            "1",
            "--svg",
        ])
        .arg(&svg)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("no scored games").and(predicate::str::contains("NaN").not()),
        )
        .stderr(predicate::str::contains("no chart was written"));
    assert!(!svg.exists(), "no empty chart");
    let out = tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "2",
            "--turn-cap",
            "1",
            "--json",
        ])
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    for row in report["bots"].as_array().expect("rows") {
        assert_eq!(row["win_rate"], Value::Null, "{row}");
        assert_eq!(row["mean_score"], Value::Null, "{row}");
    }
}

#[test]
fn the_arena_chart_has_one_category_per_bot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("chart.svg");
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--svg",
        ])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).expect("chart written");
    // The bars (the only rectangles in the bar colour) and the horizontal mesh lines.
    let number = |tag: &str, attr: &str| -> f64 {
        let start = tag.find(&format!(" {attr}=\"")).expect("attribute") + attr.len() + 3;
        let end = start + tag[start..].find('"').expect("quoted");
        tag[start..end].parse().expect("a number")
    };
    let bars_right = text
        .split('<')
        .filter(|t| t.starts_with("rect") && t.contains("#466EAA"))
        .map(|t| number(t, "x") + number(t, "width"))
        .fold(f64::MIN, f64::max);
    let plot_right = text
        .split('<')
        .filter(|t| t.starts_with("line") && t.contains("opacity=\"0.1\""))
        .map(|t| number(t, "x2"))
        .fold(f64::MIN, f64::max);
    // Each bar keeps a 20-pixel margin to its segment's edge; with an empty category
    // after the last bot, a whole segment would be left to its right.
    assert!(
        (plot_right - (bars_right + 20.0)).abs() <= 2.0,
        "last bar ends at {bars_right}, plot at {plot_right}"
    );
}

#[test]
fn an_unwritable_svg_path_gets_a_plain_message_before_any_game() {
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "1",
            "--svg",
            "/nonexistent-folder/chart.svg",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("the folder /nonexistent-folder does not exist")
                .and(predicate::str::contains("Os {").not()),
        );
}

#[test]
fn turn_cap_is_refused_up_front_where_a_game_has_none() {
    for game in ["valley", "pandoria"] {
        tabletop()
            .args(["simulate", game, "--games", "2", "--turn-cap", "5"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "--turn-cap: {game} has no turn cap (games with one: valdora)"
            )));
        tabletop()
            .args([
                "arena",
                "--game",
                game,
                "--bots",
                "random,random",
                "--games",
                "2",
                "--turn-cap",
                "5",
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("has no turn cap"));
    }
}

#[test]
fn seed_ranges_that_would_wrap_are_refused() {
    let max = u64::MAX.to_string();
    tabletop()
        .args(["simulate", "valdora", "--games", "3", "--seed", &max])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("would run past the largest seed"));
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "2",
            "--seed",
            &max,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("would run past the largest seed"));
    // The last seed itself is fine for one game.
    simulate_json(&["valdora", "--games", "1", "--seed", &max, "--turn-cap", "1"]);
}

#[test]
fn threads_beyond_the_games_are_said() {
    tabletop()
        .args([
            "simulate",
            "valdora",
            "--games",
            "2",
            "--threads",
            "8",
            "--turn-cap",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "--threads 8 but 2 games: 2 threads used (at most one per game)",
        ));
    let s = simulate_json(&[
        "valdora",
        "--games",
        "2",
        "--threads",
        "8",
        "--turn-cap",
        "1",
    ]);
    assert_eq!(
        (s["threads"].as_u64(), s["threads_requested"].as_u64()),
        (Some(2), Some(8))
    );
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "1",
            "--threads",
            "3",
            "--turn-cap",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "--threads 3 but 1 game: 1 thread used",
        ));
}

#[test]
fn play_asks_again_after_a_line_that_is_not_utf8() {
    let mut input = b"\xff\xfe bad\n".to_vec();
    input.extend_from_slice(b"1\nq\n");
    tabletop()
        .args(["play", "valdora", "--bots", "random", "--seed", "2"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("not text (invalid UTF-8)")
                .and(predicate::str::contains("seat 0 (you): "))
                .and(predicate::str::contains("You left the game.")),
        );
}
