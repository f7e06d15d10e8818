//! [`PasskeyStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, Row};

use super::SqlStore;
use crate::store::passkeys::{
    CeremonyRow, PasskeyListed, PasskeyRemoval, PasskeyRow, PasskeyStore,
};
use crate::store::{AccountRow, NameKeys, StoreError};

const PASSKEY_COLUMNS: &str = "credential_id, account_id, user_handle, passkey, created";

fn passkey_of_row(row: &AnyRow) -> Result<PasskeyRow, StoreError> {
    Ok(PasskeyRow {
        credential_id: row.try_get("credential_id")?,
        account_id: row.try_get("account_id")?,
        user_handle: row.try_get("user_handle")?,
        passkey: row.try_get("passkey")?,
        created: row.try_get("created")?,
    })
}

/// The statement that stores `passkey`.
fn insert_passkey(passkey: &PasskeyRow) -> Query<'_, Any, AnyArguments<'_>> {
    sqlx::query(
        "INSERT INTO passkeys (credential_id, account_id, user_handle, passkey, created) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&passkey.credential_id)
    .bind(&passkey.account_id)
    .bind(&passkey.user_handle)
    .bind(&passkey.passkey)
    .bind(passkey.created)
}

#[async_trait]
impl PasskeyStore for SqlStore {
    async fn put_ceremony(&self, ceremony: &CeremonyRow, now: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM passkey_ceremonies WHERE expires < $1")
            .bind(now)
            .execute(&self.writes)
            .await?;
        sqlx::query(
            "INSERT INTO passkey_ceremonies \
             (id, kind, account_id, name, user_handle, state, expires) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&ceremony.id)
        .bind(&ceremony.kind)
        .bind(ceremony.account_id.as_deref())
        .bind(ceremony.name.as_deref())
        .bind(ceremony.user_handle.as_deref())
        .bind(&ceremony.state)
        .bind(ceremony.expires)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn take_ceremony(&self, id: &str, now: i64) -> Result<Option<CeremonyRow>, StoreError> {
        let row = sqlx::query(
            "DELETE FROM passkey_ceremonies WHERE id = $1 \
             RETURNING id, kind, account_id, name, user_handle, state, expires",
        )
        .bind(id)
        .fetch_optional(&self.writes)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let ceremony = CeremonyRow {
            id: row.try_get("id")?,
            kind: row.try_get("kind")?,
            account_id: row.try_get("account_id")?,
            name: row.try_get("name")?,
            user_handle: row.try_get("user_handle")?,
            state: row.try_get("state")?,
            expires: row.try_get("expires")?,
        };
        Ok(Some(ceremony).filter(|c| c.expires >= now))
    }

    async fn user_handle(&self, account_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT user_handle FROM passkeys WHERE account_id = $1 LIMIT 1")
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| row.try_get("user_handle"))
            .transpose()
            .map_err(Into::into)
    }

    async fn passkey_ids(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        sqlx::query("SELECT credential_id FROM passkeys WHERE account_id = $1 ORDER BY created")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.try_get("credential_id").map_err(Into::into))
            .collect()
    }

    async fn passkeys_of(&self, account_id: &str) -> Result<Vec<PasskeyListed>, StoreError> {
        sqlx::query(
            "SELECT credential_id, created, used FROM passkeys WHERE account_id = $1 \
             ORDER BY created, credential_id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| {
            Ok(PasskeyListed {
                credential_id: row.try_get("credential_id")?,
                created: row.try_get("created")?,
                used: row.try_get("used")?,
            })
        })
        .collect()
    }

    async fn remove_passkey(
        &self,
        account_id: &str,
        credential_id: &str,
    ) -> Result<PasskeyRemoval, StoreError> {
        // The account's row is locked first (a no-op update, in both databases), so that
        // two removals at once are one after the other: the second sees the first's
        // removal and never leaves the account with no way in.
        let mut tx = self.writes.begin().await?;
        sqlx::query("UPDATE accounts SET id = id WHERE id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let removed = sqlx::query(
            "DELETE FROM passkeys WHERE account_id = $1 AND credential_id = $2 AND (\
             EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND password_hash IS NOT NULL) \
             OR (SELECT COUNT(*) FROM passkeys WHERE account_id = $1) > 1)",
        )
        .bind(account_id)
        .bind(credential_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        if removed.rows_affected() == 1 {
            return Ok(PasskeyRemoval::Removed);
        }
        let kept =
            sqlx::query("SELECT 1 FROM passkeys WHERE account_id = $1 AND credential_id = $2")
                .bind(account_id)
                .bind(credential_id)
                .fetch_optional(&self.writes)
                .await?;
        Ok(match kept {
            Some(_) => PasskeyRemoval::LastWayIn,
            None => PasskeyRemoval::Unknown,
        })
    }

    async fn add_passkey(&self, passkey: &PasskeyRow) -> Result<(), StoreError> {
        insert_passkey(passkey).execute(&self.writes).await?;
        Ok(())
    }

    async fn create_account_with_passkey(
        &self,
        account: &AccountRow,
        names: &NameKeys,
        passkey: &PasskeyRow,
    ) -> Result<bool, StoreError> {
        let mut tx = self.writes.begin().await?;
        let created = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, created) \
             VALUES ($1, $2, $3, $4, NULL, $5) ON CONFLICT DO NOTHING",
        )
        .bind(&account.id)
        .bind(&account.name)
        .bind(&names.key)
        .bind(&names.skeleton)
        .bind(account.created)
        .execute(&mut *tx)
        .await?;
        if created.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        insert_passkey(passkey).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn passkey(&self, credential_id: &str) -> Result<Option<PasskeyRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1"
        ))
        .bind(credential_id)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(passkey_of_row)
        .transpose()
    }

    async fn passkey_used(
        &self,
        credential_id: &str,
        passkey: &str,
        used: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE passkeys SET passkey = $2, used = $3 WHERE credential_id = $1")
            .bind(credential_id)
            .bind(passkey)
            .bind(used)
            .execute(&self.writes)
            .await?;
        Ok(())
    }
}
