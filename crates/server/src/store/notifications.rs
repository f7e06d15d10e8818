//! What the server keeps of the notifications in the site ([`crate::notifier`]).

use async_trait::async_trait;

use super::StoreError;
use crate::model::{Notification, NotificationKind};

/// A notification to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNotification {
    /// Whose: `account-ID`, or a guest's `browser-DIGEST`.
    pub recipient: String,
    pub kind: NotificationKind,
    pub game_id: Option<String>,
    pub game: Option<String>,
    pub seat: Option<u8>,
    /// The name of the person it comes from.
    pub from: Option<String>,
    /// Unix milliseconds.
    pub at: i64,
}

/// A page of notifications and the unread count, read at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NotificationPage {
    pub items: Vec<Notification>,
    pub unread: u64,
}

/// The storage of notifications.
#[async_trait]
pub trait NotificationStore: Send + Sync {
    /// Seat `seat` of game `game` is held by the guest's browser `browser`
    /// (`browser-DIGEST`) from `now` on (the latest to name it).
    async fn hold_browser_seat(
        &self,
        browser: &str,
        game: &str,
        seat: u8,
        now: i64,
    ) -> Result<(), StoreError>;
    /// The guest's browser holding seat `seat` of game `game`, if one named it.
    async fn seat_browser(&self, game: &str, seat: u8) -> Result<Option<String>, StoreError>;
    /// Stores `notification`, unless `once` and its recipient has an unread one of the same
    /// kind about the same table and seat: its id, or `None` when it was not stored.
    async fn add_notification(
        &self,
        notification: &NewNotification,
        once: bool,
    ) -> Result<Option<i64>, StoreError>;
    /// `recipient`'s notifications made at `since` or later with ids below `before`, newest
    /// first, at most `limit`, and how many of those made at `since` or later are unread,
    /// read together (one snapshot: the count never misses what the list shows).
    async fn notifications(
        &self,
        recipient: &str,
        since: i64,
        before: Option<i64>,
        limit: u32,
    ) -> Result<NotificationPage, StoreError>;
    /// `recipient`'s notifications made at `since` or later with ids above `after`, oldest
    /// first, at most `limit`.
    async fn notifications_after(
        &self,
        recipient: &str,
        since: i64,
        after: i64,
        limit: u32,
    ) -> Result<Vec<Notification>, StoreError>;
    /// How many of `recipient`'s notifications made at `since` or later are unread.
    async fn unread_notifications(&self, recipient: &str, since: i64) -> Result<u64, StoreError>;
    /// The recipients of those of notifications `ids` that exist.
    async fn notification_recipients(&self, ids: &[i64]) -> Result<Vec<(i64, String)>, StoreError>;
    /// Marks `recipient`'s notifications `ids` read (`None`: all of them): how many were
    /// unread.
    async fn mark_notifications_read(
        &self,
        recipient: &str,
        ids: Option<&[i64]>,
    ) -> Result<u64, StoreError>;
    /// Removes the notifications made before `before`: how many.
    async fn forget_notifications(&self, before: i64) -> Result<u64, StoreError>;
}
