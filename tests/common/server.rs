//! A real `tabletop serve` process on a loopback port, its database (SQLite in a temp
//! folder, or a fresh PostgreSQL schema), HTTP calls and WebSocket clients that keep their
//! seat's view by applying the server's patches.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command as StdCommand, ExitStatus, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::BIN;

/// Which database a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// A database for one test: a SQLite file in a temp folder, or a new schema of the test
/// PostgreSQL database. `None` (with the reason printed) when PostgreSQL cannot be reached
/// outside CI; under `CI=true` an unreachable PostgreSQL fails the test.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub async fn new(db: Db) -> Option<TestDb> {
        match db {
            Db::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("tabletop.db").display());
                Some(TestDb {
                    url,
                    _dir: Some(dir),
                })
            }
            Db::Postgres => server::testing::fresh_postgres_schema()
                .await
                .map(|url| TestDb { url, _dir: None }),
        }
    }
}

/// A running `tabletop serve`; killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, from the first line the server prints.
    pub base: String,
    pub db_url: String,
    http: reqwest::Client,
    // Kept open so that the server never writes to a closed pipe.
    _stdout: BufReader<std::process::ChildStdout>,
    _db: Option<TestDb>,
}

impl Server {
    /// A server on a SQLite database of its own in a temporary folder.
    pub fn with_sqlite() -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = TestDb {
            url: format!("sqlite://{}", dir.path().join("tabletop.db").display()),
            _dir: Some(dir),
        };
        let mut server = Server::start(&db.url);
        server._db = Some(db);
        server
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A server whose games with no human seat move as fast as their bots decide.
    pub fn start(db_url: &str) -> Server {
        Server::start_with(db_url, &["--bot-pace-ms", "0", "--post-limit", "0"])
    }

    /// A server with more `serve` flags; its clients may name bot specs (the tests' bots
    /// are `random`, `ismcts:iters=20`, …), and its bots playing people move as soon as
    /// they decide (the tests wait for no pace meant for a person's eyes).
    pub fn start_with(db_url: &str, flags: &[&str]) -> Server {
        let fast = ["--allow-bot-specs", "--bot-pace-with-people-ms", "0"];
        Server::start_exact(db_url, &[&fast[..], flags].concat())
    }

