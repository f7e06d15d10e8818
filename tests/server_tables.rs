//! Tables that survive real life, on a real `tabletop serve` (SQLite and PostgreSQL):
//! seats for friends are reachable only through their invitation link, every seat's
//! presence reaches the others, a person who is gone can be replaced by a bot and take the
//! seat back, a person may leave for good, the creator may cancel a table that has not
//! started, and a table nobody fills expires. Every refusal changes nothing.

mod common;

use std::time::Duration;

use common::server::{Client, Server, TestDb};
use serde_json::{json, Value};

/// A Valley of the Kings game for two people, both named (it starts at once).
fn valley_for(host: &str, guest: &str) -> Value {
    json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": host}, {"kind": "human", "name": guest}
    ]})
}

/// `POST path` with a bearer token and no body.
async fn post_as(server: &Server, path: &str, token: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .bearer_auth(token)
        .send()
        .await
        .expect("POST");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A seat for a friend is taken only with its invitation link: the lobby's join refuses
/// it (`forbidden`), and takes open seats only; the summary says which seats are open.
async fn a_friends_seat_is_taken_only_with_its_link(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 3}, "seats": [
                {"kind": "human", "name": "Host"}, {"kind": "human"}, {"kind": "open"}
            ]}),
        )
        .await;
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (&summary["seats"][1]["open"], &summary["seats"][2]["open"]),
        (&json!(false), &json!(true)),
        "{summary}"
    );
    // The friend's seat by number: refused, nothing changed.
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Mallory", "seat": 1}),
        )
        .await;
    assert_eq!((status, body["kind"].as_str()), (403, Some("forbidden")));
    // Any free seat: the open one.
    let (status, joined) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Ola"}))
        .await;
    assert_eq!(
        (status, joined["seat"].as_u64()),
        (200, Some(2)),
        "{joined}"
    );
    // No open seat is left: the friend's seat is not offered.
    let (status, body) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Late"}))
        .await;
    assert_eq!((status, body["kind"].as_str()), (409, Some("seat_taken")));
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][1]["name"], Value::Null, "{summary}");
    assert_eq!(summary["status"], "open");
    // The link seats the friend.
    let mut friend = Client::open(&server, &id).await;
    friend
        .send(&json!({"type": "hello", "token": tokens[1], "name": "Friend"}))
        .await;
    let state = friend.next_of("state").await;
    assert_eq!(
        (state["seat"].as_u64(), state["status"].as_str()),
        (Some(1), Some("running"))
    );
}

/// Every seat's presence reaches the others at once: online with a tab shown, away with
/// every tab hidden, offline with none; two tabs of one seat are one presence.
async fn presence_reaches_everyone(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server.create(valley_for("Ana", "Ben")).await;
    let mut ana = Client::open(&server, &id).await;
    ana.hear_presence = true;
    ana.send(&json!({"type": "hello", "token": tokens[0]}))
        .await;
    let state = ana.next().await;
    assert_eq!(state["seats"][1]["presence"]["state"], "offline", "{state}");
    assert_eq!(state["seats"][0]["presence"]["state"], "online", "{state}");
    let mut spectator = Client::connect(&server, &id, None).await;
    spectator.hear_presence = true;

    let mut ben = Client::connect(&server, &id, tokens[1].as_deref()).await;
    let seen = ana
        .seats_until(1, |s| s["presence"]["state"] == "online")
        .await;
    assert!(seen["seats"][1]["presence"]["since"].as_i64() > Some(0));
    spectator
        .seats_until(1, |s| s["presence"]["state"] == "online")
        .await;

    // A second tab of Ben's, then the first hidden: Ben is still online (one tab shows).
    let mut ben_too = Client::connect(&server, &id, tokens[1].as_deref()).await;
    ben.send(&json!({"type": "presence", "away": true})).await;
    ben_too
        .send(&json!({"type": "presence", "away": true}))
        .await;
    ana.seats_until(1, |s| s["presence"]["state"] == "away")
        .await;
    ben_too
        .send(&json!({"type": "presence", "away": false}))
        .await;
    ana.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;
    drop(ben_too);
    drop(ben);
    let gone = spectator
        .seats_until(1, |s| s["presence"]["state"] == "offline")
        .await;
    assert_eq!(gone["seats"][0]["presence"]["state"], "online", "{gone}");
    // The summary (and the lobby) carry no presence.
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][0]["presence"], Value::Null, "{summary}");
}

