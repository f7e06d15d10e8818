//! What the CLI test files share: the binary, a running `tabletop engine`, a running
//! `tabletop serve`, the JSON forms of `simulate` and `replay`, and the event lines of a
//! `tabletop play` transcript.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command as StdCommand, Stdio};

use assert_cmd::Command;
use serde_json::{json, Value};

pub const BIN: &str = env!("CARGO_BIN_EXE_tabletop");

pub fn tabletop() -> Command {
    Command::new(BIN)
}

/// A running `tabletop engine`, asked one line at a time.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    pub fn start() -> Self {
        let mut child = StdCommand::new(BIN)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start tabletop engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    pub fn raw(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").expect("write a request");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("read a reply");
        assert!(reply.ends_with('\n'), "no complete reply to {line}");
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply {reply:?} is not JSON: {e}"))
    }

    pub fn ask(&mut self, request: Value) -> Value {
        self.raw(&request.to_string())
    }

    pub fn quit(mut self) {
        assert_eq!(self.ask(json!({"cmd": "quit"})), json!({"quit": true}));
        let status = self.child.wait().expect("engine exits");
        assert!(status.success());
    }
}

/// Runs `command` with `--json`, expects success, and parses the one JSON object it prints.
fn json_of(mut command: Command) -> Value {
    let out = command
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).expect("--json prints one JSON object")
}

/// `tabletop simulate ARGS --json`, parsed.
pub fn simulate_json(args: &[&str]) -> Value {
    let mut command = tabletop();
    command.arg("simulate").args(args);
    json_of(command)
}

/// `tabletop replay FILE --json`, parsed.
pub fn replay_json(file: &Path) -> Value {
    let mut command = tabletop();
    command.arg("replay").arg(file);
    json_of(command)
}

pub mod people;
pub mod server;

/// The event lines of a `tabletop play` transcript ("    · Seat 2 moves …"), checked to
/// be sentences: never empty, never JSON.
pub fn event_sentences(stdout: &[u8]) -> Vec<&str> {
    let text = std::str::from_utf8(stdout).expect("play prints UTF-8");
    let log: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("    · "))
        .collect();
    assert!(!log.is_empty(), "no event lines in:\n{text}");
    for line in &log {
        assert!(
            !line.trim().is_empty() && !line.contains(['{', '}']),
            "an event line is not a sentence: {line:?}"
        );
    }
    log
}

/// Runs each named `async fn(&TestDb)` of the calling test file as two tests, `sqlite::NAME`
/// and `postgres::NAME`, each on a fresh database of its kind.
#[macro_export]
macro_rules! on_both_databases {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    use $crate::common::server::{Db, TestDb};
                    if let Some(db) = TestDb::new(Db::Sqlite).await {
                        super::$test(&db).await;
                    }
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    use $crate::common::server::{Db, TestDb};
                    if let Some(db) = TestDb::new(Db::Postgres).await {
                        super::$test(&db).await;
                    }
                }
            )*
        }
    };
}
