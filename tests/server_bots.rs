//! The server's bots under attack and trouble, on a real `tabletop serve` process: the
//! bots clients may ask for, decisions stopped by their deadline and by shutdown, a
//! bounded queue of bots-only games, and bot moves tried again after a storage outage.

mod common;

use std::time::Duration;

use common::server::{Client, Db, Server, TestDb};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The most expensive spec `--allow-bot-specs` accepts: unstopped, one decision searches
/// for hours (5,000 iterations, each with ten greedy turns of 200,000 positions).
const LONG_THINKER: &str = "ismcts:iters=5000:rollout=greedy:turns=10:nodes=200000";

fn all_bots(bot: &str) -> Value {
    let seats: Vec<Value> = (0..4).map(|_| json!({"kind": "bot", "bot": bot})).collect();
    json!({"game": "valdora", "seats": seats})
}

/// A person (seat 0) and bots in the other seats of a two- or three-player game.
fn person_and_bots(game: &str, bots: &[&str]) -> Value {
    let mut seats = vec![json!({"kind": "human", "name": "Ana"})];
    seats.extend(bots.iter().map(|b| json!({"kind": "bot", "bot": b})));
    json!({"game": game, "config": {"players": seats.len()}, "seats": seats})
}

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("bots.db").display())
}

/// Clients choose among the strengths unless the operator allows specs; then every
/// parameter of a spec is bounded, and the refusal names the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_specs_need_the_operator_and_every_parameter_is_bounded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let strict = Server::start_exact(&sqlite_url(&dir), &["--post-limit", "0"]);
    let (status, body) = strict
        .post(
            "/api/games",
            &person_and_bots("valdora", &["hard", "ismcts:iters=5"]),
        )
        .await;
    assert_eq!(
        (status, &body["kind"]),
        (400, &json!("malformed")),
        "{body}"
    );
    assert!(body["message"]
        .as_str()
        .unwrap_or_default()
        .contains("--allow-bot-specs"));
    strict
        .create(person_and_bots("valdora", &["easy", "hard"]))
        .await;
    drop(strict);

    let open = Server::start_with(&sqlite_url(&dir), &["--post-limit", "0"]);
    for (spec, named) in [
        (
            "ismcts:iters=1:rollout=greedy:turns=4294967295",
            "turns=4294967295",
        ),
        ("ismcts:ms=2000:rollout=greedy:turns=1000", "turns=1000"),
        ("ismcts:iters=10:threads=2", "threads=2"),
        ("greedy:nodes=100000000", "nodes=100000000"),
    ] {
        let (status, body) = open
            .post("/api/games", &person_and_bots("valdora", &["easy", spec]))
            .await;
        assert_eq!(
            (status, &body["kind"]),
            (400, &json!("malformed")),
            "{spec}: {body}"
        );
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(named) && message.contains("limit"),
            "{spec}: {message}"
        );
    }
    open.create(person_and_bots(
        "valdora",
        &["easy", "ismcts:iters=10:rollout=greedy:turns=2"],
    ))
    .await;
}

/// SIGTERM while bots think for hours: every search is stopped and the process exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_thinking_bots() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A deadline far beyond the test: only the shutdown can stop these searches.
    let mut server = Server::start_with(
        &sqlite_url(&dir),
        &[
            "--post-limit",
            "0",
            "--bot-workers",
            "3",
            "--bot-deadline-ms",
            "600000",
        ],
    );
    for _ in 0..4 {
        server.create(all_bots(LONG_THINKER)).await;
    }
    server
        .create(person_and_bots("valdora", &[LONG_THINKER, LONG_THINKER]))
        .await;
    // The searches under way (the queue is taken at once; the workers are busy).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let status = server
        .terminate_within(Duration::from_secs(20))
        .expect("the server exits after SIGTERM while its bots think");
    assert!(status.success(), "exit status after SIGTERM: {status}");
}

/// While decisions of bots-only games wait for a worker, new bots-only games are refused
/// (`busy`, 503); a game with a person is still created, and its bot moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_bot_queue_refuses_bots_only_games_but_not_people() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start_with(
        &sqlite_url(&dir),
        &[
            "--post-limit",
            "0",
            "--bot-pace-ms",
            "0",
            "--bot-workers",
            "2",
            "--bot-queue-limit",
            "1",
            "--bot-deadline-ms",
            "600000",
        ],
    );
    // Two workers: bots-only games take one, so the first game's bot thinks (for ever,
    // as far as this test goes) and the second game's waits.
    server.create(all_bots(LONG_THINKER)).await;
    let mut accepted = false;
    for _ in 0..100 {
        // Accepted once the first game's decision has left the queue for its worker.
        let (status, body) = server.post("/api/games", &all_bots(LONG_THINKER)).await;
        if status == 201 {
            accepted = true;
            break;
        }
        assert_eq!((status, &body["kind"]), (503, &json!("busy")), "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(accepted, "the second bots-only game was never accepted");
    let (status, body) = server.post("/api/games", &all_bots("easy")).await;
    assert_eq!((status, &body["kind"]), (503, &json!("busy")), "{body}");

    let (id, tokens) = server.create(person_and_bots("valley", &["easy"])).await;
    let mut me = Client::connect(&server, &id, tokens[0].as_deref()).await;
    while me.to_move == me.seat {
        let legal = me.legal.clone().expect("legal actions");
        me.act(&legal[0]).await;
        me.wait_seq(me.seq + 1).await;
    }
    let bot_moved = me.seq + 1;
    let errors = me.wait_seq(bot_moved).await;
    assert!(errors.is_empty(), "{errors:?}");
}

/// Plays seat 0 of a game against bots with random legal moves until it is over; a move
/// refused for a passing reason (storage down) is sent again. Panics if nothing comes for
/// `quiet`: a bot to move and nobody thinking.
async fn play_to_the_end(mut me: Client, seed: u64, quiet: Duration) -> Client {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while me.status != "over" {
        if me.to_move == me.seat {
            let legal = me.legal.clone().expect("legal actions");
            me.act(&legal[rng.gen_range(0..legal.len())]).await;
        }
        let message = tokio::time::timeout(quiet, me.next())
            .await
            .unwrap_or_else(|_| panic!("nothing for {quiet:?} at seq {}", me.seq));
        if message["type"] == "error" {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    me
}

/// PostgreSQL connections dropped mid-game (`pg_terminate_backend` on every connection of
/// the server): moves are refused while storage is down and tables catch up once it is
/// back, and every game with bots still reaches its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_keep_moving_after_the_database_connections_drop() {
    let Some(db) = TestDb::new(Db::Postgres).await else {
        return;
    };
    let app = format!("tabletop-bots-test-{}", std::process::id());
    let url = format!("{}&application_name={app}", db.url);
    let server = Server::start_with(&url, &["--post-limit", "0"]);
    let mut games = Vec::new();
    for i in 0..10u64 {
        let (id, tokens) = server
            .create(person_and_bots("valley", &["easy", "random"]))
            .await;
        let me = Client::connect(&server, &id, tokens[0].as_deref()).await;
        games.push(tokio::spawn(play_to_the_end(
            me,
            i,
            Duration::from_secs(30),
        )));
    }
    let mut ended = 0;
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        ended += server::testing::terminate_postgres_connections(&app)
            .await
            .expect("terminate the server's connections");
    }
    assert!(ended > 0, "no connection of the server was found");
    for game in games {
        let me = game.await.expect("a game played to its end");
        assert_eq!(me.status, "over");
    }
}