/// A person gone for the hand-over time may be replaced by a bot, by another person at the
/// table only; the bot plays the seat until its person takes it back; each change is a
/// seat event everyone is told and the log keeps; refusals change nothing.
async fn a_gone_seat_is_handed_to_a_bot_and_taken_back(db: &TestDb) {
    let server = Server::start_with(&db.url, &["--hand-over-after-secs", "1"]);
    let (id, tokens) = server.create(valley_for("Ana", "Ben")).await;
    let mut ana = Client::connect(&server, &id, tokens[0].as_deref()).await;
    ana.hear_presence = true;
    let ben = Client::connect(&server, &id, tokens[1].as_deref()).await;
    ana.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;

    // Ben is here: his seat is not handed over. A spectator hands over nothing.
    ana.send(&json!({"type": "hand_over", "seat": 1})).await;
    assert_eq!(ana.error().await["kind"], "forbidden");
    let mut spectator = Client::connect(&server, &id, None).await;
    spectator
        .send(&json!({"type": "hand_over", "seat": 1}))
        .await;
    assert_eq!(spectator.error().await["kind"], "forbidden");

    drop(ben);
    ana.seats_until(1, |s| s["presence"]["state"] == "offline")
        .await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    ana.send(&json!({"type": "hand_over", "seat": 1})).await;
    let handed = ana.seats_until(1, |s| !s["stand_in"].is_null()).await;
    assert_eq!(handed["event"]["what"], "handed_over", "{handed}");
    assert_eq!(
        (
            handed["event"]["seat"].as_u64(),
            handed["event"]["by"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(handed["seats"][1]["stand_in"], "medium");

    // The bot plays Ben's turns.
    ana.until_to_move(0).await;
    ana.play_while_to_move().await;
    let before = ana.seq;
    ana.until_to_move(0).await;
    assert!(ana.seq > before, "the bot moved for Ben");

    // Ben comes back: his moves are refused until he takes the seat back.
    let mut ben = Client::open(&server, &id).await;
    ben.send(&json!({"type": "hello", "token": tokens[1]}))
        .await;
    let state = ben.next().await;
    assert_eq!(state["seats"][1]["stand_in"], "medium", "{state}");
    ben.send(&json!({"type": "take_back"})).await;
    let back = ben.seats_until(1, |s| s["stand_in"].is_null()).await;
    assert_eq!(back["event"]["what"], "took_back", "{back}");
    ana.play_while_to_move().await;
    ben.until_to_move(1).await;
    assert!(ben.legal.is_some(), "Ben moves again himself");
    let seq = ben.seq;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seq"].as_u64(), Some(seq), "no bot moved for Ben");
    ben.send(&json!({"type": "take_back"})).await;
    assert_eq!(ben.error().await["kind"], "forbidden");

    // The log keeps both seat events after the moves they followed.
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    let events: Vec<&Value> = log
        .as_array()
        .expect("log")
        .iter()
        .filter_map(|e| e.get("seat_event"))
        .collect();
    assert_eq!(events.len(), 2, "{log}");
    assert_eq!(
        (&events[0]["what"], &events[1]["what"]),
        (&json!("handed_over"), &json!("took_back"))
    );
    // And a restarted server still knows them.
    drop(ana);
    drop(ben);
    drop(spectator);
    drop(server);
    let server = Server::start(&db.url);
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    let kept = log
        .as_array()
        .expect("log")
        .iter()
        .filter(|e| e.get("seat_event").is_some())
        .count();
    assert_eq!(kept, 2, "{log}");
}

/// A person who leaves for good leaves the seat to a bot that finishes the game; the seat
/// is marked as left and cannot be taken back.
async fn a_person_who_leaves_is_replaced_to_the_end(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "stand_in": "easy", "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}
            ]}),
        )
        .await;
    let mut ana = Client::connect(&server, &id, tokens[0].as_deref()).await;
    ana.send(&json!({"type": "leave"})).await;
    let left = ana.seats_until(0, |s| s["left"] == true).await;
    assert_eq!(left["event"]["what"], "left", "{left}");
    assert_eq!(left["seats"][0]["stand_in"], "easy");
    ana.send(&json!({"type": "take_back"})).await;
    assert_eq!(ana.error().await["kind"], "forbidden");
    let summary = server.wait_over(&id, Duration::from_secs(120)).await;
    assert_eq!(summary["seats"][0]["left"], true, "{summary}");
    // A stand-in strength outside the offered ones is malformed.
    let (status, body) = server
        .post(
            "/api/games",
            &json!({"game": "valley", "config": {"players": 2}, "stand_in": "ismcts", "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}
            ]}),
        )
        .await;
    assert_eq!((status, body["kind"].as_str()), (400, Some("malformed")));
}

