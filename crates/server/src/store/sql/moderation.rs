//! [`ModerationStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::SqlStore;
use crate::store::moderation::{ActionRow, EvidenceRow, ModerationStore, ReportRow, Standing};
use crate::store::StoreError;

const REPORT_COLUMNS: &str = "reports.id, reports.reporter, reporters.name AS reporter_name, \
     reports.reported, reporteds.name AS reported_name, reports.reason, reports.details, \
     reports.game_id, reports.created, reports.state";
const REPORT_FROM: &str = "reports JOIN accounts reporters ON reporters.id = reports.reporter \
     JOIN accounts reporteds ON reporteds.id = reports.reported";
const ACTION_COLUMNS: &str = "moderation_actions.id, moderation_actions.account_id, \
     accounts.name AS account_name, moderation_actions.moderator, \
     moderation_actions.moderator_name, moderation_actions.action, moderation_actions.reason, \
     moderation_actions.until, moderation_actions.report_id, moderation_actions.created";
const ACTION_FROM: &str =
    "moderation_actions JOIN accounts ON accounts.id = moderation_actions.account_id";

fn report_of_row(row: &AnyRow) -> Result<ReportRow, StoreError> {
    Ok(ReportRow {
        id: row.try_get("id")?,
        reporter: row.try_get("reporter")?,
        reporter_name: row.try_get("reporter_name")?,
        reported: row.try_get("reported")?,
        reported_name: row.try_get("reported_name")?,
        reason: row.try_get("reason")?,
        details: row.try_get("details")?,
        game_id: row.try_get("game_id")?,
        created: row.try_get("created")?,
        state: row.try_get("state")?,
        evidence: Vec::new(),
    })
}

fn action_of_row(row: &AnyRow) -> Result<ActionRow, StoreError> {
    Ok(ActionRow {
        id: row.try_get("id")?,
        account_id: row.try_get("account_id")?,
        account_name: row.try_get("account_name")?,
        moderator: row.try_get("moderator")?,
        moderator_name: row.try_get("moderator_name")?,
        action: row.try_get("action")?,
        reason: row.try_get("reason")?,
        until: row.try_get("until")?,
        report_id: row.try_get("report_id")?,
        created: row.try_get("created")?,
    })
}

fn evidence_of_row(row: &AnyRow) -> Result<EvidenceRow, StoreError> {
    Ok(EvidenceRow {
        message_id: row.try_get("message_id")?,
        author: row.try_get("author")?,
        name: row.try_get("name")?,
        text: row.try_get("text")?,
        at: row.try_get("at")?,
    })
}

impl SqlStore {
    async fn with_evidence(&self, mut report: ReportRow) -> Result<ReportRow, StoreError> {
        report.evidence = sqlx::query(
            "SELECT message_id, author, name, text, at FROM report_messages \
             WHERE report_id = $1 ORDER BY message_id",
        )
        .bind(&report.id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(evidence_of_row)
        .collect::<Result<_, _>>()?;
        Ok(report)
    }
}

#[async_trait]
impl ModerationStore for SqlStore {
    async fn set_moderator(&self, account: &str, on: bool, now: i64) -> Result<bool, StoreError> {
        let changed = if on {
            sqlx::query(
                "INSERT INTO moderators (account_id, since) VALUES ($1, $2) \
                 ON CONFLICT (account_id) DO NOTHING",
            )
            .bind(account)
            .bind(now)
            .execute(&self.writes)
            .await?
        } else {
            sqlx::query("DELETE FROM moderators WHERE account_id = $1")
                .bind(account)
                .execute(&self.writes)
                .await?
        };
        Ok(changed.rows_affected() == 1)
    }

