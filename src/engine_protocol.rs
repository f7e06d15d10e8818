//! `tabletop engine`: any game driven through a JSON line protocol on stdin/stdout.
//!
//! One JSON object per line in, exactly one JSON object per line out (blank lines are
//! ignored), flushed after every line. Bad input is answered with
//! `{"error":{"kind":…,"message":…}}` and the engine keeps serving; it stops only at the
//! end of its input or on `{"cmd":"quit"}`. See `docs/engine-protocol.md`.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use engine::{DynGame, ErasedGame, Game, GameError, Seat};
use serde_json::{json, Map, Value};

use crate::games::{self, ConfigSpec, GameVisitor};

/// The commands, for the `unknown_command` message.
pub const COMMANDS: &[&str] = &[
    "new", "legal", "apply", "view", "outcome", "record", "drop", "games", "quit",
];

/// A refused request: `kind` is one of the protocol's own kinds or an engine
/// `GameErrorKind` in snake case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    pub kind: String,
    pub message: String,
}

impl ProtocolError {
    fn new(kind: &str, message: impl Into<String>) -> Self {
        ProtocolError {
            kind: kind.to_string(),
            message: message.into(),
        }
    }

    fn bad_request(message: impl Into<String>) -> Self {
        Self::new("bad_request", message)
    }

    pub fn to_json(&self) -> Value {
        json!({"error": {"kind": self.kind, "message": self.message}})
    }
}

impl From<GameError> for ProtocolError {
    fn from(e: GameError) -> Self {
        let kind = match serde_json::to_value(e.kind) {
            Ok(Value::String(s)) => s,
            _ => format!("{:?}", e.kind).to_lowercase(),
        };
        ProtocolError {
            kind,
            message: e.message,
        }
    }
}

type Reply = Result<Value, ProtocolError>;

struct Entry {
    game: Box<dyn DynGame>,
    /// The data file the game was set up with, absolute, for `record`.
    data: Option<PathBuf>,
}

/// The open games of one engine process.
#[derive(Default)]
pub struct Session {
    games: BTreeMap<u64, Entry>,
    last_id: u64,
}

/// Whether to keep reading after a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers one line of input.
    pub fn handle_line(&mut self, line: &[u8]) -> (Value, Flow) {
        let text = match std::str::from_utf8(line) {
            Ok(t) => t,
            Err(e) => {
                let err = ProtocolError::new(
                    "malformed_json",
                    format!("the line is not valid UTF-8: {e}"),
                );
                return (err.to_json(), Flow::Continue);
            }
        };
        let request: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                let err =
                    ProtocolError::new("malformed_json", format!("the line is not JSON: {e}"));
                return (err.to_json(), Flow::Continue);
            }
        };
        let flow = if request.get("cmd").and_then(Value::as_str) == Some("quit") {
            Flow::Quit
        } else {
            Flow::Continue
        };
        let reply = self.handle(&request).unwrap_or_else(|e| e.to_json());
        (reply, flow)
    }

    /// Answers one request.
    pub fn handle(&mut self, request: &Value) -> Reply {
        let obj = request.as_object().ok_or_else(|| {
            ProtocolError::bad_request(format!(
                "a request must be a JSON object with a \"cmd\", not {}",
                abbreviate(request)
            ))
        })?;
        let cmd = match obj.get("cmd") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(ProtocolError::bad_request(format!(
                    "\"cmd\" must be a string, not {}",
                    abbreviate(other)
                )))
            }
            None => return Err(ProtocolError::bad_request("the request has no \"cmd\"")),
        };
        match cmd {
            "new" => self.new_game(obj),
            "legal" => {
                let game = &self.entry(obj)?.game;
                let (actions, descriptions): (Vec<Value>, Vec<Value>) = game
                    .legal_actions_json()
                    .into_iter()
                    .map(|(a, d)| (a, Value::String(d)))
                    .unzip();
                Ok(json!({
                    "to_move": game.to_move(),
                    "actions": actions,
                    "descriptions": descriptions,
                }))
            }
            "apply" => {
                let action = obj
                    .get("action")
                    .ok_or_else(|| ProtocolError::bad_request("\"apply\" needs an \"action\""))?;
                let game = &mut self.entry_mut(obj)?.game;
                let events = game.apply_json(action)?;
                Ok(json!({"to_move": game.to_move(), "events": events}))
            }
            "view" => {
                let seat = seat_field(obj)?;
                let game = &self.entry(obj)?.game;
                Ok(json!({"view": game.view_json(seat)?}))
            }
            "outcome" => {
                let game = &self.entry(obj)?.game;
                Ok(json!({"outcome": game.outcome()}))
            }
            "record" => {
                let entry = self.entry(obj)?;
                let mut record = entry.game.record();
                if let (Some(path), Some(map)) = (&entry.data, record.as_object_mut()) {
                    map.insert("data".into(), Value::String(path.display().to_string()));
                }
                Ok(json!({"record": record}))
            }
            "drop" => {
                let id = id_field(obj)?;
                self.lookup(id)?;
                self.games.remove(&id);
                Ok(json!({"dropped": id}))
            }
            "games" => Ok(json!({"games": games::names()})),
            "quit" => Ok(json!({"quit": true})),
            other => Err(ProtocolError::new(
                "unknown_command",
                format!(
                    "unknown command {other:?}; commands: {}",
                    COMMANDS.join(", ")
                ),
            )),
        }
    }

    fn new_game(&mut self, obj: &Map<String, Value>) -> Reply {
        let name = match obj.get("game") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(ProtocolError::bad_request(format!(
                    "\"game\" must be a string, not {}",
                    abbreviate(other)
                )))
            }
            None => {
                return Err(ProtocolError::bad_request(format!(
                    "\"new\" needs a \"game\" (one of: {})",
                    games::names().join(", ")
                )))
            }
        };
        let players = optional_u64(obj, "players")?;
        let seed = optional_u64(obj, "seed")?.unwrap_or(0);
        let config = match obj.get("config") {
            None | Some(Value::Null) => None,
            Some(c @ Value::Object(_)) => Some(c),
            Some(other) => {
                return Err(ProtocolError::bad_request(format!(
                    "\"config\" must be a JSON object, not {}",
                    abbreviate(other)
                )))
            }
        };
        let data = match obj.get("data") {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => Some(absolute(Path::new(p))),
            Some(other) => {
                return Err(ProtocolError::bad_request(format!(
                    "\"data\" must be the path of a data file, not {}",
                    abbreviate(other)
                )))
            }
        };
        let spec = ConfigSpec {
            overrides: config,
            players,
            turn_cap: None,
            data: data.as_deref(),
        };
        let game = games::with_game(name, NewGame { spec: &spec, seed })
            .map_err(|e| ProtocolError::new("unknown_game", e.to_string()))??;
        self.last_id += 1;
        let id = self.last_id;
        let reply = json!({
            "id": id,
            "game": game.name(),
            "seats": game.seats(),
            "to_move": game.to_move(),
        });
        self.games.insert(id, Entry { game, data });
        Ok(reply)
    }

    fn lookup(&self, id: u64) -> Result<&Entry, ProtocolError> {
        self.games.get(&id).ok_or_else(|| {
            let open: Vec<String> = self.games.keys().map(u64::to_string).collect();
            ProtocolError::new(
                "unknown_id",
                if open.is_empty() {
                    format!("no game has id {id}; no game is open")
                } else {
                    format!("no game has id {id}; open games: {}", open.join(", "))
                },
            )
        })
    }

    fn entry(&self, obj: &Map<String, Value>) -> Result<&Entry, ProtocolError> {
        self.lookup(id_field(obj)?)
    }

    fn entry_mut(&mut self, obj: &Map<String, Value>) -> Result<&mut Entry, ProtocolError> {
        let id = id_field(obj)?;
        self.lookup(id)?;
        self.games
            .get_mut(&id)
            .ok_or_else(|| ProtocolError::new("unknown_id", format!("no game has id {id}")))
    }
}

