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

/// `DELETE path` as the person of `cookie`: the status.
pub async fn delete_as(server: &Server, path: &str, cookie: &str) -> u16 {
    reqwest::Client::new()
        .delete(format!("{}{path}", server.base))
        .header(COOKIE, cookie)
        .send()
        .await
        .expect("DELETE")
        .status()
        .as_u16()
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

/// A page's live link to the site (`GET /api/live`, a WebSocket) as a signed-in person.
pub struct Live {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Live {
    /// Opens the link with the session `cookie`, told the notifications after `after`.
    pub async fn open(server: &Server, cookie: &str, after: Option<i64>) -> Live {
        let query = after.map_or(String::new(), |after| format!("?after={after}"));
        Live::connect(server, &query, Some(cookie)).await
    }

    /// Opens a guest's link from browser `browser`.
    pub async fn open_guest(server: &Server, browser: &str) -> Live {
        Live::connect(server, &format!("?browser={browser}"), None).await
    }

    async fn connect(server: &Server, query: &str, cookie: Option<&str>) -> Live {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = format!("{}/api/live{query}", server.base.replacen("http", "ws", 1));
        let mut request = url.into_client_request().expect("a WebSocket request");
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("cookie", cookie.parse().expect("a cookie header"));
        }
        let (ws, _) = tokio::time::timeout(
            Duration::from_secs(30),
            tokio_tungstenite::connect_async(request),
        )
        .await
        .expect("the link opens within 30 s")
        .expect("open the link");
        Live { ws }
    }

    /// The next notifications update (`{unread, new}`), the online counts between skipped.
    pub async fn next(&mut self) -> Value {
        let mut update = self.next_of("notifications").await;
        if let Some(fields) = update.as_object_mut() {
            fields.remove("type");
        }
        update
    }

    /// The count of people online the link tells next.
    pub async fn online(&mut self) -> u64 {
        let told = self.next_of("online").await;
        told["people"].as_u64().expect("a count")
    }

    async fn next_of(&mut self, kind: &str) -> Value {
        use futures_util::StreamExt;
        loop {
            let message = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                .await
                .expect("an update within 30 s")
                .expect("the link stays open")
                .expect("a message");
            let Ok(text) = message.into_text() else {
                continue;
            };
            let Ok(told) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if told["type"] == kind {
                return told;
            }
        }
    }
}
