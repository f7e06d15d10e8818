//! Signed-in people on a real `tabletop serve`: signing up and handing seats to accounts.

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
