//! How many requests that create something or compute at length (new games, joins,
//! replays) one client may make: a server open to anyone must not let one client fill its
//! database with games or its cores with replays; and how many sign-in attempts a name and
//! an address may make ([`AttemptLimits`]). A client is an [`AddressKey`].

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};

use crate::error::ApiError;

/// What every per-client limit counts by: an IPv4 address whole, an IPv6 address by its
/// /64 prefix. One subscriber is given a whole /64 (and picks its addresses in it at will),
/// so counting exact IPv6 addresses would give one client 2^64 shares. An IPv4 address
/// written as IPv6 (`::ffff:a.b.c.d`, what a dual-stack socket reports) is that IPv4
/// address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressKey {
    V4(Ipv4Addr),
    /// The first 64 bits of the address.
    V6Prefix(u64),
}

impl From<IpAddr> for AddressKey {
    fn from(address: IpAddr) -> Self {
        match address.to_canonical() {
            IpAddr::V4(v4) => AddressKey::V4(v4),
            IpAddr::V6(v6) => AddressKey::V6Prefix((u128::from(v6) >> 64) as u64),
        }
    }
}

impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressKey::V4(v4) => write!(f, "{v4}"),
            AddressKey::V6Prefix(prefix) => {
                write!(f, "{}/64", Ipv6Addr::from(u128::from(*prefix) << 64))
            }
        }
    }
}

impl AddressKey {
    /// The key as the database keeps it with a game: the SHA-256 of its text, in hex. Not
    /// salted, so one key always has one digest, on every server process and after every
    /// restart; it is pseudonymous, not anonymous (an IPv4 address is found from it by
    /// trying all 2^32), which is why it is erased once the game leaves `open`.
    pub fn digest(&self) -> String {
        crate::tokens::hash(&self.to_string())
    }
}

/// The whole seconds to wait before a limiter that said `not_until` takes a request again
/// (at least 1): the `Retry-After` of a `rate_limited` answer.
pub fn retry_after(not_until: &NotUntil<<DefaultClock as Clock>::Instant>) -> u64 {
    not_until
        .wait_time_from(DefaultClock::default().now())
        .as_secs()
        + 1
}

/// At most `per_minute` such requests a minute per client, all of them at once if they
/// come together (a token bucket that refills one request every `60 / per_minute`
/// seconds). `None`: no limit.
pub struct RequestLimit {
    limiter: Option<DefaultKeyedRateLimiter<AddressKey>>,
}

