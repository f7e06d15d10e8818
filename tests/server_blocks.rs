//! Blocks on a real `tabletop serve` (SQLite and PostgreSQL; issue 55 item 1): Ben blocks
//! Ada, and from then on the two are kept apart. Neither takes a seat at a table the other
//! sits at (from the lobby or with an invitation link), their seeks are never matched
//! together, Ada's friend requests never reach Ben (she is not told), and each one's chat
//! is hidden from the other: in the chat a connection starts with, in what it hears
//! live (a connection opened before the block too), and in `GET /chat`. Every refusal
//! changes nothing; on PostgreSQL a block made on one process hides the chat another
//! process sends at once.

mod common;

use std::time::Duration;

use common::people::{delete_as, get_as, hand_to_account, notifications_of, post_as, sign_up};
use common::server::{Client, Server, TestDb};
use reqwest::header::COOKIE;
use serde_json::{json, Value};

async fn blocks_of(server: &Server, cookie: &str) -> Vec<String> {
    let (status, list) = get_as(server, "/api/blocks", Some(cookie)).await;
    assert_eq!(status, 200, "{list}");
    list.as_array()
        .expect("a list")
        .iter()
        .map(|b| b["name"].as_str().expect("a name").to_string())
        .collect()
}

async fn block(server: &Server, cookie: &str, name: &str) -> (u16, Value) {
    post_as(
        server,
        "/api/blocks",
        Some(cookie),
        &json!({ "name": name }),
    )
    .await
}

/// Connects to game `id` as the signed-in person of `cookie` and says hello with
/// `token` (none: watching, or their account's seat).
async fn connect_as(server: &Server, id: &str, cookie: &str, token: Option<&str>) -> Client {
    let mut client = Client::open_with(server, id, &[("cookie", cookie)]).await;
    client.send(&json!({"type": "hello", "token": token})).await;
    let state = client.next_of("state").await;
    assert_eq!(state["type"], "state", "{state}");
    client
}

async fn say(client: &mut Client, text: &str) {
    client.send(&json!({"type": "say", "text": text})).await;
}

/// The texts of the next chat message `client` hears.
async fn next_texts(client: &mut Client) -> Vec<String> {
    texts(&client.next_of("chat").await["messages"])
}

fn texts(messages: &Value) -> Vec<String> {
    messages
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["text"].as_str().expect("a text").to_string())
        .collect()
}

/// The table's chat as the signed-in person of `cookie` with seat `token` reads it.
async fn stored_chat(server: &Server, id: &str, cookie: &str, token: &str) -> Vec<String> {
    let response = reqwest::Client::new()
        .get(format!("{}/api/games/{id}/chat", server.base))
        .header(COOKIE, cookie)
        .bearer_auth(token)
        .send()
        .await
        .expect("GET chat");
    assert_eq!(response.status().as_u16(), 200);
    texts(&response.json().await.expect("JSON"))
}

/// A running three-seat Valley table of Ada, Ben and Cy, Ada's and Ben's seats their
/// accounts': its id and the seats' tokens.
async fn table_of_three(server: &Server, ada: &str, ben: &str) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 3}, "seats": [
            {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Ben"},
            {"kind": "human", "name": "Cy"}]}),
        )
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("a token")).collect();
    hand_to_account(server, ada, &id, &tokens[0]).await;
    hand_to_account(server, ben, &id, &tokens[1]).await;
    (id, tokens)
}

