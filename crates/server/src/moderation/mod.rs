//! Moderation (docs/server.md, "Moderation"): people report accounts
//! ([`reports`]); moderators, a role given on the server machine (`tabletop admin
//! moderator add NAME`, [`set_moderator`]), read the open reports with their evidence and
//! dismiss, warn, mute or suspend ([`actions`]). Every action is kept with who, when and
//! why: the person it concerns reads it, and moderators read them all (the audit log).
//! Moderation routes answer `forbidden` to everyone else.

pub(crate) mod actions;
pub(crate) mod reports;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::session::SignedIn;
use crate::app::App;
use crate::body::{with_body, MAX_BODY_BYTES};
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::{
    AccountRow, AccountStore, ActionRow, ModerationStore, SqlStore, SyncMode, FOR_GOOD,
};
use crate::time::now_ms;

pub use actions::{
    ActionKind, Moderate, ModerationAction, MyStanding, QueuedReport, RecentMessage,
};
pub use reports::{Evidence, MyReport, NewReport, ReportFiled, ReportReason, ReportState};

/// The moderation routes; `body_timeout`: how long a request with a body may take.
pub fn router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route| with_body(route, MAX_BODY_BYTES, body_timeout);
    Router::new()
        .route("/api/reports", body(post(reports::file)))
        .route("/api/reports/mine", get(reports::mine))
        .route("/api/account/standing", get(actions::standing))
        .route("/api/moderation/reports", get(actions::queue))
        .route("/api/moderation/actions", body(post(actions::act)))
        .route("/api/moderation/log", get(actions::log))
}

/// A signed-in moderator; anyone else is refused with `forbidden` (signed out:
/// `not_signed_in`).
pub struct Moderator {
    pub account: AccountRow,
}

impl FromRequestParts<Arc<App>> for Moderator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let SignedIn { account } = SignedIn::from_request_parts(parts, app).await?;
        if !app.hub.store().is_moderator(&account.id).await? {
            return Err(ApiError::new(
                ErrorKind::Forbidden,
                "only moderators read and act on reports",
            ));
        }
        Ok(Moderator { account })
    }
}

/// One action as its reader sees it: the person it concerns is not told which moderator.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ActionView {
    pub id: String,
    pub action: ActionKind,
    pub reason: String,
    /// When a mute or suspension ends (Unix milliseconds); `null`: it does not last, or
    /// (`for_good`) never ends.
    #[ts(type = "number | null")]
    pub until: Option<i64>,
    /// A suspension for good.
    pub for_good: bool,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
}

impl ActionView {
    fn of(row: &ActionRow) -> Option<ActionView> {
        Some(ActionView {
            id: row.id.clone(),
            action: ActionKind::parse(&row.action)?,
            reason: row.reason.clone(),
            until: row.until.filter(|&u| u != FOR_GOOD),
            for_good: row.until == Some(FOR_GOOD),
            at: row.created,
        })
    }
}

/// Makes the account named `name` a moderator (`on`) or no longer one, on the database
/// at `db` directly (no server needs to run): what was done, as a sentence.
pub async fn set_moderator(db: &str, name: &str, on: bool) -> Result<String, String> {
    let store = SqlStore::open(db, SyncMode::Full)
        .await
        .map_err(|e| format!("cannot open {db}: {e}"))?;
    let clean = crate::names::clean_name(name)
        .map_err(|_| format!("{:?} is not a name an account can have", name.trim()))?;
    let key = crate::accounts::name_key(&clean);
    let account = store
        .account_named(&key)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("nobody is called {:?} on this server", name.trim()))?;
    let changed = store
        .set_moderator(&account.id, on, now_ms())
        .await
        .map_err(|e| e.to_string())?;
    Ok(match (on, changed) {
        (true, true) => format!("{} is a moderator now", account.name),
        (true, false) => format!("{} was a moderator already", account.name),
        (false, true) => format!("{} is no longer a moderator", account.name),
        (false, false) => format!("{} was not a moderator", account.name),
    })
}
