//! How many requests that create something or compute at length (new games, joins,
//! replays) one client address may make: a server open to anyone must not let one client
//! fill its database with games or its cores with replays.

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// At most `per_minute` such requests a minute per client address, all of them at once if
/// they come together (a token bucket that refills one request every `60 / per_minute`
/// seconds). `None`: no limit.
pub struct RequestLimit {
    limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
}

impl RequestLimit {
    /// `per_minute` 0 turns the limit off.
    pub fn new(per_minute: u32) -> Self {
        RequestLimit {
            limiter: NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    /// Counts one request of `client`: `rate_limited`, saying when to try again, once the
    /// address has used its share.
    pub fn check(&self, client: IpAddr) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::rate_limited(wait.as_secs() + 1)
        })
    }

    /// Forgets the addresses whose share is whole again (called now and then, so that the
    /// table does not grow with every address ever seen).
    pub fn forget_idle(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorKind;

    #[test]
    fn each_address_has_its_own_share_and_zero_is_no_limit() {
        let limit = RequestLimit::new(3);
        let (a, b): (IpAddr, IpAddr) = ([192, 0, 2, 1].into(), [192, 0, 2, 2].into());
        for _ in 0..3 {
            assert!(limit.check(a).is_ok());
        }
        let refused = limit
            .check(a)
            .expect_err("a fourth request within the minute");
        assert_eq!(refused.kind, ErrorKind::RateLimited);
        // One request comes back every 20 s.
        assert!(matches!(refused.retry_after, Some(1..=21)), "{refused:?}");
        assert!(limit.check(b).is_ok(), "another address is not held back");

        let none = RequestLimit::new(0);
        assert!((0..1000).all(|_| none.check(a).is_ok()));
    }
}
