//! Chat at the table, on a real `tabletop serve` (SQLite and PostgreSQL): the seats talk
//! in the players' channel, which everyone reads; spectators talk in theirs, which the
//! seats receive only once the game is over. Messages are stored with the game (a
//! connection opened later gets them, and `/api/games/{id}/chat` serves them), are text,
//! and are limited in length and rate: a refused message changes nothing. On PostgreSQL,
//! a message said on one server process reaches the connections of another.

mod common;

use common::server::{play_random, Client, Server, TestDb};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// A Valley of the Kings game for two people: it starts at once.
fn valley() -> Value {
    json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}
    ]})
}

/// The texts of a list of chat messages.
fn texts(messages: &Value) -> Vec<&str> {
    messages
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["text"].as_str().expect("a text"))
        .collect()
}

/// The next chat message's messages.
async fn chat(client: &mut Client) -> Value {
    client.next_of("chat").await["messages"].clone()
}

async fn say(client: &mut Client, text: &str) {
    client.send(&json!({"type": "say", "text": text})).await;
}

/// The table's chat as `token`'s seat reads it (a spectator's without one).
async fn stored(server: &Server, id: &str, token: Option<&str>) -> Value {
    let path = format!("/api/games/{id}/chat");
    let (status, body) = match token {
        Some(token) => {
            let response = reqwest::Client::new()
                .get(format!("{}{path}", server.base))
                .bearer_auth(token)
                .send()
                .await
                .expect("GET");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("JSON"))
        }
        None => server.get(&path).await,
    };
    assert_eq!(status, 200, "{body}");
    body
}

/// Each seat's message reaches both seats and the spectator, named and as written (text,
/// never markup); a spectator's reaches the spectators only, until the end. A connection
/// opened later reads what it may of what was said, and so does the HTTP route.
async fn seats_and_spectators_talk_in_their_channels(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, openapi) = server.get("/api/openapi.json").await;
    let schemas = &openapi["components"]["schemas"];
    assert!(schemas.get("ChatMessage").is_some(), "{schemas}");
    assert!(schemas["ClientMessage"].to_string().contains("\"say\""));
    assert!(openapi["paths"].get("/api/games/{id}/chat").is_some());

    let (id, tokens) = server.create(valley()).await;
    let tokens: Vec<&str> = tokens
        .iter()
        .map(|t| t.as_deref().expect("a token"))
        .collect();
    let mut ada = Client::connect(&server, &id, Some(tokens[0])).await;
    let mut bo = Client::connect(&server, &id, Some(tokens[1])).await;
    let mut watcher = Client::connect(&server, &id, None).await;

    let markup = "<img src=x onerror=alert(1)> good luck";
    say(&mut ada, &format!("  {markup}\u{7}  ")).await;
    for client in [&mut ada, &mut bo, &mut watcher] {
        let messages = chat(client).await;
        let message = &messages[0];
        assert_eq!(messages.as_array().map(Vec::len), Some(1), "{messages}");
        assert_eq!(
            message["text"], markup,
            "trimmed, the bell removed, the rest as written"
        );
        assert_eq!(
            (
                &message["channel"],
                &message["seat"],
                &message["author"],
                &message["name"]
            ),
            (
                &json!("players"),
                &json!(0),
                &json!("seat-0"),
                &json!("Ada")
            ),
            "{message}"
        );
        assert_eq!(message["seq"], 0, "said before any move");
    }

    say(&mut watcher, "Bo should take the scarab").await;
    let heard = chat(&mut watcher).await;
    assert_eq!(heard[0]["channel"], "spectators", "{heard}");
    assert_eq!(heard[0]["seat"], Value::Null);
    assert!(heard[0]["author"]
        .as_str()
        .is_some_and(|a| a.starts_with("guest-")));
    assert_eq!(
        heard[0]["name"],
        Value::Null,
        "a spectator not signed in has no name"
    );
    say(&mut bo, "thanks").await;
    for client in [&mut ada, &mut bo] {
        assert_eq!(
            texts(&chat(client).await),
            ["thanks"],
            "the seats never got the spectator's message"
        );
    }
    assert_eq!(texts(&chat(&mut watcher).await), ["thanks"]);
    for client in [&ada, &bo] {
        assert!(
            !client.received.iter().any(|m| m.contains("scarab")),
            "a seat received the spectators' channel"
        );
    }

    // Later connections and the route: the seats read the players' channel only.
    let said = [markup, "Bo should take the scarab", "thanks"];
    let mut late = Client::connect(&server, &id, None).await;
    assert_eq!(texts(&chat(&mut late).await), said);
    let mut ada_again = Client::connect(&server, &id, Some(tokens[0])).await;
    assert_eq!(texts(&chat(&mut ada_again).await), [markup, "thanks"]);
    assert_eq!(texts(&stored(&server, &id, None).await), said);
    assert_eq!(
        texts(&stored(&server, &id, Some(tokens[1])).await),
        [markup, "thanks"]
    );

    // The end: every seat receives the spectators' messages, and then reads them all.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut players = vec![ada, bo];
    play_random(&mut players, &mut rng, 100_000).await;
    for client in &mut players {
        assert_eq!(client.status, "over");
        assert_eq!(
            texts(&chat(client).await),
            ["Bo should take the scarab"],
            "revealed at the end"
        );
    }
    assert_eq!(texts(&stored(&server, &id, Some(tokens[0])).await), said);
    // After the end, talk goes on in the players' channel.
    say(&mut players[1], "gg").await;
    assert_eq!(texts(&chat(&mut players[0]).await), ["gg"]);
}

