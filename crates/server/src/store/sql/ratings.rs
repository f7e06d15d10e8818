//! [`RatingStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::settings::languages_of;
use super::{placeholders, SqlStore};
use crate::store::ratings::{RatingRow, RatingStore, SeatedAccount};
use crate::store::StoreError;

fn rating_of_row(row: &AnyRow) -> Result<RatingRow, StoreError> {
    let games: i64 = row.try_get("games")?;
    Ok(RatingRow {
        account_id: row.try_get("account_id")?,
        game: row.try_get("game")?,
        mu: row.try_get("mu")?,
        sigma: row.try_get("sigma")?,
        games: u32::try_from(games).map_err(|_| StoreError::Corrupt(format!("{games} games")))?,
    })
}

#[async_trait]
impl RatingStore for SqlStore {
    async fn seat_owners(&self, game_id: &str) -> Result<Vec<(u8, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat, account_id FROM account_seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: i32 = row.try_get("seat")?;
                let seat = u8::try_from(seat)
                    .map_err(|_| StoreError::Corrupt(format!("seat {seat} of an account")))?;
                Ok((seat, row.try_get("account_id")?))
            })
            .collect()
    }

    async fn seated_accounts(&self, game_ids: &[String]) -> Result<Vec<SeatedAccount>, StoreError> {
        if game_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT s.game_id, s.seat, r.mu, r.sigma, COALESCE(a.languages, '') AS languages \
             FROM account_seats s JOIN games g ON g.id = s.game_id \
             LEFT JOIN ratings r ON r.account_id = s.account_id AND r.game = g.game \
             LEFT JOIN account_settings a ON a.account_id = s.account_id \
             WHERE s.game_id IN ({})",
            placeholders(1, game_ids.len())
        );
        let mut query = sqlx::query(&sql);
        for id in game_ids {
            query = query.bind(id.as_str());
        }
        query
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| {
                let seat: i32 = row.try_get("seat")?;
                let seat = u8::try_from(seat)
                    .map_err(|_| StoreError::Corrupt(format!("seat {seat} of an account")))?;
                let mu: Option<f64> = row.try_get("mu")?;
                let sigma: Option<f64> = row.try_get("sigma")?;
                Ok(SeatedAccount {
                    game_id: row.try_get("game_id")?,
                    seat,
                    rating: mu.zip(sigma),
                    languages: languages_of(row)?,
                })
            })
            .collect()
    }

    async fn ratings_in(
        &self,
        game: &str,
        accounts: &[String],
    ) -> Result<Vec<RatingRow>, StoreError> {
        let mut ratings = Vec::new();
        for account in accounts {
            let row = sqlx::query(
                "SELECT account_id, game, mu, sigma, games FROM ratings \
                 WHERE account_id = $1 AND game = $2",
            )
            .bind(account)
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = row {
                ratings.push(rating_of_row(&row)?);
            }
        }
        Ok(ratings)
    }

    async fn ratings_of(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        sqlx::query(
            "SELECT account_id, game, mu, sigma, games FROM ratings WHERE account_id = $1 \
             ORDER BY games DESC, game",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rating_of_row)
        .collect()
    }

    async fn rate_game(
        &self,
        game_id: &str,
        ratings: &[RatingRow],
        at: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.writes.begin().await?;
        let first = sqlx::query(
            "INSERT INTO rated_games (game_id, at) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        if first.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for rating in ratings {
            let games = i64::from(rating.games);
            // Compare-and-set on the games count: a rating another game's end changed
            // since it was read is not overwritten.
            let done = if rating.games <= 1 {
                sqlx::query(
                    "INSERT INTO ratings (account_id, game, mu, sigma, games, updated) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, game) DO NOTHING",
                )
            } else {
                sqlx::query(
                    "UPDATE ratings SET mu = $3, sigma = $4, games = $5, updated = $6 \
                     WHERE account_id = $1 AND game = $2 AND games = $5 - 1",
                )
            }
            .bind(&rating.account_id)
            .bind(&rating.game)
            .bind(rating.mu)
            .bind(rating.sigma)
            .bind(games)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Err(StoreError::Conflict);
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn mark_unrated(&self, game_id: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO rated_games (game_id, at, rated) VALUES ($1, $2, 0) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(at)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn unrated_games(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT games.id FROM games WHERE games.status = 'over' \
             AND NOT EXISTS (SELECT 1 FROM rated_games WHERE rated_games.game_id = games.id) \
             AND (SELECT COUNT(DISTINCT account_id) FROM account_seats \
                  WHERE account_seats.game_id = games.id) >= 2 \
             ORDER BY games.created LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| row.try_get("id").map_err(StoreError::from))
            .collect()
    }

    async fn leaderboard(
        &self,
        game: &str,
        limit: u32,
    ) -> Result<Vec<(RatingRow, String)>, StoreError> {
        sqlx::query(
            "SELECT ratings.account_id, ratings.game, ratings.mu, ratings.sigma, ratings.games, \
             accounts.name FROM ratings JOIN accounts ON accounts.id = ratings.account_id \
             WHERE ratings.game = $1 \
             ORDER BY ratings.mu - 2 * ratings.sigma DESC, accounts.name LIMIT $2",
        )
        .bind(game)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| Ok((rating_of_row(row)?, row.try_get("name")?)))
        .collect()
    }
}
