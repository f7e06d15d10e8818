//! Notifications in the site on a real `tabletop serve` (SQLite and PostgreSQL; issue 54
//! part 4): a person away from a turn-based table is told it is their turn, once until
//! read; a person away from a real-time table is told when their clock has a minute left;
//! they are listed newest first and marked read by their owner only; a live page hears
//! each as it comes, from either process on PostgreSQL. Refusals change nothing.

mod common;

use std::time::Duration;

use common::people::{get_as, hand_to_account, notifications_of, post_as, sign_up, Live};
use common::server::{Client, Server, TestDb};
use serde_json::{json, Value};

/// The tables' seed: Ada's seat moves first.
const SEED: u64 = 1;

/// A two-person Valley of the Kings table with clock `clock`, its seats handed to the
/// people of `cookies`: its id and seat tokens.
async fn table_of(server: &Server, clock: Value, cookies: [&str; 2]) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seed": SEED,
            "clock": clock,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]}),
        )
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("a token")).collect();
    for (cookie, token) in cookies.iter().zip(&tokens) {
        hand_to_account(server, cookie, &id, token).await;
    }
    (id, tokens)
}

fn turn_based() -> Value {
    json!({"kind": "turn_based", "per_move_secs": 86400, "bank_secs": 86400})
}

/// Plays Ada's seat (0) until it is Bo's (1) turn.
async fn ada_plays_until_bo(ada: &mut Client) {
    ada.until_to_move(0).await;
    ada.play_while_to_move().await;
    assert_eq!(ada.to_move, Some(1), "it is Bo's turn");
}

/// Bo plays his turn at table `id` and closes it; Ada's connection hears him go.
async fn bo_plays_and_leaves(server: &Server, id: &str, token: &str, ada: &mut Client) {
    let mut bo = Client::connect(server, id, Some(token)).await;
    bo.until_to_move(1).await;
    bo.play_while_to_move().await;
    drop(bo);
    ada.hear_presence = true;
    ada.seats_until(1, |s| s["presence"]["state"] == "offline")
        .await;
    ada.hear_presence = false;
}

