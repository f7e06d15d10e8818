//! [`SeekStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{insert_game, placeholders, SqlStore};
use crate::store::seeks::{SeekClaim, SeekRow, SeekSpec, SeekStore};
use crate::store::{GameRow, StoreError};

const COLUMNS: &str =
    "id, secret_hash, seat_hash, owner, account_id, name, rating, game, spec, created, \
     alive_until, game_id, seat";

fn seek_of_row(row: &AnyRow) -> Result<SeekRow, StoreError> {
    let spec: String = row.try_get("spec")?;
    let spec: SeekSpec = serde_json::from_str(&spec)
        .map_err(|e| StoreError::Corrupt(format!("a seek's settings: {e}")))?;
    let game_id: Option<String> = row.try_get("game_id")?;
    let seat: Option<i32> = row.try_get("seat")?;
    let matched = match (game_id, seat) {
        (Some(game), Some(seat)) => Some((
            game,
            u8::try_from(seat).map_err(|_| StoreError::Corrupt(format!("seek seat {seat}")))?,
        )),
        (None, None) => None,
        _ => return Err(StoreError::Corrupt("a seek's table without a seat".into())),
    };
    Ok(SeekRow {
        id: row.try_get("id")?,
        secret_hash: row.try_get("secret_hash")?,
        seat_hash: row.try_get("seat_hash")?,
        owner: row.try_get("owner")?,
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        rating: row.try_get("rating")?,
        game: row.try_get("game")?,
        spec,
        created: row.try_get("created")?,
        alive_until: row.try_get("alive_until")?,
        matched,
    })
}

#[async_trait]
impl SeekStore for SqlStore {
    async fn post_seek(&self, seek: &SeekRow) -> Result<(), StoreError> {
        let spec = serde_json::to_string(&seek.spec)
            .map_err(|e| StoreError::Corrupt(format!("a seek's settings: {e}")))?;
        sqlx::query(
            "INSERT INTO seeks (id, secret_hash, seat_hash, owner, account_id, name, rating, \
             game, spec, created, alive_until) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&seek.id)
        .bind(&seek.secret_hash)
        .bind(&seek.seat_hash)
        .bind(&seek.owner)
        .bind(seek.account_id.as_deref())
        .bind(&seek.name)
        .bind(seek.rating)
        .bind(&seek.game)
        .bind(spec)
        .bind(seek.created)
        .bind(seek.alive_until)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        sqlx::query(&format!("SELECT {COLUMNS} FROM seeks WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(seek_of_row)
            .transpose()
    }

    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} FROM seeks WHERE game_id IS NULL AND alive_until >= $1 \
             ORDER BY created, id"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(seek_of_row)
        .collect()
    }

    async fn open_seeks_of(&self, owner: &str, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} FROM seeks WHERE owner = $1 AND game_id IS NULL \
             AND alive_until >= $2 ORDER BY created, id"
        ))
        .bind(owner)
        .bind(now)
        .fetch_all(&self.writes)
        .await?
        .iter()
        .map(seek_of_row)
        .collect()
    }

    async fn withdraw_seek(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM seeks WHERE id = $1 AND game_id IS NULL")
            .bind(id)
            .execute(&self.writes)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn keep_seeks_alive(
        &self,
        ids: &[String],
        now: i64,
        until: i64,
    ) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let sql = format!(
            "UPDATE seeks SET alive_until = $1 WHERE game_id IS NULL AND alive_until >= $2 \
             AND alive_until < $1 AND id IN ({})",
            placeholders(3, ids.len())
        );
        let mut query = sqlx::query(&sql).bind(until).bind(now);
        for id in ids {
            query = query.bind(id);
        }
        query.execute(&self.writes).await?;
        Ok(())
    }

    async fn match_seeks(
        &self,
        game: &GameRow,
        claims: &[SeekClaim],
        now: i64,
    ) -> Result<(), StoreError> {
        // In the order of their ids, so that two transactions claiming overlapping seeks
        // take their row locks in one order (PostgreSQL) and never wait on each other.
        let mut claims: Vec<&SeekClaim> = claims.iter().collect();
        claims.sort_by(|a, b| a.seek.cmp(&b.seek));
        let mut tx = self.writes.begin().await?;
        // First the game, which the seeks then point at (a foreign key); a seek found
        // taken rolls it back with the rest.
        insert_game(game, None).execute(&mut *tx).await?;
        for claim in &claims {
            let taken = sqlx::query(
                "UPDATE seeks SET game_id = $1, seat = $2 \
                 WHERE id = $3 AND game_id IS NULL AND alive_until >= $4",
            )
            .bind(&game.id)
            .bind(i32::from(claim.seat))
            .bind(&claim.seek)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if taken.rows_affected() != 1 {
                // Dropping the transaction rolls it back.
                return Err(StoreError::Conflict);
            }
        }
        for claim in &claims {
            sqlx::query("DELETE FROM seeks WHERE owner = $1 AND game_id IS NULL")
                .bind(&claim.owner)
                .execute(&mut *tx)
                .await?;
            if let Some(account) = &claim.account_id {
                sqlx::query(
                    "INSERT INTO account_seats (game_id, seat, account_id) VALUES ($1, $2, $3)",
                )
                .bind(&game.id)
                .bind(i32::from(claim.seat))
                .bind(account)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn forget_seeks(&self, dead_before: i64, matched_before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "DELETE FROM seeks WHERE (game_id IS NULL AND alive_until < $1) \
             OR (game_id IS NOT NULL AND created < $2)",
        )
        .bind(dead_before)
        .bind(matched_before)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected())
    }
}
