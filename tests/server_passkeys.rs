//! Passkeys on a real `tabletop serve` (SQLite and PostgreSQL), short of an authenticator
//! (the whole ceremony runs in Chromium with its virtual authenticator,
//! web/e2e/passkeys.spec.ts): the options each ceremony starts with, and every way a
//! finish (or a deletion confirmed by passkey) is refused with a typed error that signs
//! nobody in, and creates and deletes nothing.

mod common;

use common::people::{get_as, sign_up};
use common::server::{Db, Server, TestDb};
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use serde_json::{json, Value};

/// Posts `body` to `path` (with the session `cookie`): status, body, and whether a session
/// cookie was set.
async fn post(
    server: &Server,
    path: &str,
    cookie: Option<&str>,
    body: Value,
) -> (u16, Value, bool) {
    let mut request = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .json(&body);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let cookie_set = response.headers().contains_key(SET_COOKIE);
    (status, response.json().await.expect("JSON"), cookie_set)
}

/// Starts a passkey sign-in: (status, challenge).
async fn sign_in_start(server: &Server) -> (u16, Value) {
    let (status, start, _) = post(
        server,
        "/api/account/passkey/sign-in/start",
        None,
        json!({}),
    )
    .await;
    (status, start)
}

/// A credential of the right shape that no authenticator signed.
fn forged_registration() -> Value {
    json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key", "extensions": {},
        "response": {"attestationObject": "AAAA", "clientDataJSON": "AAAA"}})
}

fn forged_assertion() -> Value {
    json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key", "extensions": {},
        "response": {"authenticatorData": "AAAA", "clientDataJSON": "AAAA",
            "signature": "AAAA", "userHandle": "AAAA"}})
}

async fn passkey_ceremonies(db: &TestDb) {
    let server = Server::start(&db.url);

    // Signing up: a discoverable credential for the name, verified by the person.
    let (status, start, _) = post(
        &server,
        "/api/account/passkey/register/start",
        None,
        json!({"name": "Ana"}),
    )
    .await;
    assert_eq!(status, 200, "{start}");
    let options = &start["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "Ana");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert!(options["challenge"].as_str().is_some_and(|c| c.len() >= 32));
    let ceremony = start["ceremony"].as_str().expect("a ceremony").to_string();

    // A finish that is not a credential is refused and leaves the ceremony; a forged one
    // is refused and uses it up.
    let finish = |credential: Value| json!({"ceremony": ceremony, "credential": credential});
    let refusals = [
        (finish(json!({"id": 1})), 400, "malformed", false),
        (finish(forged_registration()), 401, "bad_credentials", true),
        (finish(forged_registration()), 409, "stale", true),
        (
            json!({"ceremony": "nosuchceremony", "credential": forged_registration()}),
            409,
            "stale",
            true,
        ),
    ];
    for (body, status, kind, _) in refusals {
        let (got, answer, cookie) =
            post(&server, "/api/account/passkey/register/finish", None, body).await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{answer}"
        );
        assert!(!cookie, "no session for a refused passkey");
    }
    // No account was made: the name is free.
    let (ana, _) = sign_up(&server, "Ana").await;
    assert!(!ana.is_empty());

    // A name that is taken, or is not a name, starts nothing.
    let (_, bo_cookie) = sign_up(&server, "Bo").await;
    for (name, status, kind) in [("bo", 409, "name_taken"), ("", 400, "malformed")] {
        let (got, answer, _) = post(
            &server,
            "/api/account/passkey/register/start",
            None,
            json!({"name": name}),
        )
        .await;
        assert_eq!(
            (got, answer["kind"].as_str()),
            (status, Some(kind)),
            "{answer}"
        );
    }

    // Signed in, a passkey is added to the account: its name, no new one.
    let (status, start, _) = post(
        &server,
        "/api/account/passkey/register/start",
        Some(&bo_cookie),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["options"]["publicKey"]["user"]["name"], "Bo");

    // Signing in names no account: the browser offers the site's passkeys.
    let (status, start) = sign_in_start(&server).await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["options"]["publicKey"]["rpId"], "localhost");
    assert_eq!(start["options"]["publicKey"]["allowCredentials"], json!([]));
    assert!(start["options"].get("mediation").is_none(), "{start}");
    let (status, answer, cookie) = post(
        &server,
        "/api/account/passkey/sign-in/finish",
        None,
        json!({"ceremony": start["ceremony"], "credential": forged_assertion()}),
    )
    .await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (401, Some("bad_credentials")),
        "{answer}"
    );
    assert!(!cookie);

    // Deleting an account takes its password or one of its passkeys, not neither, not
    // both, not a forged one.
    let (_, start) = sign_in_start(&server).await;
    let forged = json!({"ceremony": start["ceremony"], "credential": forged_assertion()});
    for (body, status, kind) in [
        (json!({}), 400, "malformed"),
        (
            json!({"password": "a long passphrase", "passkey": forged}),
            400,
            "malformed",
        ),
        (json!({"passkey": forged}), 401, "bad_credentials"),
    ] {
        let response = reqwest::Client::new()
            .delete(format!("{}/api/account", server.base))
            .header(COOKIE, &bo_cookie)
            .json(&body)
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status().as_u16(), status, "{body}");
        let answer: Value = response.json().await.expect("JSON");
        assert_eq!(answer["kind"], kind, "{answer}");
    }
    let me = reqwest::Client::new()
        .get(format!("{}/api/account", server.base))
        .header(COOKIE, &bo_cookie)
        .send()
        .await
        .expect("an answer");
    assert_eq!(me.status().as_u16(), 200, "the account is still there");

    // Another site's page cannot start or finish a ceremony.
    for path in [
        "/api/account/passkey/register/start",
        "/api/account/passkey/register/finish",
        "/api/account/passkey/sign-in/start",
        "/api/account/passkey/sign-in/finish",
    ] {
        let response = reqwest::Client::new()
            .post(format!("{}{path}", server.base))
            .header(ORIGIN, "https://elsewhere.test")
            .json(&json!({"name": "Eve"}))
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status().as_u16(), 403, "{path}");
    }

    let (_, openapi) = server.get("/api/openapi.json").await;
    for path in [
        "/api/account/passkey/register/start",
        "/api/account/passkey/register/finish",
        "/api/account/passkey/sign-in/start",
        "/api/account/passkey/sign-in/finish",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path} is documented");
    }
}

