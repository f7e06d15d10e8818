//! The wall clock, read in one place: every stored time is Unix milliseconds.

use std::time::{SystemTime, UNIX_EPOCH};

/// Unix milliseconds now.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
