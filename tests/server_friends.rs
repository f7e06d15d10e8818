//! Friends on a real `tabletop serve` (SQLite and PostgreSQL; issue 54 part 3): requests
//! asked, told, accepted, declined and ended; the friends list with presence (a page of
//! the site open, a seat of a table open, last seen); a seat kept by name for a friend,
//! who is told and takes it with one request, without the link; friends' tables. Every
//! refusal changes nothing; presence holds across two processes on PostgreSQL.

mod common;

use std::time::Duration;

use common::people::{delete_as, get_as, notifications_of, post_as, sign_up, Live};
use common::server::{Client, Server, TestDb};
use reqwest::header::COOKIE;
use serde_json::{json, Value};

async fn friends_of(server: &Server, cookie: &str) -> Value {
    let (status, list) = get_as(server, "/api/friends", Some(cookie)).await;
    assert_eq!(status, 200, "{list}");
    list
}

/// Waits until the friend of `cookie`'s list at index 0 is in `state`.
async fn friend_becomes(server: &Server, cookie: &str, state: &str) -> Value {
    for _ in 0..200 {
        let list = friends_of(server, cookie).await;
        if list["friends"][0]["state"] == state {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the friend never became {state}: {}",
        friends_of(server, cookie).await
    );
}

/// `POST /api/games/{id}/invitations` as the person of `cookie` with bearer `token`.
async fn invite(
    server: &Server,
    id: &str,
    cookie: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(format!("{}/api/games/{id}/invitations", server.base))
        .header(COOKIE, cookie)
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("POST invitations");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn friend_requests_and_seats_kept_by_name(db: &TestDb) {
    let server = Server::start(&db.url);
    let (ada, ada_cookie) = sign_up(&server, "Ada").await;
    let (ben, ben_cookie) = sign_up(&server, "Ben").await;
    let (_, cy_cookie) = sign_up(&server, "Cy").await;
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in [
        "/api/friends",
        "/api/friends/tables",
        "/api/friends/{id}/accept",
        "/api/friends/{id}",
        "/api/games/{id}/invitations",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path}");
    }

    // Ada asks Ben; his bell tells him who.
    let (status, asked) = post_as(
        &server,
        "/api/friends",
        Some(&ada_cookie),
        &json!({"name": "ben"}),
    )
    .await;
    assert_eq!((status, asked), (201, json!({"friends": false})));
    let told = notifications_of(&server, &ben_cookie).await;
    assert_eq!(
        (&told["items"][0]["kind"], &told["items"][0]["from"]),
        (&json!("friend_request"), &json!("Ada")),
        "{told}"
    );
    // Refusals, none of which stores anything.
    for (cookie, body, status, kind) in [
        (Some(&ada_cookie), json!({"name": "Ben"}), 400, "malformed"),
        (Some(&ada_cookie), json!({"name": "Ada"}), 400, "malformed"),
        (
            Some(&ada_cookie),
            json!({"name": "Nobody"}),
            404,
            "not_found",
        ),
        (
            Some(&ada_cookie),
            json!({"name": "Ben", "extra": 1}),
            400,
            "malformed",
        ),
        (None, json!({"name": "Ben"}), 401, "not_signed_in"),
    ] {
        let (got, body_back) =
            post_as(&server, "/api/friends", cookie.map(String::as_str), &body).await;
        assert_eq!(
            (got, body_back["kind"].as_str()),
            (status, Some(kind)),
            "{body}"
        );
    }
    assert_eq!(
        notifications_of(&server, &ben_cookie).await["items"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let ada_list = friends_of(&server, &ada_cookie).await;
    assert_eq!(ada_list["outgoing"][0]["name"], "Ben", "{ada_list}");
    assert_eq!(ada_list["friends"], json!([]));
    let ben_list = friends_of(&server, &ben_cookie).await;
    assert_eq!(ben_list["incoming"][0]["id"], ada.as_str(), "{ben_list}");
    let (status, _) = post_as(
        &server,
        &format!("/api/friends/{ben}/accept"),
        Some(&ada_cookie),
        &json!({}),
    )
    .await;
    assert_eq!(status, 404, "Ada cannot accept her own request");
    let (status, accepted) = post_as(
        &server,
        &format!("/api/friends/{ada}/accept"),
        Some(&ben_cookie),
        &json!({}),
    )
    .await;
    assert_eq!((status, accepted), (200, json!({"friends": true})));

    // Presence: Ben has no page open; Ada's live page makes her online, her seat at a
    // table "at a table".
    let list = friends_of(&server, &ada_cookie).await;
    assert_eq!(
        (
            &list["friends"][0]["name"],
            &list["friends"][0]["state"],
            &list["incoming"],
            &list["outgoing"]
        ),
        (&json!("Ben"), &json!("offline"), &json!([]), &json!([])),
        "{list}"
    );
    let page = Live::open(&server, &ada_cookie, None).await;
    friend_becomes(&server, &ben_cookie, "online").await;
    let (id, tokens) = server
        .create(json!({"game": "valley", "config": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human"}]}))
        .await;
    let (seat_token, invitation) = (
        tokens[0].clone().expect("Ada's"),
        tokens[1].clone().expect("the invitation"),
    );
    let (status, _) = post_as(
        &server,
        "/api/account/seats",
        Some(&ada_cookie),
        &json!({"seats": [{"game": id, "token": seat_token}]}),
    )
    .await;
    assert_eq!(status, 200);
    let ada_at_table = Client::connect(&server, &id, Some(&seat_token)).await;
    let at_table = friend_becomes(&server, &ben_cookie, "at_table").await;
    assert_eq!(at_table["friends"][0]["game_id"], id.as_str(), "{at_table}");
    let (_, tables) = get_as(&server, "/api/friends/tables", Some(&ben_cookie)).await;
    assert_eq!(tables[0]["id"], id.as_str(), "{tables}");
    let (status, _) = get_as(&server, "/api/friends/tables", None).await;
    assert_eq!(status, 401);
    drop(ada_at_table);
    friend_becomes(&server, &ben_cookie, "online").await;
    drop(page);
    let offline = friend_becomes(&server, &ben_cookie, "offline").await;
    assert!(
        offline["friends"][0]["last_seen"].as_i64() > Some(0),
        "{offline}"
    );

    // Invitations by name: only a friend, only with the seat's invitation.
    let cases = [
        (
            &ada_cookie,
            Some(invitation.as_str()),
            json!({"seat": 1, "name": "Cy"}),
            403,
            "forbidden",
        ),
        (
            &ada_cookie,
            Some(seat_token.as_str()),
            json!({"seat": 1, "name": "Ben"}),
            403,
            "forbidden",
        ),
        (
            &ada_cookie,
            Some("not-a-token"),
            json!({"seat": 1, "name": "Ben"}),
            403,
            "forbidden",
        ),
        (
            &cy_cookie,
            Some(invitation.as_str()),
            json!({"seat": 1, "name": "Ben"}),
            403,
            "forbidden",
        ),
        (
            &ada_cookie,
            None,
            json!({"seat": 1, "name": "Ben"}),
            401,
            "bad_token",
        ),
        (
            &ada_cookie,
            Some(invitation.as_str()),
            json!({"seat": 1, "name": "Nobody"}),
            404,
            "not_found",
        ),
        (
            &ada_cookie,
            Some(invitation.as_str()),
            json!({"seat": 7, "name": "Ben"}),
            404,
            "not_found",
        ),
        (
            &ada_cookie,
            Some(invitation.as_str()),
            json!({"seat": 1, "name": "Ada"}),
            400,
            "malformed",
        ),
    ];
    for (cookie, token, body, status, kind) in cases {
        let (got, answer) = invite(&server, &id, cookie, token, &body).await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{body} {answer}"
        );
    }
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], "open");
    let (status, _) = invite(
        &server,
        &id,
        &ada_cookie,
        Some(&invitation),
        &json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 204);
    let told = notifications_of(&server, &ben_cookie).await;
    let invited = &told["items"][0];
    assert_eq!(
        (
            &invited["kind"],
            &invited["from"],
            &invited["game_id"],
            &invited["seat"]
        ),
        (&json!("invitation"), &json!("Ada"), &json!(id), &json!(1)),
        "{told}"
    );
    // The seat is Ben's to take: not Cy's, not a guest's from the lobby.
    for cookie in [Some(&cy_cookie), None] {
        let (status, refused) = post_as(
            &server,
            &format!("/api/games/{id}/join"),
            cookie.map(String::as_str),
            &json!({"seat": 1, "name": "Cy"}),
        )
        .await;
        assert_eq!(
            (status, refused["kind"].as_str()),
            (403, Some("forbidden")),
            "{refused}"
        );
    }
    let (status, joined) = post_as(
        &server,
        &format!("/api/games/{id}/join"),
        Some(&ben_cookie),
        &json!({"seat": 1, "name": "anything"}),
    )
    .await;
    assert_eq!((status, &joined["seat"]), (200, &json!(1)), "{joined}");
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (&summary["status"], &summary["seats"][1]["name"]),
        (&json!("running"), &json!("Ben")),
        "{summary}"
    );
    let (_, seats) = get_as(&server, "/api/account/seats", Some(&ben_cookie)).await;
    assert_eq!(
        seats[0]["game"]["id"],
        id.as_str(),
        "the seat is his account's: {seats}"
    );
    let ben_plays = Client::connect(&server, &id, joined["token"].as_str()).await;
    assert_eq!(ben_plays.seat, Some(1), "his token plays seat 1");

    // Either side ends it; a request declined is gone; two asking each other are friends.
    assert_eq!(
        delete_as(&server, &format!("/api/friends/{ada}"), &ben_cookie).await,
        204
    );
    assert_eq!(friends_of(&server, &ada_cookie).await["friends"], json!([]));
    assert_eq!(
        delete_as(&server, &format!("/api/friends/{ada}"), &ben_cookie).await,
        404
    );
    let (status, _) = post_as(
        &server,
        "/api/friends",
        Some(&cy_cookie),
        &json!({"name": "Ben"}),
    )
    .await;
    assert_eq!(status, 201);
    let cy = friends_of(&server, &ben_cookie).await["incoming"][0]["id"].clone();
    assert_eq!(
        delete_as(
            &server,
            &format!("/api/friends/{}", cy.as_str().expect("id")),
            &ben_cookie
        )
        .await,
        204
    );
    assert_eq!(friends_of(&server, &cy_cookie).await["outgoing"], json!([]));
    let (status, _) = post_as(
        &server,
        "/api/friends",
        Some(&cy_cookie),
        &json!({"name": "Ada"}),
    )
    .await;
    assert_eq!(status, 201);
    let (status, both) = post_as(
        &server,
        "/api/friends",
        Some(&ada_cookie),
        &json!({"name": "Cy"}),
    )
    .await;
    assert_eq!((status, both), (201, json!({"friends": true})));
    assert_eq!(
        friends_of(&server, &cy_cookie).await["friends"][0]["name"],
        "Ada"
    );
}

on_both_databases!(friend_requests_and_seats_kept_by_name);

/// Two processes on one PostgreSQL database: a friend's page and seat open on one are
/// seen from the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_presence_holds_across_processes() {
    let Some(db) = TestDb::new(common::server::Db::Postgres).await else {
        return;
    };
    let here = Server::start(&db.url);
    let there = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&here, "Ada").await;
    let (_, ben_cookie) = sign_up(&here, "Ben").await;
    let (status, _) = post_as(
        &here,
        "/api/friends",
        Some(&ada_cookie),
        &json!({"name": "Ben"}),
    )
    .await;
    assert_eq!(status, 201);
    let (status, _) = post_as(
        &there,
        "/api/friends",
        Some(&ben_cookie),
        &json!({"name": "Ada"}),
    )
    .await;
    assert_eq!(status, 201);
    let page = Live::open(&there, &ben_cookie, None).await;
    friend_becomes(&here, &ada_cookie, "online").await;
    let (id, tokens) = here
        .create(json!({"game": "valley", "config": {"players": 2},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Ben"}]}))
        .await;
    let ben_token = tokens[1].clone().expect("Ben's");
    let (status, _) = post_as(
        &here,
        "/api/account/seats",
        Some(&ben_cookie),
        &json!({"seats": [{"game": id, "token": ben_token}]}),
    )
    .await;
    assert_eq!(status, 200);
    let ben_at_table = Client::connect(&there, &id, Some(&ben_token)).await;
    let seen = friend_becomes(&here, &ada_cookie, "at_table").await;
    assert_eq!(seen["friends"][0]["game_id"], id.as_str(), "{seen}");
    drop(ben_at_table);
    drop(page);
    friend_becomes(&here, &ada_cookie, "offline").await;
}
