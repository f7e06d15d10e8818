//! Undo of misclicks on a real `tabletop serve` (SQLite and PostgreSQL), in every game: a
//! seat takes back its own decisions since the last barrier and only while no other seat
//! acted since; the undo is a stored step of its own that every watcher is told, the
//! position is the one before the decision, and a restarted server (kill -9) rebuilds the
//! same game, log and undo points. Refusals name their reason and change nothing; an undo
//! racing another seat's move: exactly one of them is stored.

mod common;

use std::time::Duration;

use common::server::{Client, Server, TestDb};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Three people at a table of `game`.
fn table_for_three(game: &str, seed: u64) -> Value {
    json!({"game": game, "seed": seed, "config": {"players": 3}, "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"},
        {"kind": "human", "name": "Cy"}
    ]})
}

/// Mutable references to two different clients.
fn two_of(clients: &mut [Client], a: usize, b: usize) -> (&mut Client, &mut Client) {
    assert_ne!(a, b);
    if a < b {
        let (low, high) = clients.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = clients.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

/// The next update or error of `client` (skipping seats messages).
async fn answer(client: &mut Client) -> Value {
    loop {
        let message = client.next().await;
        if matches!(message["type"].as_str(), Some("update" | "error")) {
            return message;
        }
    }
}

/// Connects both seats and a spectator.
async fn seated(server: &Server, id: &str, tokens: &[Option<String>]) -> (Vec<Client>, Client) {
    let mut clients = Vec::new();
    for token in tokens {
        clients.push(Client::connect(server, id, token.as_deref()).await);
    }
    (clients, Client::connect(server, id, None).await)
}

/// Every watcher takes messages until it has seen `seq`.
async fn all_see(clients: &mut [Client], spectator: &mut Client, seq: u64) {
    for client in clients.iter_mut().chain(std::iter::once(spectator)) {
        let errors = client.wait_seq(seq).await;
        assert!(errors.is_empty(), "{errors:?}");
    }
}

/// Plays random games of each game; after every decision the mover may take back, it does,
/// and every watcher sees the position before the decision again; then it makes the same
/// decision once more. After a decision it may not take back, the undo is refused with a
/// reason and nothing changes. Every barrier refusal follows a move the game says
/// revealed something. A server killed with -9 and restarted rebuilds the same game.
async fn undo_takes_back_decisions_up_to_the_last_barrier(db: &TestDb) {
    let mut server = Server::start(&db.url);
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for (game, seed) in [("valdora", 4), ("valley", 5), ("pandoria", 6)] {
        let (id, tokens) = server.create(table_for_three(game, seed)).await;
        let (mut clients, mut spectator) = seated(&server, &id, &tokens).await;
        let (mut undone, mut refused) = (0, [0; 3]);
        for _ in 0..120 {
            if clients[0].status == "over" {
                break;
            }
            let mover = usize::from(clients[0].to_move.expect("someone moves"));
            let legal = clients[mover].legal.clone().expect("legal actions");
            let action = legal[rng.gen_range(0..legal.len())].clone();
            let before = (clients[mover].view.clone(), spectator.view.clone());
            let seq = clients[mover].seq;
            clients[mover].act(&action).await;
            all_see(&mut clients, &mut spectator, seq + 1).await;
            let client = &mut clients[mover];
            client.send(&json!({"type": "undo", "seq": seq + 1})).await;
            if client.can_undo {
                all_see(&mut clients, &mut spectator, seq + 2).await;
                let client = &mut clients[mover];
                assert_eq!(client.view, before.0, "{game}: the mover's view is back");
                assert_eq!(spectator.view, before.1, "{game}: the spectator's too");
                undone += 1;
                // The same decision again: the game goes on as it would have.
                client.act(&action).await;
                all_see(&mut clients, &mut spectator, seq + 3).await;
            } else {
                let refusal = answer(client).await;
                assert_eq!(refusal["kind"], "undo_refused", "{game}: {refusal}");
                let reason = refusal["reason"].as_str().expect("a reason");
                let index = ["barrier", "not_yours", "others_acted"]
                    .iter()
                    .position(|r| *r == reason)
                    .expect("a known reason");
                refused[index] += 1;
                assert_eq!(client.seq, seq + 1, "a refusal changes nothing");
            }
            // The other seat, whose last decision is behind this one, may not undo.
            let other = &mut clients[(mover + 1) % 3];
            if other.seq > 2 {
                let at = other.seq;
                other.send(&json!({"type": "undo", "seq": at})).await;
                let refusal = answer(other).await;
                assert_eq!(refusal["kind"], "undo_refused", "{game}: {refusal}");
            }
        }
        assert!(undone > 0, "{game}: some decisions were taken back");
        assert!(refused[0] > 0, "{game}: some decisions were barriers");
        // The log holds each undo, not the decisions taken back.
        let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
        let undos = log
            .as_array()
            .expect("log")
            .iter()
            .filter(|e| e.get("undid").is_some())
            .count();
        assert_eq!(undos, undone, "{game}: {log}");
        // A restarted server rebuilds the same position and undo points.
        let (seq, view, can_undo) = (
            clients[0].seq,
            clients[0].view.clone(),
            clients.iter().map(|c| c.can_undo).collect::<Vec<_>>(),
        );
        drop(clients);
        drop(spectator);
        server.kill9();
        server = Server::start(&db.url);
        let (clients, _) = seated(&server, &id, &tokens).await;
        assert_eq!((clients[0].seq, &clients[0].view), (seq, &view), "{game}");
        let rebuilt: Vec<bool> = clients.iter().map(|c| c.can_undo).collect();
        assert_eq!(
            rebuilt, can_undo,
            "{game}: the same undo points after a restart"
        );
        let (_, again) = server.get(&format!("/api/games/{id}/log")).await;
        assert_eq!(again, log, "{game}: the same log after a restart");
    }
}

/// An undo racing the next seat's move, both for the same position: exactly one is
/// stored, and the other is refused with a typed error; everyone ends at the same seq.
async fn an_undo_racing_a_move_stores_exactly_one(db: &TestDb) {
    let server = Server::start(&db.url);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut raced = 0;
    for (game, seed) in [("pandoria", 2), ("valdora", 3), ("valley", 4)] {
        let (id, tokens) = server.create(table_for_three(game, seed)).await;
        let (mut clients, mut spectator) = seated(&server, &id, &tokens).await;
        for _ in 0..150 {
            if clients[0].status == "over" || raced >= 3 {
                break;
            }
            let mover = usize::from(clients[0].to_move.expect("someone moves"));
            let legal = clients[mover].legal.clone().expect("legal actions");
            let action = legal[rng.gen_range(0..legal.len())].clone();
            let seq = clients[mover].seq;
            clients[mover].act(&action).await;
            all_see(&mut clients, &mut spectator, seq + 1).await;
            let next = clients[0].to_move.map(usize::from);
            let Some(next) = next.filter(|&n| n != mover && clients[mover].can_undo) else {
                continue;
            };
            // The turn passed, and the mover may still take its decision back: race.
            let reply = clients[next].legal.clone().expect("legal")[0].clone();
            let (undoer, answerer) = two_of(&mut clients, mover, next);
            let undo = json!({"type": "undo", "seq": seq + 1});
            let act = json!({"type": "act", "seq": seq + 1, "action": reply});
            tokio::join!(undoer.send(&undo), answerer.send(&act));
            let (first, second) = tokio::join!(answer(undoer), answer(answerer));
            let stored = [&first, &second]
                .iter()
                .filter(|m| m["type"] == "update" && m["seq"] == seq + 2)
                .count();
            // Each sees the one stored step; the loser also its refusal.
            let refusals: Vec<&Value> = [&first, &second]
                .into_iter()
                .filter(|m| m["type"] == "error")
                .collect();
            assert!(stored >= 1, "{game}: {first} / {second}");
            assert!(refusals.len() <= 1, "{game}: {refusals:?}");
            for refusal in &refusals {
                assert!(
                    matches!(
                        refusal["kind"].as_str(),
                        Some("stale" | "undo_refused" | "conflict" | "not_your_turn")
                    ),
                    "{game}: {refusal}"
                );
            }
            for client in clients.iter_mut().chain(std::iter::once(&mut spectator)) {
                client.wait_seq(seq + 2).await;
            }
            let (_, summary) = server.get(&format!("/api/games/{id}")).await;
            assert_eq!(
                summary["seq"].as_u64(),
                Some(seq + 2),
                "{game}: one step stored"
            );
            raced += 1;
            // Resynchronise whoever was refused (a stale answer is followed by a state).
            let (fresh, _) = seated(&server, &id, &tokens).await;
            clients = fresh;
        }
    }
    assert!(raced > 0, "a race was run");
}

/// The record of a finished game holds the decisions taken back (`undone`), each after the
/// actions it followed; `tabletop replay` reads such a record and shows them, marked.
async fn a_record_keeps_the_decisions_taken_back(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "seed": 9, "config": {"players": 2}, "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}
            ]}),
        )
        .await;
    let mut ana = Client::connect(&server, &id, tokens[0].as_deref()).await;
    let mut undone = None;
    while undone.is_none() {
        ana.until_to_move(0).await;
        let action = ana.legal.as_ref().expect("legal actions")[0].clone();
        let seq = ana.seq;
        ana.act(&action).await;
        assert!(ana.wait_seq_or_error(seq + 1).await.is_none());
        if ana.can_undo {
            ana.send(&json!({"type": "undo", "seq": seq + 1})).await;
            assert!(ana.wait_seq_or_error(seq + 2).await.is_none());
            undone = Some(action);
        }
    }
    ana.send(&json!({"type": "leave"})).await;
    server.wait_over(&id, Duration::from_secs(120)).await;
    let (status, record) = server.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    let taken_back = &record["undone"];
    assert_eq!(taken_back.as_array().map(Vec::len), Some(1), "{record}");
    assert_eq!(
        (&taken_back[0]["seat"], &taken_back[0]["action"]),
        (&json!(0), undone.as_ref().expect("an undo"))
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("record.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    let out = common::tabletop()
        .args(["replay", "--json"])
        .arg(&file)
        .output()
        .expect("tabletop replay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replay: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let log = replay["log"].as_array().expect("log");
    let marked: Vec<&Value> = log.iter().filter(|e| e["taken_back"] == true).collect();
    assert_eq!(marked.len(), 1, "{replay}");
    assert_eq!(marked[0]["number"], taken_back[0]["after"]);
    let actions = record["actions"].as_array().expect("actions").len();
    assert_eq!(
        log.len(),
        actions + 1,
        "every action, and the one taken back"
    );
    // The web replay takes the same record.
    let (status, replayed) = server
        .post("/api/replay", &json!({"record": record, "seat": 0}))
        .await;
    assert_eq!(status, 200, "{replayed}");
    let undo = replayed["log"]
        .as_array()
        .expect("log")
        .iter()
        .find(|e| e.get("undid").is_some())
        .expect("the replay's log shows the undo");
    let after = taken_back[0]["after"].as_u64().expect("after");
    assert_eq!(
        (undo["seq"].as_u64(), undo["undid"].as_u64()),
        (Some(after), Some(after + 1))
    );
    // A decision taken back that was not legal where the record puts it (another seat's,
    // which was not to move) is refused.
    let mut forged = record.clone();
    forged["undone"][0]["seat"] = json!(1);
    let (status, refused) = server
        .post("/api/replay", &json!({"record": forged, "seat": 0}))
        .await;
    assert_eq!(
        (status, refused["kind"].as_str()),
        (400, Some("malformed")),
        "{refused}"
    );
}

on_both_databases!(
    undo_takes_back_decisions_up_to_the_last_barrier,
    an_undo_racing_a_move_stores_exactly_one,
    a_record_keeps_the_decisions_taken_back,
);