async fn blocked_accounts_are_kept_apart(db: &TestDb) {
    let server = Server::start(&db.url);
    let (ada_id, ada) = sign_up(&server, "Ada").await;
    let (_, ben) = sign_up(&server, "Ben").await;
    let (_, cy) = sign_up(&server, "Cy").await;
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in ["/api/blocks", "/api/blocks/{name}"] {
        assert!(openapi["paths"].get(path).is_some(), "{path}");
    }
    // Friends before: the block ends it.
    post_as(&server, "/api/friends", Some(&ada), &json!({"name": "Ben"})).await;
    let accepted = format!("/api/friends/{ada_id}/accept");
    assert_eq!(
        post_as(&server, &accepted, Some(&ben), &json!({})).await.0,
        200
    );
    let (id, tokens) = table_of_three(&server, &ada, &ben).await;
    let mut ben_seat = connect_as(&server, &id, &ben, Some(&tokens[1])).await;
    let mut ada_seat = connect_as(&server, &id, &ada, Some(&tokens[0])).await;
    let mut cy_seat = Client::connect(&server, &id, Some(&tokens[2])).await;
    say(&mut ada_seat, "before").await;
    for client in [&mut ben_seat, &mut ada_seat, &mut cy_seat] {
        assert_eq!(next_texts(client).await, ["before"]);
    }

    // Refusals, none of which stores anything.
    for (body, status, kind) in [
        (json!({"name": "Ben"}), 400, "malformed"),
        (json!({"name": "ben "}), 400, "malformed"),
        (json!({"name": "Nobody"}), 404, "not_found"),
        (json!({"name": "Ada", "extra": 1}), 400, "malformed"),
        (json!({"names": "Ada"}), 400, "malformed"),
    ] {
        let (got, answer) = post_as(&server, "/api/blocks", Some(&ben), &body).await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{body}"
        );
    }
    let (got, answer) = post_as(&server, "/api/blocks", None, &json!({"name": "Ada"})).await;
    assert_eq!((got, answer["kind"].as_str()), (401, Some("not_signed_in")));
    assert_eq!(delete_as(&server, "/api/blocks/Ada", &ben).await, 404);
    assert_eq!(delete_as(&server, "/api/blocks/Nobody", &ben).await, 404);
    assert!(blocks_of(&server, &ben).await.is_empty());

    // Ben blocks Ada (twice changes nothing).
    assert_eq!(block(&server, &ben, "ada").await.0, 204);
    assert_eq!(block(&server, &ben, "Ada").await.0, 204);
    assert_eq!(blocks_of(&server, &ben).await, ["Ada"]);
    assert!(
        blocks_of(&server, &ada).await.is_empty(),
        "Ada blocked nobody"
    );
    for cookie in [&ada, &ben] {
        let (_, friends) = get_as(&server, "/api/friends", Some(cookie)).await;
        assert_eq!(friends["friends"], json!([]), "{friends}");
    }

    // Chat: hidden both ways, live on the connections open before the block…
    say(&mut ada_seat, "hidden from Ben").await;
    assert_eq!(next_texts(&mut ada_seat).await, ["hidden from Ben"]);
    assert_eq!(next_texts(&mut cy_seat).await, ["hidden from Ben"]);
    say(&mut ben_seat, "hidden from Ada").await;
    assert_eq!(next_texts(&mut ben_seat).await, ["hidden from Ada"]);
    assert_eq!(next_texts(&mut cy_seat).await, ["hidden from Ada"]);
    say(&mut cy_seat, "Cy to all").await;
    assert_eq!(next_texts(&mut ben_seat).await, ["Cy to all"]);
    assert_eq!(next_texts(&mut ada_seat).await, ["Cy to all"]);
    // …in the chat a new connection starts with, and in the stored chat.
    let mut ben_again = Client::open_with(&server, &id, &[("cookie", &ben)]).await;
    ben_again
        .send(&json!({"type": "hello", "token": tokens[1]}))
        .await;
    assert_eq!(ben_again.next_of("state").await["type"], "state");
    assert_eq!(
        next_texts(&mut ben_again).await,
        ["hidden from Ada", "Cy to all"]
    );
    assert_eq!(
        stored_chat(&server, &id, &ada, &tokens[0]).await,
        ["before", "hidden from Ben", "Cy to all"]
    );
    assert_eq!(
        stored_chat(&server, &id, &ben, &tokens[1]).await,
        ["hidden from Ada", "Cy to all"]
    );
    // Cy, whom nobody blocked, reads everything.
    assert_eq!(
        stored_chat(&server, &id, &cy, &tokens[2]).await,
        ["before", "hidden from Ben", "hidden from Ada", "Cy to all"]
    );

    // Tables: neither joins one the other sits at, from the lobby or with a link.
    let (open, open_tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 3}, "seats": [
            {"kind": "human", "name": "Ben"}, {"kind": "open"}, {"kind": "human"}]}),
        )
        .await;
    hand_to_account(
        &server,
        &ben,
        &open,
        open_tokens[0].as_deref().expect("Ben's"),
    )
    .await;
    let join = format!("/api/games/{open}/join");
    let (status, refused) = post_as(&server, &join, Some(&ada), &json!({"name": "Ada"})).await;
    assert_eq!(
        (status, refused["kind"].as_str()),
        (403, Some("forbidden")),
        "{refused}"
    );
    let link = open_tokens[2].clone().expect("the invitation");
    let mut ada_link = Client::open_with(&server, &open, &[("cookie", &ada)]).await;
    ada_link
        .send(&json!({"type": "hello", "token": link, "name": "Ada"}))
        .await;
    assert_eq!(ada_link.error().await["kind"], "forbidden");
    let (_, summary) = server.get(&format!("/api/games/{open}")).await;
    assert_eq!(summary["status"], "open", "nothing taken: {summary}");
    // Cy may, and so may a guest with the link.
    let (status, _) = post_as(&server, &join, Some(&cy), &json!({"name": "Cy"})).await;
    assert_eq!(status, 200);
    Client::connect(&server, &open, Some(&link)).await;

    // Friend requests: Ben must unblock first; Ada's is kept for her but never reaches Ben.
    let (status, answer) =
        post_as(&server, "/api/friends", Some(&ben), &json!({"name": "Ada"})).await;
    assert_eq!((status, answer["kind"].as_str()), (400, Some("malformed")));
    let told_before = notifications_of(&server, &ben).await["unread"].clone();
    let (status, answer) =
        post_as(&server, "/api/friends", Some(&ada), &json!({"name": "Ben"})).await;
    assert_eq!((status, answer), (201, json!({"friends": false})));
    let (_, ada_friends) = get_as(&server, "/api/friends", Some(&ada)).await;
    assert_eq!(ada_friends["outgoing"][0]["name"], "Ben", "{ada_friends}");
    let (_, ben_friends) = get_as(&server, "/api/friends", Some(&ben)).await;
    assert_eq!(ben_friends["incoming"], json!([]), "{ben_friends}");
    assert_eq!(notifications_of(&server, &ben).await["unread"], told_before);
    let (status, _) = post_as(
        &server,
        &format!("/api/friends/{ada_id}/accept"),
        Some(&ben),
        &json!({}),
    )
    .await;
    assert_eq!(status, 404);

    // Seeks: Ben and Ada are never matched; Cy, who came last, sits with Ben.
    let seek = json!({"game": "pandoria", "players": {"min": 2, "max": 2},
        "clock": {"kind": "realtime", "initial_secs": 300, "increment_secs": 5}});
    for cookie in [&ben, &ada] {
        let (status, body) = post_as(&server, "/api/seeks", Some(cookie), &seek).await;
        assert_eq!(status, 201, "{body}");
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, open_seeks) = server.get("/api/seeks").await;
    assert_eq!(
        open_seeks["seeks"].as_array().map(Vec::len),
        Some(2),
        "{open_seeks}"
    );
    let (status, _) = post_as(&server, "/api/seeks", Some(&cy), &seek).await;
    assert_eq!(status, 201);
    let mut left = Value::Null;
    for _ in 0..100 {
        (_, left) = server.get("/api/seeks").await;
        if left["seeks"].as_array().map(Vec::len) == Some(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left["seeks"][0]["name"], "Ada", "{left}");
    let (_, ben_seats) = get_as(&server, "/api/account/seats", Some(&ben)).await;
    assert_eq!(ben_seats[0]["game"]["game"], "pandoria", "{ben_seats}");
    let (_, cy_seats) = get_as(&server, "/api/account/seats", Some(&cy)).await;
    assert_eq!(ben_seats[0]["game"]["id"], cy_seats[0]["game"]["id"]);

    // Unblocked, Ada's chat reaches Ben again (and the table joins are open again).
    assert_eq!(delete_as(&server, "/api/blocks/Ada", &ben).await, 204);
    assert!(blocks_of(&server, &ben).await.is_empty());
    say(&mut ada_seat, "heard again").await;
    assert_eq!(next_texts(&mut ben_seat).await, ["heard again"]);
}

