//! What the server keeps of each person's settings (languages, e-mail) and of the "it is
//! your turn" mail sent (docs/server.md, "Mail").

use async_trait::async_trait;

use super::StoreError;

/// A person's settings as stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SettingsRow {
    /// Language tags, the one spoken best first.
    pub languages: Vec<String>,
    pub email: Option<String>,
    /// Mail `email` when it becomes their turn at a turn-based table.
    pub turn_mail: bool,
    /// The secret of the unsubscribe link; empty until the settings were first stored.
    pub unsubscribe_key: String,
}

#[async_trait]
pub trait SettingsStore: Send + Sync {
    /// The settings of `account_id`; the defaults (no language, no mail) if never stored.
    async fn settings(&self, account_id: &str) -> Result<SettingsRow, StoreError>;
    /// Stores `settings` for `account_id`, keeping the unsubscribe key it has (or
    /// `settings.unsubscribe_key` for the first settings stored).
    async fn put_settings(
        &self,
        account_id: &str,
        settings: &SettingsRow,
    ) -> Result<(), StoreError>;
    /// Records a turn mail to `account_id` for game `game_id` at `now` unless one was sent
    /// after `now - gap_ms`: `true` when this caller is to send it (once, whichever
    /// process asks).
    async fn claim_turn_mail(
        &self,
        game_id: &str,
        account_id: &str,
        now: i64,
        gap_ms: i64,
    ) -> Result<bool, StoreError>;
    /// Forgets the turn mail recorded at `sent` (it could not be sent): the next turn
    /// tries again.
    async fn release_turn_mail(
        &self,
        game_id: &str,
        account_id: &str,
        sent: i64,
    ) -> Result<(), StoreError>;
    /// The languages of the account whose unsubscribe key is `key`; `None` for no such
    /// key.
    async fn key_languages(&self, key: &str) -> Result<Option<Vec<String>>, StoreError>;
    /// Stops the turn mail of the account whose unsubscribe key is `key`: its languages,
    /// or `None` for no such key.
    async fn unsubscribe(&self, key: &str) -> Result<Option<Vec<String>>, StoreError>;
}
