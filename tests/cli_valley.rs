//! `tabletop` end to end with Valley of the Kings: the engine protocol (with a config),
//! record and replay, and simulate.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_tabletop");

/// Sends every request line to one `tabletop engine` and returns one reply per line, asking
/// `next` for the following request after each reply.
fn session(mut next: impl FnMut(&Value) -> Option<Value>, first: Value) -> Vec<Value> {
    let mut child = StdCommand::new(BIN)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tabletop engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut replies = Vec::new();
    let mut request = Some(first);
    while let Some(r) = request {
        writeln!(stdin, "{r}").expect("write");
        stdin.flush().expect("flush");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read");
        let reply: Value = serde_json::from_str(&line).expect("JSON reply");
        request = next(&reply);
        replies.push(reply);
        assert!(replies.len() < 200_000, "the game does not end");
    }
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    replies
}

#[test]
fn a_whole_valley_game_through_the_protocol_replays() {
    // Always the first legal action: the game still ends by its rules (K-G6).
    let mut state = 0;
    let mut outcome = Value::Null;
    let mut record = Value::Null;
    let replies = session(
        |reply| match state {
            0 => {
                assert_eq!(reply["game"], "valley", "{reply}");
                state = 1;
                Some(json!({"cmd":"legal","id":1}))
            }
            1 => {
                if reply["to_move"].is_null() {
                    state = 3;
                    return Some(json!({"cmd":"outcome","id":1}));
                }
                state = 2;
                Some(json!({"cmd":"apply","id":1,"action":reply["actions"][0]}))
            }
            2 => {
                assert!(reply.get("error").is_none(), "{reply}");
                state = 1;
                Some(json!({"cmd":"legal","id":1}))
            }
            3 => {
                outcome = reply["outcome"].clone();
                state = 4;
                Some(json!({"cmd":"record","id":1}))
            }
            _ => {
                record = reply["record"].clone();
                None
            }
        },
        json!({"cmd":"new","game":"valley","players":3,"seed":5,"config":{"pool":"last_rites"}}),
    );
    assert!(replies.len() > 100);
    assert_eq!(
        outcome["seats"].as_array().map(Vec::len),
        Some(3),
        "{outcome}"
    );
    assert_eq!(record["config"]["pool"], "last_rites");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("valley.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    let out = Command::new(BIN)
        .arg("replay")
        .arg(&file)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let replay: Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(replay["outcome"], outcome);
}

#[test]
fn simulate_valley() {
    let out = Command::new(BIN)
        .args([
            "simulate",
            "valley",
            "--players",
            "4",
            "--games",
            "50",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let s: Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(s["games"], 50);
    // 5-6 players need a mixed pool; the default config gives them the premium mix.
    Command::new(BIN)
        .args(["simulate", "valley", "--players", "6", "--games", "5"])
        .assert()
        .success();
}
