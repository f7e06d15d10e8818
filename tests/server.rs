//! `tabletop serve` as a client sees it: a real server process on a loopback port, HTTP
//! and WebSocket, on SQLite and on PostgreSQL (every test runs against both).

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::server::{play_random, Client, Db, Server, TestDb};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Four human seats.
fn humans(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"kind": "human", "name": format!("P{i}")}))
        .collect()
}

async fn connect_all(server: &Server, id: &str, tokens: &[Option<String>]) -> Vec<Client> {
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::connect(server, id, token.as_deref()).await);
    }
    clients
}

/// Checks every view a client saw against the engine's view of its seat at that seq,
/// replaying the stored record: a seat is sent exactly what it may know, no more.
fn check_views_against_engine(record: &Value, clients: &[Client]) {
    let catalog = tabletop::games::catalog();
    let kind = catalog
        .get(record["game"].as_str().expect("game"))
        .expect("known game");
    let seed = record["seed"].as_u64().expect("seed");
    let actions = record["actions"].as_array().expect("actions");
    let (mut game, _) = kind
        .replay(
            server::Setup {
                config: &record["config"],
                seed,
                data: record["data_toml"].as_str(),
            },
            &[],
        )
        .expect("the record starts");
    let by_seq: Vec<HashMap<u64, &Value>> = clients
        .iter()
        .map(|c| c.views.iter().map(|(seq, view)| (*seq, view)).collect())
        .collect();
    let mut checked = 0;
    for seq in 0..=actions.len() as u64 {
        for (client, views) in clients.iter().zip(&by_seq) {
            if let Some(view) = views.get(&seq) {
                let engine_view = game.view_json(client.seat).expect("view");
                assert_eq!(
                    *view, &engine_view,
                    "{}: seat {:?} at seq {seq}: the view sent differs from the engine's",
                    record["game"], client.seat
                );
                checked += 1;
            }
        }
        if let Some(action) = actions.get(seq as usize) {
            game.apply_logged(action).expect("the record replays");
        }
    }
    assert!(checked > actions.len(), "too few views checked: {checked}");
}

/// The outcome `tabletop replay` computes from the stored record.
fn replay_outcome(record: &Value) -> Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("record.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    common::replay_json(&file)["outcome"].clone()
}

/// A whole game of each of the three games, played by four WebSocket clients (random legal
/// moves) plus a spectator to the end: every seat's views match the engine's, the outcome
/// matches `tabletop replay` of the stored record.
async fn whole_games_by_four_clients(db: &TestDb) {
    let server = Server::start(&db.url);
    // The three games at once: their moves share the server's commits.
    let games = ["valdora", "valley", "pandoria"]
        .into_iter()
        .enumerate()
        .map(|(i, game)| whole_game(&server, game, i as u64));
    futures_util::future::join_all(games).await;
}

