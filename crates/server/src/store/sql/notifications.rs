//! [`NotificationStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{placeholders, SqlStore};
use crate::model::{Notification, NotificationKind};
use crate::store::notifications::{NewNotification, NotificationPage, NotificationStore};
use crate::store::StoreError;

const COLUMNS: &str = "id, kind, game_id, game, seat, from_name, created, read";

fn notification_of_row(row: &AnyRow) -> Result<Notification, StoreError> {
    let kind: String = row.try_get("kind")?;
    let seat: Option<i32> = row.try_get("seat")?;
    let read: i32 = row.try_get("read")?;
    Ok(Notification {
        id: row.try_get("id")?,
        kind: NotificationKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown notification {kind:?}")))?,
        at: row.try_get("created")?,
        read: read != 0,
        game_id: row.try_get("game_id")?,
        game: row.try_get("game")?,
        seat: seat
            .map(u8::try_from)
            .transpose()
            .map_err(|_| StoreError::Corrupt(format!("notification seat {seat:?}")))?,
        from: row.try_get("from_name")?,
    })
}

#[async_trait]
impl NotificationStore for SqlStore {
    async fn hold_browser_seat(
        &self,
        browser: &str,
        game: &str,
        seat: u8,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO browser_seats (game_id, seat, browser, named) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, seat) DO UPDATE SET browser = excluded.browser, \
             named = excluded.named",
        )
        .bind(game)
        .bind(i32::from(seat))
        .bind(browser)
        .bind(now)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn seat_browser(&self, game: &str, seat: u8) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar(
                "SELECT browser FROM browser_seats WHERE game_id = $1 AND seat = $2",
            )
            .bind(game)
            .bind(i32::from(seat))
            .fetch_optional(&self.pool)
            .await?,
        )
    }

    async fn add_notification(
        &self,
        n: &NewNotification,
        once: bool,
    ) -> Result<Option<i64>, StoreError> {
        // `IS` compares NULLs as equal in both databases (PostgreSQL: `IS NOT DISTINCT FROM`).
        let same = if self.backend == super::Backend::Postgres {
            "IS NOT DISTINCT FROM"
        } else {
            "IS"
        };
        let unless = if once {
            format!(
                "WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE recipient = $1 \
                 AND kind = $2 AND game_id {same} $3 AND seat {same} $5 AND read = 0)"
            )
        } else {
            String::new()
        };
        let id: Option<i64> = sqlx::query_scalar(&format!(
            "INSERT INTO notifications (recipient, kind, game_id, game, seat, created, from_name) \
             SELECT $1, $2, $3, $4, $5, $6, $7 {unless} RETURNING id"
        ))
        .bind(&n.recipient)
        .bind(n.kind.as_str())
        .bind(n.game_id.as_deref())
        .bind(n.game.as_deref())
        .bind(n.seat.map(i32::from))
        .bind(n.at)
        .bind(n.from.as_deref())
        .fetch_optional(&self.writes)
        .await?;
        Ok(id)
    }

    async fn notifications(
        &self,
        recipient: &str,
        since: i64,
        before: Option<i64>,
        limit: u32,
    ) -> Result<NotificationPage, StoreError> {
        // One statement, so one snapshot in both databases: read apart, a notification
        // stored between the two reads was counted but not listed.
        let rows = sqlx::query(&format!(
            "SELECT counted.unread, page.* FROM \
             (SELECT COUNT(*) AS unread FROM notifications WHERE recipient = $1 \
              AND created >= $2 AND read = 0) counted \
             LEFT JOIN (SELECT {COLUMNS} FROM notifications WHERE recipient = $1 \
              AND created >= $2 AND id < $3 ORDER BY id DESC LIMIT $4) page ON 1 = 1 \
             ORDER BY page.id DESC"
        ))
        .bind(recipient)
        .bind(since)
        .bind(before.unwrap_or(i64::MAX))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut page = NotificationPage::default();
        for row in &rows {
            let unread: i64 = row.try_get("unread")?;
            page.unread = u64::try_from(unread).unwrap_or(0);
            let id: Option<i64> = row.try_get("id")?;
            if id.is_some() {
                page.items.push(notification_of_row(row)?);
            }
        }
        Ok(page)
    }

    async fn notifications_after(
        &self,
        recipient: &str,
        since: i64,
        after: i64,
        limit: u32,
    ) -> Result<Vec<Notification>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM notifications WHERE recipient = $1 AND created >= $2 \
             AND id > $3 ORDER BY id LIMIT $4"
        ))
        .bind(recipient)
        .bind(since)
        .bind(after)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(notification_of_row).collect()
    }

    async fn unread_notifications(&self, recipient: &str, since: i64) -> Result<u64, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM notifications WHERE recipient = $1 AND created >= $2 \
             AND read = 0",
        )
        .bind(recipient)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    async fn notification_recipients(&self, ids: &[i64]) -> Result<Vec<(i64, String)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT id, recipient FROM notifications WHERE id IN ({})",
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(&sql);
        for id in ids {
            query = query.bind(*id);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("recipient")?)))
            .collect()
    }

    async fn mark_notifications_read(
        &self,
        recipient: &str,
        ids: Option<&[i64]>,
    ) -> Result<u64, StoreError> {
        let chosen = match ids {
            None => String::new(),
            Some([]) => return Ok(0),
            Some(ids) => format!("AND id IN ({})", placeholders(2, ids.len())),
        };
        let sql =
            format!("UPDATE notifications SET read = 1 WHERE recipient = $1 AND read = 0 {chosen}");
        let mut query = sqlx::query(&sql).bind(recipient);
        for id in ids.unwrap_or_default() {
            query = query.bind(*id);
        }
        Ok(query.execute(&self.writes).await?.rows_affected())
    }

    async fn forget_notifications(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM notifications WHERE created < $1")
            .bind(before)
            .execute(&self.writes)
            .await?;
        Ok(done.rows_affected())
    }
}