/// Empty, long, and too many messages are refused with a typed error, and nothing is
/// stored; the chat of a table that does not exist is `not_found`.
async fn bad_messages_are_refused_and_change_nothing(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server.create(valley()).await;
    let mut ada = Client::connect(&server, &id, tokens[0].as_deref()).await;
    for (text, kind) in [
        (json!("   "), "malformed"),
        (json!("\u{0}\u{1b}"), "malformed"),
        (json!("x".repeat(501)), "too_large"),
        (json!(42), "malformed"),
    ] {
        ada.send(&json!({"type": "say", "text": text})).await;
        let error = ada.error().await;
        assert_eq!(error["kind"], kind, "{text}: {error}");
    }
    assert_eq!(
        stored(&server, &id, None).await,
        json!([]),
        "nothing stored"
    );
    // Five at once (the refused ones did not count), then one every two seconds.
    let longest = "é".repeat(500);
    for _ in 0..5 {
        say(&mut ada, &longest).await;
        assert_eq!(texts(&chat(&mut ada).await), [longest.as_str()]);
    }
    say(&mut ada, "one more").await;
    let error = ada.error().await;
    assert_eq!(error["kind"], "rate_limited", "{error}");
    assert_eq!(
        stored(&server, &id, None).await.as_array().map(Vec::len),
        Some(5)
    );
    let (status, body) = server.get("/api/games/nosuchgame0000/chat").await;
    assert_eq!(
        (status, &body["kind"]),
        (404, &json!("not_found")),
        "{body}"
    );
}

/// Spectators cannot silence the players (issue 55, two findings): each channel has its own
/// cap (`--chat-per-channel`, 20 here), counted where messages are stored, so that many
/// spectators writing at once fill theirs exactly to the cap, never past it, and the
/// seats still talk in theirs; and a message keeps no bidirectional control or zero-width
/// character.
async fn a_spectators_flood_never_reaches_the_players_chat(db: &TestDb) {
    let server = Server::start_with(&db.url, &["--chat-per-channel", "20"]);
    let (id, tokens) = server.create(valley()).await;
    let mut ada = Client::connect(&server, &id, tokens[0].as_deref()).await;
    let mut watchers = Vec::new();
    for _ in 0..8 {
        watchers.push(Client::connect(&server, &id, None).await);
    }
    // 8 × 5 messages, all sent before any answer is read: they are stored concurrently.
    for (w, watcher) in watchers.iter_mut().enumerate() {
        for n in 0..5 {
            say(watcher, &format!("flood {w}-{n}")).await;
        }
    }
    let mut refused = 0;
    for (w, watcher) in watchers.iter_mut().enumerate() {
        // Each message is answered: with its echo through the channel, or an error.
        let own = format!("flood {w}-");
        let mut answered = 0;
        while answered < 5 {
            let message = watcher.next().await;
            match message["type"].as_str() {
                Some("error") => {
                    assert_eq!(message["kind"], "forbidden", "{message}");
                    assert!(
                        message["message"]
                            .as_str()
                            .is_some_and(|m| m.contains("spectators' chat")),
                        "{message}"
                    );
                    refused += 1;
                    answered += 1;
                }
                Some("chat") => {
                    answered += texts(&message["messages"])
                        .iter()
                        .filter(|t| t.starts_with(&own))
                        .count();
                }
                _ => {}
            }
        }
    }
    let kept = stored(&server, &id, None).await;
    let spectators = kept
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["channel"] == "spectators")
        .count();
    assert_eq!(spectators, 20, "filled to the cap, not past it");
    assert_eq!(refused, 20, "the rest refused");
    // The players' channel is untouched by it.
    say(&mut ada, "we can still talk").await;
    assert_eq!(texts(&chat(&mut ada).await), ["we can still talk"]);
    // What names refuse for hiding or reordering text is not kept in chat either.
    say(&mut ada, "g\u{202E}g \u{200B}well\u{2066} played").await;
    assert_eq!(texts(&chat(&mut ada).await), ["gg well played"]);
}

on_both_databases!(
    seats_and_spectators_talk_in_their_channels,
    bad_messages_are_refused_and_change_nothing,
    a_spectators_flood_never_reaches_the_players_chat,
);

/// Two server processes on one PostgreSQL database: a message said on one reaches the
/// connections of the other, once, and a spectator's stays out of the seats' there too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_processes_pass_the_chat_on() {
    use common::server::Db;
    let Some(db) = TestDb::new(Db::Postgres).await else {
        return;
    };
    let first = Server::start(&db.url);
    let second = Server::start(&db.url);
    let (id, tokens) = first.create(valley()).await;
    let mut ada = Client::connect(&first, &id, tokens[0].as_deref()).await;
    let mut bo = Client::connect(&second, &id, tokens[1].as_deref()).await;
    let mut watcher = Client::connect(&second, &id, None).await;
    say(&mut watcher, "psst").await;
    assert_eq!(texts(&chat(&mut watcher).await), ["psst"]);
    say(&mut ada, "hello from the first").await;
    for client in [&mut ada, &mut bo, &mut watcher] {
        assert_eq!(texts(&chat(client).await), ["hello from the first"]);
    }
    say(&mut bo, "hello from the second").await;
    for client in [&mut ada, &mut bo, &mut watcher] {
        assert_eq!(texts(&chat(client).await), ["hello from the second"]);
    }
    let everyone = Client::connect(&first, &id, None).await;
    for client in [&ada, &bo, &watcher, &everyone] {
        let chats = client
            .received
            .iter()
            .filter(|m| m.contains("\"chat\""))
            .count();
        assert!(chats <= 3, "no message came twice: {:?}", client.received);
    }
    assert!(!ada.received.iter().any(|m| m.contains("psst")));
    let mut everyone = everyone;
    assert_eq!(
        texts(&chat(&mut everyone).await),
        ["psst", "hello from the first", "hello from the second"]
    );
}
