//! Seats, the protocol and the lobby against a hostile client, on a real `tabletop serve`
//! (SQLite and PostgreSQL): an invitation link seats one person once, actions are stored
//! as the game read them, protocol errors close with the code that says why, names hold
//! nothing invisible, and the lobby pages stay stable while games are created.

mod common;

use std::time::Duration;

use common::server::{Client, Db, Server, TestDb};
use futures_util::future::join_all;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A Valley of the Kings game for two: the host seated, seat 1 free (its invitation).
fn open_valley(host: &str) -> Value {
    json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": host}, {"kind": "human"}
    ]})
}

/// Says hello with `token` under `name`; returns the first answer (a state or an error).
async fn hello(server: &Server, id: &str, token: &str, name: &str) -> (Client, Value) {
    let mut client = Client::open(server, id).await;
    client
        .send(&json!({"type": "hello", "token": token, "name": name}))
        .await;
    let answer = client.next().await;
    (client, answer)
}

/// Claiming a seat with its invitation spends the invitation: the claimer alone is handed
/// the seat's new token (in its state message), the link gets `bad_token` from then on,
/// and the new token brings the claimer back to the seat after a reconnection.
async fn an_invitation_seats_one_person_once(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server.create(open_valley("Host")).await;
    let invitation = tokens[1].clone().expect("the free seat's invitation");
    let mut host = Client::connect(&server, &id, tokens[0].as_deref()).await;
    let mut spectator = Client::connect(&server, &id, None).await;

    let (guest, state) = hello(&server, &id, &invitation, "Bo").await;
    assert_eq!(
        (state["type"].as_str(), state["seat"].as_u64()),
        (Some("state"), Some(1))
    );
    let seat_token = state["token"]
        .as_str()
        .expect("the claimer's state carries the seat's new token")
        .to_string();
    assert_ne!(seat_token, invitation);
    assert_eq!(state["status"], "running", "{state}");
    host.next_of("state").await;
    spectator.next_of("state").await;

    // The link is spent: whoever opens it later is refused, and changes nothing.
    let (_, refused) = hello(&server, &id, &invitation, "Mallory").await;
    assert_eq!(refused["kind"], "bad_token", "{refused}");
    let (status, body) = text_as(&server, &id, &invitation).await;
    assert_eq!((status, body["kind"].as_str()), (401, Some("bad_token")));
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][1]["name"], "Bo", "{summary}");

    // The new token is the seat, also after a reconnection; only the claim's state has it.
    drop(guest);
    let (mut guest, state) = hello(&server, &id, &seat_token, "ignored").await;
    assert_eq!(state["seat"], 1, "{state}");
    assert_eq!(state.get("token"), None, "{state}");
    let (status, _) = text_as(&server, &id, &seat_token).await;
    assert_eq!(status, 200);
    let mover = if host.to_move == Some(0) {
        &mut host
    } else {
        &mut guest
    };
    let action = mover.legal.as_ref().expect("legal")[0].clone();
    // On PostgreSQL the claim's own notification makes the table catch up once, during
    // which a move gets `conflict` (docs/server.md): the move is sent again then.
    loop {
        mover.act(&action).await;
        let answer = loop {
            let message = mover.next().await;
            if message["type"] == "update" || message["type"] == "error" {
                break message;
            }
        };
        if answer["type"] == "update" {
            break;
        }
        assert_eq!(answer["kind"], "conflict", "{answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for other in [&host, &guest, &spectator] {
        assert!(
            other.received.iter().all(|m| !m.contains(&seat_token)),
            "the new token reached a connection other than the claimer's"
        );
    }
}

