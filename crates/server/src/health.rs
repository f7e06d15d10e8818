//! `/healthz`: whether the database answers a read and accepts a write, said honestly and
//! cheaply. A database that reads but refuses writes (a read-only file, a full disk, a
//! stuck writer) is not healthy: every new game and move would fail.
//!
//! The check writes one row, so it is not run per request: its answer is kept for
//! [`FRESH_FOR`], and requests arriving meanwhile share it (one check at a time), so that a
//! client polling `/healthz` cannot make the database write faster than once a second.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use crate::store::Store;

/// How long a check's answer is served again.
const FRESH_FOR: Duration = Duration::from_secs(1);
/// How long one part of a check may take before it counts as failed: a database that
/// answers this late is not serving moves either.
const CHECK_WITHIN: Duration = Duration::from_secs(2);

/// What failed, as `/healthz` says it (the database's own message goes to the log only:
/// it may name files and hosts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The database does not answer a read.
    Read,
    /// The database answers reads but refuses (or does not finish) a write.
    Write,
}

impl Failure {
    pub fn message(self) -> &'static str {
        match self {
            Failure::Read => "failing: the database does not answer reads\n",
            Failure::Write => "failing: the database does not accept writes\n",
        }
    }
}

/// The last check's answer and when it was made.
pub struct Health {
    store: Arc<dyn Store>,
    last: Mutex<Option<(Instant, Result<(), Failure>)>>,
}

impl Health {
    pub fn new(store: Arc<dyn Store>) -> Self {
        Health {
            store,
            last: Mutex::new(None),
        }
    }

    /// The answer of a check made within the last second, or of a new one.
    pub async fn check(&self) -> Result<(), Failure> {
        let mut last = self.last.lock().await;
        if let Some((at, answer)) = *last {
            if at.elapsed() < FRESH_FOR {
                return answer;
            }
        }
        let answer = self.run().await;
        *last = Some((Instant::now(), answer));
        answer
    }

    async fn run(&self) -> Result<(), Failure> {
        let read = tokio::time::timeout(CHECK_WITHIN, self.store.ping()).await;
        if let Some(error) = failed(read) {
            tracing::error!(%error, "health: the database does not answer reads");
            return Err(Failure::Read);
        }
        let write = tokio::time::timeout(CHECK_WITHIN, self.store.check_write()).await;
        if let Some(error) = failed(write) {
            tracing::error!(%error, "health: the database does not accept writes");
            return Err(Failure::Write);
        }
        Ok(())
    }
}

/// The error of a timed check, if it failed or ran out of time.
fn failed(
    answer: Result<Result<(), crate::store::StoreError>, tokio::time::error::Elapsed>,
) -> Option<String> {
    match answer {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) => Some(format!("no answer within {} s", CHECK_WITHIN.as_secs())),
    }
}
