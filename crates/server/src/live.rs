//! `GET /api/live`: each page's one live link to the site (a WebSocket; docs/server.md,
//! "The site's live link"): a signed-in person's notifications as they change (the bell),
//! and the count of people online. The link itself is the person's presence on the site:
//! their friends see them online while one is open, anywhere ([`crate::notifier`]).
//!
//! A WebSocket, not server-sent events: over HTTP/1.1 a browser keeps at most six
//! connections to a server, and an event stream per tab would hold them all once six tabs
//! are open; WebSockets are not counted among them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::accounts::session::{account_of, same_origin};
use crate::app::App;
use crate::error::ApiError;
use crate::matchmaking::request::checked_browser;
use crate::notifications::{newest_id, Follow, NotificationsUpdate};
use crate::notifier::{account_recipient, browser_recipient, Live, Recipient};
use crate::time::now_ms;

/// How often the count of people online is told, and the link pinged.
const TELL_EVERY: Duration = Duration::from_secs(20);
/// When the count is told first: once this link's own presence is stored (in order with
/// the others', [`crate::notifier`]), so that it counts itself.
const FIRST_TOLD_AFTER: Duration = Duration::from_secs(1);
/// A link silent this long (no pong) is closed.
const IDLE: Duration = Duration::from_secs(60);
/// The largest message a page may send (it sends none but pongs and closes).
const MAX_MESSAGE_BYTES: usize = 1024;

pub fn router() -> Router<Arc<App>> {
    Router::new().route("/api/live", get(upgrade))
}

/// What the server tells a page.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LiveMessage {
    /// The person's notifications changed (at once on connecting too).
    Notifications(NotificationsUpdate),
    /// How many people have a page of the site open.
    Online {
        #[ts(type = "number")]
        people: u64,
    },
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LiveQuery {
    /// Tell the notifications after this id first (the newest the page has); none: only
    /// those that come from now on.
    pub after: Option<i64>,
    /// A guest: the browser's id (as its seeks name it): it counts once online, and its
    /// notifications are told.
    pub browser: Option<String>,
}

/// Opens the page's live link. Only the server's own pages follow the signed-in person's
/// notifications: another site's page, sending the person's cookie, is counted as a guest.
#[utoipa::path(
    get,
    path = "/api/live",
    params(LiveQuery),
    responses(
        (status = 101, description = "WebSocket: LiveMessage out; the page sends nothing"),
        (status = 400, body = crate::protocol::ErrorBody, description = "malformed: a browser id that is not one")
    ),
    tag = "notifications"
)]
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: Result<Query<LiveQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::malformed(e.body_text()))?;
    let account = match same_origin(&headers) {
        Ok(()) => account_of(&app, &headers).await?,
        Err(_) => None,
    };
    let (key, follow) = match &account {
        Some(account) => {
            let recipient = account_recipient(&account.id);
            let store = app.hub.store().clone();
            let after = match query.after {
                Some(after) => after,
                None => newest_id(store.as_ref(), &recipient).await?,
            };
            (
                Some(recipient.clone()),
                Some(Follow::new(store, recipient, after)),
            )
        }
        None => {
            let browser = query
                .browser
                .as_deref()
                .map(|b| checked_browser(Some(b)))
                .transpose()?;
            let recipient = browser.map(browser_recipient);
            let follow = match &recipient {
                Some(recipient) => {
                    let store = app.hub.store().clone();
                    let after = match query.after {
                        Some(after) => after,
                        None => newest_id(store.as_ref(), recipient).await?,
                    };
                    Some(Follow::new(store, recipient.clone(), after))
                }
                None => None,
            };
            (recipient, follow)
        }
    };
    Ok(ws
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| run(app, socket, key, follow)))
}

/// Serves one page's link until it closes, goes silent, or the server shuts down.
async fn run(
    app: Arc<App>,
    mut socket: WebSocket,
    key: Option<Recipient>,
    mut follow: Option<Follow>,
) {
    // Counted online while the link is open (dropped with it).
    let mut live: Option<Live> = key.map(|key| app.hub.notifier().subscribe(&key));
    let mut shutdown = app.shutdown.clone();
    let first = tokio::time::Instant::now() + FIRST_TOLD_AFTER;
    let mut every = tokio::time::interval_at(first, TELL_EVERY);
    let mut last_heard = Instant::now();
    loop {
        let update = async {
            match (&mut follow, &mut live) {
                (Some(follow), Some(live)) => follow.next(live).await,
                _ => std::future::pending().await,
            }
        };
        let sent = tokio::select! {
            update = update => match update {
                Some(update) => send(&mut socket, &LiveMessage::Notifications(update)).await,
                // The database failed: the page connects again.
                None => false,
            },
            _ = every.tick() => {
                if last_heard.elapsed() > IDLE {
                    false
                } else {
                    match app.hub.store().people_online(now_ms()).await {
                        Ok(people) => send(&mut socket, &LiveMessage::Online { people }).await
                            && socket.send(Message::Ping(Default::default())).await.is_ok(),
                        Err(error) => {
                            tracing::warn!(%error, "counting the people online failed");
                            true
                        }
                    }
                }
            }
            heard = socket.recv() => match heard {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => false,
                Some(Ok(_)) => {
                    last_heard = Instant::now();
                    true
                }
            },
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                false
            }
        };
        if !sent {
            break;
        }
    }
}

async fn send(socket: &mut WebSocket, message: &LiveMessage) -> bool {
    // Our own types serialize infallibly.
    let text = serde_json::to_string(message).unwrap_or_default();
    socket.send(Message::Text(text.into())).await.is_ok()
}
