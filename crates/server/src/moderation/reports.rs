//! `POST /api/reports`: a signed-in person reports an account, with a reason from a short
//! list, free text, and optionally a table and chat messages of it, whose text is kept as
//! evidence as it was. `GET /api/reports/mine`: their reports and each one's state.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::named_account;
use crate::accounts::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::protocol::ErrorBody;
use crate::store::{AccountRow, EvidenceRow, ReportRow};
use crate::time::now_ms;
use crate::tokens;

/// The most characters of a report's free text.
pub const MAX_REPORT_CHARS: usize = 2000;
/// The most chat messages one report points at.
pub const MAX_EVIDENCE: usize = 20;
/// The most of a person's own reports listed.
const MINE_LISTED: u32 = 100;

/// Why an account is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Insults, threats, harassment in chat.
    Abuse,
    /// Cheating, or playing several seats of one table.
    Cheating,
    /// Advertising or flooding.
    Spam,
    /// An offensive name.
    Name,
    /// Leaving games or letting the clock run out on purpose.
    Leaving,
    Other,
}

impl ReportReason {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            ReportReason::Abuse => "abuse",
            ReportReason::Cheating => "cheating",
            ReportReason::Spam => "spam",
            ReportReason::Name => "name",
            ReportReason::Leaving => "leaving",
            ReportReason::Other => "other",
        }
    }

    pub(super) fn parse(text: &str) -> Option<ReportReason> {
        [
            ReportReason::Abuse,
            ReportReason::Cheating,
            ReportReason::Spam,
            ReportReason::Name,
            ReportReason::Leaving,
            ReportReason::Other,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

/// A report of the account named `name`, or (without a name) of the account that wrote
/// the chat messages pointed at.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    pub reason: ReportReason,
    /// What happened, in the reporter's words (at most 2,000 characters).
    #[serde(default)]
    #[ts(optional)]
    pub text: Option<String>,
    /// The table it happened at.
    #[serde(default)]
    #[ts(optional)]
    pub game: Option<String>,
    /// Chat messages of that table (their ids), at most 20.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<f64>>")]
    pub messages: Option<Vec<i64>>,
}

#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ReportFiled {
    pub id: String,
}

/// Where a report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ReportState {
    /// Waiting for a moderator.
    Open,
    /// A moderator found nothing to act on.
    Dismissed,
    /// A moderator acted on it.
    Acted,
}

impl ReportState {
    pub(super) fn parse(text: &str) -> ReportState {
        match text {
            "dismissed" => ReportState::Dismissed,
            "acted" => ReportState::Acted,
            _ => ReportState::Open,
        }
    }
}

/// A chat message a report points at, as it was when reported.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Evidence {
    #[ts(type = "number")]
    pub id: i64,
    /// The writer's name at the table (`null`: a spectator not signed in).
    pub name: Option<String>,
    pub text: String,
    #[ts(type = "number")]
    pub at: i64,
}

impl From<&EvidenceRow> for Evidence {
    fn from(row: &EvidenceRow) -> Self {
        Evidence {
            id: row.message_id,
            name: row.name.clone(),
            text: row.text.clone(),
            at: row.at,
        }
    }
}

/// One of the person's own reports.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct MyReport {
    pub id: String,
    /// Whom it reports.
    pub name: String,
    pub reason: ReportReason,
    pub game: Option<String>,
    #[ts(type = "number")]
    pub at: i64,
    pub state: ReportState,
}

