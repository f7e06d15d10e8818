//! The moderators' side: the queue of open reports with their evidence, the reported
//! account's recent chat and past actions; the actions (dismiss, warn, mute chat for a
//! time, suspend for a time or for good), each stored with who, when and why; the audit
//! log. And `GET /api/account/standing`: what moderators did concerning oneself.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::reports::{Evidence, ReportReason, ReportState};
use super::{ActionView, Moderator};
use crate::accounts::named_account;
use crate::accounts::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::{AccountRow, ActionRow, Status, FOR_GOOD};
use crate::time::now_ms;
use crate::tokens;

/// The open reports a queue shows at most, oldest first.
const QUEUE_LENGTH: u32 = 50;
/// The reported account's newest messages shown beside a report.
const RECENT_CHAT: u32 = 20;
/// The past actions about an account shown beside a report, and about oneself.
const HISTORY: u32 = 20;
/// The audit log's newest actions shown.
const LOG_LENGTH: u32 = 200;
/// The longest mute or suspension for a time: a year (longer is for good).
const MAX_MINUTES: u32 = 366 * 24 * 60;
/// The most characters of an action's reason.
const MAX_REASON_CHARS: usize = 500;

/// What a moderator does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A report needs nothing done: it is closed.
    Dismiss,
    /// The account is told, nothing more.
    Warn,
    /// The account cannot chat until `minutes` from now.
    Mute,
    /// The account cannot sign in or play, for `minutes` or for good; its sessions end at
    /// once and its seats at running tables are handed to bots as a leaver's.
    Suspend,
}

impl ActionKind {
    fn as_str(self) -> &'static str {
        match self {
            ActionKind::Dismiss => "dismiss",
            ActionKind::Warn => "warn",
            ActionKind::Mute => "mute",
            ActionKind::Suspend => "suspend",
        }
    }

    pub(super) fn parse(text: &str) -> Option<ActionKind> {
        [
            ActionKind::Dismiss,
            ActionKind::Warn,
            ActionKind::Mute,
            ActionKind::Suspend,
        ]
        .into_iter()
        .find(|a| a.as_str() == text)
    }
}

/// A moderator's action on the account named `name`, or on the account report `report`
/// names (both: they must agree).
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct Moderate {
    pub action: ActionKind,
    /// Why, as the person will read it.
    pub reason: String,
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// The open report it answers (a dismissal needs one).
    #[serde(default)]
    #[ts(optional)]
    pub report: Option<String>,
    /// How long a mute (needed) or a suspension (none: for good) lasts.
    #[serde(default)]
    #[ts(optional)]
    pub minutes: Option<u32>,
}

/// An action in the audit log: with whom it concerned and which moderator.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ModerationAction {
    #[serde(flatten)]
    pub action: ActionView,
    pub account: String,
    pub account_id: String,
    pub moderator: String,
    pub report: Option<String>,
}

/// A message of the reported account's, at any table.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct RecentMessage {
    pub game: String,
    pub text: String,
    #[ts(type = "number")]
    pub at: i64,
}

/// An open report as the queue shows it.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct QueuedReport {
    pub id: String,
    pub reporter: String,
    /// The reported account's name and id.
    pub name: String,
    pub account_id: String,
    pub reason: ReportReason,
    pub text: String,
    pub game: Option<String>,
    #[ts(type = "number")]
    pub at: i64,
    pub evidence: Vec<Evidence>,
    /// Their newest messages at every table.
    pub recent_chat: Vec<RecentMessage>,
    /// What moderators did about them before.
    pub history: Vec<ActionView>,
}

/// What moderators did concerning oneself, newest first, and what is in force now.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct MyStanding {
    /// The mute in force, if any.
    pub muted: Option<ActionView>,
    /// The suspension in force, if any (a suspended person is signed out; this is read
    /// when their sign-in is refused).
    pub suspended: Option<ActionView>,
    pub actions: Vec<ActionView>,
    /// The person is a moderator (their page leads to the queue).
    pub moderator: bool,
}

