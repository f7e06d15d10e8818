//! Notifications in the site (docs/server.md, "Notifications"): what a person is told by
//! the bell on every page (their turn at a turn-based table, a seek matched, a clock
//! running low while they are away), stored per account and kept 30 days, and the live
//! pages of each person woken as theirs change, in this process or (through the store's
//! notifications, [`crate::store::Change::Notified`]) another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::model::NotificationKind;
use crate::store::{NewNotification, Store};
use crate::time::now_ms;
use crate::tokens;

/// How long a notification is kept.
pub const KEEP_FOR_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// How often the notifications past [`KEEP_FOR_MS`] are removed.
const FORGET_EVERY: Duration = Duration::from_secs(60 * 60);
/// How long a process's word that a person has a page open lasts unrenewed; it is
/// renewed three times as often.
const SITE_PRESENCE_TTL_MS: i64 = 90_000;

/// Whose notifications: an account's, or a guest browser's, as stored (`account-ID`,
/// `browser-DIGEST`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Recipient(String);

impl Recipient {
    /// As stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A recipient as the store gave it.
    pub fn stored(text: String) -> Recipient {
        Recipient(text)
    }
}

/// Whom an account's notifications are for.
pub fn account_recipient(account_id: &str) -> Recipient {
    Recipient(format!("account-{account_id}"))
}

/// Whom a guest's notifications are for: their browser, by the digest of its id (the id
/// their page keeps and names).
pub fn browser_recipient(browser_id: &str) -> Recipient {
    Recipient(format!("browser-{}", tokens::hash(browser_id)))
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

/// Stores notifications and wakes the pages that show them; keeps who has a page of the
/// site open (a live page: the bell's stream), for their friends to see.
pub struct Notifier {
    store: Arc<dyn Store>,
    /// Per recipient with a live page here: bumped when their notifications change.
    live: Mutex<HashMap<String, watch::Sender<u64>>>,
    /// This process's random id, as its site presence names it.
    process: String,
    /// Accounts whose first live page here opened (`true`) or last closed, to store in
    /// order.
    site: mpsc::UnboundedSender<(String, bool)>,
    site_changes: Mutex<Option<mpsc::UnboundedReceiver<(String, bool)>>>,
}

impl Notifier {
    pub fn new(store: Arc<dyn Store>) -> Arc<Self> {
        let (site, site_changes) = mpsc::unbounded_channel();
        Arc::new(Notifier {
            store,
            live: Mutex::new(HashMap::new()),
            process: tokens::new_token(),
            site,
            site_changes: Mutex::new(Some(site_changes)),
        })
    }

    fn live(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells `recipient` (an account's or a guest browser's) `kind` about `about`, from the
    /// person named `from`.
    /// `once`: not if an unread one of the same kind about the same seat is there already
    /// (a turn told once until read). A failure is logged: what caused it stands.
    pub async fn notify(
        &self,
        recipient: &Recipient,
        kind: NotificationKind,
        about: Option<About<'_>>,
        from: Option<&str>,
        once: bool,
    ) {
        let notification = NewNotification {
            recipient: recipient.as_str().to_string(),
            kind,
            game_id: about.map(|a| a.game_id.to_string()),
            game: about.map(|a| a.game.to_string()),
            seat: about.map(|a| a.seat),
            from: from.map(str::to_string),
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
                tracing::warn!(kind = kind.as_str(), %error, "a notification was not stored");
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
    pub fn subscribe(self: &Arc<Self>, recipient: &Recipient) -> Live {
        let recipient = recipient.as_str();
        let changes = {
            let mut live = self.live();
            let first = !live.contains_key(recipient);
            let sender = live
                .entry(recipient.to_string())
                .or_insert_with(|| watch::channel(0).0);
            if first {
                self.tell_site(recipient, true);
            }
            sender.subscribe()
        };
        Live {
            notifier: self.clone(),
            recipient: recipient.to_string(),
            changes,
        }
    }

    /// The first live page of `recipient` here opened (`open`), or the last closed: kept
    /// under the account's id, or a guest's `browser-DIGEST`.
    fn tell_site(&self, recipient: &str, open: bool) {
        let key = recipient.strip_prefix("account-").unwrap_or(recipient);
        // Closed only when the process shuts down.
        let _ = self.site.send((key.to_string(), open));
    }

    /// Removes the notifications past their 30 days, every hour; stores who has a page
    /// open here as it changes, and renews it.
    pub fn keep(self: &Arc<Self>) -> JoinHandle<()> {
        let notifier = Arc::downgrade(self);
        let changes = self
            .site_changes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        tokio::spawn(async move {
            let Some(mut changes) = changes else { return };
            let mut forget = tokio::time::interval(FORGET_EVERY);
            forget.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let renew_every = Duration::from_millis((SITE_PRESENCE_TTL_MS / 3).unsigned_abs());
            let mut renew = tokio::time::interval(renew_every);
            renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    change = changes.recv() => {
                        let Some((account, open)) = change else { return };
                        let Some(notifier) = notifier.upgrade() else { return };
                        notifier.store_site_presence(&account, open).await;
                    }
                    _ = renew.tick() => {
                        let Some(notifier) = notifier.upgrade() else { return };
                        let now = now_ms();
                        let until = now + SITE_PRESENCE_TTL_MS;
                        let renewed = notifier.store.renew_site_presence(&notifier.process, until, now);
                        if let Err(error) = renewed.await {
                            tracing::warn!(%error, "renewing site presence failed");
                        }
                    }
                    _ = forget.tick() => {
                        let Some(notifier) = notifier.upgrade() else { return };
                        let before = kept_since(now_ms());
                        if let Err(error) = notifier.store.forget_notifications(before).await {
                            tracing::warn!(%error, "removing old notifications failed");
                        }
                    }
                }
            }
        })
    }

    /// Removes this process's site presence (it shuts down): its people are last seen now.
    pub async fn release(&self) {
        let now = now_ms();
        let released = self.store.renew_site_presence(&self.process, now - 1, now);
        if let Err(error) = released.await {
            tracing::warn!(%error, "removing this process's site presence failed");
        }
    }

    async fn store_site_presence(&self, account: &str, open: bool) {
        let now = now_ms();
        let stored = if open {
            self.store
                .put_site_presence(account, &self.process, now + SITE_PRESENCE_TTL_MS)
                .await
        } else {
            self.store
                .remove_site_presence(account, &self.process, now)
                .await
        };
        if let Err(error) = stored {
            tracing::warn!(%error, "storing site presence failed");
        }
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
            self.notifier.tell_site(&self.recipient, false);
        }
    }
}
