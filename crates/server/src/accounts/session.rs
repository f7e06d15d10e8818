//! Who is signed in: a session is a random secret in an HTTP-only cookie, stored as its
//! SHA-256 with its account and expiry. Requests authenticated by that cookie are taken
//! only from the server's own pages (the `Origin` check), and sign-in attempts are
//! limited per name and per address.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use crate::app::App;
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::{AccountRow, SessionRow};
use crate::time::now_ms;
use crate::tokens;

/// The session cookie's name.
pub const COOKIE: &str = "tabletop_session";
/// How long a session lasts from sign-in.
pub const LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// A new session of `account`: the row to store and the cookie that carries its secret.
pub fn start(account: &AccountRow, secure: bool) -> (SessionRow, Cookie<'static>) {
    let secret = tokens::new_token();
    let created = now_ms();
    let row = SessionRow {
        token_hash: tokens::hash(&secret),
        account_id: account.id.clone(),
        created,
        expires: created + LIFETIME.as_millis() as i64,
    };
    let cookie = Cookie::build((COOKIE, secret))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(time::Duration::seconds(LIFETIME.as_secs() as i64))
        .build();
    (row, cookie)
}

/// The cookie that removes the session cookie from the browser.
pub fn removal() -> Cookie<'static> {
    Cookie::build((COOKIE, "")).path("/").build()
}

/// The stored form of the session secret a request's cookie carries, if any.
pub fn token_hash(headers: &HeaderMap) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(COOKIE)
        .map(|cookie| tokens::hash(cookie.value()))
}

/// The request's bearer token (`Authorization: Bearer TOKEN`); `None` without the header.
pub fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(Some)
        .ok_or_else(|| ApiError::new(ErrorKind::BadToken, "use Authorization: Bearer TOKEN"))
}

/// The request's bearer token, which it must have: without one, `bad_token` asking for
/// `whose` token ("the creator", "the seek's").
pub fn required_bearer<'h>(headers: &'h HeaderMap, whose: &str) -> Result<&'h str, ApiError> {
    bearer_token(headers)?.ok_or_else(|| {
        ApiError::new(
            ErrorKind::BadToken,
            format!("send {whose} token: Authorization: Bearer TOKEN"),
        )
    })
}

/// The signed-in account of a request (`not_signed_in` without a live session).
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub account: AccountRow,
}

impl FromRequestParts<Arc<App>> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let account = account_of(app, &parts.headers).await?.ok_or_else(|| {
            ApiError::new(
                ErrorKind::NotSignedIn,
                "not signed in (or the session has ended): sign in again",
            )
        })?;
        Ok(SignedIn { account })
    }
}

/// The account a request's session cookie signs in, if it has a live one.
pub async fn account_of(app: &App, headers: &HeaderMap) -> Result<Option<AccountRow>, ApiError> {
    let Some(token_hash) = token_hash(headers) else {
        return Ok(None);
    };
    Ok(app
        .hub
        .store()
        .session_account(&token_hash, now_ms())
        .await?)
}

/// The account's seat at game `id` (its lowest, if it has several), for a request with
/// no seat token: a signed-in person's seats open in any browser.
pub async fn seat_of(app: &App, headers: &HeaderMap, id: &str) -> Result<Option<u8>, ApiError> {
    let Some(account) = account_of(app, headers).await? else {
        return Ok(None);
    };
    seat_at(app, &account, id).await
}

/// `account`'s seat at game `id` (its lowest, if it has several).
pub async fn seat_at(app: &App, account: &AccountRow, id: &str) -> Result<Option<u8>, ApiError> {
    let seats = app.hub.store().seats_at(&account.id, id).await?;
    Ok(seats.first().copied())
}

/// Refuses a request a browser sent from another site's page: its `Origin` is not this
/// server (`Host`). Browsers send `Origin` with every `POST` and WebSocket; a request
/// without one is not a browser's cross-site request. With the `SameSite=Lax` cookie,
/// this keeps other sites from acting for a signed-in person (CSRF) and from signing a
/// browser in to their account.
pub fn same_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(ORIGIN) else {
        return Ok(());
    };
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|origin| origin.split_once("://"))
        .map(|(_, host)| host);
    let host = headers.get(HOST).and_then(|host| host.to_str().ok());
    match (origin_host, host) {
        (Some(origin_host), Some(host)) if origin_host.eq_ignore_ascii_case(host) => Ok(()),
        _ => Err(ApiError::new(
            ErrorKind::CrossOrigin,
            "this request came from another site's page; the server takes it from its own pages only",
        )),
    }
}

/// A request that passed [`same_origin`]: taken before any other part of the request is
/// looked at (the session, the body).
pub struct SameOrigin;

impl<S: Send + Sync> FromRequestParts<S> for SameOrigin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        same_origin(&parts.headers).map(|()| SameOrigin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(HOST, HeaderValue::from_str(host).expect("host"));
        if let Some(origin) = origin {
            h.insert(ORIGIN, HeaderValue::from_str(origin).expect("origin"));
        }
        h
    }

    #[test]
    fn only_the_servers_own_pages_pass() {
        assert!(same_origin(&headers(
            Some("http://play.example:8080"),
            "play.example:8080"
        ))
        .is_ok());
        assert!(same_origin(&headers(Some("https://Play.Example"), "play.example")).is_ok());
        assert!(same_origin(&headers(None, "play.example")).is_ok());
        for origin in ["https://evil.example", "null", "http://play.example:9090"] {
            let refused = same_origin(&headers(Some(origin), "play.example:8080"));
            assert_eq!(
                refused.map_err(|e| e.kind),
                Err(ErrorKind::CrossOrigin),
                "{origin}"
            );
        }
    }
}
