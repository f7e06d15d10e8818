//! Ratings on a real `tabletop serve` (SQLite and PostgreSQL): a table of two signed-in
//! people is rated when it ends, once; the winner's rating rises and the loser's falls,
//! their pages and the game's leaderboard show it, and the levels' fixed ratings stand
//! beside them. A table with hints, or with one signed-in person, is not rated.

mod common;

use std::time::Duration;

use common::people::{hand_to_account, sign_up};
use common::server::{play_random, Client, Server, TestDb};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// A two-person Valley of the Kings table (it starts at once): its id and seat tokens.
async fn valley(server: &Server, hints: bool) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "hints": hints, "seats": [
                {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}
            ]}),
        )
        .await;
    (
        id,
        tokens.into_iter().map(|t| t.expect("a token")).collect(),
    )
}

/// Plays the table to its end with random moves; its outcome.
async fn finish(server: &Server, id: &str, tokens: &[String], seed: u64) -> Value {
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::connect(server, id, Some(token)).await);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    play_random(&mut clients, &mut rng, 100_000).await;
    assert_eq!(clients[0].status, "over");
    clients[0].outcome.clone()
}

/// A person's rating of `game` from their page once at least `games` games are rated
/// (the rating is stored just after the last move, in a task of its own).
async fn ratings_after(server: &Server, account: &str, game: &str, games: u64) -> Value {
    for _ in 0..200 {
        let (status, profile) = server.get(&format!("/api/accounts/{account}")).await;
        assert_eq!(status, 200, "{profile}");
        let rating = profile["ratings"]
            .as_array()
            .expect("ratings")
            .iter()
            .find(|r| r["game"] == game)
            .cloned();
        if let Some(rating) = rating.filter(|r| r["games"].as_u64() >= Some(games)) {
            return rating;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{account} has no rating of {games} {game} games");
}

fn rank_of(outcome: &Value, seat: u64) -> u64 {
    outcome["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == seat)
        .and_then(|s| s["rank"].as_u64())
        .expect("a rank")
}

/// Both ratings move, the winner's up, once; the leaderboard lists both, the winner
/// first, with the levels; casual tables and tables of one person change nothing.
async fn a_rated_game_moves_both_ratings(db: &TestDb) {
    let server = Server::start(&db.url);
    let (ada, ada_cookie) = sign_up(&server, "Ada").await;
    let (bo, bo_cookie) = sign_up(&server, "Bo").await;
    let (status, empty) = server.get("/api/ratings/valley").await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty["people"], json!([]));
    let levels: Vec<&str> = empty["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|l| l["level"].as_str().expect("a level"))
        .collect();
    assert_eq!(levels, ["easy", "medium", "hard"]);

    // A rated table: both seats handed to their people before the end.
    let (id, tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &id, &tokens[0]).await;
    hand_to_account(&server, &bo_cookie, &id, &tokens[1]).await;
    let outcome = finish(&server, &id, &tokens, 5).await;
    let ada_rating = ratings_after(&server, &ada, "valley", 1).await;
    let bo_rating = ratings_after(&server, &bo, "valley", 1).await;
    let (ada_shown, bo_shown) = (
        ada_rating["rating"].as_f64().expect("rating"),
        bo_rating["rating"].as_f64().expect("rating"),
    );
    match (rank_of(&outcome, 0), rank_of(&outcome, 1)) {
        (1, 2) => assert!(
            ada_shown > 1000.0 && bo_shown < 1000.0,
            "{ada_rating} {bo_rating}"
        ),
        (2, 1) => assert!(
            bo_shown > 1000.0 && ada_shown < 1000.0,
            "{ada_rating} {bo_rating}"
        ),
        ranks => panic!("a two-seat game ends with a winner: {ranks:?} {outcome}"),
    }
    for rating in [&ada_rating, &bo_rating] {
        let deviation = rating["deviation"].as_f64().expect("deviation");
        assert!(
            deviation > 0.0 && deviation < 246.0,
            "surer than a newcomer: {rating}"
        );
    }
    let (_, board) = server.get("/api/ratings/valley").await;
    let people: Vec<&str> = board["people"]
        .as_array()
        .expect("people")
        .iter()
        .map(|p| p["name"].as_str().expect("a name"))
        .collect();
    let winner_first = if ada_shown > bo_shown {
        ["Ada", "Bo"]
    } else {
        ["Bo", "Ada"]
    };
    assert_eq!(people, winner_first, "{board}");
    assert_eq!(board["people"][0]["games"], 1);

    // Not rated: a table with hints, and a table of one person and a guest.
    let (casual, casual_tokens) = valley(&server, true).await;
    hand_to_account(&server, &ada_cookie, &casual, &casual_tokens[0]).await;
    hand_to_account(&server, &bo_cookie, &casual, &casual_tokens[1]).await;
    finish(&server, &casual, &casual_tokens, 6).await;
    let (alone, alone_tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &alone, &alone_tokens[0]).await;
    finish(&server, &alone, &alone_tokens, 7).await;
    // A third rated table, played after those two ended: its rating is the second.
    let (again, again_tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &again, &again_tokens[0]).await;
    hand_to_account(&server, &bo_cookie, &again, &again_tokens[1]).await;
    finish(&server, &again, &again_tokens, 8).await;
    ratings_after(&server, &ada, "valley", 2).await;
    ratings_after(&server, &bo, "valley", 2).await;
    // The tables that are not rated ended before, and were looked at by then.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ada_after = ratings_after(&server, &ada, "valley", 2).await;
    assert_eq!(
        ada_after["games"], 2,
        "only the two rated tables count: {ada_after}"
    );
    assert_ne!(ada_after["rating"], ada_rating["rating"]);
    // Issue 54: the lobby's rows carry each account seat's rating in the table's game (a
    // guest's seat none), newcomers at 1000.
    let spoken = reqwest::Client::new()
        .put(format!("{}/api/account/settings", server.base))
        .header(reqwest::header::COOKIE, &ada_cookie)
        .json(&json!({"languages": ["it", "es"], "email": null, "turn_mail": false}))
        .send()
        .await
        .expect("settings");
    assert_eq!(spoken.status().as_u16(), 200);
    let (listed, listed_tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &listed, &listed_tokens[0]).await;
    let (pandoria, pandoria_tokens) = server
        .create(
            json!({"game": "pandoria", "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}
            ]}),
        )
        .await;
    let pandoria_token = pandoria_tokens[0].clone().expect("a token");
    hand_to_account(&server, &ada_cookie, &pandoria, &pandoria_token).await;
    let (_, rows) = server.get("/api/games?status=running&limit=200").await;
    let row = |id: &str| -> Value {
        rows.as_array()
            .expect("a list")
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} listed: {rows}"))
    };
    let shown = ada_after["rating"].as_f64().expect("rating").round();
    assert_eq!(row(&listed)["seats"][0]["rating"].as_f64(), Some(shown));
    assert_eq!(row(&listed)["seats"][0]["languages"], json!(["it", "es"]));
    let guest = &row(&listed)["seats"][1];
    assert!(
        guest.get("rating").is_none() && guest.get("languages").is_none(),
        "a guest's seat: {guest}"
    );
    let (_, rows) = server.get("/api/games?game=pandoria&status=running").await;
    assert_eq!(
        rows[0]["seats"][0]["rating"], 1000,
        "a newcomer in Pandoria: {rows}"
    );
    // The lobby filters by a language a seated person speaks: Ada's Italian finds her two
    // tables, nobody's Japanese none; a code that is not one is refused.
    let ids = |rows: &Value| -> Vec<String> {
        let rows = rows.as_array().expect("a list");
        rows.iter()
            .map(|g| g["id"].as_str().expect("id").to_string())
            .collect()
    };
    let (_, italian) = server.get("/api/games?status=running&language=it").await;
    assert_eq!(
        ids(&italian),
        [pandoria.clone(), listed.clone()],
        "{italian}"
    );
    // A table of guests only speaks no language the lobby knows.
    let (guests_only, _) = valley(&server, false).await;
    let (_, spanish) = server
        .get("/api/games?language=ES&game=valley&limit=200")
        .await;
    let found = ids(&spanish);
    assert!(
        found.contains(&listed) && !found.contains(&guests_only),
        "{spanish}"
    );
    for table in spanish.as_array().expect("a list") {
        assert_eq!(
            table["seats"][0]["languages"],
            json!(["it", "es"]),
            "{table}"
        );
    }
    let (_, japanese) = server.get("/api/games?language=ja").await;
    assert_eq!(japanese, json!([]));
    for bad in ["e", "english", "e%25", "es-ES"] {
        let (status, body) = server.get(&format!("/api/games?language={bad}")).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (400, Some("malformed")),
            "{bad}"
        );
    }
    let (status, unknown) = server.get("/api/ratings/chess").await;
    assert_eq!((status, &unknown["kind"]), (404, &json!("not_found")));
}