/// Waits until the person of `cookie` has `count` notifications.
async fn wait_for_notifications(server: &Server, cookie: &str, count: usize) -> Value {
    for _ in 0..400 {
        let list = notifications_of(server, cookie).await;
        if list["items"].as_array().map_or(0, Vec::len) >= count {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} notifications did not come");
}

/// Bo, away from a turn-based table, is told it is his turn: once until he reads it, with
/// the table and his seat; his live page hears it as it comes. Ada cannot read or mark
/// his; bad requests are refused and change nothing; marking read tells his live page.
async fn your_turn_is_told_once_until_read(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&server, "Ada").await;
    let (_, bo_cookie) = sign_up(&server, "Bo").await;
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in ["/api/notifications", "/api/notifications/read", "/api/live"] {
        assert!(openapi["paths"].get(path).is_some(), "{path}");
    }
    let fresh = notifications_of(&server, &bo_cookie).await;
    assert_eq!(fresh, json!({"unread": 0, "items": []}));
    let mut live = Live::open(&server, &bo_cookie, None).await;
    assert_eq!(live.next().await, json!({"unread": 0, "new": []}));

    let (id, tokens) = table_of(&server, turn_based(), [&ada_cookie, &bo_cookie]).await;
    let mut ada = Client::connect(&server, &id, Some(&tokens[0])).await;
    ada_plays_until_bo(&mut ada).await;
    let heard = live.next().await;
    assert_eq!(heard["unread"], 1, "{heard}");
    let told = &heard["new"][0];
    assert_eq!(
        (
            &told["kind"],
            &told["game_id"],
            &told["game"],
            &told["seat"]
        ),
        (&json!("your_turn"), &json!(id), &json!("valley"), &json!(1)),
        "{heard}"
    );
    assert_eq!(told["read"], false);
    let listed = notifications_of(&server, &bo_cookie).await;
    assert_eq!(listed["items"], json!([told]), "{listed}");
    // Ada was told nothing: it was her turn while she was at the table.
    assert_eq!(notifications_of(&server, &ada_cookie).await["unread"], 0);

    // Bo plays and leaves; his next turn is not told again while the first is unread.
    bo_plays_and_leaves(&server, &id, &tokens[1], &mut ada).await;
    ada_plays_until_bo(&mut ada).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(notifications_of(&server, &bo_cookie).await, listed);

    // Refusals, none of which marks anything.
    let told_id = told["id"].as_i64().expect("an id");
    for (cookie, body, status, kind) in [
        (
            Some(&ada_cookie),
            json!({"ids": [told_id]}),
            403,
            "forbidden",
        ),
        (
            Some(&bo_cookie),
            json!({"ids": [told_id + 1000]}),
            404,
            "not_found",
        ),
        (Some(&bo_cookie), json!({}), 400, "malformed"),
        (Some(&bo_cookie), json!({"ids": []}), 400, "malformed"),
        (
            Some(&bo_cookie),
            json!({"ids": [told_id], "all": true}),
            400,
            "malformed",
        ),
        (Some(&bo_cookie), json!({"ids": "all"}), 400, "malformed"),
        (
            Some(&bo_cookie),
            json!({"ids": (0..201).collect::<Vec<i64>>()}),
            400,
            "malformed",
        ),
        (None, json!({"all": true}), 401, "not_signed_in"),
    ] {
        let (got, body_back) = post_as(
            &server,
            "/api/notifications/read",
            cookie.map(String::as_str),
            &body,
        )
        .await;
        assert_eq!(
            (got, body_back["kind"].as_str()),
            (status, Some(kind)),
            "{body}"
        );
    }
    let (got, _) = get_as(&server, "/api/notifications", None).await;
    assert_eq!(got, 401);
    let (got, _) = get_as(&server, "/api/notifications?limit=x", Some(&bo_cookie)).await;
    assert_eq!(got, 400);
    assert_eq!(notifications_of(&server, &bo_cookie).await, listed);

    // Bo reads it: his live page hears the count fall; the next turn is told again.
    let (got, unread) = post_as(
        &server,
        "/api/notifications/read",
        Some(&bo_cookie),
        &json!({"ids": [told_id]}),
    )
    .await;
    assert_eq!((got, unread), (200, json!({"unread": 0})));
    assert_eq!(live.next().await, json!({"unread": 0, "new": []}));
    bo_plays_and_leaves(&server, &id, &tokens[1], &mut ada).await;
    ada_plays_until_bo(&mut ada).await;
    let again = live.next().await;
    assert_eq!(
        (&again["unread"], &again["new"][0]["kind"]),
        (&json!(1), &json!("your_turn")),
        "{again}"
    );
    let list = notifications_of(&server, &bo_cookie).await;
    let ids: Vec<i64> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|n| n["id"].as_i64().expect("id"))
        .collect();
    assert!(ids.len() == 2 && ids[0] > ids[1], "newest first: {list}");
    // A page opened after a notification it has (`after`) is told only the newer ones.
    let mut later = Live::open(&server, &bo_cookie, Some(ids[1])).await;
    let caught_up = later.next().await;
    assert_eq!(
        caught_up["new"].as_array().map(Vec::len),
        Some(1),
        "{caught_up}"
    );
    let (got, unread) = post_as(
        &server,
        "/api/notifications/read",
        Some(&bo_cookie),
        &json!({"all": true}),
    )
    .await;
    assert_eq!((got, unread), (200, json!({"unread": 0})));
}

/// Bo, away from a real-time table, is told once when his clock has a minute left.
async fn a_low_clock_is_told_to_a_person_away(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&server, "Ada").await;
    let (_, bo_cookie) = sign_up(&server, "Bo").await;
    // Sixty-one seconds: Bo's clock is under a minute one second into his turn.
    let clock = json!({"kind": "realtime", "initial_secs": 61, "increment_secs": 0});
    let (id, tokens) = table_of(&server, clock, [&ada_cookie, &bo_cookie]).await;
    let mut ada = Client::connect(&server, &id, Some(&tokens[0])).await;
    ada_plays_until_bo(&mut ada).await;
    let told = wait_for_notifications(&server, &bo_cookie, 1).await;
    assert_eq!(
        (&told["items"][0]["kind"], &told["items"][0]["seat"]),
        (&json!("clock_low"), &json!(1)),
        "{told}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        notifications_of(&server, &bo_cookie).await,
        told,
        "told once"
    );
    assert_eq!(notifications_of(&server, &ada_cookie).await["unread"], 0);
}

/// Waits until `people` are online besides the guest counting them.
async fn counted(server: &Server, people: u64) {
    for _ in 0..200 {
        let mut counter = Live::open_guest(server, "browser-of-the-counter-89").await;
        if counter.online().await == people + 1 {
            return;
        }
        drop(counter);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never {people} people online (and the counter)");
}

/// Each page's live link counts its person online once, signed in or a guest (by their
/// browser); a bad browser id is refused; a closed link stops counting.
async fn the_live_link_counts_people_online(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&server, "Ada").await;
    let ada = Live::open(&server, &ada_cookie, None).await;
    let ada_again = Live::open(&server, &ada_cookie, None).await;
    let guest = Live::open_guest(&server, "browser-of-a-guest-0123").await;
    let guest_again = Live::open_guest(&server, "browser-of-a-guest-0123").await;
    let other = Live::open_guest(&server, "browser-of-another-4567").await;
    counted(&server, 3).await;
    drop((guest, guest_again));
    counted(&server, 2).await;
    drop((ada, ada_again, other));
    counted(&server, 0).await;
    let refused = reqwest::get(format!("{}/api/live?browser=x%20y", server.base))
        .await
        .expect("GET");
    assert_eq!(refused.status().as_u16(), 400);
}