async fn whole_game(server: &Server, game: &str, i: u64) {
    let (id, tokens) = server
        .create(json!({"game": game, "seed": 40 + i, "seats": humans(4)}))
        .await;
    let mut clients = connect_all(server, &id, &tokens).await;
    clients.push(Client::connect(server, &id, None).await);
    assert_eq!(clients[4].seat, None);
    assert_eq!(clients[4].legal, None, "a spectator gets no legal actions");
    // The record holds the seed: not served during the game.
    let (status, body) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(
        (status, body["kind"].as_str()),
        (409, Some("not_over")),
        "{body}"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(7 + i);
    let played = play_random(&mut clients, &mut rng, 100_000).await;
    assert!(
        clients.iter().all(|c| c.status == "over"),
        "{game} did not end"
    );
    let (status, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["actions"], Value::Array(played));
    check_views_against_engine(&record, &clients);
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], "over");
    assert_eq!(summary["outcome"], replay_outcome(&record), "{game}");
    assert_eq!(clients[0].outcome, summary["outcome"]);
    // The log has every move's events as sentences.
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    let log = log.as_array().expect("log");
    assert_eq!(log.len(), record["actions"].as_array().map_or(0, Vec::len));
    assert!(
        log.iter().zip(1..).all(|(m, n)| m["seq"] == n),
        "the log numbers moves as the updates did"
    );
    assert!(log
        .iter()
        .flat_map(|m| m["events"].as_array().into_iter().flatten())
        .all(|e| e["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty() && !t.contains('{'))));
    check_replay_viewer(server, &record, &clients, log).await;
}

/// `POST /api/replay` (the replay viewer): for every seat and the spectator, the first view
/// with every move's patch applied passes through exactly the views that seat received
/// live, and the log and outcome are the game's.
async fn check_replay_viewer(server: &Server, record: &Value, clients: &[Client], log: &[Value]) {
    for client in clients {
        let (status, replay) = server
            .post(
                "/api/replay",
                &json!({"record": record, "seat": client.seat}),
            )
            .await;
        assert_eq!(status, 200, "{replay}");
        let patches = replay["patches"].as_array().expect("patches");
        assert_eq!(patches.len(), log.len());
        let replayed = replay["log"].as_array().expect("log");
        assert_eq!(replayed.len(), log.len());
        if let Some((a, b)) = replayed.iter().zip(log).find(|(a, b)| a != b) {
            panic!("the replayed log differs from the game's: {a} vs {b}");
        }
        assert_eq!(replay["outcome"], client.outcome);
        let live: HashMap<u64, &Value> = client.views.iter().map(|(s, v)| (*s, v)).collect();
        let mut view = replay["view"].clone();
        for (seq, patch) in (1..).zip(patches) {
            let patch: json_patch::Patch =
                serde_json::from_value(patch.clone()).expect("an RFC 6902 patch");
            json_patch::patch(&mut view, &patch).expect("the patch applies");
            if let Some(live) = live.get(&seq) {
                assert_eq!(&&view, live, "seat {:?} at seq {seq}", client.seat);
            }
        }
        assert_eq!(view, client.view, "seat {:?}: the last view", client.seat);
    }
}

/// Two tabs of one seat send a move for the same position at once: exactly one is stored,
/// the other is refused (`conflict` while the first is being stored, `stale` after), and
/// both tabs receive the stored move.
async fn racing_moves(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(json!({"game": "valdora", "seed": 3, "seats": humans(4)}))
        .await;
    let mut clients = connect_all(&server, &id, &tokens).await;
    let mover = clients
        .iter()
        .position(|c| c.seat == c.to_move)
        .expect("mover");
    let mut twin = Client::connect(&server, &id, tokens[mover].as_deref()).await;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for round in 0..20 {
        // Whose turn it is changes; race whoever is to move with a twin of its seat.
        let mover = clients
            .iter()
            .position(|c| c.seat == c.to_move)
            .expect("mover");
        if twin.seat != clients[mover].seat {
            twin = Client::connect(&server, &id, tokens[mover].as_deref()).await;
        }
        let seq = clients[mover].seq;
        race(&mut clients[mover], &mut twin, &mut rng, round).await;
        for (i, client) in clients.iter_mut().enumerate() {
            if i != mover {
                client.wait_seq(seq + 1).await;
            }
        }
        let (_, summary) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            summary["seq"],
            seq + 1,
            "round {round}: exactly one move stored"
        );
    }
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    assert_eq!(log.as_array().map(Vec::len), Some(20));
}

/// The seat to move sends a move from two clients at once (two tabs, or two servers): of
/// the two, exactly one is stored and the other is refused (`conflict` while the first is
/// being stored, `stale` after); both clients see the stored move, the refusal before or
/// after it.
async fn race(first: &mut Client, second: &mut Client, rng: &mut ChaCha8Rng, round: usize) {
    let seq = first.seq;
    assert_eq!(
        second.seq, seq,
        "round {round}: both clients are at one seq"
    );
    let legal = first.legal.clone().expect("legal");
    let mut pick =
        || json!({"type": "act", "seq": seq, "action": legal[rng.gen_range(0..legal.len())]});
    let (a, b) = (pick(), pick());
    tokio::join!(first.send(&a), second.send(&b));
    let mut refused = Vec::new();
    while refused.is_empty() || first.seq == seq || second.seq == seq {
        let message = tokio::select! {
            m = first.next() => m,
            m = second.next() => m,
        };
        if message["type"] == "error" {
            refused.push(message);
        }
    }
    assert_eq!(refused.len(), 1, "round {round}: {refused:?}");
    let kind = refused[0]["kind"].as_str().unwrap_or_default();
    assert!(
        kind == "conflict" || kind == "stale",
        "round {round}: {refused:?}"
    );
}

use rand::Rng;

/// A move with an old seq gets `stale` with the game's seq, then the current state; a
/// reconnect with the same token resumes the stored position; moves out of turn, illegal
/// moves and moves by spectators are refused with their kinds, and nothing changes.
async fn stale_reconnect_and_refusals(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(json!({"game": "pandoria", "seed": 9, "seats": humans(4)}))
        .await;
    let mut clients = connect_all(&server, &id, &tokens).await;
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    play_random(&mut clients, &mut rng, 12).await;
    let mover = clients
        .iter()
        .position(|c| c.seat == c.to_move)
        .expect("mover");
    let other = (mover + 1) % 4;
    let legal = clients[mover].legal.clone().expect("legal");

    // Stale.
    clients[mover]
        .send(&json!({"type": "act", "seq": 5, "action": legal[0]}))
        .await;
    let error = clients[mover].next().await;
    assert_eq!(error["kind"], "stale", "{error}");
    assert_eq!(error["seq"], 12);
    let state = clients[mover].next().await;
    assert_eq!(
        (state["type"].as_str(), state["seq"].as_u64()),
        (Some("state"), Some(12))
    );

    // Not your turn; illegal; another game's action; a spectator.
    clients[other].act(&legal[0]).await;
    assert_eq!(clients[other].next().await["kind"], "not_your_turn");
    clients[mover].act(&json!({"NoSuchAction": 1})).await;
    assert_eq!(clients[mover].next().await["kind"], "malformed");
    let mut spectator = Client::connect(&server, &id, None).await;
    spectator.act(&legal[0]).await;
    assert_eq!(spectator.next().await["kind"], "bad_token");
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seq"], 12, "refused moves change nothing");

    // Reconnect: the same position, the same view.
    let before = clients[mover].view.clone();
    drop(clients.remove(mover));
    let again = Client::connect(&server, &id, tokens[mover].as_deref()).await;
    assert_eq!((again.seq, &again.view), (12, &before));
    assert_eq!(again.legal.as_ref(), Some(&legal));

    // A wrong token is refused, and the connection stays open for a good hello.
    let mut stranger = Client::open(&server, &id).await;
    stranger
        .send(&json!({"type": "hello", "token": "0".repeat(64)}))
        .await;
    assert_eq!(stranger.next().await["kind"], "bad_token");
    stranger.send(&json!({"type": "hello"})).await;
    assert_eq!(stranger.next().await["type"], "state");
}

/// Bots in every seat finish a game by themselves; the stored record replays to the same
/// outcome. One human with bots: the bots wait for the human and answer its moves.
async fn bot_seats_finish_games(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, _) = server
        .create(
            json!({"game": "valdora", "config": {"players": 3}, "seats": [
                {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"},
                {"kind": "bot", "bot": "ismcts:iters=20"}
            ]}),
        )
        .await;
    let summary = server.wait_over(&id, Duration::from_secs(600)).await;
    let (_, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(summary["outcome"], replay_outcome(&record));

    let (id, tokens) = server
        .create(json!({"game": "valley", "seats": [
            {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "easy"},
            {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "random"}
        ]}))
        .await;
    assert!(
        tokens[1..].iter().all(Option::is_none),
        "bot seats have no token"
    );
    let mut me = Client::connect(&server, &id, tokens[0].as_deref()).await;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    while me.status != "over" {
        if me.to_move == me.seat {
            let legal = me.legal.clone().expect("legal");
            me.act(&legal[rng.gen_range(0..legal.len())]).await;
        }
        let message = me.next().await;
        assert_ne!(message["type"], "error", "{message}");
    }
    let (_, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(me.outcome, replay_outcome(&record));
}

/// A game with no human seat is there to be watched: its moves come at least the pace
/// apart. And its bots yield to bots playing people: however many bots-only games think,
/// they take at most all workers but one (two by default), so a bot playing a person does
/// not wait behind them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_only_games_are_paced_and_yield_to_games_with_people() {
    let all_bots = |bot: &str| {
        let seats: Vec<Value> = (0..4).map(|_| json!({"kind": "bot", "bot": bot})).collect();
        json!({"game": "valley", "seats": seats})
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("paced.db").display());
    let server = Server::start_with(&db, &["--bot-pace-ms", "200"]);
    let (id, _) = server.create(all_bots("random")).await;
    let mut watcher = Client::connect(&server, &id, None).await;
    let first = watcher.seq + 1;
    watcher.wait_seq(first).await;
    let started = std::time::Instant::now();
    watcher.wait_seq(first + 5).await;
    assert!(
        started.elapsed() >= Duration::from_millis(5 * 200),
        "5 moves in {:?}, less than 5 × 200 ms",
        started.elapsed()
    );

    let server = Server::with_sqlite();
    let mut thinking = Vec::new();
    for _ in 0..4 {
        thinking.push(server.create(all_bots("ismcts:ms=2000")).await.0);
    }
    // A bot playing a person: the person moves when it is their turn, until the bot is to
    // move, whose move the person waits for.
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seats": [
                {"kind": "bot", "bot": "random"}, {"kind": "human", "name": "Ana"}
            ]}),
        )
        .await;
    let mut me = Client::connect(&server, &id, tokens[1].as_deref()).await;
    while me.to_move == me.seat {
        let legal = me.legal.clone().expect("legal actions");
        me.act(&legal[0]).await;
        me.wait_seq(me.seq + 1).await;
    }
    me.wait_seq(me.seq + 1).await;
    let mut bots_only_moves = 0;
    for id in &thinking {
        let (_, summary) = server.get(&format!("/api/games/{id}")).await;
        bots_only_moves += summary["seq"].as_u64().expect("seq");
    }
    // Taking turns with them (first come, first served), the person's bot would have
    // waited for four decisions of 2 s on two workers.
    assert!(
        bots_only_moves <= 1,
        "{bots_only_moves} moves of bots-only games came before the bot playing a person"
    );
}

