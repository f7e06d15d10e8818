//! "Why not?" on a real `tabletop serve`, in every game: every offered action names the
//! rule it follows (one of the rules `/api/games/kinds` lists); a seat asks why for an
//! action and is answered alone, with the rule (and the reason when refused); a spectator
//! may not ask; a malformed action is a typed error; nothing changes.

mod common;

use common::server::{Client, Server, TestDb};
use serde_json::{json, Value};

/// Connects as `token`'s seat (none: a spectator); returns the client and its state.
async fn connect(server: &Server, id: &str, token: Option<&str>) -> (Client, Value) {
    let mut client = Client::open(server, id).await;
    client.send(&json!({"type": "hello", "token": token})).await;
    let state = client.next().await;
    assert_eq!(state["type"], "state", "{state}");
    (client, state)
}

/// The rule ids `/api/games/kinds` lists for `game`.
async fn rules_of(server: &Server, game: &str) -> Vec<String> {
    let (status, kinds) = server.get("/api/games/kinds").await;
    assert_eq!(status, 200);
    let kind = kinds["games"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|k| k["game"] == game)
        .unwrap_or_else(|| panic!("{game} in {kinds}"));
    let rules: Vec<String> = serde_json::from_value(kind["rules"].clone()).expect("rules");
    assert!(!rules.is_empty(), "{game} lists its rules");
    rules
}

/// The next message that is not about the seats (someone connecting).
async fn next_not_seats(client: &mut Client) -> Value {
    loop {
        let message = client.next().await;
        if !matches!(message["type"].as_str(), Some("seats" | "state")) {
            return message;
        }
    }
}

async fn why(client: &mut Client, action: &Value) -> Value {
    client.send(&json!({"type": "why", "action": action})).await;
    next_not_seats(client).await
}

async fn seats_ask_why_spectators_may_not(db: &TestDb) {
    let server = Server::start(&db.url);
    for game in ["valdora", "valley", "pandoria"] {
        let rules = rules_of(&server, game).await;
        let cites = |answer: &Value| rules.iter().any(|r| answer["rule"] == r.as_str());
        let (id, tokens) = server
            .create(
                json!({"game": game, "seed": 5, "config": {"players": 3}, "seats": [
                    {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"},
                    {"kind": "human", "name": "Cy"}
                ]}),
            )
            .await;
        let mut seats = Vec::new();
        let mut mover = None;
        for (seat, token) in tokens.iter().enumerate() {
            let (client, state) = connect(&server, &id, token.as_deref()).await;
            if let Some(legal) = state["legal"].as_array() {
                for offered in legal {
                    assert!(
                        cites(offered),
                        "{game}: {offered} names a rule of {rules:?}"
                    );
                }
                mover = Some((seat, legal[0].clone()));
            }
            seats.push(client);
        }
        let (mover, offered) = mover.expect("a seat to move");
        let action = offered["action"].clone();
        let (_, before) = server.get(&format!("/api/games/{id}")).await;

        // The mover may: legal, with the rule the offer named.
        let yes = why(&mut seats[mover], &action).await;
        assert_eq!(yes["type"], "why", "{game}: {yes}");
        assert_eq!((&yes["legal"], &yes["action"]), (&json!(true), &action));
        assert_eq!(yes["rule"], offered["rule"], "{game}: {yes}");
        assert!(yes.get("reason").is_none(), "{game}: {yes}");

        // Another seat may not: refused with a rule and a reason.
        let idle = (mover + 1) % 3;
        let no = why(&mut seats[idle], &action).await;
        assert_eq!((&no["type"], &no["legal"]), (&json!("why"), &json!(false)));
        assert!(cites(&no), "{game}: {no}");
        assert!(no["reason"]["code"].is_string(), "{game}: {no}");
        assert!(no["reason"]["args"].is_object(), "{game}: {no}");

        // A spectator may not ask; a malformed action is an error.
        let (mut spectator, _) = connect(&server, &id, None).await;
        let refused = why(&mut spectator, &action).await;
        assert_eq!(refused["kind"], "forbidden", "{game}: {refused}");
        let bad = why(&mut seats[mover], &json!({"no_such_action": 1})).await;
        assert_eq!(bad["kind"], "malformed", "{game}: {bad}");

        // Nothing changed, and nobody else heard the questions.
        let (_, after) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(before, after, "{game}: asking changed the game");
        let seq = seats[mover].seq;
        seats[mover].act(&action).await;
        for client in seats.iter_mut().chain([&mut spectator]) {
            let update = next_not_seats(client).await;
            assert_eq!(
                (&update["type"], &update["seq"]),
                (&json!("update"), &json!(seq + 1)),
                "{game}: the move is the next thing every watcher hears"
            );
        }
    }
}

on_both_databases!(seats_ask_why_spectators_may_not);
