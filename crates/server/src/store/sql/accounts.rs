//! [`AccountStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{parse_json, seats_json, SqlStore};
use crate::store::accounts::{AccountRow, AccountStore, NameKeys, SessionRow};
use crate::store::{SeatRecord, StoreError, FORMER_PLAYER};

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

fn seat_of_row(row: &AnyRow) -> Result<u8, StoreError> {
    let seat: i32 = row.try_get("seat")?;
    u8::try_from(seat).map_err(|_| StoreError::Corrupt(format!("seat {seat} of an account")))
}

#[async_trait]
impl AccountStore for SqlStore {
    async fn create_account(
        &self,
        account: &AccountRow,
        names: &NameKeys,
    ) -> Result<bool, StoreError> {
        // No conflict target: a clash on the key or on the skeleton stores nothing.
        let done = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, created) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
        )
        .bind(&account.id)
        .bind(&account.name)
        .bind(&names.key)
        .bind(&names.skeleton)
        .bind(account.password_hash.as_deref())
        .bind(account.created)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn account_like(&self, skeleton: &str) -> Result<Option<AccountRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_skeleton = $1"
        ))
        .bind(skeleton)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
    }

    async fn accounts_without_skeleton(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT id, name FROM accounts WHERE name_skeleton IS NULL")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("name")?)))
            .collect()
    }

    async fn set_name_skeleton(&self, id: &str, skeleton: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE accounts SET name_skeleton = $2 WHERE id = $1 AND name_skeleton IS NULL \
             AND NOT EXISTS (SELECT 1 FROM accounts WHERE name_skeleton = $2)",
        )
        .bind(id)
        .bind(skeleton)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn account(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
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

    async fn claim_seat(
        &self,
        account_id: &str,
        game_id: &str,
        seat: u8,
    ) -> Result<bool, StoreError> {
        sqlx::query(
            "INSERT INTO account_seats (game_id, seat, account_id) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, seat) DO NOTHING",
        )
        .bind(game_id)
        .bind(i32::from(seat))
        .bind(account_id)
        .execute(&self.writes)
        .await?;
        let owner =
            sqlx::query("SELECT account_id FROM account_seats WHERE game_id = $1 AND seat = $2")
                .bind(game_id)
                .bind(i32::from(seat))
                .fetch_optional(&self.writes)
                .await?;
        Ok(match owner {
            Some(row) => row.try_get::<String, _>("account_id")? == account_id,
            None => false,
        })
    }

    async fn seats_at(&self, account_id: &str, game_id: &str) -> Result<Vec<u8>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat FROM account_seats WHERE account_id = $1 AND game_id = $2 ORDER BY seat",
        )
        .bind(account_id)
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_of_row).collect()
    }

    async fn seats_of(
        &self,
        account_id: &str,
        limit: u32,
    ) -> Result<Vec<(String, u8)>, StoreError> {
        let rows = sqlx::query(
            "SELECT account_seats.game_id, account_seats.seat FROM account_seats \
             JOIN games ON games.id = account_seats.game_id WHERE account_seats.account_id = $1 \
             ORDER BY games.created DESC, games.id DESC, account_seats.seat LIMIT $2",
        )
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("game_id")?, seat_of_row(row)?)))
            .collect()
    }

    async fn delete_account(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        let mut tx = self.writes.begin().await?;
        let rows = sqlx::query(
            "SELECT games.id, games.seats, account_seats.seat FROM account_seats \
             JOIN games ON games.id = account_seats.game_id \
             WHERE account_seats.account_id = $1 AND games.status NOT IN ('open', 'running') \
             ORDER BY games.id",
        )
        .bind(account_id)
        .fetch_all(&mut *tx)
        .await?;
        let mut changed: Vec<(String, Vec<SeatRecord>)> = Vec::new();
        for row in &rows {
            let id: String = row.try_get("id")?;
            if changed.last().is_none_or(|(last, _)| *last != id) {
                let seats: String = row.try_get("seats")?;
                changed.push((id, parse_json("seats", &seats)?));
            }
            let seat = usize::from(seat_of_row(row)?);
            if let Some(record) = changed
                .last_mut()
                .and_then(|(_, seats)| seats.get_mut(seat))
            {
                record.name = Some(FORMER_PLAYER.to_string());
                record.former = true;
            }
        }
        for (id, seats) in &changed {
            // The status stays; the version moves, so a change in flight is a conflict.
            sqlx::query("UPDATE games SET seats = $1, version = version + 1 WHERE id = $2")
                .bind(seats_json(seats))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM notifications WHERE recipient = $1")
            .bind(format!("account-{account_id}"))
            .execute(&mut *tx)
            .await?;
        // Sessions, seats' ownership and ratings go with it (ON DELETE CASCADE).
        sqlx::query("DELETE FROM accounts WHERE id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(changed.into_iter().map(|(id, _)| id).collect())
    }

    async fn end_sessions_of(&self, account_id: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&self.writes)
            .await?;
        Ok(done.rows_affected())
    }
}