/// The passkey list is the signed-in person's own: signed out, `not_signed_in`; a
/// password account's is empty; removing a passkey the account does not have is
/// `not_found`, from another site `cross_origin`, and changes nothing. (Listing and
/// removing real passkeys: web/e2e/passkeys.spec.ts, with Chromium's authenticator.)
async fn the_passkey_list_is_the_accounts_own(db: &TestDb) {
    let server = Server::start(&db.url);
    let (_, cookie) = sign_up(&server, "Ana").await;
    let (status, body) = get_as(&server, "/api/account/passkeys", None).await;
    assert_eq!(
        (status, &body["kind"]),
        (401, &json!("not_signed_in")),
        "{body}"
    );
    let (status, body) = get_as(&server, "/api/account/passkeys", Some(&cookie)).await;
    assert_eq!((status, &body), (200, &json!([])), "{body}");
    let remove = |cookie: Option<String>, origin: Option<&'static str>| {
        let mut request =
            reqwest::Client::new().delete(format!("{}/api/account/passkeys/AAAA", server.base));
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        async move {
            let response = request.send().await.expect("DELETE");
            let status = response.status().as_u16();
            (
                status,
                response.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    for (who, origin, expected) in [
        (None, None, (401, "not_signed_in")),
        (Some(cookie.clone()), None, (404, "not_found")),
        (
            Some(cookie.clone()),
            Some("https://evil.example"),
            (403, "cross_origin"),
        ),
    ] {
        let (status, body) = remove(who, origin).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (expected.0, Some(expected.1)),
            "{body}"
        );
    }
    let (_, openapi) = server.get("/api/openapi.json").await;
    assert!(openapi["paths"].get("/api/account/passkeys/{id}").is_some());
}

on_both_databases!(passkey_ceremonies, the_passkey_list_is_the_accounts_own);

/// Passkeys are made for the site's public address; an address that is no domain has none.
#[tokio::test]
async fn passkeys_follow_the_public_address() {
    let db = TestDb::new(Db::Sqlite).await.expect("a SQLite file");
    let server = Server::start_with(&db.url, &["--public-url", "https://play.test"]);
    let (status, start) = sign_in_start(&server).await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["options"]["publicKey"]["rpId"], "play.test");

    drop(server);
    let server = Server::start_with(&db.url, &["--public-url", "http://127.0.0.1:8080"]);
    let (status, answer) = sign_in_start(&server).await;
    assert_eq!(
        (status, answer["kind"].as_str()),
        (403, Some("forbidden")),
        "{answer}"
    );
}