/// Some tables of bots never end (docs/bots.md), and a game with no human seat has nobody
/// to stop it: the server gives it a turn cap when its game has one (Valdora), and it ends
/// truncated, as its stored record replays. A game with a person at it, or a game with no
/// turn cap, is as the client asked for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_only_games_end_at_the_servers_turn_cap() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("capped.db").display());
    let server = Server::start_with(&db, &["--bot-pace-ms", "0", "--bot-game-turn-cap", "4"]);
    let bots = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| json!({"kind": "bot", "bot": "random"}))
            .collect()
    };
    let (id, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": bots(3)}))
        .await;
    let summary = server.wait_over(&id, Duration::from_secs(60)).await;
    assert_eq!(summary["config"]["turn_cap"], 4, "{summary}");
    assert_eq!(summary["outcome"]["truncated"], true, "{summary}");
    let (_, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record["config"]["turn_cap"], 4);
    assert_eq!(summary["outcome"], replay_outcome(&record));
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    assert!(
        log.to_string().contains("turn_cap_reached"),
        "the log says why it ended"
    );

    let mut seats = bots(2);
    seats.push(json!({"kind": "human", "name": "Ana"}));
    let (with_a_person, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": seats}))
        .await;
    let (no_cap, _) = server
        .create(json!({"game": "valley", "seats": bots(4)}))
        .await;
    for id in [with_a_person, no_cap] {
        let (_, summary) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(summary["config"].get("turn_cap"), None, "{summary}");
    }
}

/// `serve --data valdora=FILE`: new games play on the corrected data, which the lobby and
/// the views say is verified; the game is stored with the data, so that its record carries
/// it and replays the same with `tabletop replay` and `/api/replay`, and the game still
/// plays on it after a restart on other data. A missing file and a bad file stop the server
/// with a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrected_data_is_stored_with_its_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::fs::read_to_string("data/valdora.toml").expect("shipped data");
    // Every entry verified: the corrected data is no longer provisional.
    let corrected = shipped
        .replace(r#"= "inferred""#, r#"= "confirmed""#)
        .replace(r#"= "unknown""#, r#"= "confirmed""#);
    assert_ne!(corrected, shipped);
    let file = dir.path().join("valdora.toml");
    std::fs::write(&file, &corrected).expect("write the data");
    let db = format!("sqlite://{}", dir.path().join("data.db").display());
    let data_flag = format!("valdora={}", file.display());
    let flags = [
        "--bot-pace-ms",
        "0",
        "--bot-game-turn-cap",
        "3",
        "--post-limit",
        "0",
    ];
    let provisional = |kinds: &Value| {
        kinds["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|k| k["game"] == "valdora")
            .map(|k| k["provisional_data"].clone())
    };
    let bots: Vec<Value> = (0..3)
        .map(|_| json!({"kind": "bot", "bot": "random"}))
        .collect();
    let person = json!({"game": "valdora", "config": {"players": 3}, "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}
    ]});

    let mut server = Server::start_with(&db, &[&flags[..], &["--data", &data_flag]].concat());
    let (_, kinds) = server.get("/api/games/kinds").await;
    assert_eq!(provisional(&kinds), Some(json!(false)), "{kinds}");
    let (watched, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": bots}))
        .await;
    let summary = server.wait_over(&watched, Duration::from_secs(60)).await;
    let (_, record) = server.get(&format!("/api/games/{watched}/record")).await;
    assert_eq!(
        record["data_toml"],
        json!(corrected),
        "the record carries its data"
    );
    assert_eq!(summary["outcome"], replay_outcome(&record));
    // `tabletop replay` reads the record's data: with a broken one it cannot set up.
    let mut broken = record.clone();
    broken["data_toml"] = json!("gems = 3\n");
    let broken_file = dir.path().join("broken-record.json");
    std::fs::write(&broken_file, broken.to_string()).expect("write the record");
    let out = common::tabletop()
        .arg("replay")
        .arg(&broken_file)
        .output()
        .expect("run tabletop replay");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("data_toml"));
    let (status, replay) = server.post("/api/replay", &json!({"record": record})).await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay["view"]["provisional_data"], false);
    assert_eq!(replay["outcome"], summary["outcome"]);
    // A client never names a file on the server.
    let mut by_path = record.clone();
    by_path["data"] = json!(file.display().to_string());
    let (status, refused) = server
        .post("/api/replay", &json!({"record": by_path}))
        .await;
    assert_eq!(
        (status, &refused["kind"]),
        (400, &json!("malformed")),
        "{refused}"
    );
    let (playing, tokens) = server.create(person.clone()).await;
    let me = Client::connect(&server, &playing, tokens[0].as_deref()).await;
    assert_eq!(
        me.view["provisional_data"], false,
        "the view says the data is verified"
    );
    drop(me);

    // Started again on the shipped data: new games play on it; stored ones keep theirs.
    server.terminate();
    let server = Server::start_with(&db, &flags);
    let (_, kinds) = server.get("/api/games/kinds").await;
    assert_eq!(provisional(&kinds), Some(json!(true)));
    let (_, again) = server.get(&format!("/api/games/{watched}/record")).await;
    assert_eq!(again, record, "rebuilt from the store on its own data");
    let me = Client::connect(&server, &playing, tokens[0].as_deref()).await;
    assert_eq!(me.view["provisional_data"], false);
    let (fresh, tokens) = server.create(person).await;
    let me = Client::connect(&server, &fresh, tokens[0].as_deref()).await;
    assert_eq!(me.view["provisional_data"], true);
    drop(server);

    let refused = |data: &str, says: &str| {
        let out = common::tabletop()
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                &db,
                "--data",
                data,
            ])
            .output()
            .expect("run tabletop serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--data {data} was accepted");
        assert!(stderr.contains(says), "--data {data}: {stderr}");
    };
    refused("valdora=/no/such/file.toml", "cannot read data file");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "gems = 3\n").expect("write");
    refused(&format!("valdora={}", bad.display()), "valdora data");
    refused("valdora", "GAME=FILE");
    refused(&format!("chess={}", file.display()), "unknown game");
}

