//! `/api/notifications`: a signed-in person's notifications in the site
//! ([`crate::notifier`] stores them), listed and marked read; [`Follow`] is what the bell
//! of each of their pages hears of them live ([`crate::live`]).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::accounts::seats::{SeatToken, MAX_CLAIMED};
use crate::accounts::session::{account_of, bearer_token, SameOrigin};
use crate::app::App;
use crate::body::{with_body, JsonBody, MAX_BODY_BYTES};
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::matchmaking::request::checked_browser;
use crate::model::Notification;
use crate::notifier::{account_recipient, browser_recipient, kept_since, Live, Recipient};
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::Store;
use crate::time::now_ms;

/// The most notifications one page of the list or one live update carries.
const MAX_PAGE: u32 = 100;
/// The list's page when none is asked for.
const DEFAULT_PAGE: u32 = 30;
/// The most notifications one request marks read by id.
const MAX_READ_IDS: usize = 200;

/// The notifications' routes; `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route| with_body(route, MAX_BODY_BYTES, body_timeout);
    Router::new()
        .route("/api/notifications", get(list))
        .route("/api/notifications/read", body(post(read)))
        .route("/api/notifications/seats", body(post(hold_seats)))
}

/// A page of a person's notifications, newest first, and how many are unread.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct NotificationList {
    #[ts(type = "number")]
    pub unread: u64,
    pub items: Vec<Notification>,
}

/// What a live page is told when the person's notifications change: how many are unread
/// now, and those it has not been told yet, oldest first.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct NotificationsUpdate {
    #[ts(type = "number")]
    pub unread: u64,
    pub new: Vec<Notification>,
}

/// Which notifications to mark read: `ids`, or `all`.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct ReadNotifications {
    #[ts(optional, type = "Array<number>")]
    pub ids: Option<Vec<i64>>,
    #[ts(optional)]
    pub all: Option<bool>,
}

/// How many of a person's notifications are unread.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Unread {
    #[ts(type = "number")]
    pub unread: u64,
}

/// The seats a guest's browser holds (their tokens), for their notifications.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct BrowserSeats {
    /// The browser's id (as its seeks name it).
    pub browser: String,
    pub seats: Vec<SeatToken>,
}

/// How many of the seats named are held by the browser now.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct HeldSeats {
    pub held: u32,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListNotifications {
    /// Only notifications older than this one (the last id of the page before).
    pub before: Option<i64>,
    /// At most this many (default 30, at most 100).
    pub limit: Option<u32>,
}

/// The person's notifications of the last 30 days, newest first.
#[utoipa::path(
    get,
    path = "/api/notifications",
    params(ListNotifications),
    responses(
        (status = 200, body = NotificationList),
        (status = 400, body = ErrorBody, description = "malformed"),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "notifications"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: Result<Query<ListNotifications>, QueryRejection>,
) -> Result<Json<NotificationList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::malformed(e.body_text()))?;
    let recipient = recipient_of(&app, &headers).await?;
    let limit = query.limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let since = kept_since(now_ms());
    let store = app.hub.store();
    let page = store
        .notifications(recipient.as_str(), since, query.before, limit)
        .await?;
    Ok(Json(NotificationList {
        unread: page.unread,
        items: page.items,
    }))
}

/// Marks the person's notifications `ids` read, or `all` of them. An id of someone
/// else's is `forbidden`, an unknown one `not_found`; either way nothing is marked.
#[utoipa::path(
    post,
    path = "/api/notifications/read",
    request_body = ReadNotifications,
    responses(
        (status = 200, body = Unread),
        (status = 400, body = ErrorBody, description = "malformed: neither ids nor all, both, or too many ids"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "forbidden: another person's notification"),
        (status = 404, body = ErrorBody, description = "not_found: no such notification")
    ),
    tag = "notifications"
)]
pub async fn read(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    request: Result<JsonBody<ReadNotifications>, ApiError>,
) -> Result<Json<Unread>, ApiError> {
    let recipient = recipient_of(&app, &headers).await?;
    let request = request?.0;
    let recipient = recipient.as_str();
    let store = app.hub.store();
    let ids = match (request.all.unwrap_or(false), request.ids.as_deref()) {
        (true, None) => None,
        (false, Some(ids)) if !ids.is_empty() && ids.len() <= MAX_READ_IDS => Some(ids),
        (false, Some(ids)) if !ids.is_empty() => {
            return Err(ApiError::malformed(format!(
                "at most {MAX_READ_IDS} notifications are marked read at once"
            )))
        }
        _ => {
            return Err(ApiError::malformed(
                "name the notifications read (ids), or all of them (all: true), not both",
            ))
        }
    };
    if let Some(ids) = ids {
        let found = store.notification_recipients(ids).await?;
        if found.iter().any(|(_, whose)| *whose != recipient) {
            return Err(ApiError::new(
                ErrorKind::Forbidden,
                "these are not all your notifications",
            ));
        }
        if let Some(missing) = ids.iter().find(|id| !found.iter().any(|(f, _)| f == *id)) {
            return Err(ApiError::not_found(format!("no notification {missing}")));
        }
    }
    if store.mark_notifications_read(recipient, ids).await? > 0 {
        // The person's other pages show the new count (other processes hear the store).
        app.hub.notifier().wake(recipient);
    }
    let unread = store
        .unread_notifications(recipient, kept_since(now_ms()))
        .await?;
    Ok(Json(Unread { unread }))
}