/// The open reports, oldest first, each with its evidence, the reported account's recent
/// chat and the moderators' past actions about them.
#[utoipa::path(
    get,
    path = "/api/moderation/reports",
    responses(
        (status = 200, body = Vec<QueuedReport>),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "forbidden: not a moderator")
    ),
    tag = "moderation"
)]
pub async fn queue(
    State(app): State<Arc<App>>,
    _: Moderator,
) -> Result<Json<Vec<QueuedReport>>, ApiError> {
    let store = app.hub.store();
    let mut queued = Vec::new();
    for report in store.open_reports(QUEUE_LENGTH).await? {
        let recent_chat = store
            .recent_chat_of(&report.reported, RECENT_CHAT)
            .await?
            .into_iter()
            .map(|(game, m)| RecentMessage {
                game,
                text: m.text,
                at: m.at,
            })
            .collect();
        let history = store
            .actions_about(&report.reported, HISTORY)
            .await?
            .iter()
            .filter_map(ActionView::of)
            .collect();
        queued.push(QueuedReport {
            reason: ReportReason::parse(&report.reason).unwrap_or(ReportReason::Other),
            evidence: report.evidence.iter().map(Evidence::from).collect(),
            id: report.id,
            reporter: report.reporter_name,
            name: report.reported_name,
            account_id: report.reported,
            text: report.details,
            game: report.game_id,
            at: report.created,
            recent_chat,
            history,
        });
    }
    Ok(Json(queued))
}

/// Acts on an account (or dismisses a report), storing who, when and why.
#[utoipa::path(
    post,
    path = "/api/moderation/actions",
    request_body = Moderate,
    responses(
        (status = 200, body = ModerationAction),
        (status = 400, body = ErrorBody, description = "malformed: no reason, no account, an unknown report, a dismissal without a report, a mute without minutes, minutes where none last"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "forbidden: not a moderator; cross_origin"),
        (status = 404, body = ErrorBody, description = "not_found: no account of that name"),
        (status = 409, body = ErrorBody, description = "conflict: the report was answered meanwhile")
    ),
    tag = "moderation"
)]
pub async fn act(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    Moderator { account: moderator }: Moderator,
    request: Result<JsonBody<Moderate>, ApiError>,
) -> Result<Json<ModerationAction>, ApiError> {
    let request = request?.0;
    let reason = request.reason.trim().to_string();
    if reason.is_empty() {
        return Err(ApiError::malformed(
            "say why: the person reads the reason with the action",
        ));
    }
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(ApiError::malformed(format!(
            "a reason has at most {MAX_REASON_CHARS} characters"
        )));
    }
    let account = concerned(&app, &request).await?;
    let now = now_ms();
    let until = match (request.action, request.minutes) {
        (ActionKind::Dismiss | ActionKind::Warn, None) => None,
        (ActionKind::Dismiss | ActionKind::Warn, Some(_)) => {
            return Err(ApiError::malformed("only a mute or a suspension lasts"))
        }
        (ActionKind::Mute, None) => {
            return Err(ApiError::malformed(
                "say for how many minutes the chat is muted",
            ))
        }
        (ActionKind::Suspend, None) => Some(FOR_GOOD),
        (_, Some(minutes)) if minutes == 0 || minutes > MAX_MINUTES => {
            return Err(ApiError::malformed(format!(
                "from 1 to {MAX_MINUTES} minutes (a suspension without minutes is for good)"
            )))
        }
        (_, Some(minutes)) => Some(now + i64::from(minutes) * 60_000),
    };
    if request.action == ActionKind::Dismiss && request.report.is_none() {
        return Err(ApiError::malformed("a dismissal answers a report: name it"));
    }
    let row = ActionRow {
        id: tokens::new_game_id(),
        account_id: account.id.clone(),
        account_name: account.name.clone(),
        moderator: moderator.id.clone(),
        moderator_name: moderator.name.clone(),
        action: request.action.as_str().to_string(),
        reason,
        until,
        report_id: request.report.clone(),
        created: now,
    };
    if !app.hub.store().moderate(&row).await? {
        return Err(ApiError::new(
            ErrorKind::Conflict,
            "another moderator answered this report meanwhile",
        ));
    }
    tracing::info!(
        moderator = %moderator.id,
        account = %account.id,
        action = row.action,
        "moderation"
    );
    if request.action == ActionKind::Suspend {
        hand_seats_to_bots(&app, &account.id).await;
    }
    let action = ActionView::of(&row)
        .ok_or_else(|| ApiError::new(ErrorKind::Internal, "an action of no known kind"))?;
    Ok(Json(ModerationAction {
        action,
        account: account.name,
        account_id: account.id,
        moderator: moderator.name,
        report: row.report_id,
    }))
}

