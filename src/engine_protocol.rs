//! `tabletop engine`: any game driven through a JSON line protocol on stdin/stdout.
//!
//! One JSON object per line in, exactly one JSON object per line out (blank lines are
//! ignored), flushed after every line. Bad input is answered with
//! `{"error":{"kind":…,"message":…}}` and the engine keeps serving; it stops only at the
//! end of its input or on `{"cmd":"quit"}`. See `docs/engine-protocol.md`.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use engine::{DynGame, ErasedGame, Game, GameError, Seat};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Map, Value};

use crate::games::{self, clip, ConfigSpec, GameVisitor};

/// The longest request line served, in bytes without the newline. Requests are small
/// (the longest are configs of a few hundred bytes); a longer line is skipped to its end
/// and answered with `too_long`, so a client cannot make the engine hold a huge line.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The longest name, key or value quoted back in an error message, in characters.
const MAX_ECHO_CHARS: usize = 40;

/// The longest error message, in characters (a safety net over [`MAX_ECHO_CHARS`]).
const MAX_MESSAGE_CHARS: usize = 500;

/// The UTF-8 byte-order mark some editors and Windows tools put before the text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The commands, for the `unknown_command` message.
pub const COMMANDS: &[&str] = &[
    "new", "legal", "apply", "why", "hint", "view", "outcome", "record", "drop", "games", "quit",
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

    /// The error object. Anything quoted in the message (names, keys, values a client
    /// sent) is cut to [`MAX_ECHO_CHARS`], and the whole message to
    /// [`MAX_MESSAGE_CHARS`], so an error never echoes a huge input back.
    pub fn to_json(&self) -> Value {
        let message = clip(&clip_quoted(&self.message), MAX_MESSAGE_CHARS);
        json!({"error": {"kind": self.kind, "message": message}})
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
    /// Refuse `new` with a `data` path (`tabletop engine --no-data-files`): a server
    /// must never let a client name a file on its machine.
    refuse_data_files: bool,
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

    /// A session that answers every `data` path with `data_refused`.
    pub fn without_data_files() -> Self {
        Session {
            refuse_data_files: true,
            ..Self::default()
        }
    }

    /// Answers one line of input (a leading byte-order mark is skipped).
    pub fn handle_line(&mut self, line: &[u8]) -> (Value, Flow) {
        let line = line.strip_prefix(BOM).unwrap_or(line);
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
        let request: Value = match serde_json::from_str::<Strict>(text) {
            Ok(Strict(v)) => v,
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
                    .map(|offered| (offered.action, Value::String(offered.description)))
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
            "why" => self.why(obj),
            "hint" => self.hint(obj),
            "view" => {
                let game = &self.entry(obj)?.game;
                let seat = seat_field(obj, game.seats())?;
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
                    "unknown command {:?}; commands: {}",
                    clip(other, MAX_ECHO_CHARS),
                    COMMANDS.join(", ")
                ),
            )),
        }
    }

    /// "Why not?" for `action` on behalf of `seat` (`DynGame::why`): legal or refused,
    /// with the rule it follows or breaks; the game is untouched.
    fn why(&self, obj: &Map<String, Value>) -> Reply {
        let game = &self.entry(obj)?.game;
        let seat = seat_field(obj, game.seats())?
            .ok_or_else(|| ProtocolError::bad_request("\"why\" needs the \"seat\" that asks"))?;
        let action = obj
            .get("action")
            .ok_or_else(|| ProtocolError::bad_request("\"why\" needs an \"action\""))?;
        let explanation = game.why(seat, action)?;
        let mut reply = json!({"ok": true});
        if let (Some(map), Value::Object(fields)) = (reply.as_object_mut(), json!(explanation)) {
            map.extend(fields);
        }
        Ok(reply)
    }

    /// What the hard bot would do for `seat` (the seat to move), from its view only: the
    /// top `top` actions of its search with their values, best first. `iters` (samples,
    /// where the game's hard level is a rollout) makes the search reproducible (the
    /// `seed`, default 0, then fixes it); otherwise it searches for `ms` milliseconds
    /// (default: the hard level's own budget). The game is untouched.
    fn hint(&self, obj: &Map<String, Value>) -> Reply {
        let game = self.entry(obj)?.game.as_ref();
        let seat = seat_field(obj, game.seats())?
            .ok_or_else(|| ProtocolError::bad_request("\"hint\" needs the \"seat\" that asks"))?;
        let top = bounded(obj, "top", 1, bots::MAX_TOP as u64)?.unwrap_or(bots::DEFAULT_TOP as u64);
        let iters = bounded(obj, "iters", 1, MAX_HINT_ITERS)?;
        let ms = bounded(obj, "ms", 1, MAX_HINT_MS)?;
        if iters.is_some() && ms.is_some() {
            return Err(ProtocolError::bad_request(
                "\"hint\" takes \"iters\" or \"ms\", not both",
            ));
        }
        let mut search = bots::hard_search(game.name())
            .map_err(|e| ProtocolError::new("no_hint", e.to_string()))?;
        if let Some(n) = iters {
            search = search.with_budget(bots::Budget::Iterations(n as u32));
        }
        if let Some(ms) = ms {
            search = search.with_budget(bots::Budget::Time(Duration::from_millis(ms)));
        }
        let request = HintRequest {
            game,
            seat,
            search,
            seed: optional_u64(obj, "seed")?.unwrap_or(0),
            top: top as usize,
        };
        let hint = games::with_game(game.name(), request)
            .map_err(|e| ProtocolError::new("unknown_game", e.to_string()))??;
        Ok(json!({"hint": hint}))
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
            Some(_) if self.refuse_data_files => {
                return Err(ProtocolError::new(
                    "data_refused",
                    "this engine does not read data files: \"data\" is not accepted",
                ))
            }
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
            data_toml: None,
        };
        let game = games::with_game(name, NewGame { spec: &spec, seed }).map_err(|e| {
            ProtocolError::new(
                "unknown_game",
                format!(
                    "unknown game {:?}; known games: {}",
                    clip(&e.name, MAX_ECHO_CHARS),
                    e.known.join(", ")
                ),
            )
        })??;
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

