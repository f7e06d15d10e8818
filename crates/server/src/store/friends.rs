//! What the server keeps of friends ([`crate::friends`]): requests, friendships, and who
//! has a page of the site open.

use async_trait::async_trait;

use super::StoreError;

/// What asking `asked` to be friends did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// A new request is waiting for their answer.
    Asked,
    /// They had asked first: the two are friends now.
    Accepted,
    /// This request was asked before and waits for their answer.
    AlreadyAsked,
    /// The two are friends already.
    AlreadyFriends,
}

/// One of a person's friendships or requests, as they see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriendRow {
    /// The other person.
    pub account_id: String,
    pub name: String,
    /// This person asked (an outgoing request, or a friendship they asked for).
    pub asked_by_me: bool,
    /// Unix milliseconds.
    pub created: i64,
    /// When it was accepted; `None`: a request not answered yet.
    pub accepted: Option<i64>,
}

/// Whether a person has a page of the site open, and when they were last seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SitePresence {
    pub online: bool,
    /// When their last page closed (Unix milliseconds); `None`: never seen since this was
    /// kept.
    pub last_seen: Option<i64>,
}

/// The storage of friends.
#[async_trait]
pub trait FriendStore: Send + Sync {
    /// `asker` asks `asked` to be friends at `now`.
    async fn ask_friend(&self, asker: &str, asked: &str, now: i64) -> Result<Asked, StoreError>;
    /// `me` accepts the request of `them`: whether there was one.
    async fn accept_friend(&self, me: &str, them: &str, now: i64) -> Result<bool, StoreError>;
    /// Ends the friendship or request between `me` and `them`, whoever asked: whether
    /// there was one.
    async fn end_friendship(&self, me: &str, them: &str) -> Result<bool, StoreError>;
    /// `me`'s friendships and requests, each side's, by the other's name.
    async fn friendships(&self, me: &str) -> Result<Vec<FriendRow>, StoreError>;
    /// Whether `a` and `b` are friends (a request accepted).
    async fn are_friends(&self, a: &str, b: &str) -> Result<bool, StoreError>;
    /// Process `process` has a page of account `account_id` (or a guest's `browser-…`)
    /// open, until `until`.
    async fn put_site_presence(
        &self,
        account_id: &str,
        process: &str,
        until: i64,
    ) -> Result<(), StoreError>;
    /// Process `process` has no page of `account_id` open any more: last seen at `now`.
    async fn remove_site_presence(
        &self,
        account_id: &str,
        process: &str,
        now: i64,
    ) -> Result<(), StoreError>;
    /// Renews process `process`'s pages until `until`, and removes those that lapsed
    /// before `now` (of processes that died), their people last seen when they lapsed.
    async fn renew_site_presence(
        &self,
        process: &str,
        until: i64,
        now: i64,
    ) -> Result<(), StoreError>;
    /// How many people (accounts and guests' browsers) have a page open at `now`.
    async fn people_online(&self, now: i64) -> Result<u64, StoreError>;
    /// The site presence of `accounts` at `now`, in their order.
    async fn site_presence(
        &self,
        accounts: &[String],
        now: i64,
    ) -> Result<Vec<SitePresence>, StoreError>;
}
