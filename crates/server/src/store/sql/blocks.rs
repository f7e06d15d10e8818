//! [`BlockStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::Row;

use super::{placeholders, SqlStore};
use crate::store::blocks::{BlockRow, BlockStore};
use crate::store::StoreError;

#[async_trait]
impl BlockStore for SqlStore {
    async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.writes.begin().await?;
        let added = sqlx::query(
            "INSERT INTO blocks (blocker, blocked, created) VALUES ($1, $2, $3) \
             ON CONFLICT (blocker, blocked) DO NOTHING",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        sqlx::query(
            "DELETE FROM friendships \
             WHERE (asker = $1 AND asked = $2) OR (asker = $2 AND asked = $1)",
        )
        .bind(blocker)
        .bind(blocked)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(added == 1)
    }

    async fn unblock(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        let removed = sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .execute(&self.writes)
            .await?
            .rows_affected();
        Ok(removed == 1)
    }

    async fn has_blocked(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT created FROM blocks WHERE blocker = $1 AND blocked = $2")
                .bind(blocker)
                .bind(blocked)
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.is_some())
    }

    async fn blocks_of(&self, blocker: &str) -> Result<Vec<BlockRow>, StoreError> {
        sqlx::query(
            "SELECT accounts.id, accounts.name, blocks.created FROM blocks \
             JOIN accounts ON accounts.id = blocks.blocked \
             WHERE blocks.blocker = $1 ORDER BY accounts.name",
        )
        .bind(blocker)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| {
            Ok(BlockRow {
                account_id: row.try_get("id")?,
                name: row.try_get("name")?,
                created: row.try_get("created")?,
            })
        })
        .collect()
    }

    async fn kept_apart(&self, account: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT blocked FROM blocks WHERE blocker = $1 \
             UNION SELECT blocker FROM blocks WHERE blocked = $1",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn apart_at_game(&self, account: &str, game: &str) -> Result<bool, StoreError> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT blocks.created FROM blocks JOIN account_seats \
             ON account_seats.game_id = $2 AND ( \
                 (blocks.blocker = $1 AND blocks.blocked = account_seats.account_id) \
                 OR (blocks.blocked = $1 AND blocks.blocker = account_seats.account_id)) \
             LIMIT 1",
        )
        .bind(account)
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    async fn apart_among(&self, accounts: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        if accounts.is_empty() {
            return Ok(Vec::new());
        }
        let n = accounts.len();
        let sql = format!(
            "SELECT blocker, blocked FROM blocks WHERE blocker IN ({}) AND blocked IN ({})",
            placeholders(1, n),
            placeholders(n + 1, n)
        );
        let mut query = sqlx::query(&sql);
        for account in accounts.iter().chain(accounts) {
            query = query.bind(account);
        }
        query
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| Ok((row.try_get("blocker")?, row.try_get("blocked")?)))
            .collect()
    }
}
