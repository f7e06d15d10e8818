//! Hints at casual tables, on a real `tabletop serve` (SQLite and PostgreSQL): a table's
//! creator allows them or not; at a table that allows them, the seat to move asks what the
//! hard bot would do, and every connection gets the answer as a seat event the log keeps.
//! Every refusal changes nothing.

mod common;

use common::server::{Client, Server, TestDb};
use serde_json::{json, Value};

/// A Valley of the Kings game for two people (it starts at once), with hints or not.
fn valley(hints: Option<bool>) -> Value {
    let mut request = json!({"game": "valley", "config": {"players": 2}, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}
    ]});
    if let Some(hints) = hints {
        request["hints"] = json!(hints);
    }
    request
}

/// The table as it stands: its summary's seq and its log.
async fn stored(server: &Server, id: &str) -> (Value, Value) {
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    (summary["seq"].clone(), log)
}

/// Off by default: a seat asking is refused (`forbidden`), and nothing is stored.
async fn hints_are_refused_where_the_creator_did_not_allow_them(db: &TestDb) {
    let server = Server::start(&db.url);
    // The API document tells clients of the setting, the request and the seat event.
    let (_, openapi) = server.get("/api/openapi.json").await;
    let schemas = &openapi["components"]["schemas"];
    assert!(schemas.get("HintedAction").is_some(), "{schemas}");
    assert!(schemas["SeatChange"].to_string().contains("hinted"));
    assert!(schemas["CreateGame"]["properties"].get("hints").is_some());
    assert!(schemas["GameSummary"]["properties"].get("hints").is_some());
    assert!(schemas["ClientMessage"].to_string().contains("\"hint\""));
    for request in [valley(None), valley(Some(false))] {
        let (id, tokens) = server.create(request).await;
        let (_, summary) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(summary["hints"], false, "{summary}");
        let mut seats = Vec::new();
        for token in &tokens {
            seats.push(Client::connect(&server, &id, token.as_deref()).await);
        }
        let before = stored(&server, &id).await;
        let mover = seats[0].to_move.expect("someone is to move");
        let asker = &mut seats[usize::from(mover)];
        asker.send(&json!({"type": "hint"})).await;
        let refused = asker.error().await;
        assert_eq!(refused["kind"], "forbidden", "{refused}");
        assert_eq!(stored(&server, &id).await, before, "untouched");
    }
}