/// Takes game `id`'s rating away as if its process had stopped before writing it: its
/// end unrecorded, and the ratings it made gone.
async fn forget_rating(db_url: &str, id: &str) {
    let statements = [
        "DELETE FROM ratings".to_string(),
        format!("DELETE FROM rated_games WHERE game_id = '{id}'"),
    ];
    common::server::execute(db_url, &statements).await;
}

/// A rated game whose process stopped between the last move and the rating is rated by
/// the next server to start on the database, to the same ratings.
async fn a_game_left_unrated_is_rated_at_start(db: &TestDb) {
    let mut server = Server::start(&db.url);
    let (ada, ada_cookie) = sign_up(&server, "Ada").await;
    let (_, bo_cookie) = sign_up(&server, "Bo").await;
    let (id, tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &id, &tokens[0]).await;
    hand_to_account(&server, &bo_cookie, &id, &tokens[1]).await;
    finish(&server, &id, &tokens, 5).await;
    let rated = ratings_after(&server, &ada, "valley", 1).await;
    server.terminate();
    forget_rating(&db.url, &id).await;
    let server = Server::start(&db.url);
    assert_eq!(ratings_after(&server, &ada, "valley", 1).await, rated);
}

/// How a game went (issue 55 item 5): Bo leaves at once, and a bot plays every one of his
/// decisions to the end, which the game's ending says (and its record), with Ada's own
/// decisions hers; the table is rated (a leaver ranks last). Before the end there is no
/// ending to tell; a table with hints says it is not rated, and why.
async fn the_ending_says_what_a_bot_played(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, ada_cookie) = sign_up(&server, "Ada").await;
    let (_, bo_cookie) = sign_up(&server, "Bo").await;
    let (id, tokens) = valley(&server, false).await;
    hand_to_account(&server, &ada_cookie, &id, &tokens[0]).await;
    hand_to_account(&server, &bo_cookie, &id, &tokens[1]).await;
    let (status, early) = server.get(&format!("/api/games/{id}/ending")).await;
    assert_eq!(
        (status, &early["kind"]),
        (409, &json!("not_over")),
        "{early}"
    );
    let mut bo = Client::connect(&server, &id, Some(&tokens[1])).await;
    bo.send(&json!({"type": "leave"})).await;
    let mut ada = Client::connect(&server, &id, Some(&tokens[0])).await;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    while ada.status != "over" {
        if ada.status == "running" && ada.to_move == Some(0) {
            let legal = ada.legal.clone().expect("legal actions");
            let seq = ada.seq + 1;
            ada.act(&legal[rng.gen_range(0..legal.len())]).await;
            // On PostgreSQL the table may be catching up with the leave it heard: a
            // `conflict`, and the move is sent again, as a client does.
            if let Some(error) = ada.wait_seq_or_error(seq).await {
                assert_eq!(error["kind"], "conflict", "{error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        } else {
            ada.next().await;
        }
    }
    let (status, ending) = server.get(&format!("/api/games/{id}/ending")).await;
    assert_eq!(status, 200, "{ending}");
    let (ada_seat, bo_seat) = (&ending["seats"][0], &ending["seats"][1]);
    assert_eq!(
        (&ada_seat["left"], &ada_seat["by_bot"], &ada_seat["bot"]),
        (&json!(false), &json!(0), &json!(false)),
        "{ending}"
    );
    assert!(ada_seat["decisions"].as_u64() > Some(10), "{ending}");
    assert_eq!(bo_seat["left"], true, "{ending}");
    assert!(bo_seat["decisions"].as_u64() > Some(10), "{ending}");
    assert_eq!(bo_seat["by_bot"], bo_seat["decisions"], "{ending}");
    assert_eq!(
        (&ending["rated"], ending.get("unrated")),
        (&json!(true), None)
    );
    let (_, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record["ending"], ending);

    let (hinted, tokens) = valley(&server, true).await;
    finish(&server, &hinted, &tokens, 3).await;
    let (_, ending) = server.get(&format!("/api/games/{hinted}/ending")).await;
    assert_eq!(
        (&ending["rated"], &ending["unrated"]),
        (&json!(false), &json!({"why": "hints"})),
        "{ending}"
    );
    let (status, _) = server.get("/api/games/nope/ending").await;
    assert_eq!(status, 404);
}

on_both_databases!(
    a_rated_game_moves_both_ratings,
    a_game_left_unrated_is_rated_at_start,
    the_ending_says_what_a_bot_played,
);
