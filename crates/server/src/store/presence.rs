//! What the server processes sharing a database keep of presence
//! ([`crate::hub`]'s shared presence): which seats have a tab connected to which process.

use async_trait::async_trait;

use super::StoreError;

/// The storage of presence shared across server processes (PostgreSQL only: a SQLite
/// database has one process).
#[async_trait]
pub trait PresenceStore: Send + Sync {
    /// Sets process `process`'s presence at seat `seat` of game `game`: some tab shown
    /// (`Some(true)`), every tab hidden (`Some(false)`), or no tab (`None`), counting until
    /// `until` (Unix milliseconds).
    async fn put_presence(
        &self,
        process: &str,
        game: &str,
        seat: u8,
        shown: Option<bool>,
        until: i64,
    ) -> Result<(), StoreError>;
    /// Renews process `process`'s presence until `until`, and removes what lapsed before
    /// `now` (what processes that died left): how many of its rows it renewed.
    async fn renew_presence(&self, process: &str, until: i64, now: i64) -> Result<u64, StoreError>;
    /// The seats of game `game` with a tab connected to a process other than `process`,
    /// at `now`: for each, whether one of those tabs is shown.
    async fn presence_elsewhere(
        &self,
        game: &str,
        process: &str,
        now: i64,
    ) -> Result<Vec<(u8, bool)>, StoreError>;
    /// Removes everything process `process` keeps (it shuts down).
    async fn release_presence(&self, process: &str) -> Result<(), StoreError>;
}
