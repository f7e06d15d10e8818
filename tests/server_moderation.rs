//! Reports and moderation on a real `tabletop serve` (SQLite and PostgreSQL; issue 55
//! items 2 and 3): Ada reports Ben with a chat message of their table, whose text is kept
//! as evidence after the chat is gone; reports are rate-limited per reporter; a moderator
//! made with `tabletop admin moderator add` (on the database, the server running) reads
//! the queue, dismisses one report, mutes Ben (who reads why and until when, and whose
//! chat is refused) and suspends him for good (his session ends, his sign-in is refused,
//! his running seat goes to a bot); every action is in the audit log; without the role
//! every moderation route is `forbidden`. Every refusal stores nothing. On PostgreSQL a
//! suspension made on one process ends the session on another at once.

mod common;

use common::people::{get_as, hand_to_account, post_as, sign_up};
use common::server::{Client, Server, TestDb};
use serde_json::{json, Value};

/// `tabletop admin moderator add|remove NAME --db URL`: its output.
fn admin(db: &str, change: &str, name: &str) -> String {
    let output = common::tabletop()
        .args(["admin", "moderator", change, name, "--db", db])
        .output()
        .expect("tabletop admin");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A running two-seat Valley table of Ada's and Ben's accounts: its id and tokens.
async fn ada_and_ben(server: &Server, ada: &str, ben: &str) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(
            json!({"game": "valley", "config": {"players": 2}, "seats": [
            {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Ben"}]}),
        )
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("a token")).collect();
    hand_to_account(server, ada, &id, &tokens[0]).await;
    hand_to_account(server, ben, &id, &tokens[1]).await;
    (id, tokens)
}

/// Says `text` at table `id` from seat `token` signed in as `cookie`: the error, if any,
/// else the id of the stored message.
async fn say(
    server: &Server,
    id: &str,
    token: &str,
    cookie: &str,
    text: &str,
) -> Result<i64, Value> {
    let mut client = Client::open_with(server, id, &[("cookie", cookie)]).await;
    client.send(&json!({"type": "hello", "token": token})).await;
    client.next_of("state").await;
    client.send(&json!({"type": "say", "text": text})).await;
    loop {
        let message = client.next().await;
        match message["type"].as_str() {
            Some("error") => return Err(message),
            Some("chat") => {
                if let Some(m) = message["messages"]
                    .as_array()
                    .and_then(|ms| ms.iter().find(|m| m["text"] == text))
                {
                    return Ok(m["id"].as_i64().expect("an id"));
                }
            }
            _ => {}
        }
    }
}

async fn sign_in(server: &Server, name: &str) -> (u16, Value) {
    post_as(
        server,
        "/api/account/sign-in",
        None,
        &json!({"name": name, "password": "a long passphrase"}),
    )
    .await
}

async fn reports_and_moderators(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, ada) = sign_up(&server, "Ada").await;
    let (ben_id, ben) = sign_up(&server, "Ben").await;
    let (_, mo) = sign_up(&server, "Mo").await;
    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in [
        "/api/reports",
        "/api/reports/mine",
        "/api/account/standing",
        "/api/moderation/reports",
        "/api/moderation/actions",
        "/api/moderation/log",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path}");
    }
    let (id, tokens) = ada_and_ben(&server, &ada, &ben).await;
    let insult = say(&server, &id, &tokens[1], &ben, "you play like a rock")
        .await
        .expect("said");
    let (other, other_tokens) = ada_and_ben(&server, &ada, &ben).await;
    let elsewhere = say(&server, &other, &other_tokens[1], &ben, "hello")
        .await
        .expect("said");

    // Without the role, every moderation route is refused.
    for cookie in [Some(&ada), Some(&mo), None] {
        let expected = if cookie.is_some() { 403 } else { 401 };
        for path in ["/api/moderation/reports", "/api/moderation/log"] {
            let (status, _) = get_as(&server, path, cookie.map(String::as_str)).await;
            assert_eq!(status, expected, "{path}");
        }
        let (status, _) = post_as(
            &server,
            "/api/moderation/actions",
            cookie.map(String::as_str),
            &json!({"action": "warn", "name": "Ben", "reason": "be kind"}),
        )
        .await;
        assert_eq!(status, expected);
    }
    assert_eq!(admin(&db.url, "add", "mo"), "Mo is a moderator now\n");
    assert_eq!(admin(&db.url, "add", "Mo"), "Mo was a moderator already\n");
    let refused = common::tabletop()
        .args(["admin", "moderator", "add", "Nobody", "--db", &db.url])
        .output()
        .expect("tabletop admin");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("nobody is called"));

    // Reports refused, none stored.
    let report = |body: Value| {
        let (server, ada) = (&server, &ada);
        async move { post_as(server, "/api/reports", Some(ada), &body).await }
    };
    for (body, status, kind) in [
        (json!({"name": "Ben"}), 400, "malformed"),
        (json!({"name": "Ben", "reason": "rude"}), 400, "malformed"),
        (json!({"name": "Ada", "reason": "abuse"}), 400, "malformed"),
        (
            json!({"name": "Nobody", "reason": "abuse"}),
            404,
            "not_found",
        ),
        (
            json!({"name": "Ben", "reason": "abuse", "messages": [insult]}),
            400,
            "malformed",
        ),
        (
            json!({"name": "Ben", "reason": "abuse", "game": id, "messages": [elsewhere]}),
            400,
            "malformed",
        ),
        (
            json!({"name": "Ben", "reason": "abuse", "game": "nope"}),
            404,
            "not_found",
        ),
        (
            json!({"name": "Ben", "reason": "abuse", "text": "x".repeat(2001)}),
            400,
            "malformed",
        ),
        // Ben's message named as Mo's; no name and no message to take one from.
        (
            json!({"name": "Mo", "reason": "abuse", "game": id, "messages": [insult]}),
            400,
            "malformed",
        ),
        (json!({"reason": "abuse", "game": id}), 400, "malformed"),
    ] {
        let (got, answer) = report(body.clone()).await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{body}"
        );
    }
    let (got, answer) = post_as(
        &server,
        "/api/reports",
        None,
        &json!({"name": "Ben", "reason": "abuse"}),
    )
    .await;
    assert_eq!((got, answer["kind"].as_str()), (401, Some("not_signed_in")));
    let (_, mine) = get_as(&server, "/api/reports/mine", Some(&ada)).await;
    assert_eq!(mine, json!([]));

    // Ada reports Ben's message (whose writer the report is about), then Ben twice more;
    // a fourth at once is refused.
    let (status, filed) = report(
        json!({"reason": "abuse", "text": "He insults me.", "game": id, "messages": [insult]}),
    )
    .await;
    assert_eq!(status, 201, "{filed}");
    let abuse = filed["id"].as_str().expect("an id").to_string();
    let (status, filed) = report(json!({"name": "Ben", "reason": "leaving", "game": id})).await;
    assert_eq!(status, 201, "{filed}");
    let leaving = filed["id"].as_str().expect("an id").to_string();
    let (status, filed) = report(json!({"name": "Ben", "reason": "other"})).await;
    assert_eq!(status, 201, "{filed}");
    let other_report = filed["id"].as_str().expect("an id").to_string();
    let (status, limited) = report(json!({"name": "Ben", "reason": "spam"})).await;
    assert_eq!(
        (status, limited["kind"].as_str()),
        (429, Some("rate_limited"))
    );
    let (_, mine) = get_as(&server, "/api/reports/mine", Some(&ada)).await;
    assert_eq!(mine.as_array().map(Vec::len), Some(3), "{mine}");
    assert!(mine
        .as_array()
        .expect("reports")
        .iter()
        .all(|r| r["state"] == "open" && r["name"] == "Ben"));

    // The chat is gone; the evidence is kept as it was.
    common::server::execute(
        &db.url,
        &[format!("DELETE FROM chat_messages WHERE game_id = '{id}'")],
    )
    .await;
    let (status, queue) = get_as(&server, "/api/moderation/reports", Some(&mo)).await;
    assert_eq!(status, 200, "{queue}");
    assert_eq!(queue.as_array().map(Vec::len), Some(3), "{queue}");
    let first = &queue[0];
    assert_eq!(
        (
            &first["id"],
            &first["reporter"],
            &first["name"],
            &first["reason"],
            &first["text"]
        ),
        (
            &json!(abuse),
            &json!("Ada"),
            &json!("Ben"),
            &json!("abuse"),
            &json!("He insults me.")
        ),
        "{queue}"
    );
    assert_eq!(
        first["evidence"][0]["text"], "you play like a rock",
        "{queue}"
    );
    assert_eq!(first["evidence"][0]["id"], insult);
    // His recent chat elsewhere still shows.
    assert_eq!(first["recent_chat"][0]["text"], "hello", "{queue}");

    // Moderator actions refused, none stored.
    for (body, status, kind) in [
        (
            json!({"action": "warn", "name": "Ben", "reason": " "}),
            400,
            "malformed",
        ),
        (json!({"action": "warn", "name": "Ben"}), 400, "malformed"),
        (
            json!({"action": "warn", "report": "nope", "reason": "r"}),
            400,
            "malformed",
        ),
        (
            json!({"action": "dismiss", "name": "Ben", "reason": "r"}),
            400,
            "malformed",
        ),
        (
            json!({"action": "mute", "name": "Ben", "reason": "r"}),
            400,
            "malformed",
        ),
        (
            json!({"action": "warn", "name": "Ben", "reason": "r", "minutes": 5}),
            400,
            "malformed",
        ),
        (
            json!({"action": "mute", "name": "Ben", "reason": "r", "minutes": 0}),
            400,
            "malformed",
        ),
        (
            json!({"action": "warn", "name": "Ada", "report": abuse, "reason": "r"}),
            400,
            "malformed",
        ),
        (json!({"action": "warn", "reason": "r"}), 400, "malformed"),
        (
            json!({"action": "ban", "name": "Ben", "reason": "r"}),
            400,
            "malformed",
        ),
        (
            json!({"action": "warn", "name": "Nobody", "reason": "r"}),
            404,
            "not_found",
        ),
    ] {
        let (got, answer) = post_as(&server, "/api/moderation/actions", Some(&mo), &body).await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{body}"
        );
    }
    let (_, log) = get_as(&server, "/api/moderation/log", Some(&mo)).await;
    assert_eq!(log, json!([]));

    // Dismissed, once.
    let dismiss =
        json!({"action": "dismiss", "report": other_report, "reason": "Nothing to act on."});
    let (status, done) = post_as(&server, "/api/moderation/actions", Some(&mo), &dismiss).await;
    assert_eq!(
        (status, &done["action"], &done["moderator"]),
        (200, &json!("dismiss"), &json!("Mo")),
        "{done}"
    );
    let (status, again) = post_as(&server, "/api/moderation/actions", Some(&mo), &dismiss).await;
    assert_eq!((status, again["kind"].as_str()), (409, Some("conflict")));

    // Ben muted for an hour: he reads why and until when, and his chat is refused.
    let mute = json!({"action": "mute", "report": abuse, "reason": "Insults at the table.", "minutes": 60});
    let (status, muted) = post_as(&server, "/api/moderation/actions", Some(&mo), &mute).await;
    assert_eq!(status, 200, "{muted}");
    let (_, standing) = get_as(&server, "/api/account/standing", Some(&ben)).await;
    assert_eq!(
        standing["muted"]["reason"], "Insults at the table.",
        "{standing}"
    );
    assert_eq!(standing["muted"]["until"], muted["until"]);
    assert!(standing["muted"].get("moderator").is_none(), "{standing}");
    assert_eq!(standing["suspended"], Value::Null);
    let refused = say(&server, &id, &tokens[1], &ben, "sorry")
        .await
        .expect_err("muted");
    assert_eq!(refused["kind"], "forbidden", "{refused}");
    let text = refused["message"].as_str().unwrap_or_default();
    assert!(
        text.contains("muted your chat until") && text.contains("Insults at the table."),
        "{text}"
    );
    // Ada's chat is hers to use.
    say(&server, &id, &tokens[0], &ada, "gg")
        .await
        .expect("Ada speaks");
    let (_, standing) = get_as(&server, "/api/account/standing", Some(&ada)).await;
    assert_eq!(standing["actions"], json!([]));

    // Ben suspended for good: his session ends, his sign-in is refused, his seat is a
    // leaver's.
    let suspend = json!({"action": "suspend", "report": leaving, "reason": "Repeated abuse."});
    let (status, suspended) =
        post_as(&server, "/api/moderation/actions", Some(&mo), &suspend).await;
    assert_eq!(
        (status, &suspended["for_good"]),
        (200, &json!(true)),
        "{suspended}"
    );
    let (status, _) = get_as(&server, "/api/account", Some(&ben)).await;
    assert_eq!(status, 401);
    let (status, refused) = sign_in(&server, "Ben").await;
    assert_eq!(
        (status, refused["kind"].as_str()),
        (403, Some("suspended")),
        "{refused}"
    );
    assert!(refused["message"]
        .as_str()
        .unwrap_or_default()
        .contains("for good: Repeated abuse."));
    let (_, summary) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][1]["left"], true, "{summary}");
    let (status, _) = sign_in(&server, "Ada").await;
    assert_eq!(status, 200);

    // Ada's reports say where they stand; the audit log has every action, newest first.
    let (_, mine) = get_as(&server, "/api/reports/mine", Some(&ada)).await;
    let state_of = |report: &str| {
        mine.as_array()
            .and_then(|m| m.iter().find(|r| r["id"] == report))
            .map(|r| r["state"].clone())
    };
    assert_eq!(
        (
            state_of(&abuse),
            state_of(&leaving),
            state_of(&other_report)
        ),
        (
            Some(json!("acted")),
            Some(json!("acted")),
            Some(json!("dismissed"))
        )
    );
    let (_, log) = get_as(&server, "/api/moderation/log", Some(&mo)).await;
    let actions: Vec<(&str, &str, &str)> = log
        .as_array()
        .expect("a log")
        .iter()
        .map(|a| {
            (
                a["action"].as_str().unwrap_or_default(),
                a["account"].as_str().unwrap_or_default(),
                a["moderator"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        [
            ("suspend", "Ben", "Mo"),
            ("mute", "Ben", "Mo"),
            ("dismiss", "Ben", "Mo")
        ]
    );
    assert_eq!(log[0]["account_id"], ben_id.as_str());
    let (_, queue) = get_as(&server, "/api/moderation/reports", Some(&mo)).await;
    assert_eq!(queue, json!([]));

    // The role taken back: forbidden again.
    assert_eq!(
        admin(&db.url, "remove", "Mo"),
        "Mo is no longer a moderator\n"
    );
    let (status, _) = get_as(&server, "/api/moderation/log", Some(&mo)).await;
    assert_eq!(status, 403);
}

on_both_databases!(reports_and_moderators);

/// Two processes on one PostgreSQL database: Ben is signed in on one; a suspension made
/// on the other ends his session there at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suspension_ends_the_session_on_every_process() {
    let Some(db) = TestDb::new(common::server::Db::Postgres).await else {
        return;
    };
    let here = Server::start(&db.url);
    let there = Server::start(&db.url);
    let (_, ben) = sign_up(&there, "Ben").await;
    let (_, mo) = sign_up(&here, "Mo").await;
    admin(&db.url, "add", "Mo");
    assert_eq!(get_as(&there, "/api/account", Some(&ben)).await.0, 200);
    let (status, _) = post_as(
        &here,
        "/api/moderation/actions",
        Some(&mo),
        &json!({"action": "suspend", "name": "Ben", "reason": "Spam.", "minutes": 60}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(get_as(&there, "/api/account", Some(&ben)).await.0, 401);
    let (status, refused) = sign_in(&there, "Ben").await;
    assert_eq!((status, refused["kind"].as_str()), (403, Some("suspended")));
    assert!(
        refused["message"]
            .as_str()
            .unwrap_or_default()
            .contains("until"),
        "{refused}"
    );
}
