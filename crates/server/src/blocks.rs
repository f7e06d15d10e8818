//! `/api/blocks`: a person blocks an account (docs/server.md, "Blocks"). The two are kept
//! apart: neither sits at a table the other sits at, seeks never match them, the blocked
//! account's friend requests never reach the blocker (a friendship between them ends), and
//! each one's chat is hidden from the other at every table. The blocked account is not
//! told: nothing it reads says so.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::named_account as named;
use crate::accounts::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::body::{with_body, JsonBody, MAX_BODY_BYTES};
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::protocol::ErrorBody;
use crate::store::AccountRow;
use crate::time::now_ms;

/// The blocks' routes; `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route| with_body(route, MAX_BODY_BYTES, body_timeout);
    Router::new()
        .route("/api/blocks", body(post(block)).get(list))
        .route("/api/blocks/{name}", delete(unblock))
}

/// Block the account named `name`.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct BlockAccount {
    pub name: String,
}

/// An account the person blocked.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Blocked {
    /// The account's id (its page: `/api/accounts/{id}`).
    pub id: String,
    pub name: String,
    /// When it was blocked (Unix milliseconds).
    #[ts(type = "number")]
    pub at: i64,
}

/// Blocks the account named `name`: from now on the two are kept apart. Blocking an
/// account blocked already changes nothing.
#[utoipa::path(
    post,
    path = "/api/blocks",
    request_body = BlockAccount,
    responses(
        (status = 204, description = "blocked"),
        (status = 400, body = ErrorBody, description = "malformed: oneself"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 404, body = ErrorBody, description = "not_found: no account of that name"),
        (status = 429, body = ErrorBody, description = "rate_limited")
    ),
    tag = "blocks"
)]
pub async fn block(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    SignedIn { account }: SignedIn,
    request: Result<JsonBody<BlockAccount>, ApiError>,
) -> Result<StatusCode, ApiError> {
    let request = request?.0;
    app.requests.check(client.key())?;
    let other = named(&app, &request.name).await?;
    if other.id == account.id {
        return Err(ApiError::malformed("you cannot block yourself"));
    }
    app.hub
        .store()
        .block(&account.id, &other.id, now_ms())
        .await?;
    kept_apart_changed(&app, &account, &other);
    Ok(StatusCode::NO_CONTENT)
}

/// Lifts the block of the account named `name`.
#[utoipa::path(
    delete,
    path = "/api/blocks/{name}",
    params(("name" = String, Path, description = "the blocked account's name")),
    responses(
        (status = 204, description = "no longer blocked"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 404, body = ErrorBody, description = "not_found: no account of that name, or not blocked")
    ),
    tag = "blocks"
)]
pub async fn unblock(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let other = named(&app, &name).await?;
    if !app.hub.store().unblock(&account.id, &other.id).await? {
        return Err(ApiError::not_found(format!(
            "you have not blocked {}",
            other.name
        )));
    }
    kept_apart_changed(&app, &account, &other);
    Ok(StatusCode::NO_CONTENT)
}

/// The accounts the person blocked, by name.
#[utoipa::path(
    get,
    path = "/api/blocks",
    responses(
        (status = 200, body = Vec<Blocked>),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "blocks"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<Vec<Blocked>>, ApiError> {
    let rows = app.hub.store().blocks_of(&account.id).await?;
    Ok(Json(
        rows.into_iter()
            .map(|row| Blocked {
                id: row.account_id,
                name: row.name,
                at: row.created,
            })
            .collect(),
    ))
}

/// The chat this process sends either of the two follows the change at once (other
/// processes hear it from the store).
fn kept_apart_changed(app: &App, a: &AccountRow, b: &AccountRow) {
    app.hub.blocks_changed(&a.id);
    app.hub.blocks_changed(&b.id);
}