impl RequestLimit {
    /// `per_minute` 0 turns the limit off.
    pub fn new(per_minute: u32) -> Self {
        RequestLimit {
            limiter: NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    /// Counts one request of `client`: `rate_limited`, saying when to try again, once the
    /// client has used its share.
    pub fn check(&self, client: AddressKey) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter
            .check_key(&client)
            .map_err(|not_until| ApiError::rate_limited(retry_after(&not_until)))
    }

    /// Forgets the clients whose share is whole again (called now and then, so that the
    /// table does not grow with every address ever seen).
    pub fn forget_idle(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// Sign-in attempts one name may take from one address at once, then one a minute: a
/// password cannot be guessed at speed, and the name's owner, elsewhere, is not locked out
/// by it.
const ATTEMPTS_PER_NAME_AND_ADDRESS: NonZeroU32 = NonZeroU32::new(5).unwrap();
/// Sign-in attempts one name may take from everywhere at once, then one every
/// [`NAME_REFILL_SECS`]: guessing from many addresses is slow too. Its owner held back by
/// such a flood still signs in with a passkey, which no attempt limit counts.
const ATTEMPTS_PER_NAME: NonZeroU32 = NonZeroU32::new(30).unwrap();
const NAME_REFILL_SECS: u64 = 120;
/// Sign-in and sign-up attempts one client address may take at once, then this many a
/// minute: one address cannot try many names either (each attempt is also a hash).
const ATTEMPTS_PER_ADDRESS: NonZeroU32 = NonZeroU32::new(20).unwrap();

/// How many sign-in attempts a name and an address may make: a name from one address, a
/// name from everywhere (more, refilled slower), an address on any name. Keyed by name
/// alone, five wrong attempts a minute from anywhere kept the owner's right password
/// refused.
pub struct AttemptLimits {
    names_at_addresses: DefaultKeyedRateLimiter<(String, AddressKey)>,
    names: DefaultKeyedRateLimiter<String>,
    addresses: DefaultKeyedRateLimiter<AddressKey>,
}

impl Default for AttemptLimits {
    fn default() -> Self {
        let name_refill = Quota::with_period(std::time::Duration::from_secs(NAME_REFILL_SECS))
            .expect("a period above zero");
        AttemptLimits {
            names_at_addresses: RateLimiter::keyed(
                Quota::per_minute(NonZeroU32::MIN).allow_burst(ATTEMPTS_PER_NAME_AND_ADDRESS),
            ),
            names: RateLimiter::keyed(name_refill.allow_burst(ATTEMPTS_PER_NAME)),
            addresses: RateLimiter::keyed(Quota::per_minute(ATTEMPTS_PER_ADDRESS)),
        }
    }
}

impl AttemptLimits {
    /// Counts an attempt by `address` (and on `name_key`, for a sign-in): `rate_limited`
    /// once any of its shares is used. An unknown name is counted like a known one.
    pub fn check(&self, address: AddressKey, name_key: Option<&str>) -> Result<(), ApiError> {
        let wait = |not_until| ApiError::too_many("sign-in attempts", retry_after(&not_until));
        self.addresses.check_key(&address).map_err(wait)?;
        if let Some(name_key) = name_key {
            self.names_at_addresses
                .check_key(&(name_key.to_string(), address))
                .map_err(wait)?;
            self.names.check_key(&name_key.to_string()).map_err(wait)?;
        }
        Ok(())
    }

    /// Forgets the names and addresses whose allowance is full again.
    pub fn forget_idle(&self) {
        self.names_at_addresses.retain_recent();
        self.names.retain_recent();
        self.addresses.retain_recent();
    }
}

/// Reports one person may make at once, then one per [`REPORT_REFILL_SECS`]: more than a
/// person writes, fewer than a script floods the moderators with.
pub const REPORTS_AT_ONCE: NonZeroU32 = NonZeroU32::new(3).unwrap();
pub const REPORT_REFILL_SECS: u64 = 60;

/// Reports per reporter (their account id).
pub struct ReportLimit {
    reporters: DefaultKeyedRateLimiter<String>,
}

impl Default for ReportLimit {
    fn default() -> Self {
        let refill = Quota::with_period(std::time::Duration::from_secs(REPORT_REFILL_SECS))
            .expect("a period above zero");
        ReportLimit {
            reporters: RateLimiter::keyed(refill.allow_burst(REPORTS_AT_ONCE)),
        }
    }
}

impl ReportLimit {
    /// Counts a report of `reporter`: `rate_limited` once their share is used.
    pub fn check(&self, reporter: &str) -> Result<(), ApiError> {
        self.reporters
            .check_key(&reporter.to_string())
            .map_err(|not_until| ApiError::too_many("reports", retry_after(&not_until)))
    }

    /// Forgets the reporters whose allowance is full again.
    pub fn forget_idle(&self) {
        self.reporters.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorKind;

    fn key(address: &str) -> AddressKey {
        AddressKey::from(address.parse::<IpAddr>().expect("an address"))
    }

    #[test]
    fn each_address_has_its_own_share_and_zero_is_no_limit() {
        let limit = RequestLimit::new(3);
        let (a, b) = (key("192.0.2.1"), key("192.0.2.2"));
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

    #[test]
    fn an_ipv6_slash_64_shares_one_share() {
        let limit = RequestLimit::new(2);
        let one = key("2001:db8:1:2::1");
        let same_64 = key("2001:db8:1:2:ffff:ffff:ffff:fffe");
        let next_64 = key("2001:db8:1:3::1");
        assert_eq!(one, same_64);
        assert_ne!(one, next_64);
        assert!(limit.check(one).is_ok());
        assert!(limit.check(same_64).is_ok());
        assert_eq!(
            limit.check(one).map_err(|e| e.kind),
            Err(ErrorKind::RateLimited),
            "the /64's share is used up, whichever address of it asks"
        );
        assert!(
            limit.check(next_64).is_ok(),
            "another /64 has its own share"
        );
    }

    #[test]
    fn keys_read_ipv4_written_as_ipv6_as_ipv4() {
        assert_eq!(key("::ffff:192.0.2.7"), key("192.0.2.7"));
        assert_eq!(key("192.0.2.7").to_string(), "192.0.2.7");
        assert_eq!(key("2001:db8:1:2:3:4:5:6").to_string(), "2001:db8:1:2::/64");
        assert_ne!(key("192.0.2.7").digest(), key("192.0.2.8").digest());
        assert_eq!(key("2001:db8::1").digest().len(), 64);
    }

    #[test]
    fn a_name_gets_a_few_attempts_from_each_address_and_more_from_all() {
        let limits = AttemptLimits::default();
        let address = |a: u8, b: u8| AddressKey::from(std::net::IpAddr::from([10, 0, a, b]));
        for _ in 0..ATTEMPTS_PER_NAME_AND_ADDRESS.get() {
            assert!(limits.check(address(0, 0), Some("ana")).is_ok());
        }
        let refused = limits
            .check(address(0, 0), Some("ana"))
            .expect_err("limited");
        assert_eq!(refused.kind, ErrorKind::RateLimited);
        assert!(refused.retry_after.is_some());
        // The owner elsewhere is not held back by that address's attempts,
        assert!(limits.check(address(1, 0), Some("ana")).is_ok());
        // until the name's attempts from everywhere are used.
        for i in 1..ATTEMPTS_PER_NAME.get() - ATTEMPTS_PER_NAME_AND_ADDRESS.get() {
            assert!(
                limits.check(address(2, i as u8), Some("ana")).is_ok(),
                "{i}"
            );
        }
        assert!(limits.check(address(3, 0), Some("ana")).is_err());
        assert!(
            limits.check(address(3, 0), Some("bo")).is_ok(),
            "another name is not limited"
        );
    }
}
