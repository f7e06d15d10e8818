//! `/api/friends`: friend requests (asked, accepted or declined; either side ends a
//! friendship), the friends list with presence, the tables friends sit at, and invitations
//! by name to a seat kept for a friend (docs/server.md, "Friends").

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::named_account as named;
use crate::accounts::session::{required_bearer, SameOrigin, SignedIn};
use crate::app::App;
use crate::body::{with_body, JsonBody, MAX_BODY_BYTES};
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::model::NotificationKind;
use crate::notifier::{account_recipient, About};
use crate::protocol::{ErrorBody, ErrorKind, GameSummary};
use crate::store::{Asked, Status};
use crate::time::now_ms;

/// The most seats of one friend looked at for where they play (their newest games).
const SEATS_LOOKED_AT: u32 = 20;

/// The friends' routes; `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route| with_body(route, MAX_BODY_BYTES, body_timeout);
    Router::new()
        .route("/api/friends", body(post(ask)).get(list))
        .route("/api/friends/tables", get(tables))
        .route("/api/friends/{id}/accept", post(accept))
        .route("/api/friends/{id}", delete(end))
        .route("/api/games/{id}/invitations", body(post(invite)))
}

/// Where a friend is: on the site (a page open), at a table (one of their seats open), or
/// away since they were last seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum FriendState {
    Online,
    AtTable,
    Offline,
}

#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Friend {
    /// The account's id (its page: `/api/accounts/{id}`).
    pub id: String,
    pub name: String,
    pub state: FriendState,
    /// Offline: when they were last seen (Unix milliseconds; `null`: not since this was
    /// kept).
    #[ts(type = "number | null")]
    pub last_seen: Option<i64>,
    /// At a table: which.
    pub game_id: Option<String>,
}

/// A request not answered yet: from (incoming) or to (outgoing) this person.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct FriendRequest {
    pub id: String,
    pub name: String,
    /// When it was asked (Unix milliseconds).
    #[ts(type = "number")]
    pub at: i64,
}

/// A person's friends (by name) and their requests.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct FriendList {
    pub friends: Vec<Friend>,
    pub incoming: Vec<FriendRequest>,
    pub outgoing: Vec<FriendRequest>,
}

/// Ask the person named `name` to be friends.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct AskFriend {
    pub name: String,
}

/// What a request did: `friends` when the other had asked first (it is accepted).
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct FriendAsked {
    pub friends: bool,
}

/// Keep seat `seat` for the friend named `name`.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct InviteByName {
    pub seat: u8,
    pub name: String,
}

