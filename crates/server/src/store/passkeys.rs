//! What the server keeps of passkeys and of the ceremonies that make and use them
//! ([`crate::accounts::passkeys`]).

use async_trait::async_trait;

use super::{AccountRow, NameKeys, StoreError};

/// A passkey as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyRow {
    /// base64url.
    pub credential_id: String,
    pub account_id: String,
    pub user_handle: String,
    /// webauthn-rs's `Passkey`, JSON.
    pub passkey: String,
    /// Unix milliseconds.
    pub created: i64,
}

/// A passkey as its account's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyListed {
    pub credential_id: String,
    /// Unix milliseconds.
    pub created: i64,
    /// The last sign-in with it (Unix milliseconds); `None`: never.
    pub used: Option<i64>,
}

/// What [`PasskeyStore::remove_passkey`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasskeyRemoval {
    Removed,
    /// The account has no such passkey.
    Unknown,
    /// Kept: the account would have no way left to sign in.
    LastWayIn,
}

/// A ceremony between its start and its finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CeremonyRow {
    pub id: String,
    /// `register` or `sign_in`.
    pub kind: String,
    /// Registering: the signed-in account adding a passkey (`None`: a sign-up of `name`).
    pub account_id: Option<String>,
    pub name: Option<String>,
    pub user_handle: Option<String>,
    /// webauthn-rs's state, JSON.
    pub state: String,
    /// Unix milliseconds.
    pub expires: i64,
}

#[async_trait]
pub trait PasskeyStore: Send + Sync {
    /// Keeps a ceremony until its finish (and forgets those expired before `now`).
    async fn put_ceremony(&self, ceremony: &CeremonyRow, now: i64) -> Result<(), StoreError>;
    /// Takes ceremony `id` (once): `None` if unknown, taken or expired at `now`.
    async fn take_ceremony(&self, id: &str, now: i64) -> Result<Option<CeremonyRow>, StoreError>;
    /// The user handle of the account's passkeys, if it has any.
    async fn user_handle(&self, account_id: &str) -> Result<Option<String>, StoreError>;
    /// The credential ids of the account's passkeys.
    async fn passkey_ids(&self, account_id: &str) -> Result<Vec<String>, StoreError>;
    /// The account's passkeys, oldest first: credential id, when added, when last used.
    async fn passkeys_of(&self, account_id: &str) -> Result<Vec<PasskeyListed>, StoreError>;
    /// Removes the account's passkey `credential_id`, unless it is the account's last way to
    /// sign in (no password, no other passkey): what was done.
    async fn remove_passkey(
        &self,
        account_id: &str,
        credential_id: &str,
    ) -> Result<PasskeyRemoval, StoreError>;
    /// Stores a new passkey of an existing account.
    async fn add_passkey(&self, passkey: &PasskeyRow) -> Result<(), StoreError>;
    /// Stores a new account (under `names`) with its first passkey, in one
    /// transaction; `false`, storing nothing, when the name or a look-alike is taken.
    async fn create_account_with_passkey(
        &self,
        account: &AccountRow,
        names: &NameKeys,
        passkey: &PasskeyRow,
    ) -> Result<bool, StoreError>;
    /// The passkey of this credential id.
    async fn passkey(&self, credential_id: &str) -> Result<Option<PasskeyRow>, StoreError>;
    /// Stores the passkey's new state (its counter) after a sign-in at `used`.
    async fn passkey_used(
        &self,
        credential_id: &str,
        passkey: &str,
        used: i64,
    ) -> Result<(), StoreError>;
}
