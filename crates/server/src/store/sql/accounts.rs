//! [`AccountStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::SqlStore;
use crate::store::accounts::{AccountRow, AccountStore, SessionRow};
use crate::store::StoreError;

const ACCOUNT_COLUMNS: &str =
    "accounts.id, accounts.name, accounts.password_hash, accounts.created";

fn account_row(row: &AnyRow) -> Result<AccountRow, StoreError> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created: row.try_get("created")?,
    })
}

#[async_trait]
impl AccountStore for SqlStore {
    async fn create_account(
        &self,
        account: &AccountRow,
        name_key: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, created) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING",
        )
        .bind(&account.id)
        .bind(&account.name)
        .bind(name_key)
        .bind(account.password_hash.as_deref())
        .bind(account.created)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn account_named(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1"
        ))
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND expires <= $2")
            .bind(&session.account_id)
            .bind(session.created)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, account_id, created, expires) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(&session.token_hash)
        .bind(&session.account_id)
        .bind(session.created)
        .bind(session.expires)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn session_account(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<AccountRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM sessions JOIN accounts ON accounts.id = \
             sessions.account_id WHERE sessions.token_hash = $1 AND sessions.expires > $2"
        ))
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.writes)
            .await?;
        Ok(())
    }

    async fn end_sessions_of(&self, account_id: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&self.writes)
            .await?;
        Ok(done.rows_affected())
    }
}