/// The most iterations a `hint` may ask for: a hard decision's worth many times over.
const MAX_HINT_ITERS: u64 = 100_000;
/// The longest a `hint` may search, in milliseconds.
const MAX_HINT_MS: u64 = 10_000;

struct HintRequest<'a> {
    game: &'a dyn DynGame,
    seat: Seat,
    /// The hard level's search in this game, with the request's budget.
    search: bots::BotSpec,
    seed: u64,
    top: usize,
}

impl GameVisitor for HintRequest<'_> {
    type Output = Result<Vec<Value>, ProtocolError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state = self
            .game
            .as_any()
            .downcast_ref::<ErasedGame<G>>()
            .ok_or_else(|| ProtocolError::new("unknown_game", "the game is not of its kind"))?
            .state();
        let hint = bots::hint(
            state,
            usize::from(self.seat),
            self.search,
            self.seed,
            &bots::Stop::never(),
            self.top,
        )
        .map_err(|e| {
            let kind = match e {
                bots::HintError::GameOver => "game_over",
                bots::HintError::NotToMove { .. } => "not_your_turn",
                bots::HintError::NoSuchSeat { .. } => "bad_seat",
                bots::HintError::NotASearch(_) => "no_hint",
            };
            ProtocolError::new(kind, e.to_string())
        })?;
        Ok(hint
            .actions
            .iter()
            .map(|a| {
                json!({
                    "action": a.action,
                    "description": state.describe_action(&a.action),
                    "value": a.value,
                    "visits": a.visits,
                })
            })
            .collect())
    }
}

/// An optional integer field within `min..=max`.
fn bounded(
    obj: &Map<String, Value>,
    field: &str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, ProtocolError> {
    match optional_u64(obj, field)? {
        Some(n) if !(min..=max).contains(&n) => Err(ProtocolError::bad_request(format!(
            "{field:?} must be from {min} to {max}, not {n}"
        ))),
        n => Ok(n),
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// An optional non-negative integer field (`players`, `seed`). JSON integers beyond 64
/// bits are read as floating-point numbers, so they are refused like fractions.
fn optional_u64(obj: &Map<String, Value>, field: &str) -> Result<Option<u64>, ProtocolError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            ProtocolError::bad_request(format!(
                "{field:?} must be an integer from 0 to {}, not {}",
                u64::MAX,
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
                "\"id\" must be an integer from 1 to {}, not {}",
                u64::MAX,
                abbreviate(v)
            ))
        }),
    }
}