/// The account an action concerns: the named one, or the one the report names.
async fn concerned(app: &App, request: &Moderate) -> Result<AccountRow, ApiError> {
    let named = match &request.name {
        Some(name) => Some(named_account(app, name).await?),
        None => None,
    };
    let Some(report) = &request.report else {
        return named.ok_or_else(|| ApiError::malformed("name the account, or the report"));
    };
    let store = app.hub.store();
    let report = store
        .report(report)
        .await?
        .ok_or_else(|| ApiError::malformed(format!("there is no report {report:?}")))?;
    if ReportState::parse(&report.state) != ReportState::Open {
        return Err(ApiError::new(
            ErrorKind::Conflict,
            "this report was answered already",
        ));
    }
    match named {
        Some(account) if account.id != report.reported => {
            Err(ApiError::malformed("the report is about another account"))
        }
        Some(account) => Ok(account),
        None => store
            .account(&report.reported)
            .await?
            .ok_or_else(|| ApiError::not_found("the reported account is gone")),
    }
}

/// A suspended account's seats at running tables are handed to bots as a leaver's: its
/// person cannot take them back.
async fn hand_seats_to_bots(app: &App, account: &str) {
    let hub = &app.hub;
    let seats = match hub.store().seats_of(account, 200).await {
        Ok(seats) => seats,
        Err(error) => {
            tracing::warn!(%error, "a suspended account's seats were not read");
            return;
        }
    };
    for (game, seat) in seats {
        let Ok(table) = hub.table(&game).await else {
            continue;
        };
        if table.status() != Status::Running {
            continue;
        }
        if let Err(error) = hub.leave(&table, seat).await {
            tracing::debug!(game, seat, %error, "a suspended account's seat was not handed over");
        }
    }
}

/// The audit log: every moderator's action, newest first (at most 200).
#[utoipa::path(
    get,
    path = "/api/moderation/log",
    responses(
        (status = 200, body = Vec<ModerationAction>),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "forbidden: not a moderator")
    ),
    tag = "moderation"
)]
pub async fn log(
    State(app): State<Arc<App>>,
    _: Moderator,
) -> Result<Json<Vec<ModerationAction>>, ApiError> {
    let rows = app.hub.store().audit_log(LOG_LENGTH).await?;
    Ok(Json(
        rows.iter()
            .filter_map(|row| {
                Some(ModerationAction {
                    action: ActionView::of(row)?,
                    account: row.account_name.clone(),
                    account_id: row.account_id.clone(),
                    moderator: row.moderator_name.clone(),
                    report: row.report_id.clone(),
                })
            })
            .collect(),
    ))
}

/// What moderators did concerning the signed-in person, and the mute in force.
#[utoipa::path(
    get,
    path = "/api/account/standing",
    responses(
        (status = 200, body = MyStanding),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "moderation"
)]
pub async fn standing(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<MyStanding>, ApiError> {
    Ok(Json(standing_of(&app, &account.id).await?))
}

/// Account `account`'s standing as its person reads it.
pub(crate) async fn standing_of(app: &App, account: &str) -> Result<MyStanding, ApiError> {
    let store = app.hub.store();
    let actions: Vec<ActionView> = store
        .actions_about(account, HISTORY)
        .await?
        .iter()
        .filter(|a| a.action != "dismiss")
        .filter_map(ActionView::of)
        .collect();
    let now = now_ms();
    let standing = store.standing(account).await?;
    let in_force = |kind: ActionKind, until: Option<&(i64, String)>| {
        let (until, _) = until?;
        actions
            .iter()
            .find(|a| a.action == kind && (a.for_good || a.until == Some(*until)))
            .cloned()
    };
    Ok(MyStanding {
        muted: in_force(ActionKind::Mute, standing.muted_at(now)),
        suspended: in_force(ActionKind::Suspend, standing.suspended_at(now)),
        actions,
        moderator: store.is_moderator(account).await?,
    })
}