/// The person's friends with where they are, and their requests either way.
#[utoipa::path(
    get,
    path = "/api/friends",
    responses(
        (status = 200, body = FriendList),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "friends"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<FriendList>, ApiError> {
    let store = app.hub.store();
    let rows = store.friendships(&account.id).await?;
    // The requests of those the person blocked never reach them (the asker is not told).
    let blocked: Vec<String> = store
        .blocks_of(&account.id)
        .await?
        .into_iter()
        .map(|b| b.account_id)
        .collect();
    let (friends, requests): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .filter(|r| r.asked_by_me || !blocked.contains(&r.account_id))
        .partition(|r| r.accepted.is_some());
    let ids: Vec<String> = friends.iter().map(|f| f.account_id.clone()).collect();
    let presence = store.site_presence(&ids, now_ms()).await?;
    let mut listed = Vec::with_capacity(friends.len());
    for (row, seen) in friends.into_iter().zip(presence) {
        let table = match seen.online {
            true => table_of(&app, &row.account_id).await?,
            false => None,
        };
        let state = match (seen.online, &table) {
            (true, Some(_)) => FriendState::AtTable,
            (true, None) => FriendState::Online,
            (false, _) => FriendState::Offline,
        };
        listed.push(Friend {
            id: row.account_id,
            name: row.name,
            state,
            last_seen: seen.last_seen.filter(|_| !seen.online),
            game_id: table,
        });
    }
    let request = |r: &crate::store::FriendRow| FriendRequest {
        id: r.account_id.clone(),
        name: r.name.clone(),
        at: r.created,
    };
    Ok(Json(FriendList {
        friends: listed,
        incoming: requests
            .iter()
            .filter(|r| !r.asked_by_me)
            .map(request)
            .collect(),
        outgoing: requests
            .iter()
            .filter(|r| r.asked_by_me)
            .map(request)
            .collect(),
    }))
}

/// The running or open table at which a seat of account `account_id` is open now.
async fn table_of(app: &App, account_id: &str) -> Result<Option<String>, ApiError> {
    let hub = &app.hub;
    for (game, seat) in hub.store().seats_of(account_id, SEATS_LOOKED_AT).await? {
        if hub.seat_present(&game, seat).await? {
            return Ok(Some(game));
        }
    }
    Ok(None)
}

/// Asks the person named `name` to be friends; they are told by their bell. If they had
/// asked first, the two are friends at once.
#[utoipa::path(
    post,
    path = "/api/friends",
    request_body = AskFriend,
    responses(
        (status = 201, body = FriendAsked),
        (status = 400, body = ErrorBody, description = "malformed: oneself, already asked, or friends already"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 404, body = ErrorBody, description = "not_found: no account of that name"),
        (status = 429, body = ErrorBody, description = "rate_limited")
    ),
    tag = "friends"
)]
pub async fn ask(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    SignedIn { account }: SignedIn,
    request: Result<JsonBody<AskFriend>, ApiError>,
) -> Result<(StatusCode, Json<FriendAsked>), ApiError> {
    let request = request?.0;
    app.requests.check(client.key())?;
    let other = named(&app, &request.name).await?;
    if other.id == account.id {
        return Err(ApiError::malformed("you cannot be your own friend"));
    }
    let store = app.hub.store();
    if store.has_blocked(&account.id, &other.id).await? {
        return Err(ApiError::malformed(format!(
            "you blocked {}: unblock them first",
            other.name
        )));
    }
    // A blocked person's request is kept as any other, for them; it never reaches the
    // one who blocked them (not listed, not told), who is thus not seen to refuse it.
    let blocked_by_them = store.has_blocked(&other.id, &account.id).await?;
    let asked = store.ask_friend(&account.id, &other.id, now_ms()).await?;
    match asked {
        Asked::Asked if blocked_by_them => {
            Ok((StatusCode::CREATED, Json(FriendAsked { friends: false })))
        }
        Asked::Asked => {
            let notifier = app.hub.notifier();
            let kind = NotificationKind::FriendRequest;
            notifier
                .notify(
                    &account_recipient(&other.id),
                    kind,
                    None,
                    Some(&account.name),
                    true,
                )
                .await;
            Ok((StatusCode::CREATED, Json(FriendAsked { friends: false })))
        }
        Asked::Accepted => Ok((StatusCode::CREATED, Json(FriendAsked { friends: true }))),
        Asked::AlreadyAsked => Err(ApiError::malformed(format!(
            "you asked {} already: they have not answered yet",
            other.name
        ))),
        Asked::AlreadyFriends => Err(ApiError::malformed(format!(
            "you and {} are friends already",
            other.name
        ))),
    }
}

/// Accepts the request of account `id`.
#[utoipa::path(
    post,
    path = "/api/friends/{id}/accept",
    params(("id" = String, Path, description = "the account that asked")),
    responses(
        (status = 200, body = FriendAsked),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 404, body = ErrorBody, description = "not_found: no request of theirs waits")
    ),
    tag = "friends"
)]
pub async fn accept(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    Path(id): Path<String>,
) -> Result<Json<FriendAsked>, ApiError> {
    let store = app.hub.store();
    // A blocked person's request never reached this person.
    if store.has_blocked(&account.id, &id).await?
        || !store.accept_friend(&account.id, &id, now_ms()).await?
    {
        return Err(ApiError::not_found(
            "no request of theirs waits for your answer",
        ));
    }
    Ok(Json(FriendAsked { friends: true }))
}