on_both_databases!(blocked_accounts_are_kept_apart);

/// Two processes on one PostgreSQL database: Ben blocks Ada on one, and the chat the
/// other sends Ben's connection hides hers at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_hides_chat_on_every_process() {
    let Some(db) = TestDb::new(common::server::Db::Postgres).await else {
        return;
    };
    let here = Server::start(&db.url);
    let there = Server::start(&db.url);
    let (_, ada) = sign_up(&here, "Ada").await;
    let (_, ben) = sign_up(&here, "Ben").await;
    let (id, tokens) = table_of_three(&here, &ada, &ben).await;
    let mut ben_seat = connect_as(&there, &id, &ben, Some(&tokens[1])).await;
    let mut ada_seat = connect_as(&there, &id, &ada, Some(&tokens[0])).await;
    say(&mut ada_seat, "before").await;
    assert_eq!(next_texts(&mut ben_seat).await, ["before"]);
    assert_eq!(block(&here, &ben, "Ada").await.0, 204);
    // The other process hears the block as the store tells it; until then a message of
    // Ada's may still reach Ben, so the test waits for the first that does not.
    let mut cy_seat = Client::connect(&there, &id, Some(&tokens[2])).await;
    let mut hidden = false;
    // At most four: a connection sends five messages at once (CHAT_BURST).
    for attempt in 0..4 {
        say(&mut ada_seat, &format!("hidden {attempt}")).await;
        say(&mut cy_seat, &format!("marker {attempt}")).await;
        let heard = next_texts(&mut ben_seat).await;
        if heard == [format!("marker {attempt}")] {
            hidden = true;
            break;
        }
        assert_eq!(heard, [format!("hidden {attempt}")]);
        assert_eq!(
            next_texts(&mut ben_seat).await,
            [format!("marker {attempt}")]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(hidden, "the block never reached the other process");
}
