//! [`SettingsStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::SqlStore;
use crate::store::settings::{SettingsRow, SettingsStore};
use crate::store::StoreError;

#[async_trait]
impl SettingsStore for SqlStore {
    async fn settings(&self, account_id: &str) -> Result<SettingsRow, StoreError> {
        let row = sqlx::query(
            "SELECT languages, email, turn_mail, unsubscribe_key FROM account_settings \
             WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(SettingsRow::default());
        };
        let turn_mail: i32 = row.try_get("turn_mail")?;
        Ok(SettingsRow {
            languages: languages_of(&row)?,
            email: row.try_get("email")?,
            turn_mail: turn_mail != 0,
            unsubscribe_key: row.try_get("unsubscribe_key")?,
        })
    }

    async fn put_settings(
        &self,
        account_id: &str,
        settings: &SettingsRow,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO account_settings \
             (account_id, languages, email, turn_mail, unsubscribe_key) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (account_id) DO UPDATE SET languages = excluded.languages, \
             email = excluded.email, turn_mail = excluded.turn_mail",
        )
        .bind(account_id)
        .bind(settings.languages.join(","))
        .bind(settings.email.as_deref())
        .bind(i32::from(settings.turn_mail))
        .bind(&settings.unsubscribe_key)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn claim_turn_mail(
        &self,
        game_id: &str,
        account_id: &str,
        now: i64,
        gap_ms: i64,
    ) -> Result<bool, StoreError> {
        let claimed = sqlx::query(
            "INSERT INTO turn_mails (game_id, account_id, sent) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, account_id) DO UPDATE SET sent = excluded.sent \
             WHERE turn_mails.sent <= $4",
        )
        .bind(game_id)
        .bind(account_id)
        .bind(now)
        .bind(now - gap_ms)
        .execute(&self.writes)
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    async fn release_turn_mail(
        &self,
        game_id: &str,
        account_id: &str,
        sent: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM turn_mails WHERE game_id = $1 AND account_id = $2 AND sent = $3")
            .bind(game_id)
            .bind(account_id)
            .bind(sent)
            .execute(&self.writes)
            .await?;
        Ok(())
    }

    async fn key_languages(&self, key: &str) -> Result<Option<Vec<String>>, StoreError> {
        let row = sqlx::query("SELECT languages FROM account_settings WHERE unsubscribe_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| languages_of(&row)).transpose()
    }

    async fn unsubscribe(&self, key: &str) -> Result<Option<Vec<String>>, StoreError> {
        let row = sqlx::query(
            "UPDATE account_settings SET turn_mail = 0 WHERE unsubscribe_key = $1 \
             RETURNING languages",
        )
        .bind(key)
        .fetch_optional(&self.writes)
        .await?;
        row.map(|row| languages_of(&row)).transpose()
    }
}

/// The `languages` column: tags, comma-separated.
pub(super) fn languages_of(row: &AnyRow) -> Result<Vec<String>, StoreError> {
    let languages: String = row.try_get("languages")?;
    Ok(languages
        .split(',')
        .filter(|tag| !tag.is_empty())
        .map(str::to_owned)
        .collect())
}
