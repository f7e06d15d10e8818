//! Which server process runs a running table's bots and clocks, when several share one
//! database: the one holding the table's lease (`table_leases`). A process renews its
//! leases while it lives; once one has lapsed (its process died, or lost the database for
//! longer than a lease lasts), the next process to renew its own takes the table over,
//! loads it, and moves its bots and watches its clocks from then on.
//!
//! The lease decides who *tries*; what is stored is decided by the store as before: a step
//! is compare-and-set on its seq and a seat change on the row's version. Two processes
//! that both believe they hold a lease (one of them stalled past it) still store each bot
//! move and each time-out once.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::task::JoinHandle;

use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::tokens;

/// The leases of one server process.
pub(super) struct Leases {
    /// The process's random id, as its leases name it.
    owner: String,
    /// How long a lease lasts unrenewed.
    ttl: Duration,
    held: Mutex<HashSet<String>>,
}

impl Leases {
    pub(super) fn new(ttl: Duration) -> Self {
        Leases {
            owner: tokens::new_token(),
            ttl,
            held: Mutex::new(HashSet::new()),
        }
    }

    fn held(&self) -> MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn holds(&self, id: &str) -> bool {
        self.held().contains(id)
    }

    /// Unix milliseconds now, and when a lease taken now lapses.
    fn now_and_until(&self) -> (i64, i64) {
        let now = now_ms();
        let ttl = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX);
        (now, now.saturating_add(ttl))
    }
}

impl Hub {
    /// Whether this process runs the bots and clocks of table `id`.
    pub(super) fn runs(&self, id: &str) -> bool {
        self.leases.as_ref().is_none_or(|leases| leases.holds(id))
    }

    /// Takes the lease of running table `id` if nobody holds it (a table just created or
    /// started here).
    pub(super) async fn claim_lease(&self, id: &str) {
        let Some(leases) = &self.leases else {
            return;
        };
        let (now, until) = leases.now_and_until();
        match self.store.claim_lease(id, &leases.owner, until, now).await {
            Ok(true) => {
                leases.held().insert(id.to_string());
            }
            Ok(false) => {}
            // The next renewal takes it if nobody else did.
            Err(e) => tracing::warn!(game = id, error = %e, "taking a lease failed"),
        }
    }

    /// Renews this process's leases three times a lease's life, and takes over the running
    /// tables whose lease lapsed (or that have none): they are loaded, their bots move and
    /// their clocks run here. `None` when this process is the only one.
    pub fn keep_leases(self: &Arc<Self>) -> Option<JoinHandle<()>> {
        let period = self.leases.as_ref()?.ttl / 3;
        let hub = Arc::downgrade(self);
        Some(tokio::spawn(async move {
            let mut every = tokio::time::interval(period);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                if let Err(e) = hub.renew_leases().await {
                    tracing::warn!(error = %e, "renewing leases failed");
                }
            }
        }))
    }

    async fn renew_leases(self: &Arc<Self>) -> Result<(), ApiError> {
        let Some(leases) = &self.leases else {
            return Ok(());
        };
        let (now, until) = leases.now_and_until();
        let held = self.store.renew_leases(&leases.owner, until, now).await?;
        let taken: Vec<String> = {
            let mut mine = leases.held();
            let taken = held.iter().filter(|id| !mine.contains(*id)).cloned();
            let taken = taken.collect();
            *mine = held.into_iter().collect();
            taken
        };
        for id in taken {
            tracing::info!(game = %id, "took over the table's bots and clocks");
            metrics::counter!("tabletop_leases_taken_over_total").increment(1);
            let cached = self.cache().get(&id).cloned();
            match cached {
                // Its bot may have waited for this process.
                Some(table) => self.schedule_bot(&table),
                // Loading it schedules its bot, and its clocks run from the next tick.
                None => {
                    if let Err(e) = self.table(&id).await {
                        tracing::error!(game = %id, error = %e, "loading a table taken over failed");
                    }
                }
            }
        }
        Ok(())
    }

    /// Gives this process's leases up (it shuts down): the others take its tables over at
    /// their next renewal instead of once the leases lapse.
    pub async fn release_leases(&self) {
        let Some(leases) = &self.leases else {
            return;
        };
        leases.held().clear();
        if let Err(e) = self.store.release_leases(&leases.owner).await {
            tracing::warn!(error = %e, "giving up the leases failed");
        }
    }
}
