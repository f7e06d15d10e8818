//! Seeks and quick play on a real `tabletop serve` (SQLite and PostgreSQL): compatible
//! seeks make tables, each seeker seated once at a random seat and told its seat's token
//! while it waits; a seek whose browser stopped waiting is not matched; bots fill a seek's
//! table after its wait; bad seeks are refused and store nothing; and two processes on one
//! PostgreSQL database racing for the same seeks match each exactly once.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::people::{notifications_of, sign_up};
use common::server::{Client, Server, TestDb};
use reqwest::header::COOKIE;
use serde_json::{json, Value};

/// A seek's id and token.
struct Seek {
    id: String,
    token: String,
}

/// A five-minute real-time clock with five seconds a move.
fn five_minutes() -> Value {
    json!({"kind": "realtime", "initial_secs": 300, "increment_secs": 5})
}

/// A guest's seek for `game` with `players` (min = max) and `extra` fields.
fn guest_seek(name: &str, game: &str, players: u8, extra: Value) -> Value {
    let mut seek = json!({
        "game": game,
        "players": {"min": players, "max": players},
        "clock": five_minutes(),
        "name": name,
        "browser": format!("browser-of-{}-0123456789", name.replace(' ', "-")),
    });
    if let (Some(seek), Some(extra)) = (seek.as_object_mut(), extra.as_object()) {
        seek.extend(extra.clone());
    }
    seek
}

/// An HTTP client whose requests may last as long as a wait does.
fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("an HTTP client")
}

