//! What the server keeps of moderation ([`crate::moderation`]): moderators, reports with
//! their evidence, the moderators' actions (the audit log) and each account's standing.

use async_trait::async_trait;

use super::StoreError;

/// A chat message a report points at, as it was when the report was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceRow {
    pub message_id: i64,
    pub author: String,
    pub name: Option<String>,
    pub text: String,
    pub at: i64,
}

/// A report of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    pub id: String,
    pub reporter: String,
    pub reporter_name: String,
    pub reported: String,
    pub reported_name: String,
    /// [`crate::moderation::ReportReason`]'s name.
    pub reason: String,
    pub details: String,
    pub game_id: Option<String>,
    pub created: i64,
    /// `open`, `dismissed` or `acted`.
    pub state: String,
    pub evidence: Vec<EvidenceRow>,
}

/// One moderator's action, as the audit log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    pub id: String,
    /// The account it concerns.
    pub account_id: String,
    pub account_name: String,
    pub moderator: String,
    pub moderator_name: String,
    /// `dismiss`, `warn`, `mute` or `suspend`.
    pub action: String,
    pub reason: String,
    /// When a mute or suspension ends ([`FOR_GOOD`]: never).
    pub until: Option<i64>,
    pub report_id: Option<String>,
    pub created: i64,
}

/// The `until` of a suspension for good.
pub const FOR_GOOD: i64 = i64::MAX;

/// How long a mute or suspension ending at `until` lasts, as server text says it:
/// `until 2026-12-08 10:00 UTC`, or `for good`.
pub fn lasting(until: i64) -> String {
    match until {
        FOR_GOOD => "for good".to_string(),
        until => format!("until {}", crate::time::utc_text(until)),
    }
}

/// Whether an account's chat is muted or its play suspended, until when and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    pub muted: Option<(i64, String)>,
    pub suspended: Option<(i64, String)>,
}

impl Standing {
    /// The mute in force at `now`.
    pub fn muted_at(&self, now: i64) -> Option<&(i64, String)> {
        self.muted.as_ref().filter(|(until, _)| *until > now)
    }

    /// The suspension in force at `now`.
    pub fn suspended_at(&self, now: i64) -> Option<&(i64, String)> {
        self.suspended.as_ref().filter(|(until, _)| *until > now)
    }
}

/// The storage of moderation.
#[async_trait]
pub trait ModerationStore: Send + Sync {
    /// Makes `account` a moderator (`true`) or no longer one: whether that changed it.
    async fn set_moderator(&self, account: &str, on: bool, now: i64) -> Result<bool, StoreError>;
    async fn is_moderator(&self, account: &str) -> Result<bool, StoreError>;
    /// Stores a new report (its names and state are ignored: it is open) with its evidence.
    async fn add_report(&self, report: &ReportRow) -> Result<(), StoreError>;
    /// One report, with its evidence.
    async fn report(&self, id: &str) -> Result<Option<ReportRow>, StoreError>;
    /// The reports `reporter` made, newest first, at most `limit` (without evidence).
    async fn reports_by(&self, reporter: &str, limit: u32) -> Result<Vec<ReportRow>, StoreError>;
    /// The open reports, oldest first, at most `limit`, with their evidence.
    async fn open_reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError>;
    /// Stores a moderator's action, in one transaction with what it does: a mute or a
    /// suspension sets the account's standing (a suspension ends every session of the
    /// account too), and the report it answers (if any, and still open) is `dismissed` or
    /// `acted`. `false`, storing nothing, when that report is no longer open.
    async fn moderate(&self, action: &ActionRow) -> Result<bool, StoreError>;
    /// The account's standing.
    async fn standing(&self, account: &str) -> Result<Standing, StoreError>;
    /// The actions concerning `account`, newest first, at most `limit`.
    async fn actions_about(&self, account: &str, limit: u32) -> Result<Vec<ActionRow>, StoreError>;
    /// The audit log: every action, newest first, at most `limit`.
    async fn audit_log(&self, limit: u32) -> Result<Vec<ActionRow>, StoreError>;
    /// The account's newest chat messages (written signed in) at every table, as (game,
    /// message author, name, text, at), newest first, at most `limit`.
    async fn recent_chat_of(
        &self,
        account: &str,
        limit: u32,
    ) -> Result<Vec<(String, EvidenceRow)>, StoreError>;
}
