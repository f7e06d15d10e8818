//! When a decision must end, whatever its budget: a deadline and a flag another thread
//! may raise (a server shutting down). Searches check it at every rollout step and every
//! position they expand, and answer with the best move found so far.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Clock reads skipped between two reads: a read costs about as much as a cheap step, and
/// a few dozen steps take microseconds, far below any deadline worth setting.
const CLOCK_STRIDE: u32 = 32;

/// When a decision must end: never (the default), at an instant, when a flag is raised,
/// or whichever comes first. Cloning shares the flag.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// A decision that runs until its own budget is spent.
    pub fn never() -> Self {
        Stop::default()
    }

    /// A decision that ends at `deadline` at the latest.
    pub fn at(deadline: Instant) -> Self {
        Stop {
            deadline: Some(deadline),
            flag: None,
        }
    }

    /// This stop, ending also once `flag` is true.
    pub fn or_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flag = Some(flag);
        self
    }

    /// This stop, ending also at `deadline` (the earlier of the two deadlines wins).
    pub fn or_at(mut self, deadline: Instant) -> Self {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the decision must end now (reads the clock).
    pub fn reached(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether this stop can ever be reached: a search without one skips every check.
    fn is_never(&self) -> bool {
        self.deadline.is_none() && self.flag.is_none()
    }
}

/// A [`Stop`] as one search thread checks it, in its hot loops: the flag at every check,
/// the clock every [`CLOCK_STRIDE`] checks; once reached, it stays reached.
#[derive(Debug, Default)]
pub(crate) struct StopCheck {
    stop: Stop,
    countdown: u32,
    reached: bool,
}

impl StopCheck {
    pub(crate) fn new(stop: &Stop) -> Self {
        StopCheck {
            stop: stop.clone(),
            countdown: 0,
            reached: false,
        }
    }

    /// Whether the search must end now.
    pub(crate) fn reached(&mut self) -> bool {
        if self.reached {
            return true;
        }
        if self.stop.is_never() {
            return false;
        }
        let flag = self
            .stop
            .flag
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        let clock = match self.countdown.checked_sub(1) {
            Some(left) => {
                self.countdown = left;
                false
            }
            None => {
                self.countdown = CLOCK_STRIDE - 1;
                self.stop.deadline.is_some_and(|d| Instant::now() >= d)
            }
        };
        self.reached = flag || clock;
        self.reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stop_is_reached_by_its_deadline_or_its_flag() {
        assert!(!Stop::never().reached());
        assert!(!StopCheck::new(&Stop::never()).reached());
        let past = Stop::at(Instant::now());
        assert!(past.reached());
        assert!(
            StopCheck::new(&past).reached(),
            "the first check reads the clock"
        );
        let later = Instant::now() + Duration::from_secs(3600);
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop::at(later).or_flag(flag.clone());
        let mut check = StopCheck::new(&stop);
        assert!(!check.reached());
        flag.store(true, Ordering::Relaxed);
        assert!(stop.reached() && check.reached());
        flag.store(false, Ordering::Relaxed);
        assert!(check.reached(), "a reached check stays reached");
        assert_eq!(
            Stop::at(later).or_at(past.deadline().unwrap()).deadline(),
            past.deadline()
        );
    }
}