/// `serve --data valley=FILE --data pandoria=FILE`: the browser draws these games' cards
/// and map from their component data, not from the views, so a game on corrected data names
/// it in its summary (`data_digest`) and `GET /api/games/{id}/data` serves its text, also
/// after a restart on the shipped data. A game on the shipped data names none, and its data
/// route says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrected_data_is_served_to_the_browser() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("data.db").display());
    let flags = ["--bot-pace-ms", "0", "--post-limit", "0"];
    let mut data_flags = Vec::new();
    let mut corrected = Vec::new();
    for game in ["valley", "pandoria"] {
        let shipped = std::fs::read_to_string(format!("data/{game}.toml")).expect("shipped data");
        let text = format!("{shipped}\n# Checked against a printed copy.\n");
        let file = dir.path().join(format!("{game}.toml"));
        std::fs::write(&file, &text).expect("write the data");
        data_flags.push(format!("{game}={}", file.display()));
        corrected.push((game, text));
    }
    let mut args: Vec<&str> = flags.to_vec();
    for flag in &data_flags {
        args.extend(["--data", flag.as_str()]);
    }
    let mut server = Server::start_with(&db, &args);
    let bots = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| json!({"kind": "bot", "bot": "random"}))
            .collect()
    };
    let mut games = Vec::new();
    for (game, text) in &corrected {
        let (id, _) = server
            .create(json!({"game": game, "seats": bots(2), "config": {"players": 2}}))
            .await;
        let (_, summary) = server.get(&format!("/api/games/{id}")).await;
        let digest = summary["data_digest"].as_str().expect("a digest");
        assert_eq!(digest.len(), 64, "{summary}");
        let (status, content_type, served) =
            server.get_text(&format!("/api/games/{id}/data")).await;
        assert_eq!(status, 200, "{served}");
        assert!(
            content_type.starts_with("application/toml"),
            "{content_type}"
        );
        assert_eq!(&served, text, "{game}: the game's own data");
        games.push((id, text));
    }
    let (shipped_game, _) = server
        .create(json!({"game": "valdora", "config": {"players": 3}, "seats": bots(3)}))
        .await;
    let (_, summary) = server.get(&format!("/api/games/{shipped_game}")).await;
    assert_eq!(summary["data_digest"], Value::Null, "{summary}");
    for game in [shipped_game.as_str(), "no-such-game"] {
        let (status, body) = server.get(&format!("/api/games/{game}/data")).await;
        assert_eq!(
            (status, &body["kind"]),
            (404, &json!("not_found")),
            "{game}: {body}"
        );
    }

    server.terminate();
    let server = Server::start_with(&db, &flags);
    for (id, text) in &games {
        let (status, _, served) = server.get_text(&format!("/api/games/{id}/data")).await;
        assert_eq!((status, &served), (200, *text), "game {id} after a restart");
    }
}

