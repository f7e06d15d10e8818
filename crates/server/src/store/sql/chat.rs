//! [`ChatStore`] in the same SQL database as the games.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::SqlStore;
use crate::model::{ChatChannel, ChatMessage};
use crate::store::chat::ChatStore;
use crate::store::StoreError;

const COLUMNS: &str = "id, channel, seat, author, name, text, seq, at, account_id";

fn message_of_row(row: &AnyRow) -> Result<ChatMessage, StoreError> {
    let channel: String = row.try_get("channel")?;
    let seat: Option<i32> = row.try_get("seat")?;
    let seq: i64 = row.try_get("seq")?;
    Ok(ChatMessage {
        id: row.try_get("id")?,
        channel: ChatChannel::parse(&channel)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown chat channel {channel:?}")))?,
        seat: seat
            .map(u8::try_from)
            .transpose()
            .map_err(|_| StoreError::Corrupt(format!("chat seat {seat:?}")))?,
        author: row.try_get("author")?,
        name: row.try_get("name")?,
        text: row.try_get("text")?,
        seq: u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("chat seq {seq}")))?,
        at: row.try_get("at")?,
        account: row.try_get("account_id")?,
    })
}

#[async_trait]
impl ChatStore for SqlStore {
    async fn append_chat(
        &self,
        game: &str,
        message: &ChatMessage,
        cap: u32,
    ) -> Result<Option<i64>, StoreError> {
        let mut tx = self.writes.begin().await?;
        // The channel's count, raised only below the cap: the row's lock makes concurrent
        // messages wait for each other, in every process.
        let counted = sqlx::query(
            "INSERT INTO chat_counts (game_id, channel, messages) VALUES ($1, $2, 1) \
             ON CONFLICT (game_id, channel) DO UPDATE SET messages = chat_counts.messages + 1 \
             WHERE chat_counts.messages < $3 RETURNING messages",
        )
        .bind(game)
        .bind(message.channel.as_str())
        .bind(i64::from(cap))
        .fetch_optional(&mut *tx)
        .await?;
        if counted.is_none() {
            tx.rollback().await?;
            return Ok(None);
        }
        let row = sqlx::query(
            "INSERT INTO chat_messages \
             (game_id, channel, seat, author, name, text, seq, at, account_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(game)
        .bind(message.channel.as_str())
        .bind(message.seat.map(i32::from))
        .bind(&message.author)
        .bind(message.name.as_deref())
        .bind(&message.text)
        .bind(message.seq as i64)
        .bind(message.at)
        .bind(message.account.as_deref())
        .fetch_one(&mut *tx)
        .await?;
        let id = row.try_get("id")?;
        tx.commit().await?;
        Ok(Some(id))
    }

    async fn chat(&self, game: &str) -> Result<Vec<ChatMessage>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} FROM chat_messages WHERE game_id = $1 ORDER BY id"
        ))
        .bind(game)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(message_of_row)
        .collect()
    }

    async fn chat_message(&self, game: &str, id: i64) -> Result<Option<ChatMessage>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} FROM chat_messages WHERE game_id = $1 AND id = $2"
        ))
        .bind(game)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(message_of_row)
        .transpose()
    }
}