/// The seat to move asks; every connection (both seats and a spectator) gets the same
/// seat event, with the seat's legal actions and values in [0, 1], best first, and the log
/// keeps it. Another seat, and a spectator, are refused, changing nothing.
async fn the_seat_to_move_asks_and_everyone_sees_the_hint(db: &TestDb) {
    let server = Server::start(&db.url);
    let (id, tokens) = server.create(valley(Some(true))).await;
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["hints"], true, "{summary}");
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Client::connect(&server, &id, token.as_deref()).await);
    }
    let mut spectator = Client::connect(&server, &id, None).await;
    let mover = seats[0].to_move.expect("someone is to move");
    let other = 1 - usize::from(mover);
    let before = stored(&server, &id).await;

    // Refusals first: they change nothing.
    seats[other].send(&json!({"type": "hint"})).await;
    let refused = seats[other].error().await;
    assert_eq!(refused["kind"], "not_your_turn", "{refused}");
    spectator.send(&json!({"type": "hint"})).await;
    let refused = spectator.error().await;
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    assert_eq!(stored(&server, &id).await, before, "untouched by refusals");

    let legal = seats[usize::from(mover)]
        .legal
        .clone()
        .expect("the seat to move has its legal actions");
    seats[usize::from(mover)]
        .send(&json!({"type": "hint"}))
        .await;
    let mut events = Vec::new();
    for client in seats.iter_mut().chain([&mut spectator]) {
        let message = client.next_of("seats").await;
        events.push(message["event"].clone());
    }
    assert!(events.windows(2).all(|w| w[0] == w[1]), "{events:?}");
    let event = &events[0];
    assert_eq!(
        (&event["what"], &event["seat"]),
        (&json!("hinted"), &json!(mover)),
        "{event}"
    );
    let actions = event["hint"].as_array().expect("the hint's actions");
    assert!(!actions.is_empty() && actions.len() <= 3, "{event}");
    let mut last = f64::INFINITY;
    for a in actions {
        assert!(legal.contains(&a["action"]), "{a} is a legal action");
        let value = a["value"].as_f64().expect("a value");
        assert!((0.0..=1.0).contains(&value), "{a}");
        assert!(a["description"].as_str().is_some_and(|d| !d.is_empty()));
        let visits = a["visits"].as_f64().expect("visits");
        assert!(visits <= last, "most visited first: {event}");
        last = visits;
    }

    // The log keeps it; the game did not move.
    let (seq, log) = stored(&server, &id).await;
    assert_eq!(seq, before.0, "a hint is no move");
    let logged: Vec<&Value> = log
        .as_array()
        .expect("the log")
        .iter()
        .filter_map(|entry| entry.get("seat_event"))
        .collect();
    assert_eq!(logged, vec![event], "{log}");

    // The hinted action is still the seat's to play. On PostgreSQL the table hears its own
    // seat change and catches up once: a move meanwhile is a `conflict`, sent again.
    let mover = &mut seats[usize::from(mover)];
    mover.next_of("state").await;
    let seq = mover.seq + 1;
    for _ in 0..20 {
        mover.act(&actions[0]["action"]).await;
        match mover.wait_seq_or_error(seq).await {
            None => break,
            Some(error) => assert_eq!(error["kind"], "conflict", "{error}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(mover.seq, seq, "the hinted action was played");
}

/// Hints are bounded (issue 55, a finding: the seat to move asked 1,000 times and the hard
/// bot searched 1,000 times, each a stored seat event): one hint per position, asking again
/// there computes and stores nothing; and a seat gets five hints at once, then ten a minute.
async fn hints_are_one_per_position_and_limited_per_seat(db: &TestDb) {
    let server = Server::start_with(&db.url, &[]);
    let mut request = valley(Some(true));
    request["seats"][1] = json!({"kind": "bot", "bot": "easy"});
    let (id, tokens) = server.create(request).await;
    let mut ada = Client::connect(&server, &id, tokens[0].as_deref()).await;
    let mut hinted = 0;
    loop {
        ada.until_to_move(0).await;
        assert_eq!(ada.status, "running", "the game lasts six hints");
        ada.send(&json!({"type": "hint"})).await;
        if hinted == 5 {
            let refused = ada.error().await;
            assert_eq!(refused["kind"], "rate_limited", "{refused}");
            break;
        }
        let message = ada.next_of("seats").await;
        assert_eq!(message["event"]["what"], "hinted", "{message}");
        hinted += 1;
        if hinted == 1 {
            // Asked again at the same position: answered at once, nothing computed or stored.
            for _ in 0..20 {
                ada.send(&json!({"type": "hint"})).await;
                let refused = ada.error().await;
                assert_eq!(refused["kind"], "conflict", "{refused}");
                assert!(
                    refused["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("hint for this position already")),
                    "{refused}"
                );
            }
        }
        let seq = ada.seq;
        ada.play_while_to_move().await;
        assert!(ada.seq > seq);
    }
    let (_, log) = server.get(&format!("/api/games/{id}/log")).await;
    let hints = log
        .as_array()
        .expect("the log")
        .iter()
        .filter(|entry| entry["seat_event"]["what"] == "hinted")
        .count();
    assert_eq!(hints, 5, "one stored hint per position asked: {log}");
}

on_both_databases!(
    hints_are_refused_where_the_creator_did_not_allow_them,
    the_seat_to_move_asks_and_everyone_sees_the_hint,
    hints_are_one_per_position_and_limited_per_seat,
);