/// `GET /api/games/{id}/text` as the seat of `token`.
async fn text_as(server: &Server, id: &str, token: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .get(format!("{}/api/games/{id}/text", server.base))
        .bearer_auth(token)
        .send()
        .await
        .expect("GET");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Twenty hellos with one invitation at once, spread over `servers` (processes sharing a
/// database): exactly one is seated, every other one is refused with a typed error, and
/// the seat holds the winner's name.
async fn racing_claims_seat_exactly_one(servers: &[&Server], id: &str, invitation: &str) {
    let claims = (0..20).map(|i| {
        let server = servers[i % servers.len()];
        async move { hello(server, id, invitation, &format!("Racer {i}")).await.1 }
    });
    let answers = join_all(claims).await;
    let seated: Vec<usize> = (0..answers.len())
        .filter(|&i| answers[i]["type"] == "state")
        .collect();
    assert_eq!(seated.len(), 1, "{answers:?}");
    for (i, answer) in answers.iter().enumerate() {
        if i != seated[0] {
            let kind = answer["kind"].as_str();
            assert!(
                matches!(kind, Some("bad_token" | "seat_taken")),
                "claim {i}: {answer}"
            );
        }
    }
    let winner = format!("Racer {}", seated[0]);
    for server in servers {
        // Another process hears of the claim when it commits (PostgreSQL notifications).
        let mut summary = Value::Null;
        for _ in 0..200 {
            summary = server.get(&format!("/api/games/{id}")).await.1;
            if summary["seats_free"] == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(summary["seats"][1]["name"], winner.as_str(), "{summary}");
    }
}

async fn concurrent_claims_seat_one(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server.create(open_valley("Host")).await;
    let invitation = tokens[1].clone().expect("invitation");
    racing_claims_seat_exactly_one(&[&server], &id, &invitation).await;
}

/// Two server processes on one PostgreSQL, both with the game in memory, race the claim
/// of one seat: the seats row's compare-and-set lets exactly one claim through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_racing_one_invitation_seat_one_person() {
    let Some(db) = TestDb::new(Db::Postgres).await else {
        return;
    };
    let a = Server::start(&db.url);
    let b = Server::start(&db.url);
    for _ in 0..5 {
        let (id, tokens) = a.create(open_valley("Host")).await;
        // Both processes hold the table (and its free seat) before the race.
        let _watch_a = Client::connect(&a, &id, None).await;
        let _watch_b = Client::connect(&b, &id, None).await;
        let invitation = tokens[1].clone().expect("invitation");
        racing_claims_seat_exactly_one(&[&a, &b], &id, &invitation).await;
    }
}

/// An action naming a field the game does not read is `malformed` and changes nothing,
/// whatever its shape (a unit action such as `end_play`, an action with fields); what is
/// stored is the action as the game read it.
async fn actions_are_stored_as_read(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "seed": 3, "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}
            ]}),
        )
        .await;
    let mut clients = [
        Client::connect(&server, &id, tokens[0].as_deref()).await,
        Client::connect(&server, &id, tokens[1].as_deref()).await,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut refused_unit = false;
    let mut refused_fields = false;
    for _ in 0..200 {
        if refused_unit && refused_fields {
            break;
        }
        let mover = clients
            .iter()
            .position(|c| c.seat == c.to_move)
            .expect("a mover");
        let legal = clients[mover].legal.clone().expect("legal");
        let action = legal[rng.gen_range(0..legal.len())].clone();
        let unit = action.as_object().is_some_and(|o| o.len() == 1);
        let seq = clients[mover].seq;
        if (unit && !refused_unit) || (!unit && !refused_fields) {
            let mut padded = action.clone();
            padded["padding"] = Value::String("x".repeat(8_000));
            clients[mover].act(&padded).await;
            let error = clients[mover].next().await;
            assert_eq!(error["kind"], "malformed", "{padded}: {error}");
            assert!(
                error["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("padding")),
                "{error}"
            );
            assert_eq!(clients[mover].seq, seq, "nothing changed");
            refused_unit |= unit;
            refused_fields |= !unit;
        }
        clients[mover].act(&action).await;
        for client in clients.iter_mut() {
            let errors = client.wait_seq(seq + 1).await;
            assert!(errors.is_empty(), "{errors:?}");
        }
    }
    assert!(refused_unit && refused_fields, "both shapes were tried");
    // Stored exactly as read: each stored action is a legal action's canonical JSON, with
    // nothing of the refused padding.
    let store = server::store::open(&db.url, server::SyncMode::Normal)
        .await
        .expect("open the database");
    let moves = store.load_moves(&id, 0).await.expect("moves");
    assert_eq!(moves.len() as u64, clients[0].seq);
    let catalog = tabletop::games::catalog();
    let valley = catalog.get("valley").expect("valley");
    let mut game = valley
        .begin(server::Setup {
            config: &json!({"players": 2}),
            seed: 3,
            data: None,
        })
        .expect("a new game");
    for mv in &moves {
        assert!(!mv.action.to_string().contains("padding"), "{}", mv.action);
        assert_eq!(
            game.canonical_action(&mv.action).expect("canonical"),
            mv.action
        );
        game.apply_logged(&mv.action).expect("replays");
    }
    store.close().await;
}

/// Opens a WebSocket by hand on a raw TCP connection (to send frames no library would).
async fn raw_socket(server: &Server, id: &str) -> TcpStream {
    let address = server.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .await
        .expect("handshake");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream
            .read_exact(&mut byte)
            .await
            .expect("handshake answer");
        head.push(byte[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    stream
}

/// A client frame: `first` (FIN, reserved bits, opcode), masked unless `mask` is `None`.
fn frame(first: u8, payload: &[u8], mask: Option<[u8; 4]>) -> Vec<u8> {
    let mut bytes = vec![first];
    let mask_bit = if mask.is_some() { 0x80 } else { 0 };
    bytes.push(mask_bit | payload.len() as u8);
    match mask {
        Some(key) => {
            bytes.extend(key);
            bytes.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
        }
        None => bytes.extend(payload),
    }
    bytes
}

/// The code of the close frame the server sends, skipping its other frames.
async fn close_code(stream: &mut TcpStream) -> u16 {
    loop {
        let mut head = [0u8; 2];
        let read = tokio::time::timeout(Duration::from_secs(60), stream.read_exact(&mut head))
            .await
            .expect("a frame within the limit");
        read.expect("the server closes with a close frame");
        let len = match head[1] & 0x7f {
            126 => u64::from(stream.read_u16().await.expect("length")),
            127 => stream.read_u64().await.expect("length"),
            n => u64::from(n),
        };
        let mut payload = vec![0u8; len as usize];
        stream.read_exact(&mut payload).await.expect("payload");
        if head[0] & 0x0f == 0x8 {
            return u16::from_be_bytes([payload[0], payload[1]]);
        }
    }
}

/// Each protocol error closes with the code that says why (RFC 6455 7.4.1); a message
/// that is JSON but not a client message still gets a typed error and the connection
/// stays open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_close_with_their_codes() {
    let server = Server::with_sqlite();
    let (id, _) = server.create(open_valley("Host")).await;
    let key = Some([1, 2, 3, 4]);
    let hello = br#"{"type":"hello"}"#;
    let cases: [(&str, Vec<u8>, u16); 4] = [
        (
            "a text frame that is not UTF-8",
            frame(0x81, &[0xff, 0xfe, 0x41], key),
            1007,
        ),
        ("an unmasked client frame", frame(0x81, hello, None), 1002),
        ("a reserved opcode", frame(0x83, b"x", key), 1002),
        (
            "a frame over 1 MiB",
            // The header alone: the length is refused before any of it is read.
            [
                &[0x82u8, 0x80 | 127][..],
                &(2u64 << 20).to_be_bytes(),
                &[1, 2, 3, 4],
            ]
            .concat(),
            1009,
        ),
    ];
    for (what, bytes, code) in cases {
        let mut stream = raw_socket(&server, &id).await;
        // After hello too: the same codes close a seated connection.
        stream
            .write_all(&frame(0x81, hello, key))
            .await
            .expect("hello");
        stream.write_all(&bytes).await.expect("send");
        assert_eq!(close_code(&mut stream).await, code, "{what}");
    }
    // Bad JSON is an error message; the connection stays open and takes the hello.
    let mut client = Client::open(&server, &id).await;
    client.send_text("{not json".into()).await;
    assert_eq!(client.next().await["kind"], "malformed");
    client.send(&json!({"type": "hello"})).await;
    assert_eq!(client.next().await["type"], "state");
    // No hello within the time allowed (30 s): closed as a policy violation.
    let mut silent = Client::open(&server, &id).await;
    assert_eq!(silent.closed().await.0, 1008);
}

/// Names are kept in NFKC (full-width letters become ASCII) and refused, with the reason,
/// when they hold invisible or reordering characters, wherever a name enters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_hold_nothing_invisible() {
    let server = Server::with_sqlite();
    let (id, tokens) = server.create(open_valley("Ｂｅｎ")).await;
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][0]["name"], "Ben");
    for (name, code) in [("Ben\u{202E}nimda", "U+202E"), ("Be\u{200D}n", "U+200D")] {
        let (status, body) = server.post("/api/games", &open_valley(name)).await;
        assert_eq!((status, body["kind"].as_str()), (400, Some("malformed")));
        assert!(
            body["message"].as_str().is_some_and(|m| m.contains(code)),
            "{body}"
        );
        let (status, body) = server
            .post(&format!("/api/games/{id}/join"), &json!({"name": name}))
            .await;
        assert_eq!((status, body["kind"].as_str()), (400, Some("malformed")));
        let invitation = tokens[1].as_deref().expect("invitation");
        let (_, answer) = hello(&server, &id, invitation, name).await;
        assert_eq!(answer["kind"], "malformed", "{answer}");
    }
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats_free"], 1, "no refused name took the seat");
    let invitation = tokens[1].as_deref().expect("invitation");
    let (_, state) = hello(&server, &id, invitation, "Ｃｙ").await;
    assert_eq!(state["seats"][1]["name"], "Cy", "{state}");
}