/// Reports the account named `name`; the moderators read it. Rate-limited per reporter.
#[utoipa::path(
    post,
    path = "/api/reports",
    request_body = NewReport,
    responses(
        (status = 201, body = ReportFiled),
        (status = 400, body = ErrorBody, description = "malformed: no reason, oneself, text too long, messages without a table or of another table"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 404, body = ErrorBody, description = "not_found: no account of that name, or no such table"),
        (status = 429, body = ErrorBody, description = "rate_limited: reports faster than a person writes them")
    ),
    tag = "moderation"
)]
pub async fn file(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    request: Result<JsonBody<NewReport>, ApiError>,
) -> Result<(StatusCode, Json<ReportFiled>), ApiError> {
    let request = request?.0;
    let details = request.text.unwrap_or_default().trim().to_string();
    if details.chars().count() > MAX_REPORT_CHARS {
        return Err(ApiError::malformed(format!(
            "a report's text has at most {MAX_REPORT_CHARS} characters"
        )));
    }
    let ids = request.messages.unwrap_or_default();
    if ids.len() > MAX_EVIDENCE {
        return Err(ApiError::malformed(format!(
            "a report points at {MAX_EVIDENCE} messages at most"
        )));
    }
    // The messages' writers' accounts, in the order pointed at (a guest's has none).
    let mut writers: Vec<String> = Vec::new();
    let evidence = match (&request.game, ids.is_empty()) {
        (None, false) => {
            return Err(ApiError::malformed(
                "name the table the messages were written at",
            ))
        }
        (None, true) => Vec::new(),
        (Some(game), _) => {
            // The table exists (`not_found` otherwise), and each message is one of its own.
            app.hub.table(game).await?;
            let mut evidence = Vec::with_capacity(ids.len());
            for id in ids {
                let message = app
                    .hub
                    .store()
                    .chat_message(game, id)
                    .await?
                    .ok_or_else(|| {
                        ApiError::malformed(format!("message {id} is not one of this table's"))
                    })?;
                if let Some(writer) = &message.account {
                    writers.push(writer.clone());
                }
                evidence.push(EvidenceRow {
                    message_id: message.id,
                    author: message.author,
                    name: message.name,
                    text: message.text,
                    at: message.at,
                });
            }
            evidence.sort_by_key(|m| m.message_id);
            evidence.dedup_by_key(|m| m.message_id);
            evidence
        }
    };
    let reported = reported_account(&app, request.name.as_deref(), &writers).await?;
    if reported.id == account.id {
        return Err(ApiError::malformed("you cannot report yourself"));
    }
    // Counted once the report is whole: a refused one costs nothing.
    app.accounts.reports.check(&account.id)?;
    let report = ReportRow {
        id: tokens::new_game_id(),
        reporter: account.id.clone(),
        reporter_name: account.name.clone(),
        reported: reported.id.clone(),
        reported_name: reported.name.clone(),
        reason: request.reason.as_str().to_string(),
        details,
        game_id: request.game,
        created: now_ms(),
        state: "open".into(),
        evidence,
    };
    app.hub.store().add_report(&report).await?;
    metrics::counter!("tabletop_reports_total").increment(1);
    Ok((StatusCode::CREATED, Json(ReportFiled { id: report.id })))
}

/// The account a report is about: the one named, which must have written every message
/// pointed at that was written signed in; without a name, the one account that wrote
/// them.
async fn reported_account(
    app: &App,
    name: Option<&str>,
    writers: &[String],
) -> Result<AccountRow, ApiError> {
    let account = match name {
        Some(name) => named_account(app, name).await?,
        None => {
            let Some(writer) = writers.first() else {
                return Err(ApiError::malformed(
                    "name the account (messages a guest wrote name none)",
                ));
            };
            app.hub.store().account(writer).await?.ok_or_else(|| {
                ApiError::not_found("the messages' writer has no account any more")
            })?
        }
    };
    if writers.iter().any(|w| *w != account.id) {
        return Err(ApiError::malformed(format!(
            "a message pointed at was not written by {}",
            account.name
        )));
    }
    Ok(account)
}

/// The person's own reports, newest first, with where each stands.
#[utoipa::path(
    get,
    path = "/api/reports/mine",
    responses(
        (status = 200, body = Vec<MyReport>),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "moderation"
)]
pub async fn mine(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<Vec<MyReport>>, ApiError> {
    let rows = app.hub.store().reports_by(&account.id, MINE_LISTED).await?;
    Ok(Json(
        rows.iter()
            .map(|r| MyReport {
                id: r.id.clone(),
                name: r.reported_name.clone(),
                reason: ReportReason::parse(&r.reason).unwrap_or(ReportReason::Other),
                game: r.game_id.clone(),
                at: r.created,
                state: ReportState::parse(&r.state),
            })
            .collect(),
    ))
}
