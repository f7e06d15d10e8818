//! [`PresenceStore`] in the same SQL database as the games (migrations/postgres/0018).

use async_trait::async_trait;
use sqlx::Row;

use super::SqlStore;
use crate::store::presence::PresenceStore;
use crate::store::StoreError;

/// The stored `state` of a seat some tab of which is shown, and of one whose tabs are all
/// hidden.
const ONLINE: i16 = 2;
const AWAY: i16 = 1;

#[async_trait]
impl PresenceStore for SqlStore {
    async fn put_presence(
        &self,
        process: &str,
        game: &str,
        seat: u8,
        shown: Option<bool>,
        until: i64,
    ) -> Result<(), StoreError> {
        let query = match shown {
            None => sqlx::query(
                "DELETE FROM presence WHERE game_id = $1 AND seat = $2 AND process = $3",
            )
            .bind(game)
            .bind(i32::from(seat))
            .bind(process),
            Some(shown) => sqlx::query(
                "INSERT INTO presence (game_id, seat, process, state, until) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat, process) \
                 DO UPDATE SET state = excluded.state, until = excluded.until",
            )
            .bind(game)
            .bind(i32::from(seat))
            .bind(process)
            .bind(if shown { ONLINE } else { AWAY })
            .bind(until),
        };
        query.execute(&self.writes).await?;
        Ok(())
    }

    async fn renew_presence(&self, process: &str, until: i64, now: i64) -> Result<u64, StoreError> {
        let renewed = sqlx::query("UPDATE presence SET until = $1 WHERE process = $2")
            .bind(until)
            .bind(process)
            .execute(&self.writes)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM presence WHERE until < $1")
            .bind(now)
            .execute(&self.writes)
            .await?;
        Ok(renewed)
    }

    async fn presence_elsewhere(
        &self,
        game: &str,
        process: &str,
        now: i64,
    ) -> Result<Vec<(u8, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat, MAX(state) AS state FROM presence \
             WHERE game_id = $1 AND process <> $2 AND until >= $3 GROUP BY seat",
        )
        .bind(game)
        .bind(process)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: i32 = row.try_get("seat")?;
                let state: i16 = row.try_get("state")?;
                let seat = u8::try_from(seat)
                    .map_err(|_| StoreError::Corrupt(format!("presence seat {seat}")))?;
                Ok((seat, state == ONLINE))
            })
            .collect()
    }

    async fn release_presence(&self, process: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM presence WHERE process = $1")
            .bind(process)
            .execute(&self.writes)
            .await?;
        Ok(())
    }
}