async fn post_seek(server: &Server, seek: &Value, cookie: Option<&str>) -> (u16, Value) {
    let mut request = http().post(format!("{}/api/seeks", server.base)).json(seek);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("POST /api/seeks");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn posted(server: &Server, seek: &Value) -> Seek {
    let (status, body) = post_seek(server, seek, None).await;
    assert_eq!(status, 201, "{seek}: {body}");
    seek_of(&body)
}

fn seek_of(body: &Value) -> Seek {
    Seek {
        id: body["id"].as_str().expect("id").into(),
        token: body["token"].as_str().expect("token").into(),
    }
}

/// One wait: the status and the seek's state.
async fn wait_once(base: &str, seek: &Seek) -> (u16, Value) {
    let response = http()
        .get(format!("{base}/api/seeks/{}/wait", seek.id))
        .bearer_auth(&seek.token)
        .send()
        .await
        .expect("GET wait");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Waits on `base` until the seek is matched (a browser asking again after each wait).
async fn matched(base: String, seek: Seek) -> (String, u64, String) {
    for _ in 0..6 {
        let (status, state) = wait_once(&base, &seek).await;
        assert_eq!(status, 200, "{state}");
        match state["state"].as_str() {
            Some("matched") => {
                return (
                    state["game"].as_str().expect("game").into(),
                    state["seat"].as_u64().expect("seat"),
                    state["token"].as_str().expect("token").into(),
                )
            }
            Some("waiting") => continue,
            _ => panic!("the seek ended unmatched: {state}"),
        }
    }
    panic!("not matched within six waits");
}

async fn open_seeks(server: &Server) -> Value {
    let (status, list) = server.get("/api/seeks").await;
    assert_eq!(status, 200, "{list}");
    list
}

/// Eight seekers of four-player Valdora with one clock make exactly two tables, each
/// seeker seated once, at seats 0 to 3 of their table; each is told its table and its
/// seat's token, which plays that seat. The lobby's list shows the seeks with their
/// posters' names only, until they are matched.
async fn eight_seekers_make_two_tables(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in ["/api/seeks", "/api/seeks/{id}", "/api/seeks/{id}/wait"] {
        assert!(openapi["paths"].get(path).is_some(), "{path}");
    }
    let names: Vec<String> = (0..8).map(|i| format!("Seeker {i}")).collect();
    let mut seeks = Vec::new();
    for name in &names {
        seeks.push(posted(&server, &guest_seek(name, "valdora", 4, json!({}))).await);
    }
    let waits: Vec<_> = seeks
        .into_iter()
        .map(|seek| tokio::spawn(matched(server.base.clone(), seek)))
        .collect();
    let mut tables: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
    for wait in waits {
        let (game, seat, token) = wait.await.expect("the wait");
        tables.entry(game).or_default().push((seat, token));
    }
    assert_eq!(tables.len(), 2, "{tables:?}");
    let mut seated = BTreeSet::new();
    for (game, seats) in &tables {
        let taken: BTreeSet<u64> = seats.iter().map(|(seat, _)| *seat).collect();
        assert_eq!(taken, (0..4).collect(), "{game}: {seats:?}");
        let (status, summary) = server.get(&format!("/api/games/{game}")).await;
        assert_eq!(status, 200, "{summary}");
        assert_eq!(summary["status"], "running", "{summary}");
        assert_eq!(summary["clock"], five_minutes(), "{summary}");
        assert_eq!(summary["casual"], true, "{summary}");
        for seat in summary["seats"].as_array().expect("seats") {
            assert_eq!(seat["kind"], "human", "{summary}");
            let name = seat["name"].as_str().expect("a name").to_string();
            assert!(seated.insert(name.clone()), "{name} seated twice");
        }
        let (seat, token) = &seats[0];
        let client = Client::connect(&server, game, Some(token)).await;
        assert_eq!(client.seat, Some(*seat as u8), "the token plays its seat");
    }
    assert_eq!(seated.len(), 8);
    let list = open_seeks(&server).await;
    assert_eq!(list["seeks"], json!([]), "{list}");
    // A guest's browser is told its table too (its bell, on another page).
    let mut told = Value::Null;
    for _ in 0..200 {
        let answer = http()
            .get(format!("{}/api/notifications", server.base))
            .bearer_auth("browser-of-Seeker-0-0123456789")
            .send()
            .await
            .expect("GET notifications");
        told = answer.json().await.expect("JSON");
        if told["unread"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let item = &told["items"][0];
    assert_eq!(item["kind"], "seek_matched", "{told}");
    let game = item["game_id"].as_str().expect("a table");
    assert!(tables.contains_key(game), "{told}");
}

/// What the lobby lists of a seek: its settings and its poster's name, nothing secret.
async fn the_list_shows_open_seeks_without_secrets(db: &TestDb) {
    let server = Server::start(&db.url);
    let seek = posted(
        &server,
        &guest_seek(
            "Ada",
            "pandoria",
            2,
            json!({"languages": ["it", "es", "es"]}),
        ),
    )
    .await;
    let list = open_seeks(&server).await;
    let seeks = list["seeks"].as_array().expect("seeks");
    assert_eq!(seeks.len(), 1, "{list}");
    let shown = &seeks[0];
    assert_eq!(shown["id"], seek.id.as_str());
    assert_eq!(shown["name"], "Ada");
    assert_eq!(shown["languages"], json!(["es", "it"]));
    assert_eq!(shown["players"], json!({"min": 2, "max": 2}));
    assert_eq!(shown["rated"], false);
    assert_eq!(list["per_game"]["pandoria"], 1, "{list}");
    assert_eq!(list["per_game"]["valdora"], 0, "{list}");
    let text = list.to_string();
    assert!(!text.contains(&seek.token), "no token in the list");
    assert!(!text.contains("browser-of"), "no browser id in the list");
}

/// Refused seeks store nothing: an unknown game, a player count the game does not have, a
/// clock outside the offered bounds, a rated seek of a guest, a guest without a browser
/// or a name, a copy of an open seek; a fourth open seek is rate-limited. A wrong token
/// neither waits for nor withdraws a seek; its own token withdraws it.
async fn bad_seeks_are_refused_and_change_nothing(db: &TestDb) {
    let server = Server::start(&db.url);
    let good = guest_seek("Ada", "valdora", 4, json!({}));
    let first = posted(&server, &good).await;
    let mut refusals = vec![
        (guest_seek("Ada", "chess", 2, json!({})), "unknown game"),
        (guest_seek("Ada", "valdora", 7, json!({})), "players 7 to 7"),
        (
            guest_seek(
                "Ada",
                "valdora",
                4,
                json!({"clock": {"kind": "realtime", "initial_secs": 1, "increment_secs": 0}}),
            ),
            "initial_secs",
        ),
        (
            guest_seek("Ada", "valdora", 3, json!({"rated": true})),
            "needs an account",
        ),
        (
            guest_seek("Ada", "valdora", 3, json!({"bots_after_secs": 1})),
            "bots_after_secs",
        ),
        (
            guest_seek("Ada", "valdora", 3, json!({"languages": ["Spanish"]})),
            "language",
        ),
        (
            guest_seek(
                "Ada",
                "valdora",
                3,
                json!({"ratings": {"min": 1500, "max": 900}}),
            ),
            "ratings",
        ),
        (good.clone(), "open already"),
        (
            json!({"game": "valdora", "players": {"min": 4, "max": 4}, "name": "Ada"}),
            "browser",
        ),
        (
            json!({"game": "valdora", "players": {"min": 4, "max": 4}, "browser": "browser-of-Ada-0123456789"}),
            "name",
        ),
        (
            json!({"game": "valdora", "players": {"min": 4, "max": 4}, "surprise": 1}),
            "unknown field",
        ),
    ];
    let mut players = {
        let mut seek = good.clone();
        seek["players"] = json!({"min": 2, "max": 1});
        seek
    };
    refusals.push((players.clone(), "players 2 to 1"));
    for (seek, why) in &refusals {
        let (status, body) = post_seek(&server, seek, None).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (400, Some("malformed")),
            "{seek}: {body}"
        );
        let message = body["message"].as_str().unwrap_or_default();
        assert!(message.contains(why), "{why:?} in {message:?}");
    }
    assert_eq!(
        open_seeks(&server).await["seeks"].as_array().map(Vec::len),
        Some(1)
    );
    // Three open seeks at once, then a fourth is too many.
    for count in [3, 5] {
        players["players"] = json!({"min": count, "max": count});
        posted(&server, &players).await;
    }
    players["players"] = json!({"min": 3, "max": 5});
    let (status, body) = post_seek(&server, &players, None).await;
    assert_eq!(
        (status, body["kind"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    assert_eq!(
        open_seeks(&server).await["seeks"].as_array().map(Vec::len),
        Some(3)
    );

    let forged = Seek {
        id: first.id.clone(),
        token: "0".repeat(64),
    };
    let (status, body) = wait_once(&server.base, &forged).await;
    assert_eq!(
        (status, body["kind"].as_str()),
        (401, Some("bad_token")),
        "{body}"
    );
    let withdraw = |seek: &Seek| {
        http()
            .delete(format!("{}/api/seeks/{}", server.base, seek.id))
            .bearer_auth(&seek.token)
            .send()
    };
    let refused = withdraw(&forged).await.expect("DELETE");
    assert_eq!(refused.status().as_u16(), 401);
    assert_eq!(
        open_seeks(&server).await["seeks"].as_array().map(Vec::len),
        Some(3)
    );
    let done = withdraw(&first).await.expect("DELETE");
    assert_eq!(done.status().as_u16(), 204);
    let (status, body) = wait_once(&server.base, &first).await;
    assert_eq!(
        (status, body["kind"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
    assert_eq!(
        open_seeks(&server).await["seeks"].as_array().map(Vec::len),
        Some(2)
    );
}

/// A seek whose browser never waited for it ends once it has been gone for the server's
/// time (here 2 s): it is not matched, and says it expired; two seekers who wait are
/// matched with each other, not with it.
async fn a_seek_whose_browser_left_is_not_matched(db: &TestDb) {
    let server = Server::start_with(
        &db.url,
        &[
            "--bot-pace-ms",
            "0",
            "--post-limit",
            "0",
            "--seek-alive-secs",
            "2",
        ],
    );
    let gone = posted(&server, &guest_seek("Gone", "pandoria", 2, json!({}))).await;
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(open_seeks(&server).await["seeks"], json!([]));
    let ada = posted(&server, &guest_seek("Ada", "pandoria", 2, json!({}))).await;
    let ben = posted(&server, &guest_seek("Ben", "pandoria", 2, json!({}))).await;
    let ada = tokio::spawn(matched(server.base.clone(), ada));
    let ben = tokio::spawn(matched(server.base.clone(), ben));
    let (ada, ben) = (ada.await.expect("Ada"), ben.await.expect("Ben"));
    assert_eq!(ada.0, ben.0, "one table");
    assert_ne!(ada.1, ben.1, "two seats");
    let (status, state) = wait_once(&server.base, &gone).await;
    assert_eq!(
        (status, &state["state"]),
        (200, &json!("expired")),
        "{state}"
    );
}

/// A seek that lets bots fill its table gets one after its wait, with a bot in every seat
/// nobody took.
async fn bots_fill_a_seek_after_its_wait(db: &TestDb) {
    let server = Server::start(&db.url);
    let seek = posted(
        &server,
        &guest_seek("Ada", "valley", 3, json!({"bots_after_secs": 5})),
    )
    .await;
    let started = std::time::Instant::now();
    let (game, seat, _) = matched(server.base.clone(), seek).await;
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "not before its wait"
    );
    let (_, summary) = server.get(&format!("/api/games/{game}")).await;
    let seats = summary["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 3, "{summary}");
    for (i, info) in seats.iter().enumerate() {
        let kind = if i as u64 == seat { "human" } else { "bot" };
        assert_eq!(info["kind"], kind, "{summary}");
    }
}

/// Signed-in people seek rated games: the list shows their ratings, and the seats of the
/// table they are matched to belong to their accounts.
async fn signed_in_seekers_get_rated_tables_of_their_own(db: &TestDb) {
    let server = Server::start(&db.url);
    let mut seats = Vec::new();
    for name in ["Ada", "Ben"] {
        let (_, cookie) = sign_up(&server, name).await;
        let seek = json!({
            "game": "pandoria", "players": {"min": 2, "max": 2},
            "clock": five_minutes(), "rated": true,
        });
        let (status, body) = post_seek(&server, &seek, Some(&cookie)).await;
        assert_eq!(status, 201, "{body}");
        seats.push((cookie, seek_of(&body)));
    }
    let list = open_seeks(&server).await;
    for shown in list["seeks"].as_array().expect("seeks") {
        assert_eq!(shown["rating"], 1000, "a newcomer's rating: {list}");
    }
    let mut games = BTreeSet::new();
    let waits: Vec<_> = seats
        .into_iter()
        .map(|(cookie, seek)| (cookie, tokio::spawn(matched(server.base.clone(), seek))))
        .collect();
    for (cookie, wait) in waits {
        let (game, seat, _) = wait.await.expect("the wait");
        let response = http()
            .get(format!("{}/api/account/seats", server.base))
            .header(COOKIE, &cookie)
            .send()
            .await
            .expect("GET seats");
        let own: Value = response.json().await.expect("JSON");
        assert_eq!(own[0]["game"]["id"], game.as_str(), "{own}");
        assert_eq!(own[0]["seat"], seat, "{own}");
        assert_eq!(own[0]["game"]["casual"], false, "{own}");
        // The bell tells each of them too (stored as the table is told, by whichever
        // process matched it).
        let mut told = notifications_of(&server, &cookie).await;
        for _ in 0..200 {
            if told["unread"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            told = notifications_of(&server, &cookie).await;
        }
        assert_eq!(told["unread"], 1, "{told}");
        let item = &told["items"][0];
        assert_eq!(
            (
                &item["kind"],
                &item["game_id"],
                &item["seat"],
                &item["game"]
            ),
            (
                &json!("seek_matched"),
                &json!(game),
                &json!(seat),
                &json!("pandoria")
            ),
            "{told}"
        );
        games.insert(game);
    }
    assert_eq!(games.len(), 1);
}

on_both_databases!(
    eight_seekers_make_two_tables,
    the_list_shows_open_seeks_without_secrets,
    bad_seeks_are_refused_and_change_nothing,
    a_seek_whose_browser_left_is_not_matched,
    bots_fill_a_seek_after_its_wait,
    signed_in_seekers_get_rated_tables_of_their_own,
);

/// Two server processes on one PostgreSQL database, both matching: sixteen seekers of
/// two-player Pandoria, posted and waiting on either, make eight tables; each seek is
/// matched exactly once, each table seats two different seekers, and every seat token
/// told plays its seat on either process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_match_each_seek_exactly_once() {
    use common::server::Db;
    let Some(db) = TestDb::new(Db::Postgres).await else {
        return;
    };
    let first = Server::start(&db.url);
    let second = Server::start(&db.url);
    let servers = [&first, &second];
    let mut waits = Vec::new();
    for i in 0..16 {
        let name = format!("Racer {i}");
        let seek = posted(servers[i % 2], &guest_seek(&name, "pandoria", 2, json!({}))).await;
        // Waiting on the other process than the one it was posted to.
        let base = servers[(i + 1) % 2].base.clone();
        waits.push((name, tokio::spawn(matched(base, seek))));
    }
    let mut tables: BTreeMap<String, Vec<(String, u64, String)>> = BTreeMap::new();
    for (name, wait) in waits {
        let (game, seat, token) = wait.await.expect("the wait");
        tables.entry(game).or_default().push((name, seat, token));
    }
    assert_eq!(tables.len(), 8, "{tables:?}");
    for (i, (game, seats)) in tables.iter().enumerate() {
        assert_eq!(seats.len(), 2, "{game}: {seats:?}");
        assert_ne!(seats[0].1, seats[1].1, "{game}: {seats:?}");
        let (_, summary) = first.get(&format!("/api/games/{game}")).await;
        let names: BTreeSet<&str> = summary["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| s["name"].as_str())
            .collect();
        let told: BTreeSet<&str> = seats.iter().map(|(name, _, _)| name.as_str()).collect();
        assert_eq!(names, told, "{summary}");
        let client = Client::connect(servers[i % 2], game, Some(&seats[0].2)).await;
        assert_eq!(client.seat, Some(seats[0].1 as u8));
    }
    assert_eq!(open_seeks(&second).await["seeks"], json!([]));
}
