//! Signed-in people on a real `tabletop serve`: signing up and handing seats to accounts.

use std::time::Duration;

use reqwest::header::{COOKIE, SET_COOKIE};
use serde_json::{json, Value};

use super::server::Server;

/// Signs `name` up: (account id, session cookie).
pub async fn sign_up(server: &Server, name: &str) -> (String, String) {
    let response = reqwest::Client::new()
        .post(format!("{}/api/account/sign-up", server.base))
        .json(&json!({"name": name, "password": "a long passphrase"}))
        .send()
        .await
        .expect("sign-up");
    assert_eq!(response.status().as_u16(), 201);
    let cookie = response
        .headers()
        .get(SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("the session cookie")
        .to_string();
    let body: Value = response.json().await.expect("JSON");
    (body["id"].as_str().expect("id").to_string(), cookie)
}

/// Hands seat `token` of game `id` to the signed-in person of `cookie`.
pub async fn hand_to_account(server: &Server, cookie: &str, id: &str, token: &str) {
    let response = reqwest::Client::new()
        .post(format!("{}/api/account/seats", server.base))
        .header(COOKIE, cookie)
        .json(&json!({"seats": [{"game": id, "token": token}]}))
        .send()
        .await
        .expect("claim");
    assert_eq!(response.status().as_u16(), 200);
}

/// `GET path` as the signed-in person of `cookie` (none: signed out): (status, body).
pub async fn get_as(server: &Server, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let mut request = reqwest::Client::new().get(format!("{}{path}", server.base));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("GET");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `POST path` with JSON `body` as the signed-in person of `cookie`: (status, body).
pub async fn post_as(
    server: &Server,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .json(body);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("POST");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The notifications of the person of `cookie`, as `GET /api/notifications` lists them.
pub async fn notifications_of(server: &Server, cookie: &str) -> Value {
    let (status, list) = get_as(server, "/api/notifications", Some(cookie)).await;
    assert_eq!(status, 200, "{list}");
    list
}

/// A live page's stream of updates (`GET /api/notifications/live`).
pub struct Live {
    response: reqwest::Response,
    buffer: String,
}

impl Live {
    pub async fn open(server: &Server, cookie: &str, after: Option<i64>) -> Live {
        let query = after.map_or(String::new(), |after| format!("?after={after}"));
        let response = reqwest::Client::new()
            .get(format!("{}/api/notifications/live{query}", server.base))
            .header(COOKIE, cookie)
            .send()
            .await
            .expect("GET live");
        assert_eq!(response.status().as_u16(), 200);
        let kind = response.headers()["content-type"].to_str().expect("a type");
        assert_eq!(kind, "text/event-stream");
        Live {
            response,
            buffer: String::new(),
        }
    }

    /// The next update's data.
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if !data.is_empty() {
                    return serde_json::from_str(&data).expect("JSON data");
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(30), self.response.chunk())
                .await
                .expect("an update within 30 s")
                .expect("the stream")
                .expect("the stream goes on");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}
