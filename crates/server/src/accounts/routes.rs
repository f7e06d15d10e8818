//! The accounts' routes: `/api/account…`, a person's profile and the leaderboards, and the
//! turn mail's unsubscribe link.

use std::sync::Arc;
use std::time::Duration;

use axum::routing::{delete, get, post, put, MethodRouter};
use axum::Router;

use super::{deletion, passkey_list, passkeys, profile, ratings, seats, settings, unsubscribe};
use crate::app::App;
use crate::body::{with_body, MAX_BODY_BYTES};

/// Every account route; `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route: MethodRouter<Arc<App>>| with_body(route, MAX_BODY_BYTES, body_timeout);
    Router::new()
        .route("/api/account/sign-up", body(post(super::sign_up)))
        .route("/api/account/sign-in", body(post(super::sign_in)))
        .route("/api/account/sign-out", post(super::sign_out))
        .route(
            "/api/account/sign-out-everywhere",
            post(super::sign_out_everywhere),
        )
        .route("/api/account", get(super::me).delete(deletion::delete))
        .route(
            "/api/account/passkey/register/start",
            body(post(passkeys::register_start)),
        )
        .route(
            "/api/account/passkey/register/finish",
            body(post(passkeys::register_finish)),
        )
        .route("/api/account/passkeys", get(passkey_list::list))
        .route("/api/account/passkeys/{id}", delete(passkey_list::remove))
        .route(
            "/api/account/passkey/sign-in/start",
            post(passkeys::sign_in_start),
        )
        .route(
            "/api/account/passkey/sign-in/finish",
            body(post(passkeys::sign_in_finish)),
        )
        .route(
            "/api/account/settings",
            body(put(settings::put)).get(settings::get),
        )
        .route(
            "/api/mail/unsubscribe",
            get(unsubscribe::unsubscribe_page).post(unsubscribe::unsubscribe),
        )
        .route("/api/accounts/{id}", get(profile::profile))
        .route("/api/ratings/{game}", get(ratings::leaderboard))
        .route(
            "/api/account/seats",
            body(post(seats::claim)).get(seats::list),
        )
}