/// New games, joins and replays share one limit per client address: past it, each is
/// refused with `rate_limited`, a 429 and a `Retry-After`, and changes nothing. Reading
/// and playing are not limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_joins_and_replays_are_limited_per_address() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("limited.db").display());
    let server = Server::start_with(&db, &["--bot-pace-ms", "0", "--post-limit", "3"]);
    let open_game = json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "open"}
    ]});
    let (id, _) = server.create(open_game.clone()).await;
    let (id2, _) = server.create(open_game.clone()).await;
    let (status, _) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Bo"}))
        .await;
    assert_eq!(status, 200, "the third request of the minute");
    let (_, lobby) = server.get("/api/games").await;
    let listed = lobby.as_array().expect("a list").len();

    let response = reqwest::Client::new()
        .post(format!("{}/api/games", server.base))
        .json(&open_game)
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status().as_u16(), 429);
    let wait: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert!(
        (1..=21).contains(&wait),
        "one request comes back every 20 s: {wait}"
    );
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["kind"], "rate_limited", "{body}");
    for (path, request) in [
        (format!("/api/games/{id2}/join"), json!({"name": "Cy"})),
        ("/api/replay".to_string(), json!({"record": {}})),
    ] {
        let (status, body) = server.post(&path, &request).await;
        assert_eq!(
            (status, &body["kind"]),
            (429, &json!("rate_limited")),
            "{path}: {body}"
        );
    }
    let (_, lobby) = server.get("/api/games").await;
    assert_eq!(
        lobby.as_array().expect("a list").len(),
        listed,
        "nothing was created"
    );
    let (_, summary) = server.get(&format!("/api/games/{id2}")).await;
    assert_eq!(summary["seats_free"], 1, "nobody joined: {summary}");
    // Playing is not limited: the game joined above plays.
    let (status, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!((status, &summary["status"]), (200, &json!("running")));
}

/// Free seats: the game is open (listed in the lobby, no moves taken) until every seat is
/// taken by a join or by an invitation link's first hello.
async fn lobby_join_and_invitations(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valdora", "config": {"players": 3}, "seats": [
                {"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"}
            ]}),
        )
        .await;
    let (_, open) = server.get("/api/games?status=open").await;
    let listed = open
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == id.as_str()))
        .expect("listed as open");
    assert_eq!(listed["seats_free"], 2);
    let mut host = Client::connect(&server, &id, tokens[0].as_deref()).await;
    assert_eq!(host.status, "open");
    host.act(&json!({"End": null})).await;
    assert_eq!(host.next().await["kind"], "not_started");

    let (status, joined) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Bea"}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    let (status, taken) = server
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"seat": 1, "name": "Cy"}),
        )
        .await;
    assert_eq!((status, taken["kind"].as_str()), (409, Some("seat_taken")));
    // The invitation link of seat 2 claims it with its first hello; the game starts.
    let mut guest = Client::open(&server, &id).await;
    guest
        .send(&json!({"type": "hello", "token": tokens[2], "name": "Dee"}))
        .await;
    let mut state = guest.next().await;
    while state["type"] != "state" {
        state = guest.next().await;
    }
    // Bea's join, then Dee's claim: each a seats message followed by the whole state. The
    // states are made when the host's connection sends them: if it sends the first after
    // Dee's claim, that state already holds it, and the client takes the second seats
    // message for a presence change (it changes nothing the client does not know). So
    // the host waits for a state that holds the game started.
    let mut state = host.next_of("state").await;
    while state["status"] != "running" {
        state = host.next_of("state").await;
    }
    assert_eq!(state["seats"][1]["name"], "Bea");
    assert_eq!(state["seats"][2]["name"], "Dee");
    assert_eq!(host.status, "running");
    let (status, body) = server
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Late"}))
        .await;
    assert_eq!((status, body["kind"].as_str()), (409, Some("seat_taken")));
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][1]["name"], "Bea");
    assert_eq!(summary["seats_free"], 0);
}

