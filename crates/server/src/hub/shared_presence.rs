//! Presence shared by the server processes on one PostgreSQL database: a seat is online
//! when a tab of it is shown in any process, away when its tabs in every process are
//! hidden. Each process stores its own seats' presence as it changes (table `presence`,
//! migrations/postgres/0018), whose trigger tells the others (`p <game>`), which read the
//! game's rows again and merge them with their own (docs/server.md, "Presence across
//! processes"). A process renews its rows three times a lease's life; those of a process
//! that died lapse and are removed, which tells the others too.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::table::{PresenceReport, Table};
use super::{now_ms, Hub};
use crate::store::StoreError;
use crate::tokens;

/// What to read again of the other processes' presence.
enum Hear {
    Game(String),
    /// Every table here: notifications may have gone unheard.
    All,
}

/// The receiving ends, taken by the tasks [`Hub::share_presence`] starts.
struct Inbox {
    reports: mpsc::UnboundedReceiver<PresenceReport>,
    hear: mpsc::UnboundedReceiver<Hear>,
}

/// One process's part in shared presence.
pub(super) struct SharedPresence {
    /// The process's random id, as its rows name it.
    process: String,
    /// How long a row lasts unrenewed.
    ttl: Duration,
    reports: mpsc::UnboundedSender<PresenceReport>,
    hear: mpsc::UnboundedSender<Hear>,
    inbox: Mutex<Option<Inbox>>,
}

impl SharedPresence {
    pub(super) fn new(ttl: Duration) -> Self {
        let (reports, reports_in) = mpsc::unbounded_channel();
        let (hear, hear_in) = mpsc::unbounded_channel();
        SharedPresence {
            process: tokens::new_token(),
            ttl,
            reports,
            hear,
            inbox: Mutex::new(Some(Inbox {
                reports: reports_in,
                hear: hear_in,
            })),
        }
    }

    /// Where the tables report their seats' presence in this process.
    pub(super) fn reporter(&self) -> mpsc::UnboundedSender<PresenceReport> {
        self.reports.clone()
    }

    fn until(&self) -> (i64, i64) {
        let now = now_ms();
        let ttl = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX);
        (now, now.saturating_add(ttl))
    }
}

impl Hub {
    /// Reads again the other processes' presence at game `id`, if it is in memory here.
    pub(super) fn hear_presence(&self, id: &str) {
        if let Some(shared) = &self.presence {
            let _ = shared.hear.send(Hear::Game(id.to_string()));
        }
    }

    /// Reads again the other processes' presence at every table in memory here.
    pub(super) fn hear_all_presence(&self) {
        if let Some(shared) = &self.presence {
            let _ = shared.hear.send(Hear::All);
        }
    }

    /// Starts storing this process's presence as it changes (and renewing it), and
    /// installing the other processes' as they change theirs. `None` when this process is
    /// the only one.
    pub fn share_presence(self: &Arc<Self>) -> Option<[JoinHandle<()>; 2]> {
        let shared = self.presence.as_ref()?;
        let inbox = shared
            .inbox
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        let period = shared.ttl / 3;
        Some([
            tokio::spawn(tell(Arc::downgrade(self), inbox.reports, period)),
            tokio::spawn(listen(Arc::downgrade(self), inbox.hear)),
        ])
    }

    /// Whether a tab of seat `seat` of game `id` is open, in this process or another.
    pub async fn seat_present(&self, id: &str, seat: u8) -> Result<bool, StoreError> {
        let cached = self.cache().get(id).cloned();
        if let Some(table) = cached {
            return Ok(table.seat_present(seat));
        }
        // A table watched here is in memory: only other processes may have it open.
        let Some(shared) = &self.presence else {
            return Ok(false);
        };
        let elsewhere = self
            .store
            .presence_elsewhere(id, &shared.process, now_ms())
            .await?;
        Ok(elsewhere.iter().any(|&(s, _)| s == seat))
    }

    /// Removes this process's presence (it shuts down): the others see its seats go at
    /// once instead of once its rows lapse.
    pub async fn release_presence(&self) {
        let Some(shared) = &self.presence else {
            return;
        };
        if let Err(e) = self.store.release_presence(&shared.process).await {
            tracing::warn!(error = %e, "removing this process's presence failed");
        }
    }
}

/// Stores the reports as they come, the latest of each seat when several wait, and renews
/// the rows every `period`. What failed to be stored is tried again at the next renewal;
/// rows found gone then (this process stalled past their life) are stored again.
async fn tell(
    hub: std::sync::Weak<Hub>,
    mut reports: mpsc::UnboundedReceiver<PresenceReport>,
    period: Duration,
) {
    // What this process has stored, and what it has still to store.
    let mut stored: HashMap<(String, u8), bool> = HashMap::new();
    let mut pending: HashMap<(String, u8), Option<bool>> = HashMap::new();
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let renew = tokio::select! {
            report = reports.recv() => {
                let Some(report) = report else { return };
                pending.insert((report.game, report.seat), report.shown);
                while let Ok(report) = reports.try_recv() {
                    pending.insert((report.game, report.seat), report.shown);
                }
                false
            }
            _ = every.tick() => true,
        };
        let Some(hub) = hub.upgrade() else {
            return;
        };
        let Some(shared) = &hub.presence else {
            return;
        };
        if renew {
            let (now, until) = shared.until();
            match hub.store.renew_presence(&shared.process, until, now).await {
                Ok(renewed) if renewed < stored.len() as u64 => {
                    tracing::warn!("presence lapsed while this process stalled: storing it again");
                    for (key, shown) in &stored {
                        pending.entry(key.clone()).or_insert(Some(*shown));
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "renewing presence failed"),
            }
        }
        for (key, shown) in std::mem::take(&mut pending) {
            let (_, until) = shared.until();
            let put = hub
                .store
                .put_presence(&shared.process, &key.0, key.1, shown, until)
                .await;
            match (put, shown) {
                (Ok(()), Some(shown)) => {
                    stored.insert(key, shown);
                }
                (Ok(()), None) => {
                    stored.remove(&key);
                }
                (Err(e), _) => {
                    tracing::warn!(game = %key.0, error = %e, "storing presence failed");
                    pending.insert(key, shown);
                }
            }
        }
    }
}

/// Reads the other processes' presence at the games asked for, in order (so that an older
/// read never overwrites a newer one), and installs it in the tables here.
async fn listen(hub: std::sync::Weak<Hub>, mut hear: mpsc::UnboundedReceiver<Hear>) {
    while let Some(first) = hear.recv().await {
        let Some(hub) = hub.upgrade() else {
            return;
        };
        let mut games = HashSet::new();
        let mut all = false;
        for asked in std::iter::once(first).chain(std::iter::from_fn(|| hear.try_recv().ok())) {
            match asked {
                Hear::Game(id) => {
                    games.insert(id);
                }
                Hear::All => all = true,
            }
        }
        let tables: Vec<_> = {
            let cache = hub.cache();
            if all {
                cache.values().cloned().collect()
            } else {
                games
                    .iter()
                    .filter_map(|id| cache.get(id).cloned())
                    .collect()
            }
        };
        for table in tables {
            if let Err(e) = read_presence(&hub, &table).await {
                tracing::warn!(game = %table.id, error = %e, "reading presence failed");
            }
        }
    }
}

async fn read_presence(hub: &Hub, table: &Table) -> Result<(), StoreError> {
    let Some(shared) = &hub.presence else {
        return Ok(());
    };
    let elsewhere = hub
        .store
        .presence_elsewhere(&table.id, &shared.process, now_ms())
        .await?;
    table.install_presence_elsewhere(&elsewhere);
    Ok(())
}
