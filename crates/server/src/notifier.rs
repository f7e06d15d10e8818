//! Notifications in the site (docs/server.md, "Notifications"): what a person is told by
//! the bell on every page (their turn at a turn-based table, a seek matched, a clock
//! running low while they are away), stored per account and kept 30 days, and the live
//! pages of each person woken as theirs change, in this process or (through the store's
//! notifications, [`crate::store::Change::Notified`]) another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::model::NotificationKind;
use crate::store::{NewNotification, Store};
use crate::time::now_ms;

/// How long a notification is kept.
pub const KEEP_FOR_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// How often the notifications past [`KEEP_FOR_MS`] are removed.
const FORGET_EVERY: Duration = Duration::from_secs(60 * 60);

/// Whom an account's notifications are for, as stored.
pub fn account_recipient(account_id: &str) -> String {
    format!("account-{account_id}")
}

/// The oldest a notification shown at `now` may be.
pub fn kept_since(now: i64) -> i64 {
    now.saturating_sub(KEEP_FOR_MS)
}

/// What a notification is about: a table, its game and the person's seat there.
#[derive(Debug, Clone, Copy)]
pub struct About<'a> {
    pub game_id: &'a str,
    pub game: &'a str,
    pub seat: u8,
}

/// Stores notifications and wakes the pages that show them.
pub struct Notifier {
    store: Arc<dyn Store>,
    /// Per recipient with a live page here: bumped when their notifications change.
    live: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl Notifier {
    pub fn new(store: Arc<dyn Store>) -> Arc<Self> {
        Arc::new(Notifier {
            store,
            live: Mutex::new(HashMap::new()),
        })
    }

    fn live(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells account `account_id` `kind` about `about`. `once`: not if an unread one of
    /// the same kind about the same seat is there already (a turn told once until read).
    /// A failure is logged: the move or match that caused it stands.
    pub async fn notify(
        &self,
        account_id: &str,
        kind: NotificationKind,
        about: About<'_>,
        once: bool,
    ) {
        let notification = NewNotification {
            recipient: account_recipient(account_id),
            kind,
            game_id: Some(about.game_id.to_string()),
            game: Some(about.game.to_string()),
            seat: Some(about.seat),
            at: now_ms(),
        };
        match self.store.add_notification(&notification, once).await {
            Ok(Some(_)) => {
                metrics::counter!("tabletop_notifications_total", "kind" => kind.as_str())
                    .increment(1);
                self.wake(&notification.recipient);
            }
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(game = about.game_id, %error, "a notification was not stored");
            }
        }
    }

    /// Wakes `recipient`'s live pages here: their notifications changed.
    pub fn wake(&self, recipient: &str) {
        if let Some(sender) = self.live().get(recipient) {
            sender.send_modify(|changes| *changes += 1);
        }
    }

    /// Follows `recipient`'s notifications for one live page.
    pub fn subscribe(self: &Arc<Self>, recipient: &str) -> Live {
        let changes = self
            .live()
            .entry(recipient.to_string())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe();
        Live {
            notifier: self.clone(),
            recipient: recipient.to_string(),
            changes,
        }
    }

    /// Removes the notifications past their 30 days, every hour.
    pub fn forget_old(self: &Arc<Self>) -> JoinHandle<()> {
        let notifier = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(FORGET_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(notifier) = notifier.upgrade() else {
                    return;
                };
                let before = kept_since(now_ms());
                if let Err(error) = notifier.store.forget_notifications(before).await {
                    tracing::warn!(%error, "removing old notifications failed");
                }
            }
        })
    }
}

/// One live page's following of a person's notifications.
pub struct Live {
    notifier: Arc<Notifier>,
    recipient: String,
    /// Changes when the person's notifications change.
    pub changes: watch::Receiver<u64>,
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut live = self.notifier.live();
        // This page's receiver is the last one.
        if live
            .get(&self.recipient)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            live.remove(&self.recipient);
        }
    }
}
