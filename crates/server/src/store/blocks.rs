//! What the server keeps of blocks ([`crate::blocks`]): who keeps whom away.

use async_trait::async_trait;

use super::StoreError;

/// An account a person blocked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRow {
    pub account_id: String,
    pub name: String,
    /// When it was blocked (Unix milliseconds).
    pub created: i64,
}

/// The storage of blocks. A block keeps both accounts apart, whichever made it: the
/// queries that keep people apart read it both ways.
#[async_trait]
pub trait BlockStore: Send + Sync {
    /// `blocker` blocks `blocked` at `now`, and any friendship or friend request between
    /// the two ends, in one transaction: whether the block is new.
    async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<bool, StoreError>;
    /// `blocker` lifts their block of `blocked`: whether there was one.
    async fn unblock(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError>;
    /// Whether `blocker` blocked `blocked` (one way).
    async fn has_blocked(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError>;
    /// The accounts `blocker` blocked, by name.
    async fn blocks_of(&self, blocker: &str) -> Result<Vec<BlockRow>, StoreError>;
    /// The accounts kept apart from `account`: those it blocked and those that blocked it.
    async fn kept_apart(&self, account: &str) -> Result<Vec<String>, StoreError>;
    /// Whether an account that sits at game `game` and `account` are kept apart.
    async fn apart_at_game(&self, account: &str, game: &str) -> Result<bool, StoreError>;
    /// The pairs of `accounts` kept apart, each pair once (either order).
    async fn apart_among(&self, accounts: &[String]) -> Result<Vec<(String, String)>, StoreError>;
}
