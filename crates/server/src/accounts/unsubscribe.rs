//! The routes of a turn mail's unsubscribe link ([`crate::mail`] writes the pages).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Html;

use crate::app::App;
use crate::error::ApiError;
use crate::mail::{self, UnsubscribeKey};

/// The page an unsubscribe link opens: one button that stops the mail. Opening the link
/// changes nothing (mail scanners open links); the button, or a mail program's
/// one-click unsubscribe (RFC 8058), posts it.
#[utoipa::path(
    get,
    path = "/api/mail/unsubscribe",
    params(UnsubscribeKey),
    responses(
        (status = 200, content_type = "text/html", body = String, description = "the page with the button"),
        (status = 404, content_type = "text/html", body = String, description = "no such key")
    ),
    tag = "accounts"
)]
pub async fn unsubscribe_page(
    State(app): State<Arc<App>>,
    Query(UnsubscribeKey { key }): Query<UnsubscribeKey>,
) -> Result<(StatusCode, Html<String>), ApiError> {
    mail::unsubscribe_page(app.hub.store().as_ref(), &key).await
}

/// Stops the turn mail of the unsubscribe key's account: by the page's button or a mail
/// program's one-click unsubscribe (which posts from no page of ours: the key is the
/// authority, not a session).
#[utoipa::path(
    post,
    path = "/api/mail/unsubscribe",
    params(UnsubscribeKey),
    responses(
        (status = 200, content_type = "text/html", body = String, description = "no more turn mail"),
        (status = 404, content_type = "text/html", body = String, description = "no such key")
    ),
    tag = "accounts"
)]
pub async fn unsubscribe(
    State(app): State<Arc<App>>,
    Query(UnsubscribeKey { key }): Query<UnsubscribeKey>,
) -> Result<(StatusCode, Html<String>), ApiError> {
    mail::unsubscribe(app.hub.store().as_ref(), &key).await
}