    /// A server with exactly these `serve` flags.
    pub fn start_exact(db_url: &str, flags: &[&str]) -> Server {
        let mut child = StdCommand::new(BIN)
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db_url])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tabletop serve");
        // The first line, read aside so that a server that never prints it fails the test
        // instead of hanging it.
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (told, heard) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let read = stdout.read_line(&mut line);
            let _ = told.send((read, line, stdout));
        });
        let (read, line, stdout) = heard
            .recv_timeout(RECV_LIMIT)
            .expect("the server prints its address within the limit");
        read.expect("read the address line");
        // "tabletop: serving on http://127.0.0.1:PORT (database …); Ctrl-C stops"
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server {
            child,
            base,
            db_url: db_url.to_string(),
            // No request waits for ever: a server that never answers fails the test.
            http: reqwest::Client::builder()
                .timeout(RECV_LIMIT)
                .build()
                .expect("an HTTP client"),
            _stdout: stdout,
            _db: None,
        }
    }

    /// `kill -9`: no chance to finish anything.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then the exit status.
    pub fn terminate(&mut self) -> ExitStatus {
        StdCommand::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        self.child.wait().expect("wait for the server")
    }

    /// SIGTERM, then the exit status if the process ends within `limit` (else it is left
    /// to `Drop`, which kills it).
    pub fn terminate_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        StdCommand::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    pub fn ws_url(&self, id: &str) -> String {
        format!("{}/api/games/{id}/ws", self.base.replacen("http", "ws", 1))
    }

    async fn answer(response: reqwest::Response) -> (u16, Value) {
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body)
    }

    async fn send_get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET")
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        Self::answer(self.send_get(path).await).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .expect("POST");
        Self::answer(response).await
    }

    /// A body that is not JSON, with its content type.
    pub async fn get_text(&self, path: &str) -> (u16, String, String) {
        let response = self.send_get(path).await;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        (
            status,
            content_type,
            response.text().await.expect("a text body"),
        )
    }

    /// A raw body (malformed input tests).
    pub async fn post_raw(&self, path: &str, body: Vec<u8>) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            // The server may refuse a large body without reading it and close the
            // connection: never reuse that connection for the next request.
            .header("connection", "close")
            .body(body)
            .send()
            .await
            .expect("POST");
        Self::answer(response).await
    }

    /// A `POST` that declares a body of `length` bytes and sends none: what the server
    /// answers before reading a body it will not take. (Sending such a body races the
    /// server's answer: it closes the connection after answering, and the client may be
    /// still writing.)
    pub async fn post_declaring(&self, path: &str, length: usize) -> (u16, Value) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let host = self.base.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host).await.expect("connect");
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\nConnection: close\r\n\r\n"
        );
        stream
            .write_all(head.as_bytes())
            .await
            .expect("the request head");
        let mut answer = Vec::new();
        tokio::time::timeout(RECV_LIMIT, stream.read_to_end(&mut answer))
            .await
            .expect("an answer within the limit")
            .expect("the answer");
        let text = String::from_utf8_lossy(&answer);
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    /// Creates a game; returns its id and the seats' tokens.
    pub async fn create(&self, request: Value) -> (String, Vec<Option<String>>) {
        let (status, body) = self.post("/api/games", &request).await;
        assert_eq!(status, 201, "create {request}: {body}");
        let id = body["id"].as_str().expect("id").to_string();
        let tokens = body["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["token"].as_str().map(String::from))
            .collect();
        (id, tokens)
    }

    /// Polls the summary until the game is over (bots).
    pub async fn wait_over(&self, id: &str, limit: Duration) -> Value {
        let start = std::time::Instant::now();
        loop {
            let (_, summary) = self.get(&format!("/api/games/{id}")).await;
            if summary["status"] == "over" {
                return summary;
            }
            assert!(
                start.elapsed() < limit,
                "game {id} not over after {limit:?}: {summary}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a test waits for one message before it fails.
const RECV_LIMIT: Duration = Duration::from_secs(60);

/// A WebSocket client of one seat (or a spectator) that keeps the seat's view.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub seat: Option<u8>,
    pub seq: u64,
    pub view: Value,
    pub to_move: Option<u8>,
    pub legal: Option<Vec<Value>>,
    pub status: String,
    pub outcome: Value,
    /// The view after each seq this client saw.
    pub views: Vec<(u64, Value)>,
    /// Every message received, as text (hidden-information checks).
    pub received: Vec<String>,
    /// Whether [`Client::recv`] returns `seats` messages that tell only of a presence
    /// change (someone's tab opened, hid or closed); most tests skip them.
    pub hear_presence: bool,
    /// Whether the client's seat may take back its last decision (state and updates).
    pub can_undo: bool,
    /// The seats last told, without their presence, and the status with them.
    seats: (Value, Value),
}

/// `seats` without each seat's presence.
fn without_presence(seats: &Value) -> Value {
    let mut seats = seats.clone();
    for seat in seats.as_array_mut().into_iter().flatten() {
        if let Some(fields) = seat.as_object_mut() {
            fields.remove("presence");
        }
    }
    seats
}

impl Client {
    /// Connects without saying hello.
    pub async fn open(server: &Server, id: &str) -> Client {
        Self::open_with(server, id, &[]).await
    }

    /// Connects with these headers on the upgrade request (a session cookie, an
    /// `Origin`), without saying hello.
    pub async fn open_with(server: &Server, id: &str, headers: &[(&'static str, &str)]) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = server
            .ws_url(id)
            .into_client_request()
            .expect("a WebSocket request");
        for (name, value) in headers {
            request
                .headers_mut()
                .insert(*name, value.parse().expect("a header value"));
        }
        let (ws, _) = tokio::time::timeout(RECV_LIMIT, tokio_tungstenite::connect_async(request))
            .await
            .expect("the WebSocket connects within the limit")
            .expect("connect the WebSocket");
        Client {
            ws,
            seat: None,
            seq: 0,
            view: Value::Null,
            to_move: None,
            legal: None,
            status: String::new(),
            outcome: Value::Null,
            views: Vec::new(),
            received: Vec::new(),
            hear_presence: false,
            can_undo: false,
            seats: (Value::Null, Value::Null),
        }
    }

    /// Connects, says hello with `token` (none: spectator) and takes the state.
    pub async fn connect(server: &Server, id: &str, token: Option<&str>) -> Client {
        let mut client = Self::open(server, id).await;
        client.send(&json!({"type": "hello", "token": token})).await;
        let state = client.next().await;
        assert_eq!(state["type"], "state", "{state}");
        client
    }

    pub async fn send(&mut self, message: &Value) {
        self.send_text(message.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// The next JSON message (pings are answered by the library); panics on close, or
    /// when none came within [`RECV_LIMIT`]: a deadline for the message, not for each
    /// frame, since the server's pings and the presence changes skipped here would
    /// otherwise keep a wait for a message that never comes alive for ever.
    pub async fn recv(&mut self) -> Value {
        let deadline = tokio::time::Instant::now() + RECV_LIMIT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "no message within {RECV_LIMIT:?} (seat {:?}, seq {}, status {:?}); the last: {:?}",
                        self.seat,
                        self.seq,
                        self.status,
                        self.received.last()
                    )
                });
            match frame {
                Some(Ok(Message::Text(text))) => {
                    self.received.push(text.to_string());
                    let message: Value =
                        serde_json::from_str(&text).expect("server messages are JSON");
                    if !matches!(message["type"].as_str(), Some("state" | "seats")) {
                        return message;
                    }
                    let seats = (
                        without_presence(&message["seats"]),
                        message["status"].clone(),
                    );
                    let presence_only = message["type"] == "seats"
                        && message.get("event").is_none()
                        && seats == self.seats;
                    self.seats = seats;
                    if presence_only && !self.hear_presence {
                        continue;
                    }
                    return message;
                }
                Some(Ok(Message::Close(frame))) => panic!("closed by the server: {frame:?}"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("WebSocket error: {e}"),
                None => panic!("connection ended"),
            }
        }
    }

    /// The close frame the server ends with: (code, reason).
    pub async fn closed(&mut self) -> (u16, String) {
        let deadline = tokio::time::Instant::now() + RECV_LIMIT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .expect("a close within the limit");
            match frame {
                Some(Ok(Message::Close(Some(frame)))) => {
                    return (u16::from(frame.code), frame.reason.to_string())
                }
                Some(Ok(Message::Close(None))) | None => return (0, String::new()),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return (0, e.to_string()),
            }
        }
    }

    /// The next message, taken into the client's state.
    pub async fn next(&mut self) -> Value {
        let message = self.recv().await;
        self.absorb(&message);
        message
    }

    fn absorb(&mut self, message: &Value) {
        match message["type"].as_str() {
            Some("state") => {
                self.view = message["view"].clone();
                self.seat = message["seat"].as_u64().map(|s| s as u8);
            }
            Some("update") => {
                let patch: json_patch::Patch =
                    serde_json::from_value(message["view_patch"].clone()).expect("a JSON Patch");
                json_patch::patch(&mut self.view, &patch).expect("the patch applies");
            }
            _ => return,
        }
        self.seq = message["seq"].as_u64().expect("seq");
        self.to_move = message["to_move"].as_u64().map(|s| s as u8);
        self.legal = message["legal"]
            .as_array()
            .map(|l| l.iter().map(|a| a["action"].clone()).collect());
        self.status = message["status"].as_str().unwrap_or_default().to_string();
        self.outcome = message["outcome"].clone();
        self.can_undo = message["can_undo"] == true;
        self.views.push((self.seq, self.view.clone()));
    }

    /// Takes messages until the client has seen `seq`; returns the errors met on the way.
    pub async fn wait_seq(&mut self, seq: u64) -> Vec<Value> {
        let mut errors = Vec::new();
        while self.seq < seq {
            let message = self.next().await;
            if message["type"] == "error" {
                errors.push(message);
            }
        }
        errors
    }

    /// Takes messages until the client has seen `seq` or an error came (returned).
    pub async fn wait_seq_or_error(&mut self, seq: u64) -> Option<Value> {
        while self.seq < seq {
            let message = self.next().await;
            if message["type"] == "error" {
                return Some(message);
            }
        }
        None
    }

    /// The next message of type `kind`, taking every message into the client's state.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let message = self.next().await;
            if message["type"] == kind {
                return message;
            }
        }
    }

    /// The next seats message whose seat `seat` satisfies `check`.
    pub async fn seats_until(&mut self, seat: usize, check: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next_of("seats").await;
            if check(&message["seats"][seat]) {
                return message;
            }
        }
    }

    /// The next error.
    pub async fn error(&mut self) -> Value {
        self.next_of("error").await
    }

    /// Plays the seat's first legal action while it is to move. A move refused as a
    /// `conflict` (the table was catching up with a change stored by another process, or
    /// heard its own on PostgreSQL) is sent again, as a client does.
    pub async fn play_while_to_move(&mut self) {
        while self.status == "running" && self.to_move == self.seat {
            let action = self.legal.as_ref().expect("legal actions")[0].clone();
            let seq = self.seq + 1;
            self.act(&action).await;
            if let Some(error) = self.wait_seq_or_error(seq).await {
                assert_eq!(error["kind"], "conflict", "{error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }

    /// Takes messages until the seat to move is `seat` (or the game is over).
    pub async fn until_to_move(&mut self, seat: u8) {
        while self.status != "over" && self.to_move != Some(seat) {
            self.next().await;
        }
    }

    pub async fn act(&mut self, action: &Value) {
        let message = json!({"type": "act", "seq": self.seq, "action": action});
        self.send(&message).await;
    }
}

/// Plays random legal moves with every seat's client until the game ends or `max_moves`
/// were played; every client sees every move. Returns the actions played.
pub async fn play_random(
    clients: &mut [Client],
    rng: &mut impl rand::Rng,
    max_moves: usize,
) -> Vec<Value> {
    let mut played = Vec::new();
    while clients[0].status != "over" && played.len() < max_moves {
        let mover = clients
            .iter()
            .position(|c| c.seat.is_some() && c.seat == c.to_move)
            .expect("a client of the seat to move");
        let legal = clients[mover]
            .legal
            .clone()
            .expect("the mover has legal actions");
        let action = legal[rng.gen_range(0..legal.len())].clone();
        let seq = clients[mover].seq + 1;
        clients[mover].act(&action).await;
        for client in clients.iter_mut() {
            let errors = client.wait_seq(seq).await;
            assert!(errors.is_empty(), "errors: {errors:?}");
        }
        played.push(action);
    }
    played
}

/// Runs `statements` on the database at `db_url` behind the server's back (what a test
/// does to the stored state: a row gone, a process that stopped half-way).
pub async fn execute(db_url: &str, statements: &[String]) {
    use sqlx::Connection;
    if db_url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(db_url)
            .await
            .expect("open the SQLite file");
        for statement in statements {
            sqlx::query(statement)
                .execute(&mut conn)
                .await
                .expect("a statement");
        }
    } else {
        let mut conn = sqlx::PgConnection::connect(db_url)
            .await
            .expect("connect to PostgreSQL");
        for statement in statements {
            sqlx::query(statement)
                .execute(&mut conn)
                .await
                .expect("a statement");
        }
    }
}
