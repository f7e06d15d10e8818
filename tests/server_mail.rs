//! "It is your turn" mail on a real `tabletop serve` (SQLite and PostgreSQL) sending to an
//! SMTP server the test runs (mailin-embedded): a person who asked for it and is not at a
//! turn-based table gets one mail when it becomes their turn, in their language, with the
//! table's link and a one-click unsubscribe; not a second within the hour, not while at
//! the table, none after unsubscribing; the settings refuse what they cannot use.

mod common;

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::people::{hand_to_account, sign_up};
use common::server::{Client, Server, TestDb};
use mail_parser::MessageParser;
use mailin_embedded::{Handler, Response, Server as SmtpServer};
use reqwest::header::{COOKIE, ORIGIN};
use serde_json::{json, Value};

/// The site address the mail's links name.
const PUBLIC_URL: &str = "http://play.test";

/// The tables' seed: Ada's seat moves first.
const SEED: u64 = 1;

/// One mail as the SMTP server received it.
#[derive(Debug, Clone)]
struct Received {
    to: Vec<String>,
    /// The mail as sent: headers and body (quoted-printable).
    text: String,
}

/// Keeps every mail the SMTP server receives (each connection works on a clone).
#[derive(Clone, Default)]
struct Inbox {
    to: Vec<String>,
    data: Vec<u8>,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Handler for Inbox {
    fn rcpt(&mut self, to: &str) -> Response {
        self.to.push(to.to_string());
        mailin_embedded::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let mail = Received {
            to: std::mem::take(&mut self.to),
            text: String::from_utf8_lossy(&std::mem::take(&mut self.data)).into_owned(),
        };
        self.received.lock().expect("inbox").push(mail);
        mailin_embedded::response::OK
    }
}

impl Inbox {
    /// Starts an SMTP server on a free loopback port: its port and its inbox.
    fn start() -> (u16, Arc<Mutex<Vec<Received>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let inbox = Inbox::default();
        let received = inbox.received.clone();
        let mut server = SmtpServer::new(inbox);
        server.with_name("smtp.test").with_tcp_listener(listener);
        std::thread::spawn(move || {
            if let Err(error) = server.serve() {
                panic!("the SMTP server stopped: {error}");
            }
        });
        (port, received)
    }
}

/// The mails received so far.
fn mails(inbox: &Mutex<Vec<Received>>) -> Vec<Received> {
    inbox.lock().expect("inbox").clone()
}

/// Waits until `count` mails arrived.
async fn wait_for_mails(inbox: &Mutex<Vec<Received>>, count: usize) -> Vec<Received> {
    for _ in 0..400 {
        let received = mails(inbox);
        if received.len() >= count {
            return received;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} mails did not arrive: {:?}", mails(inbox));
}

/// A server that mails through the SMTP server on `smtp_port`.
fn mailing_server(db: &TestDb, smtp_port: u16) -> Server {
    let port = smtp_port.to_string();
    Server::start_with(
        &db.url,
        &[
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            &port,
            "--smtp-security",
            "none",
            "--smtp-from",
            "Tabletop <turns@play.test>",
            "--public-url",
            PUBLIC_URL,
        ],
    )
}

/// Puts `settings` for the person of `cookie`: (status, body).
async fn put_settings(server: &Server, cookie: Option<&str>, settings: &Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .put(format!("{}/api/account/settings", server.base))
        .json(settings);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("settings");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON"))
}

async fn settings_of(server: &Server, cookie: &str) -> Value {
    let response = reqwest::Client::new()
        .get(format!("{}/api/account/settings", server.base))
        .header(COOKIE, cookie)
        .send()
        .await
        .expect("settings");
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("JSON")
}

/// A two-person turn-based Valley of the Kings table whose seats are handed to the people
/// of `cookies`: its id and seat tokens.
async fn turn_based_table(server: &Server, cookies: [&str; 2]) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(json!({"game": "valley", "config": {"players": 2},
            "seed": SEED,
            "clock": {"kind": "turn_based", "per_move_secs": 86400, "bank_secs": 86400},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]}))
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("a token")).collect();
    for (cookie, token) in cookies.iter().zip(&tokens) {
        hand_to_account(server, cookie, &id, token).await;
    }
    (id, tokens)
}

/// Plays Ada's seat (0) until it is Bo's (1) turn.
async fn ada_plays_until_bo(ada: &mut Client) {
    ada.until_to_move(0).await;
    ada.play_while_to_move().await;
    assert_eq!(ada.to_move, Some(1), "it is Bo's turn");
}

