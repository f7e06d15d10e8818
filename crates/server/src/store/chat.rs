//! What the server keeps of the chat at its tables ([`crate::chat`]).

use async_trait::async_trait;

use super::StoreError;
use crate::model::ChatMessage;

/// The storage of the tables' chat.
#[async_trait]
pub trait ChatStore: Send + Sync {
    /// Stores a message of game `game` (its `id` is ignored) and returns the id given it,
    /// unless its channel holds `cap` messages already (`None`, nothing stored): counted
    /// and stored at once, so that concurrent messages never overshoot the cap.
    async fn append_chat(
        &self,
        game: &str,
        message: &ChatMessage,
        cap: u32,
    ) -> Result<Option<i64>, StoreError>;
    /// Every message of a game, oldest first.
    async fn chat(&self, game: &str) -> Result<Vec<ChatMessage>, StoreError>;
    /// One message of a game (another server process stored it).
    async fn chat_message(&self, game: &str, id: i64) -> Result<Option<ChatMessage>, StoreError>;
}