/// `GET /api/games` with its query, and the next page the `Link` header names.
async fn lobby_page(server: &Server, path: &str) -> (Vec<Value>, Option<String>) {
    let response = reqwest::get(format!("{}{path}", server.base))
        .await
        .expect("GET");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    let next = response
        .headers()
        .get("link")
        .and_then(|v| v.to_str().ok())
        .map(|link| {
            let target = link
                .strip_prefix('<')
                .and_then(|l| l.split_once(">; rel=\"next\""))
                .unwrap_or_else(|| panic!("a next link: {link}"));
            target.0.to_string()
        });
    let games = response.json::<Value>().await.expect("JSON");
    (games.as_array().expect("a list").clone(), next)
}

/// The lobby filters by game and status and pages newest first; a page read from a cursor
/// is the same whatever games were created meanwhile.
async fn the_lobby_pages_and_filters(db: &TestDb) {
    let server = Server::start(&db.url);
    let mut valley_open = Vec::new();
    for i in 0..7 {
        valley_open.push(server.create(open_valley(&format!("V{i}"))).await.0);
        server
            .create(json!({"game": "valdora", "config": {"players": 3}, "seats": [
                {"kind": "human", "name": "D"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}
            ]}))
            .await;
    }
    server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "R"}, {"kind": "bot", "bot": "easy"}
            ]}),
        )
        .await;
    let (first, next) = lobby_page(&server, "/api/games?game=valley&status=open&limit=3").await;
    let mut listed = first;
    let mut next = next;
    // Games created after the first page do not move the pages after it.
    server.create(open_valley("Later")).await;
    while let Some(path) = next {
        let (page, after) = lobby_page(&server, &path).await;
        assert!(page.len() <= 3);
        listed.extend(page);
        next = after;
    }
    assert!(listed
        .iter()
        .all(|g| g["game"] == "valley" && g["status"] == "open"));
    let order: Vec<(i64, String)> = listed
        .iter()
        .map(|g| {
            (
                g["created"].as_i64().expect("created"),
                g["id"].as_str().expect("id").to_string(),
            )
        })
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] > w[1]),
        "newest first: {order:?}"
    );
    let mut ids: Vec<String> = order.into_iter().map(|(_, id)| id).collect();
    ids.sort();
    valley_open.sort();
    assert_eq!(
        ids, valley_open,
        "every open Valley game once, the later one not"
    );

    let (everything, _) = lobby_page(&server, "/api/games").await;
    assert_eq!(everything.len(), 16);
    let (valdora, next) = lobby_page(&server, "/api/games?game=valdora&limit=50").await;
    assert_eq!((valdora.len(), next), (7, None));
    lobby_filters_by_clock_rating_and_players(&server).await;
    for bad in [
        "/api/games?before=yesterday",
        "/api/games?game=chess",
        "/api/games?status=lost",
        "/api/games?clock=fast",
        "/api/games?rated=maybe",
        "/api/games?players=many",
        "/api/games?page=2",
    ] {
        let (status, body) = server.get(bad).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (400, Some("malformed")),
            "{bad}"
        );
    }
}