/// The creator cancels a table that waits for players with the creator token: it leaves
/// the lobby, takes nobody, and its watchers are told; nobody else cancels it, and a
/// started table is not cancelled.
async fn the_creator_cancels_a_table_before_it_starts(db: &TestDb) {
    let server = Server::start(&db.url);
    let (status, created) = server
        .post(
            "/api/games",
            &json!({"game": "valley", "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "Host"}, {"kind": "open"}
            ]}),
        )
        .await;
    assert_eq!(status, 201);
    let id = created["id"].as_str().expect("id").to_string();
    let creator = created["creator_token"].as_str().expect("creator token");
    let host_token = created["seats"][0]["token"].as_str().expect("host token");
    let mut host = Client::connect(&server, &id, Some(host_token)).await;

    let (status, body) = post_as(&server, &format!("/api/games/{id}/cancel"), host_token).await;
    assert_eq!((status, body["kind"].as_str()), (403, Some("forbidden")));
    let (status, _) = post_as(&server, &format!("/api/games/{id}/cancel"), creator).await;
    assert_eq!(status, 204);
    let told = host.next_of("seats").await;
    assert_eq!(told["status"], "cancelled", "{told}");
    let (status, body) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Late"}))
        .await;
    assert_eq!((status, body["kind"].as_str()), (409, Some("game_over")));
    let (_, lobby) = server.get("/api/games").await;
    assert!(
        lobby
            .as_array()
            .expect("lobby")
            .iter()
            .all(|g| g["id"] != id),
        "a cancelled table left the lobby: {lobby}"
    );
    let (_, cancelled) = server.get("/api/games?status=cancelled").await;
    assert_eq!(cancelled[0]["id"], id.as_str(), "{cancelled}");

    // A started table is not cancelled.
    let (status, created) = server.post("/api/games", &valley_for("A", "B")).await;
    assert_eq!(status, 201);
    let started = created["id"].as_str().expect("id");
    let creator = created["creator_token"].as_str().expect("creator token");
    let (status, body) = post_as(&server, &format!("/api/games/{started}/cancel"), creator).await;
    assert_eq!((status, body["kind"].as_str()), (403, Some("forbidden")));
}

/// A table nobody fills in the server's time expires: its status says so, it leaves the
/// lobby, and nobody joins it; running tables are untouched.
async fn an_unfilled_table_expires(db: &TestDb) {
    let server = Server::start_with(&db.url, &["--expire-open-after-secs", "2"]);
    let (open, _) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "Host"}, {"kind": "open"}
            ]}),
        )
        .await;
    let (running, _) = server.create(valley_for("A", "B")).await;
    let started = std::time::Instant::now();
    loop {
        let (_, summary) = server.get(&format!("/api/games/{open}")).await;
        if summary["status"] == "expired" {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{summary}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let (_, summary) = server.get(&format!("/api/games/{running}")).await;
    assert_eq!(summary["status"], "running");
    let (status, body) = server
        .post(&format!("/api/games/{open}/join"), &json!({"name": "Late"}))
        .await;
    assert_eq!((status, body["kind"].as_str()), (409, Some("game_over")));
    let (_, lobby) = server.get("/api/games?status=open").await;
    assert!(lobby.as_array().expect("lobby").is_empty(), "{lobby}");
}

on_both_databases!(
    a_friends_seat_is_taken_only_with_its_link,
    presence_reaches_everyone,
    a_gone_seat_is_handed_to_a_bot_and_taken_back,
    a_person_who_leaves_is_replaced_to_the_end,
    the_creator_cancels_a_table_before_it_starts,
    an_unfilled_table_expires,
);

/// Presence is shared by the processes on one PostgreSQL database (issue 54 part 5): a
/// seat connected to one process is online, away and offline in the other as it changes
/// there; a seat online elsewhere is not handed to a bot here; and the seats of a process
/// killed with `kill -9` go offline everywhere once its presence lapses.
#[tokio::test(flavor = "multi_thread")]
async fn presence_is_shared_across_processes_on_postgres() {
    let Some(db) = TestDb::new(common::server::Db::Postgres).await else {
        return;
    };
    let flags = ["--hand-over-after-secs", "1", "--lease-secs", "2"];
    let here = Server::start_with(&db.url, &flags);
    let mut there = Server::start_with(&db.url, &flags);
    let (id, tokens) = here.create(valley_for("Ana", "Ben")).await;
    let mut ana = Client::connect(&here, &id, tokens[0].as_deref()).await;
    ana.hear_presence = true;

    let mut ben = Client::connect(&there, &id, tokens[1].as_deref()).await;
    ben.hear_presence = true;
    ana.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;
    // Ana, connected here only, is online there too.
    ben.seats_until(0, |s| s["presence"]["state"] == "online")
        .await;
    ben.send(&json!({"type": "presence", "away": true})).await;
    ana.seats_until(1, |s| s["presence"]["state"] == "away")
        .await;
    // A second tab of Ben's, here, shown: there too he is online, though his tab there is
    // hidden; away again once it closes.
    let ben_here = Client::connect(&here, &id, tokens[1].as_deref()).await;
    ben.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;
    drop(ben_here);
    ben.seats_until(1, |s| s["presence"]["state"] == "away")
        .await;
    ben.send(&json!({"type": "presence", "away": false})).await;
    ana.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;

    // Ben is online there: his seat is not handed to a bot here, however long ago his
    // last tab here closed.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    ana.send(&json!({"type": "hand_over", "seat": 1})).await;
    let refused = ana.error().await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");

    drop(ben);
    ana.seats_until(1, |s| s["presence"]["state"] == "offline")
        .await;
    let ben = Client::connect(&there, &id, tokens[1].as_deref()).await;
    ana.seats_until(1, |s| s["presence"]["state"] == "online")
        .await;
    // The process Ben is connected to dies: his presence lapses with its rows.
    there.kill9();
    drop(ben);
    let gone = ana
        .seats_until(1, |s| s["presence"]["state"] == "offline")
        .await;
    assert_eq!(gone["seats"][0]["presence"]["state"], "online", "{gone}");
}