/// After `kill -9` and a restart on the same database, every acknowledged move is there,
/// in order, and the game plays on to the end.
async fn kill_9_loses_no_acknowledged_move(db: &TestDb) {
    let mut server = Server::start(&db.url);
    let mut games = Vec::new();
    for seed in 0..3u64 {
        let (id, tokens) = server
            .create(json!({"game": "valdora", "seed": seed, "seats": humans(4)}))
            .await;
        games.push((id, tokens));
    }
    // Each game's movers play as fast as they can; the server is killed mid-way.
    let mut acknowledged: Vec<Vec<Value>> = vec![Vec::new(); games.len()];
    let mut players = Vec::new();
    for (id, tokens) in &games {
        players.push(connect_all(&server, id, tokens).await);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..40 {
        for (g, clients) in players.iter_mut().enumerate() {
            acknowledged[g].extend(play_random(clients, &mut rng, 1).await);
        }
    }
    // Moves in flight at the kill: sent, maybe stored, not acknowledged.
    let mut in_flight = Vec::new();
    for clients in players.iter_mut() {
        let mover = clients
            .iter()
            .position(|c| c.seat == c.to_move)
            .expect("mover");
        let legal = clients[mover].legal.clone().expect("legal");
        clients[mover].act(&legal[0]).await;
        in_flight.push(legal[0].clone());
    }
    server.kill9();
    drop(players);
    let server = Server::start(&db.url);
    let catalog = tabletop::games::catalog();
    let valdora = catalog.get("valdora").expect("valdora");
    for (g, (id, tokens)) in games.iter().enumerate() {
        let mut clients = connect_all(&server, id, tokens).await;
        let stored = clients[0].seq as usize;
        let acked = acknowledged[g].len();
        assert!(
            stored == acked || stored == acked + 1,
            "game {id}: {stored} moves stored, {acked} acknowledged"
        );
        // What was stored is the acknowledged moves (and perhaps the one in flight), in
        // order: each seat's resumed view is the engine's after exactly those moves.
        let mut expected = acknowledged[g].clone();
        if stored > acked {
            expected.push(in_flight[g].clone());
        }
        let (game, _) = valdora
            .replay(
                server::Setup {
                    config: &json!({}),
                    seed: g as u64,
                    data: None,
                },
                &expected,
            )
            .expect("the acknowledged moves replay");
        for client in &clients {
            assert_eq!(
                client.view,
                game.view_json(client.seat).expect("view"),
                "game {id}"
            );
        }
        // And the game plays on.
        play_random(&mut clients, &mut rng, 10).await;
    }
}

/// At least 10,000 bad messages over one real socket: each gets a typed error and the
/// connection stays open; then the game plays to its end and its record replays.
async fn bad_messages_change_nothing(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valdora", "seed": 21, "seats": humans(3), "config": {"players": 3}}),
        )
        .await;
    let mut clients = connect_all(&server, &id, &tokens).await;
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    play_random(&mut clients, &mut rng, 5).await;
    let seq = clients[0].seq;
    let mover = clients
        .iter()
        .position(|c| c.seat == c.to_move)
        .expect("mover");
    let idle = (mover + 1) % 3;
    let valley_action = json!({"Buy": {"slot": 0}});
    let pieces = [
        "{", "}", "[", "]", "\"", ":", ",", "act", "type", "seq", "null", "1e999", "-1", "\u{0}",
        "é", "hello", "action",
    ];
    let mut sent = 0;
    let mut kinds: HashMap<String, usize> = HashMap::new();
    for i in 0..10_500u32 {
        let client = if i % 2 == 0 { mover } else { idle };
        let text = match i % 18 {
            0 => (0..rng.gen_range(1..30)).map(|_| pieces[rng.gen_range(0..pieces.len())]).collect(),
            1 => r#"{"type":"act","seq":"x","action":1}"#.to_string(),
            2 => json!({"type": "act", "seq": seq, "action": {"Move": {"to": 250 + i}}}).to_string(),
            3 => json!({"type": "act", "seq": seq, "action": valley_action}).to_string(),
            4 => json!({"type": "act", "seq": u64::MAX, "action": null}).to_string(),
            5 => json!({"type": "hello", "token": "x"}).to_string(),
            6 => json!({"type": "quit"}).to_string(),
            7 => json!({"type": "act", "seq": seq, "action": clients[mover].legal.clone().map(|l| l[0].clone()), "extra": 1}).to_string(),
            8 => "x".repeat(20_000),
            9 => json!([1, 2, 3]).to_string(),
            10 => json!({"type": "act", "seq": seq}).to_string(),
            // "Why?" with an action of another game, with none, with a field too many.
            12 => json!({"type": "why", "action": valley_action}).to_string(),
            13 => json!({"type": "why"}).to_string(),
            14 => json!({"type": "why", "action": {"Move": {"to": 250 + i}}, "seq": seq}).to_string(),
            // Chat that is never kept: no text, a blank or control-only one, one too long,
            // a field too many.
            15 => {
                let blank = [" ", "\u{0}\u{1b}", ""][i as usize % 3];
                json!({"type": "say", "text": blank}).to_string()
            }
            16 => json!({"type": "say", "text": "é".repeat(501 + i as usize % 50)}).to_string(),
            17 => json!({"type": "say", "text": "hi", "seq": seq}).to_string(),
            _ => json!({"type": "act", "seq": seq, "action": "End"}).to_string(),
        };
        if i % 500 == 499 {
            clients[client].send_binary(vec![0, 159, 146, 150]).await;
        } else {
            clients[client].send_text(text).await;
        }
        sent += 1;
        let reply = clients[client].recv().await;
        assert_eq!(reply["type"], "error", "message {i}: {reply}");
        *kinds
            .entry(reply["kind"].as_str().unwrap_or_default().to_string())
            .or_default() += 1;
        if reply["kind"] == "stale" {
            // The current state follows a stale error.
            assert_eq!(clients[client].recv().await["type"], "state");
        }
    }
    assert!(sent >= 10_000);
    for kind in ["malformed", "too_large", "not_your_turn", "stale"] {
        assert!(kinds.contains_key(kind), "no {kind} among {kinds:?}");
    }
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seq"], seq, "no bad message changed the game");
    let (_, chat) = server.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(chat, json!([]), "no bad message was said");
    play_random(&mut clients, &mut rng, 100_000).await;
    let (_, record) = server.get(&format!("/api/games/{id}/record")).await;
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["outcome"], replay_outcome(&record));
}