struct NewGame<'a> {
    spec: &'a ConfigSpec<'a>,
    seed: u64,
}

impl GameVisitor for NewGame<'_> {
    type Output = Result<Box<dyn DynGame>, ProtocolError>;
    fn visit<G: Game>(self) -> Self::Output {
        let config = games::build_config::<G>(self.spec)?;
        let game = ErasedGame::<G>::new(&config, self.seed)?;
        Ok(Box::new(game))
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn optional_u64(obj: &Map<String, Value>, field: &str) -> Result<Option<u64>, ProtocolError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            ProtocolError::bad_request(format!(
                "{field:?} must be a non-negative integer, not {}",
                abbreviate(v)
            ))
        }),
    }
}

fn id_field(obj: &Map<String, Value>) -> Result<u64, ProtocolError> {
    match obj.get("id") {
        None => Err(ProtocolError::bad_request(
            "the request needs the \"id\" of a game (from \"new\")",
        )),
        Some(v) => v.as_u64().ok_or_else(|| {
            ProtocolError::bad_request(format!(
                "\"id\" must be a positive integer, not {}",
                abbreviate(v)
            ))
        }),
    }
}

/// `"seat"`: absent or null for a spectator, else a seat number.
fn seat_field(obj: &Map<String, Value>) -> Result<Option<Seat>, ProtocolError> {
    match obj.get("seat") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|s| Seat::try_from(s).ok())
            .map(Some)
            .ok_or_else(|| ProtocolError::new("bad_seat", format!("seat {n} does not exist"))),
        Some(other) => Err(ProtocolError::bad_request(format!(
            "\"seat\" must be a seat number or null (spectator), not {}",
            abbreviate(other)
        ))),
    }
}

/// A JSON value for an error message, cut short.
fn abbreviate(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// Serves requests from `input` until its end or `quit`.
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let (reply, flow) = session.handle_line(trimmed);
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

/// `tabletop engine` on the process's stdin and stdout.
pub fn run() -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve(stdin.lock(), stdout.lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &mut Session, line: &str) -> Value {
        s.handle_line(line.as_bytes()).0
    }

    #[test]
    fn errors_have_kinds() {
        let mut s = Session::new();
        let kind = |v: Value| v["error"]["kind"].as_str().unwrap_or("").to_string();
        assert_eq!(kind(ask(&mut s, "{")), "malformed_json");
        assert_eq!(kind(ask(&mut s, "[1]")), "bad_request");
        assert_eq!(kind(ask(&mut s, r#"{"cmd":"dance"}"#)), "unknown_command");
        assert_eq!(
            kind(ask(&mut s, r#"{"cmd":"new","game":"chess"}"#)),
            "unknown_game"
        );
        assert_eq!(kind(ask(&mut s, r#"{"cmd":"legal","id":3}"#)), "unknown_id");
        assert_eq!(
            kind(ask(&mut s, r#"{"cmd":"new","game":"valdora","players":9}"#)),
            "setup"
        );
        let new = ask(
            &mut s,
            r#"{"cmd":"new","game":"valdora","players":3,"seed":1}"#,
        );
        assert_eq!(new["id"], 1);
        assert_eq!(
            kind(ask(&mut s, r#"{"cmd":"view","id":1,"seat":3}"#)),
            "bad_seat"
        );
        assert_eq!(
            kind(ask(
                &mut s,
                r#"{"cmd":"apply","id":1,"action":{"type":"fly"}}"#
            )),
            "malformed"
        );
    }
}