/// Declines the request of account `id`, withdraws one's own to them, or ends the
/// friendship with them.
#[utoipa::path(
    delete,
    path = "/api/friends/{id}",
    params(("id" = String, Path, description = "the other account")),
    responses(
        (status = 204, description = "ended"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 404, body = ErrorBody, description = "not_found: neither friends nor asked")
    ),
    tag = "friends"
)]
pub async fn end(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if !app.hub.store().end_friendship(&account.id, &id).await? {
        return Err(ApiError::not_found("you are neither friends nor asked"));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The open and running tables the person's friends sit at, newest first (to watch, or
/// to join where a seat is open).
#[utoipa::path(
    get,
    path = "/api/friends/tables",
    responses(
        (status = 200, body = Vec<GameSummary>),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "friends"
)]
pub async fn tables(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let store = app.hub.store();
    let mut ids: Vec<String> = Vec::new();
    for row in store.friendships(&account.id).await? {
        if row.accepted.is_none() {
            continue;
        }
        for (game, _) in store.seats_of(&row.account_id, SEATS_LOOKED_AT).await? {
            if !ids.contains(&game) {
                ids.push(game);
            }
        }
    }
    let mut summaries: Vec<GameSummary> = app
        .hub
        .stored_summaries(&ids)
        .await?
        .into_iter()
        .filter(|s| matches!(s.status, Status::Open | Status::Running))
        .collect();
    summaries.sort_by_key(|s| std::cmp::Reverse(s.created));
    Ok(Json(summaries))
}

/// Keeps free seat `seat` of table `id` for the friend named `name`, who is told by their
/// bell and takes it signed in with one click (`POST /api/games/{id}/join` with the seat),
/// no link needed. The bearer token is the seat's invitation: whoever does not hold it
/// does not control the seat (`forbidden`).
#[utoipa::path(
    post,
    path = "/api/games/{id}/invitations",
    params(("id" = String, Path, description = "game id")),
    request_body = InviteByName,
    responses(
        (status = 204, description = "kept for them, and they are told"),
        (status = 400, body = ErrorBody, description = "malformed: oneself"),
        (status = 401, body = ErrorBody, description = "not_signed_in, or bad_token: no bearer token"),
        (status = 403, body = ErrorBody, description = "forbidden: not a friend, or not the seat's invitation"),
        (status = 404, body = ErrorBody, description = "not_found: no such game, seat or person"),
        (status = 409, body = ErrorBody, description = "game_over: the table was called off")
    ),
    security(("seat_token" = [])),
    tag = "friends"
)]
pub async fn invite(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
    request: Result<JsonBody<InviteByName>, ApiError>,
) -> Result<StatusCode, ApiError> {
    let request = request?.0;
    let token = required_bearer(&headers, "the seat's invitation")?;
    let friend = named(&app, &request.name).await?;
    if friend.id == account.id {
        return Err(ApiError::malformed("take the seat yourself with its link"));
    }
    if !app.hub.store().are_friends(&account.id, &friend.id).await? {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            format!(
                "{} is not your friend: invite friends by name, anyone else with the link",
                friend.name
            ),
        ));
    }
    let table = app.hub.table(&id).await?;
    app.hub
        .reserve(&table, request.seat, token, &friend.id)
        .await?;
    let about = About {
        game_id: &id,
        game: table.kind.name(),
        seat: request.seat,
    };
    let kind = NotificationKind::Invitation;
    app.hub
        .notifier()
        .notify(
            &account_recipient(&friend.id),
            kind,
            Some(about),
            Some(&account.name),
            false,
        )
        .await;
    Ok(StatusCode::NO_CONTENT)
}