/// A guest's browser names the seats it holds: their turn and their clock are told to
/// it. A token that is no taken seat of its game (unknown, or an invitation not yet used)
/// is left out; the latest browser to name a seat keeps it.
#[utoipa::path(
    post,
    path = "/api/notifications/seats",
    request_body = BrowserSeats,
    responses(
        (status = 200, body = HeldSeats),
        (status = 400, body = ErrorBody, description = "malformed: a browser id that is not one, or more than 100 seats"),
        (status = 429, body = ErrorBody, description = "rate_limited")
    ),
    tag = "notifications"
)]
pub async fn hold_seats(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    request: Result<JsonBody<BrowserSeats>, ApiError>,
) -> Result<Json<HeldSeats>, ApiError> {
    let BrowserSeats { browser, seats } = request?.0;
    let browser = browser_recipient(checked_browser(Some(&browser))?);
    if seats.len() > MAX_CLAIMED {
        return Err(ApiError::malformed(format!(
            "at most {MAX_CLAIMED} seats at once"
        )));
    }
    app.requests.check(client.key())?;
    let mut held = 0;
    for SeatToken { game, token } in seats {
        // An unknown game is left out like an unknown token.
        let Ok(table) = app.hub.table(&game).await else {
            continue;
        };
        let Some((seat, false)) = table.token_seat(&token) else {
            continue;
        };
        app.hub
            .store()
            .hold_browser_seat(browser.as_str(), &game, seat, now_ms())
            .await?;
        held += 1;
    }
    Ok(Json(HeldSeats { held }))
}

/// Whose notifications a request is about: the signed-in person's, else the guest's
/// whose browser id is the bearer token; neither: `not_signed_in`.
async fn recipient_of(app: &App, headers: &HeaderMap) -> Result<Recipient, ApiError> {
    if let Some(account) = account_of(app, headers).await? {
        return Ok(account_recipient(&account.id));
    }
    match bearer_token(headers)? {
        Some(browser) => Ok(browser_recipient(checked_browser(Some(browser))?)),
        None => Err(ApiError::new(
            ErrorKind::NotSignedIn,
            "sign in, or name this browser (Authorization: Bearer BROWSER-ID)",
        )),
    }
}

/// The id of `recipient`'s newest notification (0: none).
pub(crate) async fn newest_id(store: &dyn Store, recipient: &Recipient) -> Result<i64, ApiError> {
    let newest = store
        .notifications(recipient.as_str(), kept_since(now_ms()), None, 1)
        .await?;
    Ok(newest.items.first().map_or(0, |n| n.id))
}

/// One live page's following of a person's notifications: what it was told last.
pub(crate) struct Follow {
    store: Arc<dyn Store>,
    recipient: Recipient,
    /// The newest notification told.
    after: i64,
    /// The unread count told last (`None`: nothing told yet).
    told: Option<u64>,
    /// A change was heard and not told yet (its telling was cancelled midway: the link
    /// had something else to do first).
    pending: bool,
}

impl Follow {
    /// Follows `recipient`'s notifications from after id `after`.
    pub(crate) fn new(store: Arc<dyn Store>, recipient: Recipient, after: i64) -> Self {
        Follow {
            store,
            recipient,
            after,
            told: None,
            pending: false,
        }
    }

    /// The next update, once there is one (at once the first time, then when `live`
    /// says the person's notifications changed); `None`: `live` ended, or the database
    /// failed (the page connects again). Cancel-safe: a change heard by a call dropped
    /// midway is told by the next. A change that changes nothing the page was told
    /// (heard twice: from this process and from the database) is not told.
    pub(crate) async fn next(&mut self, live: &mut Live) -> Option<NotificationsUpdate> {
        loop {
            if self.told.is_some() && !self.pending {
                live.changes.changed().await.ok()?;
                self.pending = true;
            }
            let since = kept_since(now_ms());
            let read = async {
                let new = self
                    .store
                    .notifications_after(self.recipient.as_str(), since, self.after, MAX_PAGE)
                    .await?;
                let unread = self
                    .store
                    .unread_notifications(self.recipient.as_str(), since)
                    .await?;
                Ok::<_, crate::store::StoreError>(NotificationsUpdate { unread, new })
            };
            let update = match read.await {
                Ok(update) => update,
                Err(error) => {
                    tracing::warn!(%error, "reading notifications for a live page failed");
                    return None;
                }
            };
            self.pending = false;
            if update.new.is_empty() && self.told == Some(update.unread) {
                continue;
            }
            self.told = Some(update.unread);
            self.after = update.new.last().map_or(self.after, |n| n.id);
            return Some(update);
        }
    }
}
