//! `/api/seeks`: post, list, wait for and withdraw seeks ([`crate::matchmaking`] does the
//! rest).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get, post};
use axum::{Json, Router};

use crate::accounts::session::{account_of, required_bearer, SameOrigin};
use crate::app::App;
use crate::body::{with_body, JsonBody, MAX_BODY_BYTES};
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::matchmaking::request::{PostSeek, SeekList, SeekPosted, SeekState};
use crate::protocol::ErrorBody;

/// The seeks' routes. `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    Router::new()
        .route(
            "/api/seeks",
            with_body(post(post_seek), MAX_BODY_BYTES, body_timeout).get(list),
        )
        .route("/api/seeks/{id}", delete(withdraw))
        .route("/api/seeks/{id}/wait", get(wait))
}

/// Posts a seek: signed in (the session cookie), or as a guest with a `name` and a
/// `browser` id. Its token waits for the match (`GET /api/seeks/{id}/wait`) and withdraws
/// it; it stays matchable only while its browser waits for it.
#[utoipa::path(
    post,
    path = "/api/seeks",
    request_body = PostSeek,
    responses(
        (status = 201, body = SeekPosted),
        (status = 400, body = ErrorBody, description = "malformed: an unknown game, a player count it does not have, a clock outside the offered bounds, a rated seek of a guest, or a seek identical to one this person has open"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 429, body = ErrorBody, description = "rate_limited: as many open seeks as one person may have, or posts from this address too fast")
    ),
    tag = "seeks"
)]
pub async fn post_seek(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    headers: HeaderMap,
    request: Result<JsonBody<PostSeek>, ApiError>,
) -> Result<(StatusCode, Json<SeekPosted>), ApiError> {
    app.requests.check(client.key())?;
    let account = account_of(&app, &headers).await?;
    let posted = app.seeks.post(request?.0, account.as_ref()).await?;
    Ok((StatusCode::CREATED, Json(posted)))
}

/// The open seeks, oldest first, each with its poster's name and rating only; and how
/// many each game has.
#[utoipa::path(get, path = "/api/seeks", responses((status = 200, body = SeekList)), tag = "seeks")]
pub async fn list(State(app): State<Arc<App>>) -> Result<Json<SeekList>, ApiError> {
    Ok(Json(app.seeks.list().await?))
}

/// Waits (up to 20 s) for the seek to be matched, and keeps it matchable for 30 s more:
/// a browser that stops asking is gone. `matched` carries the table, the seat and the
/// seat's token (for the seek's holder only); `waiting`: ask again.
#[utoipa::path(
    get,
    path = "/api/seeks/{id}/wait",
    params(("id" = String, Path, description = "seek id")),
    responses(
        (status = 200, body = SeekState),
        (status = 401, body = ErrorBody, description = "bad_token"),
        (status = 404, body = ErrorBody, description = "no such seek: withdrawn, or its person was seated by another of their seeks")
    ),
    security(("seek_token" = [])),
    tag = "seeks"
)]
pub async fn wait(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeekState>, ApiError> {
    let token = required_bearer(&headers, "the seek's")?;
    Ok(Json(
        app.seeks.wait(&id, token, app.shutdown.clone()).await?,
    ))
}

/// Withdraws the seek, unless it was matched.
#[utoipa::path(
    delete,
    path = "/api/seeks/{id}",
    params(("id" = String, Path, description = "seek id")),
    responses(
        (status = 204, description = "withdrawn"),
        (status = 401, body = ErrorBody, description = "bad_token"),
        (status = 404, body = ErrorBody, description = "no such seek"),
        (status = 409, body = ErrorBody, description = "conflict: matched already (wait for it to read its table)")
    ),
    security(("seek_token" = [])),
    tag = "seeks"
)]
pub async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = required_bearer(&headers, "the seek's")?;
    app.seeks.withdraw(&id, token).await?;
    Ok(StatusCode::NO_CONTENT)
}
