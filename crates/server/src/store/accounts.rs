//! What the server keeps of accounts and of the browsers signed in to them
//! (docs/server.md, "Accounts").

use async_trait::async_trait;

use super::StoreError;

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    /// The name as shown.
    pub name: String,
    /// argon2id in the PHC string format; `None` for an account without a password.
    pub password_hash: Option<String>,
    /// Unix milliseconds.
    pub created: i64,
}

/// A name as accounts compare: `key` (lower case) is what signing in looks up, and
/// `skeleton` ([`crate::names::name_skeleton`]) what look-alikes share. No two accounts
/// share either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameKeys {
    pub key: String,
    pub skeleton: String,
}

/// One signed-in browser: the SHA-256 of its cookie's secret, whose account, until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub token_hash: String,
    pub account_id: String,
    /// Unix milliseconds.
    pub created: i64,
    pub expires: i64,
}

/// The storage of accounts and sessions.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new account under `names` (its name as compared); `false`, and nothing
    /// stored, when another account has that key or skeleton.
    async fn create_account(
        &self,
        account: &AccountRow,
        names: &NameKeys,
    ) -> Result<bool, StoreError>;
    /// The account whose name has the confusable skeleton `skeleton`, if any.
    async fn account_like(&self, skeleton: &str) -> Result<Option<AccountRow>, StoreError>;
    /// The accounts stored without a skeleton (made before skeletons were kept): id, name.
    async fn accounts_without_skeleton(&self) -> Result<Vec<(String, String)>, StoreError>;
    /// Gives account `id` the skeleton `skeleton` unless another account has it (`false`).
    async fn set_name_skeleton(&self, id: &str, skeleton: &str) -> Result<bool, StoreError>;
    /// The account of this id.
    async fn account(&self, id: &str) -> Result<Option<AccountRow>, StoreError>;
    /// The account whose name compares as `name_key`.
    async fn account_named(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError>;
    /// Stores a session, and forgets the account's sessions that expired by its start.
    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError>;
    /// The account of the session `token_hash` if it has not expired by `now`.
    async fn session_account(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<AccountRow>, StoreError>;
    /// Ends one session (nothing happens for an unknown one).
    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Ends every session of an account: it is signed out everywhere. How many ended.
    async fn end_sessions_of(&self, account_id: &str) -> Result<u64, StoreError>;
    /// Makes a game's seat the account's unless it is another account's already: whether
    /// it is the account's now.
    async fn claim_seat(
        &self,
        account_id: &str,
        game_id: &str,
        seat: u8,
    ) -> Result<bool, StoreError>;
    /// The account's seats at a game, lowest first.
    async fn seats_at(&self, account_id: &str, game_id: &str) -> Result<Vec<u8>, StoreError>;
    /// Deletes an account with its sessions, its seats' ownership and its ratings, in one
    /// transaction. Its seats at games that are over (or called off) become a former
    /// player's ([`super::FORMER_PLAYER`]); its seats at running and open games stay as
    /// they are. Returns the games whose seats changed.
    async fn delete_account(&self, account_id: &str) -> Result<Vec<String>, StoreError>;
    /// The account's seats, as (game id, seat), the newest games first, at most `limit`.
    async fn seats_of(&self, account_id: &str, limit: u32)
        -> Result<Vec<(String, u8)>, StoreError>;
}
