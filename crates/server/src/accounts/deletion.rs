//! Deleting an account (docs/server.md, "Accounts"): the person confirms with their
//! password or one of their passkeys; the account, its sessions, its seats' ownership and its ratings go. Its seats
//! at finished games become a former player's: their name is no longer shown, and the moves
//! and results stay as they were. Its seats at running and open games keep playing by
//! their tokens.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum_extra::extract::cookie::CookieJar;
use serde::Deserialize;
use utoipa::ToSchema;

use super::passkeys::{verified_account, PasskeyFinish};
use super::session::{self, SameOrigin, SignedIn};
use super::{off_thread, password};
use crate::app::App;
use crate::body::JsonBody;
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::protocol::{ErrorBody, ErrorKind};

/// What confirms a deletion: the account's password, or a passkey sign-in ceremony
/// (`/api/account/passkey/sign-in/start`) answered by one of its passkeys. One of the two.
#[derive(Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    #[serde(default)]
    #[ts(optional)]
    pub password: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub passkey: Option<PasskeyFinish>,
}

/// Never shows the password.
impl std::fmt::Debug for Deletion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deletion { … }")
    }
}

#[utoipa::path(
    delete,
    path = "/api/account",
    request_body = Deletion,
    responses(
        (status = 204, description = "the account is gone and this browser signed out"),
        (status = 400, body = ErrorBody, description = "malformed: neither a password nor a passkey, or both"),
        (status = 401, body = ErrorBody, description = "not_signed_in, or bad_credentials: not the account's password or passkey"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 429, body = ErrorBody, description = "rate_limited: too many attempts on this account or from this address")
    ),
    tag = "accounts"
)]
pub async fn delete(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    jar: CookieJar,
    signed_in: SignedIn,
    request: Result<JsonBody<Deletion>, ApiError>,
) -> Result<(StatusCode, CookieJar), ApiError> {
    let account = signed_in.account;
    // Guessing a password through deletion is limited like signing in.
    app.accounts
        .limits
        .check(client.key(), Some(&super::name_key(&account.name)))?;
    let confirmed = match request?.0 {
        Deletion {
            password: Some(password),
            passkey: None,
        } => {
            let stored = account.password_hash.clone();
            off_thread(move || password::verify(stored.as_deref(), &password)).await?
        }
        Deletion {
            password: None,
            passkey: Some(finish),
        } => verified_account(&app, finish).await?.id == account.id,
        _ => {
            return Err(ApiError::new(
                ErrorKind::Malformed,
                "confirm with the account's password or with one of its passkeys",
            ))
        }
    };
    if !confirmed {
        return Err(ApiError::new(
            ErrorKind::BadCredentials,
            "not this account's password or passkey; nothing was deleted",
        ));
    }
    let changed = app.hub.store().delete_account(&account.id).await?;
    app.hub.reload_rows(&changed);
    Ok((StatusCode::NO_CONTENT, jar.remove(session::removal())))
}