/// `method path` with `Authorization: Bearer browser` and JSON `body`: (status, body).
async fn as_browser(
    server: &Server,
    method: reqwest::Method,
    path: &str,
    browser: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(method, format!("{}{path}", server.base))
        .bearer_auth(browser);
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A guest's browser names the seats it holds, and is told its turn at them, which only
/// it reads and marks.
async fn a_guests_browser_is_told_its_turn(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seed": SEED,
            "clock": turn_based(),
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]}),
        )
        .await;
    let (open, open_tokens) = server
        .create(json!({"game": "valley", "config": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human"}]}))
        .await;
    let bo = "browser-of-bo-0123456789";
    let named = json!({"browser": bo, "seats": [
        {"game": id, "token": tokens[1]},
        // An invitation (its seat free), an unknown game and a wrong token hold nothing.
        {"game": open, "token": open_tokens[1]},
        {"game": "nosuchgame00", "token": "x"},
        {"game": id, "token": "not-a-token"},
    ]});
    let (status, held) = post_as(&server, "/api/notifications/seats", None, &named).await;
    assert_eq!((status, held), (200, json!({"held": 1})));
    let bad = json!({"browser": "x y", "seats": []});
    let (status, refused) = post_as(&server, "/api/notifications/seats", None, &bad).await;
    assert_eq!((status, refused["kind"].as_str()), (400, Some("malformed")));

    let mut ada = Client::connect(&server, &id, tokens[0].as_deref()).await;
    ada_plays_until_bo(&mut ada).await;
    let mut told = Value::Null;
    for _ in 0..200 {
        (_, told) = as_browser(
            &server,
            reqwest::Method::GET,
            "/api/notifications",
            bo,
            None,
        )
        .await;
        if told["unread"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let item = &told["items"][0];
    assert_eq!(
        (&item["kind"], &item["game_id"], &item["seat"]),
        (&json!("your_turn"), &json!(id), &json!(1)),
        "{told}"
    );
    // Another browser reads none of them, and marks none.
    let other = "browser-of-someone-else-99";
    let (_, theirs) = as_browser(
        &server,
        reqwest::Method::GET,
        "/api/notifications",
        other,
        None,
    )
    .await;
    assert_eq!(theirs, json!({"unread": 0, "items": []}));
    let ids = json!({"ids": [item["id"]]});
    let path = "/api/notifications/read";
    let (status, _) = as_browser(&server, reqwest::Method::POST, path, other, Some(&ids)).await;
    assert_eq!(status, 403);
    let (status, _) = as_browser(
        &server,
        reqwest::Method::GET,
        "/api/notifications",
        "x y",
        None,
    )
    .await;
    assert_eq!(status, 400);
    let (status, unread) = as_browser(&server, reqwest::Method::POST, path, bo, Some(&ids)).await;
    assert_eq!((status, unread), (200, json!({"unread": 0})));
}

on_both_databases!(
    a_guests_browser_is_told_its_turn,
    your_turn_is_told_once_until_read,
    a_low_clock_is_told_to_a_person_away,
    the_live_link_counts_people_online,
);

/// Two processes on one PostgreSQL database: Bo's live page on one hears the turn a move
/// on the other tells him.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_page_hears_notifications_from_the_other_process() {
    let Some(db) = TestDb::new(common::server::Db::Postgres).await else {
        return;
    };
    let here = Server::start(&db.url);
    let there = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&here, "Ada").await;
    let (_, bo_cookie) = sign_up(&here, "Bo").await;
    let mut live = Live::open(&there, &bo_cookie, None).await;
    assert_eq!(live.next().await["unread"], 0);
    let (id, tokens) = table_of(&here, turn_based(), [&ada_cookie, &bo_cookie]).await;
    let mut ada = Client::connect(&here, &id, Some(&tokens[0])).await;
    ada_plays_until_bo(&mut ada).await;
    let heard = live.next().await;
    assert_eq!(
        (&heard["unread"], &heard["new"][0]["kind"]),
        (&json!(1), &json!("your_turn")),
        "{heard}"
    );
}