/// Issue 54: the lobby's filters by clock kind, by whether a table may be rated and by its
/// number of players, alone, together with the game and status, and through the pages.
async fn lobby_filters_by_clock_rating_and_players(server: &Server) {
    let with = |name: &str, extra: Value| {
        let mut table = open_valley(name);
        for (key, value) in extra.as_object().expect("an object") {
            table[key] = value.clone();
        }
        table
    };
    let realtime = json!({"kind": "realtime", "initial_secs": 600, "increment_secs": 10});
    let turn_based = json!({"kind": "turn_based", "per_move_secs": 86400, "bank_secs": 259200});
    let mut fast = Vec::new();
    for i in 0..3 {
        let (id, _) = server
            .create(with(&format!("Fast{i}"), json!({"clock": realtime})))
            .await;
        fast.push(id);
    }
    let (slow, _) = server
        .create(with("Slow", json!({"clock": turn_based, "hints": true})))
        .await;
    let ids = |games: &[Value]| -> Vec<String> {
        let mut ids: Vec<String> = games
            .iter()
            .map(|g| g["id"].as_str().expect("id").to_string())
            .collect();
        ids.sort();
        ids
    };
    fast.sort();
    let (listed, _) = lobby_page(server, "/api/games?clock=realtime").await;
    assert_eq!(ids(&listed), fast);
    assert!(listed.iter().all(|g| g["clock"]["kind"] == "realtime"));
    // The filters travel with the pages.
    let (first, mut next) = lobby_page(server, "/api/games?clock=realtime&limit=2").await;
    let mut paged = first;
    while let Some(path) = next {
        assert!(path.contains("clock=realtime"), "{path}");
        let (page, after) = lobby_page(server, &path).await;
        paged.extend(page);
        next = after;
    }
    assert_eq!(ids(&paged), fast);
    let (listed, _) = lobby_page(server, "/api/games?clock=turn_based&status=open").await;
    assert_eq!(ids(&listed), [slow.as_str()]);
    let (unrated, _) = lobby_page(server, "/api/games?rated=false").await;
    assert_eq!(ids(&unrated), [slow.as_str()], "hints: never rated");
    let (rated, _) = lobby_page(server, "/api/games?rated=true&game=valley").await;
    assert!(rated
        .iter()
        .all(|g| g["hints"] == false && g["casual"] == false));
    assert!(!rated.is_empty());
    let (untimed, _) = lobby_page(server, "/api/games?clock=none&players=3").await;
    assert!(!untimed.is_empty());
    assert!(untimed
        .iter()
        .all(|g| g["clock"]["kind"] == "none" && g["seats"].as_array().map(Vec::len) == Some(3)));
    let (two, _) = lobby_page(server, "/api/games?players=2&clock=realtime").await;
    assert_eq!(ids(&two), fast, "open_valley tables have two seats");
    let (none, next) = lobby_page(server, "/api/games?players=4").await;
    assert_eq!((none.len(), next), (0, None));
}

on_both_databases!(
    an_invitation_seats_one_person_once,
    concurrent_claims_seat_one,
    actions_are_stored_as_read,
    the_lobby_pages_and_filters,
);
