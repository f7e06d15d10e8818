//! The wall clock, read in one place: every stored time is Unix milliseconds.

use std::time::{SystemTime, UNIX_EPOCH};

/// Unix milliseconds now.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Unix milliseconds `at` as server text says a time: `2026-12-08 10:00 UTC`.
pub(crate) fn utc_text(at: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(at) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_else(|| "a time to come".to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_read_as_utc() {
        assert_eq!(super::utc_text(1_796_637_600_000), "2026-12-07 10:00 UTC");
    }
}
