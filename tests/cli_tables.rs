//! `tabletop play` as a person uses it: help, two-step placements, and the end screen
//! with the score breakdown, the tie-break, the winners and a saved record that
//! `tabletop replay` replays.

mod common;

use predicates::prelude::*;

use common::{replay_json, tabletop};

#[test]
fn a_finished_game_shows_the_scores_and_saves_a_record_that_replays() {
    for (game, players) in [("valley", "2"), ("valdora", "3"), ("pandoria", "2")] {
        let dir = tempfile::tempdir().expect("temp dir");
        let record = dir.path().join("game.json");
        let output = tabletop()
            .args(["play", game, "--players", players, "--bots", "random"])
            .args(["--seed", "5", "--record"])
            .arg(&record)
            .write_stdin("1\n".repeat(50_000))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8_lossy(&output);
        let end = text
            .split("\nGame over.\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{game}: the game did not end"));
        for piece in [
            "Final scores by category:",
            "tie-break between equal scores: ",
            "winner",
            "(you)",
        ] {
            assert!(end.contains(piece), "{game}: no {piece:?} in:\n{end}");
        }
        let replay_line = format!(
            "The record of this game is saved in {0}; replay it with: tabletop replay {0}",
            record.display()
        );
        assert!(end.contains(&replay_line), "{game}:\n{end}");

        let replay = replay_json(&record);
        assert_eq!(replay["game"], game);
        assert!(
            replay["to_move"].is_null(),
            "{game}: the record ends the game"
        );
        let outcome = replay["outcome"]["seats"].as_array().expect("an outcome");
        // The end screen's scores are the replayed ones.
        for seat in outcome {
            let score = seat["score"].as_i64().expect("a score");
            assert!(
                end.lines()
                    .any(|l| l.trim_start().starts_with(&seat["seat"].to_string())
                        && l.split_whitespace()
                            .nth(if seat["seat"] == 0 { 3 } else { 2 })
                            == Some(&score.to_string())),
                "{game}: seat {} score {score} not on the end screen:\n{end}",
                seat["seat"]
            );
        }
        tabletop()
            .arg("replay")
            .arg(&record)
            .assert()
            .success()
            .stdout(
                predicate::str::contains("tie-break between equal scores")
                    .and(predicate::str::contains("winner")),
            );
    }
}

#[test]
fn help_lists_the_commands_and_leaving_saves_the_record_so_far() {
    let dir = tempfile::tempdir().expect("temp dir");
    let record = dir.path().join("left.json");
    tabletop()
        .args(["play", "valley", "--seed", "2", "--record"])
        .arg(&record)
        .write_stdin("?\n1\nhelp\nq\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("'?' for help")
                .and(predicate::str::contains("Commands:"))
                .and(predicate::str::contains("v, view    draw the table again"))
                .and(predicate::str::contains("q, quit"))
                .and(predicate::str::contains("You left the game."))
                .and(predicate::str::contains("replay it with: tabletop replay")),
        );
    let replay = replay_json(&record);
    assert_eq!(replay["log"].as_array().map(Vec::len), Some(1));
}

#[test]
fn pandoria_placements_are_chosen_by_cell_then_direction() {
    let output = tabletop()
        .args(["play", "pandoria", "--seed", "0"])
        .write_stdin("q\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&output);
    let options = text
        .lines()
        .filter(|l| {
            l.trim_start()
                .split(')')
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(options < 100, "{options} options:\n{text}");
    assert!(text.contains(" choices)"), "{text}");
    // The group's own question: the directions, each with the other half's cell.
    let group = text
        .lines()
        .find(|l| l.contains(" choices)"))
        .and_then(|l| l.trim_start().split(')').next().map(str::to_string))
        .expect("a group");
    tabletop()
        .args(["play", "pandoria", "--seed", "0"])
        .write_stdin(format!("{group}\nq\n"))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("  1) towards d")
                .and(predicate::str::contains("the other half on col ")),
        );
}
