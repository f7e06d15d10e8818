//! `tabletop serve` against clients that hold connections or lie about who they are: the
//! caps on connections, the header and body limits, the client address behind a trusted
//! proxy, the cap on open tables per address. Real server processes on loopback ports;
//! other clients come from 127.0.0.2 (all of 127/8 is loopback).

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use common::server::{Db, Server, TestDb};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const OTHER_CLIENT: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
/// The longest a test waits for the server to close a connection or answer: a guard
/// against a hang, far above any timeout the servers here are started with.
const PATIENCE: Duration = Duration::from_secs(30);

fn address(server: &Server) -> SocketAddr {
    server
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("the server's address")
}

/// A TCP connection to `server` from `local`.
async fn connect_from(server: &Server, local: Ipv4Addr) -> TcpStream {
    try_connect_from(server, local).await.expect("connect")
}

/// [`connect_from`], or why it failed: a server that closes a connection at once may have
/// reset it before `connect` returns.
async fn try_connect_from(server: &Server, local: Ipv4Addr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(IpAddr::V4(local), 0))
        .expect("bind a loopback address");
    socket.connect(address(server)).await
}

/// An HTTP client whose connections come from `local`.
fn http_from(local: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(local))
        .build()
        .expect("a client")
}

/// Whether the server closes `stream` (end of stream or reset) before `PATIENCE`; what it
/// sent before closing is ignored.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buffer = [0u8; 1024];
    let read_until_closed = async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    };
    tokio::time::timeout(PATIENCE, read_until_closed)
        .await
        .is_ok()
}

/// Sends `request` and reads one response: its status line and body (by Content-Length).
async fn exchange(stream: &mut TcpStream, request: &str) -> (String, String) {
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send the request");
    let read = async {
        let mut received = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let text = String::from_utf8_lossy(&received).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                if body.len() >= length {
                    let status = head.lines().next().unwrap_or_default().to_string();
                    return (status, body.to_string());
                }
            }
            let n = stream.read(&mut buffer).await.expect("read the response");
            assert!(
                n > 0,
                "the connection closed before a whole response: {text:?}"
            );
            received.extend_from_slice(&buffer[..n]);
        }
    };
    tokio::time::timeout(PATIENCE, read)
        .await
        .expect("an answer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address_and_slow_ones_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("capped.db").display());
    let server = Server::start_with(
        &db,
        &[
            "--max-connections-per-address",
            "3",
            "--header-timeout-secs",
            "1",
        ],
    );
    // Three connections that never finish their request line hold the address's share.
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = connect_from(&server, Ipv4Addr::LOCALHOST).await;
        stream.write_all(b"GET /heal").await.expect("half a line");
        held.push(stream);
    }
    // The fourth is closed without an answer, even to a whole request. (The server takes
    // connections in the order they were made, so the three are counted first.) It may
    // be reset before `connect` even returns: that is closed without an answer too.
    match try_connect_from(&server, Ipv4Addr::LOCALHOST).await {
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
        Ok(mut over) => {
            let _ = over
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                .await;
            let mut answer = Vec::new();
            let read = tokio::time::timeout(PATIENCE, over.read_to_end(&mut answer))
                .await
                .expect("the connection over the cap is closed");
            assert!(
                read.is_err() || answer.is_empty(),
                "a connection over the cap was answered: {:?}",
                String::from_utf8_lossy(&answer)
            );
        }
    }
    // Another address is served meanwhile.
    let response = http_from(OTHER_CLIENT)
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .expect("GET from another address");
    assert_eq!(response.status().as_u16(), 200);
    // The half-open connections are dropped after the header timeout, which frees the
    // address's share.
    for stream in &mut held {
        assert!(
            closed_by_server(stream).await,
            "a half-open connection is still open"
        );
    }
    let (status, health) = server.get("/healthz").await;
    assert_eq!((status, health), (200, json!("ok\n")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_keep_alive_connections_are_closed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("idle.db").display());
    let server = Server::start_with(&db, &["--header-timeout-secs", "1"]);
    let mut stream = connect_from(&server, Ipv4Addr::LOCALHOST).await;
    for _ in 0..2 {
        let (status, body) =
            exchange(&mut stream, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").await;
        assert_eq!(
            (status.as_str(), body.as_str()),
            ("HTTP/1.1 200 OK", "ok\n")
        );
    }
    assert!(
        closed_by_server(&mut stream).await,
        "an idle keep-alive connection is kept open"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_too_large_is_refused_before_it_is_sent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("large.db").display());
    // A body timeout longer than the test's patience: only the declared length can end
    // these requests in time.
    let server = Server::start_with(&db, &["--body-timeout-secs", "600"]);
    for (path, length) in [
        ("/api/replay", 1024 * 1024 + 1),
        ("/api/games", 16 * 1024 + 1),
        ("/api/games/abcdefghijkl/join", 16 * 1024 + 1),
    ] {
        let mut stream = connect_from(&server, Ipv4Addr::LOCALHOST).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n\r\n"
        );
        let (status, body) = exchange(&mut stream, &head).await;
        assert!(status.starts_with("HTTP/1.1 413"), "{path}: {status}");
        let body: Value = serde_json::from_str(&body).expect("a JSON error");
        assert_eq!(body["kind"], "too_large", "{path}: {body}");
    }
    // Within the limit, the body is waited for and read.
    let record = json!({"record": {}}).to_string();
    let mut stream = connect_from(&server, Ipv4Addr::LOCALHOST).await;
    let request = format!(
        "POST /api/replay HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{record}",
        record.len()
    );
    let (status, body) = exchange(&mut stream, &request).await;
    assert!(status.starts_with("HTTP/1.1 400"), "{status}: {body}");
}