/// `"seat"`: absent or null for a spectator, else a seat number. An integer that is not
/// a seat of this game is `bad_seat`; any other value (a string, a fraction, a number
/// beyond 64 bits) is mistyped: `bad_request`.
fn seat_field(obj: &Map<String, Value>, seats: usize) -> Result<Option<Seat>, ProtocolError> {
    let bad_seat = |n: &dyn std::fmt::Display| {
        ProtocolError::new(
            "bad_seat",
            format!("seat {n} does not exist; this game has seats 0..{seats}"),
        )
    };
    match obj.get("seat") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.is_u64() => n
            .as_u64()
            .and_then(|s| Seat::try_from(s).ok())
            .filter(|&s| usize::from(s) < seats)
            .map(Some)
            .ok_or_else(|| bad_seat(n)),
        Some(Value::Number(n)) if n.is_i64() => Err(bad_seat(n)),
        Some(other) => Err(ProtocolError::bad_request(format!(
            "\"seat\" must be a seat number (0 to {}) or null (spectator), not {}",
            seats.saturating_sub(1),
            abbreviate(other)
        ))),
    }
}

/// A JSON value for an error message, cut short.
fn abbreviate(v: &Value) -> String {
    clip(&v.to_string(), 80)
}

/// `message` with every `"…"` or `` `…` `` quotation longer than [`MAX_ECHO_CHARS`] cut:
/// names and keys echoed by serde ("unknown field `…`") or by the engine.
fn clip_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE_CHARS * 4));
    let mut quoted: Option<(char, usize)> = None;
    for c in message.chars() {
        match quoted {
            Some((q, _)) if c == q => {
                out.push(c);
                quoted = None;
            }
            Some((q, n)) => {
                if n < MAX_ECHO_CHARS {
                    out.push(c);
                } else if n == MAX_ECHO_CHARS {
                    out.push('…');
                }
                quoted = Some((q, n + 1));
            }
            None => {
                out.push(c);
                if c == '"' || c == '`' {
                    quoted = Some((c, 0));
                }
            }
        }
    }
    out
}

/// A JSON value parsed like `serde_json::Value`, except that an object with the same key
/// twice is refused: `serde_json` would silently keep the last one, so `{"cmd":"view",
/// "cmd":"drop"}` would mean different things to different readers.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "duplicate key {:?}",
                    clip(&key, MAX_ECHO_CHARS)
                )));
            }
            let Strict(value) = map.next_value()?;
            obj.insert(key, value);
        }
        Ok(Value::Object(obj))
    }
}

/// One line read by [`read_line_capped`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line (without its newline) is in the buffer.
    Read,
    /// The line was longer than the cap: it was read to its end and dropped.
    TooLong,
    /// The input ended.
    End,
}

/// Reads one line into `line` holding at most `cap` bytes of it: a longer line is
/// consumed to its newline without being stored.
fn read_line_capped(input: &mut impl BufRead, line: &mut Vec<u8>, cap: usize) -> io::Result<Line> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong,
                (true, false) => Line::Read,
            });
        }
        any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        if !too_long {
            if line.len() + chunk.len() > cap {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

/// Serves requests to `session` from `input` until its end or `quit`.
pub fn serve_session(
    mut session: Session,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        let reply = match read_line_capped(&mut input, &mut line, MAX_LINE_BYTES)? {
            Line::End => return Ok(()),
            Line::TooLong => (
                ProtocolError::new(
                    "too_long",
                    format!("the line is longer than {MAX_LINE_BYTES} bytes; it was skipped"),
                )
                .to_json(),
                Flow::Continue,
            ),
            Line::Read => {
                let text = line.strip_prefix(BOM).unwrap_or(&line);
                let trimmed = text.trim_ascii();
                if trimmed.is_empty() {
                    continue;
                }
                session.handle_line(trimmed)
            }
        };
        let (reply, flow) = reply;
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

/// `tabletop engine` on the process's stdin and stdout; `refuse_data_files` refuses
/// every `data` path (`--no-data-files`).
pub fn run(refuse_data_files: bool) -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let session = if refuse_data_files {
        Session::without_data_files()
    } else {
        Session::new()
    };
    serve_session(session, stdin.lock(), stdout.lock())
}

#[cfg(test)]
mod tests;
