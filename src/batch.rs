//! Many games split over threads, with a progress bar on stderr (simulate, arena).

use std::ops::Range;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CliError;

/// Runs `work` on `games` split into contiguous ranges, one per thread (at most one
/// thread per game), and returns the parts in range order so that merging them gives
/// the same result for any thread count. `work` ticks the bar as games finish.
pub fn run<T: Send>(
    games: u64,
    threads: u64,
    work: impl Fn(Range<u64>, &ProgressBar) -> Result<T, CliError> + Sync,
) -> Result<Vec<T>, CliError> {
    let threads = threads.min(games).max(1);
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {pos}/{len} games [{elapsed_precise}] {wide_bar} {eta}",
    ) {
        bar.set_style(style);
    }
    let parts: Vec<Result<T, CliError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| games * t / threads..games * (t + 1) / threads)
            .map(|range| {
                let (work, bar) = (&work, &bar);
                scope.spawn(move || work(range, bar))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(CliError::failure("a worker thread panicked")))
            })
            .collect()
    });
    bar.finish_and_clear();
    parts.into_iter().collect()
}