/// HTTP: every bad request gets a typed JSON error and changes nothing.
async fn bad_http_requests(db: &TestDb) {
    let server = Server::start(&db.url);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/api/games",
            json!({"game": "chess", "seats": []}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": humans(2)}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": humans(4), "config": {"turn_cap": 3}}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": humans(4), "config": {"data": "/etc/passwd"}}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": humans(4), "config": {"players": 9}}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "pandoria", "seats": humans(3), "config": {"players": 3, "teams": true}}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": [{"kind": "bot", "bot": "ismcts:iters=99999999"}, {"kind":"bot","bot":"easy"}, {"kind":"bot","bot":"easy"}, {"kind":"bot","bot":"easy"}]}),
            "malformed",
        ),
        (
            "/api/games",
            json!({"game": "valdora", "seats": [{"kind": "human", "name": ""}, {"kind":"bot","bot":"easy"}, {"kind":"bot","bot":"easy"}, {"kind":"bot","bot":"easy"}]}),
            "malformed",
        ),
        ("/api/games", json!({"game": 7}), "malformed"),
        ("/api/games", json!([]), "malformed"),
        (
            "/api/games/zzzzzzzzzzzz/join",
            json!({"name": "x"}),
            "not_found",
        ),
        (
            "/api/games/..%2F..%2Fetc/join",
            json!({"name": "x"}),
            "not_found",
        ),
    ];
    for (path, body, kind) in cases {
        let (status, answer) = server.post(path, &body).await;
        assert_eq!(answer["kind"], kind, "{path} {body}: {status} {answer}");
        assert!(status >= 400);
    }
    let (status, answer) = server.post_raw("/api/games", b"{not json".to_vec()).await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (400, Some("malformed")),
        "{answer}"
    );
    let (status, answer) = server.post_declaring("/api/games", 100_000).await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (413, Some("too_large")),
        "{answer}"
    );
    let (status, answer) = server.get("/api/games?status=sideways").await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (400, Some("malformed")),
        "{answer}"
    );
    // The replay viewer's endpoint: bad records are refused with their reason; records may
    // be larger than other bodies (1 MiB), not more.
    let record = json!({"game": "valdora", "config": {"players": 3}, "seed": 1, "actions": []});
    for (body, kind) in [
        (
            json!({"record": {"game": "chess", "config": {}, "seed": 1, "actions": []}}),
            "malformed",
        ),
        (json!({"record": record, "seat": 3}), "malformed"),
        (
            json!({"record": {"game": "valdora", "config": {"data": "/etc/passwd"}, "seed": 1, "actions": []}}),
            "malformed",
        ),
        (
            json!({"record": {"game": "valdora", "config": {"players": 3}, "seed": 1, "actions": [{"type": "end"}]}}),
            "illegal",
        ),
        (
            json!({"record": record, "seat": 0, "extra": 1}),
            "malformed",
        ),
    ] {
        let (status, answer) = server.post("/api/replay", &body).await;
        assert_eq!(answer["kind"], kind, "{body}: {status} {answer}");
    }
    let mut long = record.clone();
    long["actions"] = Value::Array(vec![json!({"type": "pass"}); 4_000]);
    let (status, answer) = server.post("/api/replay", &json!({"record": long})).await;
    assert_eq!(
        answer["kind"], "illegal",
        "a 60 KB record is read: {status} {answer}"
    );
    let (status, answer) = server.post_declaring("/api/replay", 2 << 20).await;
    assert_eq!((status, answer["kind"].as_str()), (413, Some("too_large")));
    // The client's files: only Vite's flat asset names, never a path.
    for path in [
        "/assets/..%2F..%2FCargo.toml",
        "/assets/.env",
        "/assets/%2Fetc%2Fpasswd",
    ] {
        let (status, answer) = server.get(path).await;
        assert_eq!(
            (status, answer["kind"].as_str()),
            (404, Some("not_found")),
            "{path}"
        );
    }
    let (status, answer) = server.get("/api/games/abc").await;
    assert_eq!((status, answer["kind"].as_str()), (404, Some("not_found")));
    let (status, answer) = server.get("/no/such/route").await;
    assert_eq!((status, answer["kind"].as_str()), (404, Some("not_found")));
    let (_, games) = server.get("/api/games").await;
    assert_eq!(games, json!([]), "no bad request created a game");
    // A WebSocket to an unknown game: an error, then a close with a reason.
    let mut ghost = Client::open(&server, "zzzzzzzzzzzz").await;
    assert_eq!(ghost.recv().await["kind"], "not_found");
    let (code, reason) = ghost.closed().await;
    assert_eq!((code, reason.as_str()), (1008, "no such game"));
}