async fn turn_mail(db: &TestDb) {
    let (smtp_port, inbox) = Inbox::start();
    let server = mailing_server(db, smtp_port);
    let (_, ada_cookie) = sign_up(&server, "Ada").await;
    let (bo, bo_cookie) = sign_up(&server, "Bo").await;

    // The settings: mail is offered, and what cannot be used is refused unchanged.
    let fresh = settings_of(&server, &bo_cookie).await;
    assert_eq!(
        fresh,
        json!({"languages": [], "email": null, "turn_mail": false, "mail_available": true})
    );
    for (bad, kind) in [
        (
            json!({"languages": [], "email": "bo", "turn_mail": true}),
            "malformed",
        ),
        (
            json!({"languages": [], "email": null, "turn_mail": true}),
            "malformed",
        ),
        (
            json!({"languages": ["<b>"], "email": null, "turn_mail": false}),
            "malformed",
        ),
        (
            json!({"languages": [], "turn_mail": false, "admin": true}),
            "malformed",
        ),
    ] {
        let (status, body) = put_settings(&server, Some(&bo_cookie), &bad).await;
        assert_eq!(
            (status, body["kind"].as_str()),
            (400, Some(kind)),
            "{bad} {body}"
        );
    }
    let wanted = json!({"languages": ["es", "en"], "email": "bo@play.test", "turn_mail": true});
    let (status, body) = put_settings(&server, None, &wanted).await;
    assert_eq!(
        (status, body["kind"].as_str()),
        (401, Some("not_signed_in"))
    );
    let cross = reqwest::Client::new()
        .put(format!("{}/api/account/settings", server.base))
        .header(COOKIE, &bo_cookie)
        .header(ORIGIN, "https://elsewhere.test")
        .json(&wanted)
        .send()
        .await
        .expect("settings");
    assert_eq!(cross.status().as_u16(), 403);
    assert_eq!(settings_of(&server, &bo_cookie).await, fresh);
    let (status, stored) = put_settings(&server, Some(&bo_cookie), &wanted).await;
    assert_eq!(status, 200, "{stored}");
    assert_eq!(stored["email"], "bo@play.test");
    // The languages are public; the address is not.
    let (_, profile) = server.get(&format!("/api/accounts/{bo}")).await;
    assert_eq!(profile["languages"], json!(["es", "en"]));
    assert!(!profile.to_string().contains("bo@play.test"), "{profile}");

    // Bo is away: Ada's move makes it his turn, and one mail tells him, in Spanish.
    let (id, tokens) = turn_based_table(&server, [&ada_cookie, &bo_cookie]).await;
    let mut ada = Client::connect(&server, &id, Some(&tokens[0])).await;
    ada_plays_until_bo(&mut ada).await;
    let received = wait_for_mails(&inbox, 1).await;
    assert_eq!(received[0].to, ["bo@play.test"]);
    let mail = MessageParser::default()
        .parse(received[0].text.as_bytes())
        .expect("a mail");
    assert_eq!(mail.subject(), Some("Te toca en El Valle de los Reyes"));
    let text = mail.body_text(0).expect("a text body");
    assert!(
        text.contains(&format!("{PUBLIC_URL}/#/game/{id}")),
        "{text}"
    );
    assert!(text.contains("Hola, Bo"), "{text}");
    let unsubscribe = mail
        .header_raw("List-Unsubscribe")
        .expect("List-Unsubscribe")
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string();
    assert!(text.contains(&unsubscribe), "{text}");
    assert_eq!(
        mail.header_raw("List-Unsubscribe-Post").map(str::trim),
        Some("List-Unsubscribe=One-Click")
    );

    // Bo plays his turn and leaves; his next turn within the hour mails nothing.
    let mut bo = Client::connect(&server, &id, Some(&tokens[1])).await;
    bo.until_to_move(1).await;
    bo.play_while_to_move().await;
    drop(bo);
    ada_plays_until_bo(&mut ada).await;

    // At a second table Bo is at the table when his turn comes: no mail either.
    let (second, second_tokens) = turn_based_table(&server, [&ada_cookie, &bo_cookie]).await;
    let _bo_here = Client::connect(&server, &second, Some(&second_tokens[1])).await;
    let mut ada_second = Client::connect(&server, &second, Some(&second_tokens[0])).await;
    ada_plays_until_bo(&mut ada_second).await;

    // The unsubscribe link: opening it changes nothing; its button (a post) stops the mail.
    let path = unsubscribe
        .strip_prefix(PUBLIC_URL)
        .expect("a link to the site");
    let (status, _, page) = server.get_text(path).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<form method=\"post\""), "{page}");
    assert_eq!(settings_of(&server, &bo_cookie).await["turn_mail"], true);
    let posted = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .header(ORIGIN, "https://mail.elsewhere.test")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .expect("unsubscribe");
    assert_eq!(posted.status().as_u16(), 200);
    assert!(posted.text().await.expect("page").contains("Hecho"));
    assert_eq!(settings_of(&server, &bo_cookie).await["turn_mail"], false);
    let (status, _, _) = server.get_text("/api/mail/unsubscribe?key=nosuchkey").await;
    assert_eq!(status, 404);

    // A third table, Bo away again: unsubscribed, he is not mailed.
    let (third, third_tokens) = turn_based_table(&server, [&ada_cookie, &bo_cookie]).await;
    let mut ada_third = Client::connect(&server, &third, Some(&third_tokens[0])).await;
    ada_plays_until_bo(&mut ada_third).await;

    // A mail would have come within this time (the first came at once).
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(mails(&inbox).len(), 1, "{:?}", mails(&inbox));
}

on_both_databases!(turn_mail);

/// Without SMTP settings the server sends nothing, and says so.
#[tokio::test]
async fn without_smtp_no_mail_is_offered() {
    let server = Server::with_sqlite();
    let (_, cookie) = sign_up(&server, "Cy").await;
    assert_eq!(settings_of(&server, &cookie).await["mail_available"], false);
}
