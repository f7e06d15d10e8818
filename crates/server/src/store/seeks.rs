//! What the server keeps of seeks ([`crate::matchmaking`]): who asks for which game, until
//! when their browser is there, and the table each was matched to.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{GameRow, StoreError};
use crate::model::Clock;

/// A seek's settings: what its table must be, and whom it may seat the seeker with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekSpec {
    /// The player counts the seeker accepts, `min..=max`.
    pub players: (u8, u8),
    pub clock: Clock,
    pub rated: bool,
    /// The ratings (shown scale) the other seekers must have, `min..=max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<(i32, i32)>,
    /// Languages the seeker speaks (ISO 639-1); empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// Bots take the seats nobody took after this many seconds; `None`: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots_after_secs: Option<u32>,
}

/// A `seeks` row.
#[derive(Debug, Clone, PartialEq)]
pub struct SeekRow {
    pub id: String,
    /// The SHA-256 of the seek's token.
    pub secret_hash: String,
    /// The SHA-256 of the seat token its holder plays with once matched.
    pub seat_hash: String,
    /// `account-ID`, or `browser-DIGEST` for a guest: whose open seeks are counted, and
    /// whom its notifications are for ([`crate::notifier::Recipient`]).
    pub owner: String,
    pub account_id: Option<String>,
    /// The name the seeker sits down with.
    pub name: String,
    /// The account's shown rating in the game (`None`: a guest).
    pub rating: Option<i32>,
    pub game: String,
    pub spec: SeekSpec,
    /// Unix milliseconds.
    pub created: i64,
    /// Matched only until then (Unix milliseconds).
    pub alive_until: i64,
    /// The table and seat it was matched to.
    pub matched: Option<(String, u8)>,
}

/// A seek a new table seats: at `seat`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekClaim {
    pub seek: String,
    pub seat: u8,
    /// The seeker's account, which the seat then belongs to.
    pub account_id: Option<String>,
    /// Who posted it ([`SeekRow::owner`]): their other open seeks end once seated.
    pub owner: String,
}

/// The storage of seeks.
#[async_trait]
pub trait SeekStore: Send + Sync {
    /// Stores a new seek.
    async fn post_seek(&self, seek: &SeekRow) -> Result<(), StoreError>;
    /// A seek, matched or not.
    async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError>;
    /// The seeks not matched yet that are alive at `now`, oldest first.
    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRow>, StoreError>;
    /// The unmatched seeks of `owner` alive at `now`.
    async fn open_seeks_of(&self, owner: &str, now: i64) -> Result<Vec<SeekRow>, StoreError>;
    /// Withdraws seek `id` if it is not matched: whether it was withdrawn.
    async fn withdraw_seek(&self, id: &str) -> Result<bool, StoreError>;
    /// Keeps these unmatched seeks, alive at `now`, alive until `until` (their browsers
    /// wait for them); a seek dead already stays dead.
    async fn keep_seeks_alive(
        &self,
        ids: &[String],
        now: i64,
        until: i64,
    ) -> Result<(), StoreError>;
    /// Stores `game` (running, its seats taken) and matches each claimed seek to it, in
    /// one transaction, if every claimed seek is still unmatched and alive at `now`; else
    /// [`StoreError::Conflict`] and nothing is stored. The claimed seats of accounts
    /// belong to them, and the seekers' other open seeks are withdrawn.
    async fn match_seeks(
        &self,
        game: &GameRow,
        claims: &[SeekClaim],
        now: i64,
    ) -> Result<(), StoreError>;
    /// Deletes unmatched seeks dead since before `dead_before`, and matched seeks created
    /// before `matched_before`: how many.
    async fn forget_seeks(&self, dead_before: i64, matched_before: i64) -> Result<u64, StoreError>;
}