/// The kinds endpoint builds a "new game" form; OpenAPI, health and metrics answer; SIGTERM
/// closes connections with a reason and exits cleanly.
async fn kinds_docs_operations_and_shutdown(db: &TestDb) {
    let mut server = Server::start(&db.url);
    let (status, kinds) = server.get("/api/games/kinds").await;
    assert_eq!(status, 200);
    let games: Vec<&str> = kinds["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["game"].as_str())
        .collect();
    assert_eq!(games, ["valdora", "valley", "pandoria"]);
    for game in kinds["games"].as_array().into_iter().flatten() {
        assert_eq!(game["options"][0]["key"], "players", "{game}");
    }
    let strengths: Vec<&str> = kinds["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert_eq!(strengths, ["easy", "medium", "hard"]);
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in [
        "/api/games",
        "/api/games/kinds",
        "/api/games/{id}/join",
        "/api/games/{id}/record",
        "/api/games/{id}/ws",
        "/api/replay",
    ] {
        assert!(
            openapi["paths"].get(path).is_some(),
            "{path} not in the OpenAPI document"
        );
    }
    assert!(openapi["components"]["schemas"]
        .get("ServerMessage")
        .is_some());
    // The browser client's page (or, in a binary built before the client, a page saying
    // how to build it).
    let (status, page) = server.get("/").await;
    assert_eq!(status, 200);
    assert!(
        page.as_str()
            .is_some_and(|page| page.contains("<title>tabletop")),
        "{page}"
    );
    let (status, health) = server.get("/healthz").await;
    assert_eq!((status, health), (200, json!("ok\n")));
    let (id, tokens) = server
        .create(json!({"game": "valley", "config": {"players": 2}, "seats": humans(2)}))
        .await;
    let mut clients = connect_all(&server, &id, &tokens).await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    play_random(&mut clients, &mut rng, 5).await;
    let (_, metrics) = server.get("/metrics").await;
    let metrics = metrics.as_str().expect("metrics text").to_string();
    for name in [
        "tabletop_moves_total",
        "tabletop_move_latency_seconds_bucket",
        "tabletop_ws_connections",
        "tabletop_games{status=\"running\"}",
    ] {
        assert!(metrics.contains(name), "{name} missing from /metrics");
    }
    let (status, text) = server.get(&format!("/api/games/{id}/text")).await;
    assert_eq!(status, 200);
    assert!(
        text.as_str().is_some_and(|t| t.contains("Pyramid")),
        "{text}"
    );
    let status = server.terminate();
    assert!(status.success(), "exit status after SIGTERM: {status}");
    for client in clients.iter_mut() {
        let (code, reason) = client.closed().await;
        assert_eq!((code, reason.as_str()), (1001, "server shutting down"));
    }
}

/// Two server processes on one PostgreSQL database, as behind a load balancer: the seats
/// of one game are split between them, and each learns of the other's moves and seat
/// changes as they commit (LISTEN/NOTIFY), so every client sees every move, whichever
/// server it is connected to. Racing moves sent to both are stored once.
async fn two_servers_share_games(db: &TestDb) {
    let a = Server::start(&db.url);
    let b = Server::start(&db.url);
    let (id, tokens) = a
        .create(json!({"game": "valley", "seed": 5, "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "human", "name": "Cat"}
        ], "config": {"players": 3}}))
        .await;
    // Both servers have the game cached and watched before anything changes.
    let mut ann = Client::connect(&a, &id, tokens[0].as_deref()).await;
    let watcher_b = Client::connect(&b, &id, None).await;
    assert_eq!(ann.status, "open");
    // A seat taken on B: A's client is told, and the game starts for it.
    let (status, joined) = b
        .post(&format!("/api/games/{id}/join"), &json!({"name": "Bob"}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let mut seats = ann.next().await;
    while seats["type"] != "seats" {
        seats = ann.next().await;
    }
    assert_eq!(
        (seats["status"].as_str(), seats["seats"][1]["name"].as_str()),
        (Some("running"), Some("Bob"))
    );
    while ann.status != "running" {
        ann.next().await;
    }
    let bob_token = joined["token"].as_str().map(str::to_string);
    let mut clients = vec![
        ann,
        Client::connect(&b, &id, bob_token.as_deref()).await,
        Client::connect(&a, &id, tokens[2].as_deref()).await,
        watcher_b,
        Client::connect(&a, &id, None).await,
    ];
    let watcher_b = &mut clients[3];
    while watcher_b.status != "running" {
        watcher_b.next().await;
    }
    // Twenty rounds of racing: the seat to move sends a move through each server at once.
    let seat_tokens = [tokens[0].clone(), bob_token, tokens[2].clone()];
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for round in 0..20 {
        let mover = clients
            .iter()
            .position(|c| c.seat.is_some() && c.seat == c.to_move)
            .expect("mover");
        let seat = usize::from(clients[mover].seat.expect("a seat"));
        let other_server = if mover == 1 { &a } else { &b };
        let mut twin = Client::connect(other_server, &id, seat_tokens[seat].as_deref()).await;
        let seq = clients[mover].seq;
        race(&mut clients[mover], &mut twin, &mut rng, round).await;
        for client in clients.iter_mut() {
            let errors = client.wait_seq(seq + 1).await;
            assert!(errors.is_empty(), "round {round}: {errors:?}");
        }
    }
    // The rest of the game, the seats on both servers in turn.
    play_random(&mut clients, &mut rng, 100_000).await;
    assert!(clients.iter().all(|c| c.status == "over"));
    let (_, record_a) = a.get(&format!("/api/games/{id}/record")).await;
    let (_, record_b) = b.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record_a, record_b);
    check_views_against_engine(&record_a, &clients);
    let (_, summary_a) = a.get(&format!("/api/games/{id}")).await;
    let (_, summary_b) = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary_a["outcome"], replay_outcome(&record_a));
    assert_eq!(summary_a, summary_b);
    let (_, log_a) = a.get(&format!("/api/games/{id}/log")).await;
    let (_, log_b) = b.get(&format!("/api/games/{id}/log")).await;
    assert_eq!(log_a, log_b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_games_on_postgres() {
    if let Some(db) = TestDb::new(Db::Postgres).await {
        two_servers_share_games(&db).await;
    }
}

on_both_databases!(
    whole_games_by_four_clients,
    racing_moves,
    stale_reconnect_and_refusals,
    bot_seats_finish_games,
    lobby_join_and_invitations,
    kill_9_loses_no_acknowledged_move,
    bad_messages_change_nothing,
    bad_http_requests,
    kinds_docs_operations_and_shutdown,
);
