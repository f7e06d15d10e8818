//! The signed-in person's passkeys (docs/server.md, "Passkeys"): listed with when each was
//! added and last used, and removed one at a time, never the account's last way to sign
//! in.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::error::ApiError;
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::{PasskeyListed, PasskeyRemoval};

/// One of the signed-in person's passkeys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct AccountPasskey {
    /// The credential's id (hex): what `DELETE /api/account/passkeys/{id}` names.
    pub id: String,
    /// When it was added (Unix milliseconds).
    #[ts(type = "number")]
    pub created: i64,
    /// The last sign-in with it (Unix milliseconds); `null`: never used to sign in.
    #[ts(type = "number | null")]
    pub used: Option<i64>,
}

impl From<PasskeyListed> for AccountPasskey {
    fn from(listed: PasskeyListed) -> Self {
        AccountPasskey {
            id: listed.credential_id,
            created: listed.created,
            used: listed.used,
        }
    }
}

#[utoipa::path(
    get,
    path = "/api/account/passkeys",
    responses(
        (status = 200, body = [AccountPasskey], description = "the signed-in account's passkeys, oldest first"),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "accounts"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    signed_in: SignedIn,
) -> Result<Json<Vec<AccountPasskey>>, ApiError> {
    let listed = app.hub.store().passkeys_of(&signed_in.account.id).await?;
    Ok(Json(listed.into_iter().map(AccountPasskey::from).collect()))
}

#[utoipa::path(
    delete,
    path = "/api/account/passkeys/{id}",
    params(("id" = String, Path, description = "the passkey's credential id")),
    responses(
        (status = 204, description = "removed: it signs in no more"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 404, body = ErrorBody, description = "not_found: the account has no such passkey"),
        (status = 409, body = ErrorBody, description = "conflict: the account's last way to sign in (no password, no other passkey)")
    ),
    tag = "accounts"
)]
pub async fn remove(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    signed_in: SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let store = app.hub.store();
    match store.remove_passkey(&signed_in.account.id, &id).await? {
        PasskeyRemoval::Removed => Ok(StatusCode::NO_CONTENT),
        PasskeyRemoval::Unknown => Err(ApiError::not_found("your account has no such passkey")),
        PasskeyRemoval::LastWayIn => Err(ApiError::new(
            ErrorKind::Conflict,
            "this passkey is your account's only way to sign in: add another passkey first",
        )),
    }
}