    async fn is_moderator(&self, account: &str) -> Result<bool, StoreError> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT since FROM moderators WHERE account_id = $1")
                .bind(account)
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.is_some())
    }

    async fn add_report(&self, report: &ReportRow) -> Result<(), StoreError> {
        let mut tx = self.writes.begin().await?;
        sqlx::query(
            "INSERT INTO reports \
             (id, reporter, reported, reason, details, game_id, created, state) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'open')",
        )
        .bind(&report.id)
        .bind(&report.reporter)
        .bind(&report.reported)
        .bind(&report.reason)
        .bind(&report.details)
        .bind(report.game_id.as_deref())
        .bind(report.created)
        .execute(&mut *tx)
        .await?;
        for message in &report.evidence {
            sqlx::query(
                "INSERT INTO report_messages (report_id, message_id, author, name, text, at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&report.id)
            .bind(message.message_id)
            .bind(&message.author)
            .bind(message.name.as_deref())
            .bind(&message.text)
            .bind(message.at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn report(&self, id: &str) -> Result<Option<ReportRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE reports.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(Some(self.with_evidence(report_of_row(&row)?).await?)),
            None => Ok(None),
        }
    }

    async fn reports_by(&self, reporter: &str, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE reports.reporter = $1 \
             ORDER BY reports.created DESC, reports.id LIMIT $2"
        ))
        .bind(reporter)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(report_of_row)
        .collect()
    }

    async fn open_reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE reports.state = 'open' \
             ORDER BY reports.created, reports.id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut reports = Vec::with_capacity(rows.len());
        for row in &rows {
            reports.push(self.with_evidence(report_of_row(row)?).await?);
        }
        Ok(reports)
    }

    async fn moderate(&self, action: &ActionRow) -> Result<bool, StoreError> {
        let mut tx = self.writes.begin().await?;
        if let Some(report) = &action.report_id {
            let state = if action.action == "dismiss" {
                "dismissed"
            } else {
                "acted"
            };
            let answered =
                sqlx::query("UPDATE reports SET state = $1 WHERE id = $2 AND state = 'open'")
                    .bind(state)
                    .bind(report)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            if answered != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        sqlx::query(
            "INSERT INTO moderation_actions (id, account_id, moderator, moderator_name, \
             action, reason, until, report_id, created) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&action.id)
        .bind(&action.account_id)
        .bind(&action.moderator)
        .bind(&action.moderator_name)
        .bind(&action.action)
        .bind(&action.reason)
        .bind(action.until)
        .bind(action.report_id.as_deref())
        .bind(action.created)
        .execute(&mut *tx)
        .await?;
        match action.action.as_str() {
            "mute" => {
                sqlx::query(
                    "UPDATE accounts SET muted_until = $1, muted_reason = $2 WHERE id = $3",
                )
                .bind(action.until)
                .bind(&action.reason)
                .bind(&action.account_id)
                .execute(&mut *tx)
                .await?;
            }
            "suspend" => {
                sqlx::query(
                    "UPDATE accounts SET suspended_until = $1, suspended_reason = $2 \
                     WHERE id = $3",
                )
                .bind(action.until)
                .bind(&action.reason)
                .bind(&action.account_id)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                    .bind(&action.account_id)
                    .execute(&mut *tx)
                    .await?;
            }
            _ => {}
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn standing(&self, account: &str) -> Result<Standing, StoreError> {
        let row = sqlx::query(
            "SELECT muted_until, muted_reason, suspended_until, suspended_reason \
             FROM accounts WHERE id = $1",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(Standing::default());
        };
        let pair = |until: &str, reason: &str| -> Result<Option<(i64, String)>, StoreError> {
            let until: Option<i64> = row.try_get(until)?;
            let reason: Option<String> = row.try_get(reason)?;
            Ok(until.map(|until| (until, reason.unwrap_or_default())))
        };
        Ok(Standing {
            muted: pair("muted_until", "muted_reason")?,
            suspended: pair("suspended_until", "suspended_reason")?,
        })
    }

    async fn actions_about(&self, account: &str, limit: u32) -> Result<Vec<ActionRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM} \
             WHERE moderation_actions.account_id = $1 \
             ORDER BY moderation_actions.created DESC, moderation_actions.id LIMIT $2"
        ))
        .bind(account)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(action_of_row)
        .collect()
    }

    async fn audit_log(&self, limit: u32) -> Result<Vec<ActionRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM} \
             ORDER BY moderation_actions.created DESC, moderation_actions.id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(action_of_row)
        .collect()
    }

    async fn recent_chat_of(
        &self,
        account: &str,
        limit: u32,
    ) -> Result<Vec<(String, EvidenceRow)>, StoreError> {
        sqlx::query(
            "SELECT game_id, id AS message_id, author, name, text, at FROM chat_messages \
             WHERE account_id = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(account)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("game_id")?, evidence_of_row(row)?)))
        .collect()
    }
}
