//! [`FriendStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::Row;

use super::{placeholders, SqlStore};
use crate::store::friends::{Asked, FriendRow, FriendStore, SitePresence};
use crate::store::StoreError;

#[async_trait]
impl FriendStore for SqlStore {
    async fn ask_friend(&self, asker: &str, asked: &str, now: i64) -> Result<Asked, StoreError> {
        let mut tx = self.writes.begin().await?;
        let found = sqlx::query(
            "SELECT asker, accepted FROM friendships \
             WHERE (asker = $1 AND asked = $2) OR (asker = $2 AND asked = $1)",
        )
        .bind(asker)
        .bind(asked)
        .fetch_optional(&mut *tx)
        .await?;
        let outcome = match found {
            None => {
                sqlx::query("INSERT INTO friendships (asker, asked, created) VALUES ($1, $2, $3)")
                    .bind(asker)
                    .bind(asked)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                Asked::Asked
            }
            Some(row) => {
                let first: String = row.try_get("asker")?;
                let accepted: Option<i64> = row.try_get("accepted")?;
                match (accepted, first == asker) {
                    (Some(_), _) => Asked::AlreadyFriends,
                    (None, true) => Asked::AlreadyAsked,
                    (None, false) => {
                        sqlx::query(
                            "UPDATE friendships SET accepted = $1 WHERE asker = $2 AND asked = $3",
                        )
                        .bind(now)
                        .bind(asked)
                        .bind(asker)
                        .execute(&mut *tx)
                        .await?;
                        Asked::Accepted
                    }
                }
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }

    async fn accept_friend(&self, me: &str, them: &str, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE friendships SET accepted = $1 \
             WHERE asker = $2 AND asked = $3 AND accepted IS NULL",
        )
        .bind(now)
        .bind(them)
        .bind(me)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn end_friendship(&self, me: &str, them: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM friendships \
             WHERE (asker = $1 AND asked = $2) OR (asker = $2 AND asked = $1)",
        )
        .bind(me)
        .bind(them)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn friendships(&self, me: &str) -> Result<Vec<FriendRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT accounts.id, accounts.name, friendships.asker, friendships.created, \
             friendships.accepted FROM friendships JOIN accounts ON accounts.id = \
             CASE WHEN friendships.asker = $1 THEN friendships.asked ELSE friendships.asker END \
             WHERE friendships.asker = $1 OR friendships.asked = $1 ORDER BY accounts.name",
        )
        .bind(me)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let asker: String = row.try_get("asker")?;
                Ok(FriendRow {
                    account_id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    asked_by_me: asker == me,
                    created: row.try_get("created")?,
                    accepted: row.try_get("accepted")?,
                })
            })
            .collect()
    }

    async fn are_friends(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT created FROM friendships WHERE accepted IS NOT NULL \
             AND ((asker = $1 AND asked = $2) OR (asker = $2 AND asked = $1))",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    async fn put_site_presence(
        &self,
        account_id: &str,
        process: &str,
        until: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO site_presence (account_id, process, until) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, process) DO UPDATE SET until = excluded.until",
        )
        .bind(account_id)
        .bind(process)
        .bind(until)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn remove_site_presence(
        &self,
        account_id: &str,
        process: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("DELETE FROM site_presence WHERE account_id = $1 AND process = $2")
            .bind(account_id)
            .bind(process)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO last_seen (account_id, at) SELECT id, $2 FROM accounts WHERE id = $1 \
             ON CONFLICT (account_id) DO UPDATE SET at = excluded.at",
        )
        .bind(account_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn renew_site_presence(
        &self,
        process: &str,
        until: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("UPDATE site_presence SET until = $1 WHERE process = $2")
            .bind(until)
            .bind(process)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO last_seen (account_id, at) SELECT account_id, MAX(until) \
             FROM site_presence WHERE until < $1 \
             AND account_id IN (SELECT id FROM accounts) GROUP BY account_id \
             ON CONFLICT (account_id) DO UPDATE SET at = excluded.at",
        )
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM site_presence WHERE until < $1")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn people_online(&self, now: i64) -> Result<u64, StoreError> {
        let people: i64 = sqlx::query_scalar(
            "SELECT COUNT(DISTINCT account_id) FROM site_presence WHERE until >= $1",
        )
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(people).unwrap_or(0))
    }

    async fn site_presence(
        &self,
        accounts: &[String],
        now: i64,
    ) -> Result<Vec<SitePresence>, StoreError> {
        if accounts.is_empty() {
            return Ok(Vec::new());
        }
        let listed = placeholders(2, accounts.len());
        let online_sql = format!(
            "SELECT DISTINCT account_id FROM site_presence WHERE until >= $1 \
             AND account_id IN ({listed})"
        );
        let mut online = sqlx::query_scalar::<_, String>(&online_sql).bind(now);
        for account in accounts {
            online = online.bind(account);
        }
        let online = online.fetch_all(&self.pool).await?;
        let seen_sql = format!(
            "SELECT account_id, at FROM last_seen WHERE account_id IN ({})",
            placeholders(1, accounts.len())
        );
        let mut seen = sqlx::query(&seen_sql);
        for account in accounts {
            seen = seen.bind(account);
        }
        let seen = seen.fetch_all(&self.pool).await?;
        accounts
            .iter()
            .map(|account| {
                let last_seen = seen
                    .iter()
                    .find(|row| {
                        row.try_get::<String, _>("account_id").ok().as_ref() == Some(account)
                    })
                    .map(|row| row.try_get("at"))
                    .transpose()?;
                Ok(SitePresence {
                    online: online.contains(account),
                    last_seen,
                })
            })
            .collect()
    }
}