/// Replays from `http` with `X-Forwarded-For: forwarded`: the statuses of `n` requests.
async fn replay_statuses(
    server: &Server,
    http: &reqwest::Client,
    forwarded: &str,
    n: usize,
) -> Vec<u16> {
    let mut statuses = Vec::new();
    for _ in 0..n {
        let response = http
            .post(format!("{}/api/replay", server.base))
            .header("x-forwarded-for", forwarded)
            .json(&json!({"record": {}}))
            .send()
            .await
            .expect("POST");
        statuses.push(response.status().as_u16());
    }
    statuses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_clients_are_believed_only_from_trusted_proxies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("proxied.db").display());
    let server = Server::start_with(
        &db,
        &["--post-limit", "2", "--trusted-proxy", "127.0.0.2/32"],
    );
    // Not a proxy: whatever it forwards, it is one client with one share.
    let direct = http_from(Ipv4Addr::LOCALHOST);
    let mut statuses = replay_statuses(&server, &direct, "198.51.100.1", 2).await;
    statuses.extend(replay_statuses(&server, &direct, "198.51.100.2", 1).await);
    assert_eq!(statuses, [400, 400, 429], "the header of an untrusted peer");
    // The proxy: each client it forwards has a share of its own.
    let proxy = http_from(OTHER_CLIENT);
    for client in ["198.51.100.1", "203.0.113.9, 198.51.100.2"] {
        assert_eq!(
            replay_statuses(&server, &proxy, client, 3).await,
            [400, 400, 429],
            "forwarded for {client}"
        );
    }
    // IPv6 clients by their /64: another address of the same /64 has no share left.
    assert_eq!(
        replay_statuses(&server, &proxy, "2001:db8:1:2::1", 2).await,
        [400, 400]
    );
    assert_eq!(
        replay_statuses(&server, &proxy, "2001:db8:1:2::99", 1).await,
        [429]
    );
    assert_eq!(
        replay_statuses(&server, &proxy, "2001:db8:1:3::1", 1).await,
        [400]
    );
}

/// A table with one free seat.
fn open_table() -> Value {
    json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "open"}
    ]})
}

async fn create_from(server: &Server, http: &reqwest::Client, request: &Value) -> (u16, Value) {
    let response = http
        .post(format!("{}/api/games", server.base))
        .json(request)
        .send()
        .await
        .expect("POST");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON"))
}

/// The cap on open tables per address holds while tables wait, frees a place when one
/// fills, and holds after a restart (it is counted in the database).
async fn open_tables_are_capped_per_address(db: &TestDb) {
    let flags = ["--post-limit", "0", "--open-tables-per-address", "2"];
    let mut server = Server::start_with(&db.url, &flags);
    let (first, _) = server.create(open_table()).await;
    server.create(open_table()).await;
    let (status, refused) = server.post("/api/games", &open_table()).await;
    assert_eq!(
        (status, &refused["kind"]),
        (429, &json!("too_many_tables")),
        "{refused}"
    );
    // A table with no free seat does not wait for anyone: not capped.
    server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "easy"}
            ]}),
        )
        .await;
    // Another address has its own tables.
    let other = http_from(OTHER_CLIENT);
    let (status, body) = create_from(&server, &other, &open_table()).await;
    assert_eq!(status, 201, "{body}");
    // A table that fills up leaves the count.
    let (status, body) = server
        .post(&format!("/api/games/{first}/join"), &json!({"name": "Bo"}))
        .await;
    assert_eq!(status, 200, "{body}");
    server.create(open_table()).await;
    let (status, _) = server.post("/api/games", &open_table()).await;
    assert_eq!(status, 429);
    // After a restart, the two open tables still count.
    assert!(server.terminate().success());
    let server = Server::start_with(&db.url, &flags);
    let (status, refused) = server.post("/api/games", &open_table()).await;
    assert_eq!(
        (status, &refused["kind"]),
        (429, &json!("too_many_tables")),
        "after a restart: {refused}"
    );
    let (status, body) = create_from(&server, &other, &open_table()).await;
    assert_eq!(status, 201, "the other address's second table: {body}");
    let (status, body) = create_from(&server, &other, &open_table()).await;
    assert_eq!(status, 429, "the other address's third table: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_tables_are_capped_per_address_on_sqlite() {
    if let Some(db) = TestDb::new(Db::Sqlite).await {
        open_tables_are_capped_per_address(&db).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_tables_are_capped_per_address_on_postgres() {
    if let Some(db) = TestDb::new(Db::Postgres).await {
        open_tables_are_capped_per_address(&db).await;
    }
}
