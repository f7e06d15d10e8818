//! Who the client is: the peer of the connection, or, when the peer is a reverse proxy the
//! operator trusts (`--trusted-proxy`), the client that proxy names in `X-Forwarded-For`.
//! Every per-client limit counts by this address ([`ClientAddr`]).

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

use crate::limits::AddressKey;

/// The proxies whose `X-Forwarded-For` is believed; none by default, since any client can
/// send the header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Networks in CIDR notation (`10.0.0.0/8`, `fd00::/8`) or single addresses.
    pub fn parse<S: AsRef<str>>(networks: &[S]) -> Result<Self, String> {
        networks
            .iter()
            .map(|text| {
                let text = text.as_ref().trim();
                text.parse::<IpNet>()
                    .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
                    .map(|net| net.trunc())
                    .map_err(|_| {
                        format!(
                            "{text:?} is not an address or a network in CIDR notation \
                             (e.g. 10.0.0.0/8 or fd00::/8)"
                        )
                    })
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    pub fn contains(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The client of a request that reached the server from `peer`. From a trusted proxy:
    /// the right-most address of `X-Forwarded-For` that is not itself a trusted proxy (each
    /// proxy appends the address it was reached from, so the entries left of the last
    /// untrusted one are whatever the client chose to send). Otherwise the peer: the
    /// header is not looked at.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.contains(client) {
            return client;
        }
        // Several header lines are one comma-separated list, in order.
        let hops = headers
            .get_all("x-forwarded-for")
            .iter()
            .rev()
            .flat_map(|line| line.to_str().unwrap_or_default().rsplit(','));
        for hop in hops {
            // An entry that is not an address: the proxy that added it is the nearest
            // client known.
            let Some(address) = parse_hop(hop) else {
                break;
            };
            client = address;
            if !self.contains(client) {
                break;
            }
        }
        client
    }
}

/// One entry of `X-Forwarded-For`: an address, perhaps with a port (`[v6]:port`,
/// `v4:port`), which some proxies add.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
        .map(|address| address.to_canonical())
}

/// The client's address, as every per-client limit counts it (see [`TrustedProxies`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    pub fn key(self) -> AddressKey {
        AddressKey::from(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn forwarded(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(
                "x-forwarded-for",
                HeaderValue::from_str(line).expect("a header value"),
            );
        }
        headers
    }

    #[test]
    fn the_header_counts_only_from_trusted_proxies() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8", "2001:db8::1"]).expect("valid");
        let headers = forwarded(&["198.51.100.9"]);
        assert_eq!(
            proxies.client(ip("192.0.2.1"), &headers),
            ip("192.0.2.1"),
            "an untrusted peer's header is ignored"
        );
        assert_eq!(proxies.client(ip("10.1.2.3"), &headers), ip("198.51.100.9"));
        assert_eq!(
            proxies.client(ip("::ffff:10.1.2.3"), &headers),
            ip("198.51.100.9"),
            "an IPv4 proxy seen on a dual-stack socket"
        );
        assert_eq!(
            proxies.client(ip("2001:db8::1"), &headers),
            ip("198.51.100.9")
        );
        assert_eq!(
            TrustedProxies::default().client(ip("10.1.2.3"), &headers),
            ip("10.1.2.3"),
            "no proxy is trusted by default"
        );
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8"]).expect("valid");
        let peer = ip("10.0.0.1");
        // The client made up the first entry; the second proxy added the first proxy.
        let headers = forwarded(&["6.6.6.6, 203.0.113.5", "10.0.0.2"]);
        assert_eq!(proxies.client(peer, &headers), ip("203.0.113.5"));
        let with_ports = forwarded(&["[2001:db8:5::1]:443, 10.0.0.2:80"]);
        assert_eq!(proxies.client(peer, &with_ports), ip("2001:db8:5::1"));
        let all_trusted = forwarded(&["10.9.9.9, 10.0.0.2"]);
        assert_eq!(proxies.client(peer, &all_trusted), ip("10.9.9.9"));
        assert_eq!(proxies.client(peer, &HeaderMap::new()), peer);
        let garbage = forwarded(&["203.0.113.5, nonsense"]);
        assert_eq!(
            proxies.client(peer, &garbage),
            peer,
            "a hop that is not an address stops the walk at the proxy that sent it"
        );
    }

    #[test]
    fn proxies_are_networks_or_addresses() {
        assert!(TrustedProxies::parse(&["10.0.0.0/8", "::1", "fd00::/8"]).is_ok());
        for bad in ["10.0.0.0/33", "proxy.example", ""] {
            assert!(TrustedProxies::parse(&[bad]).is_err(), "{bad:?}");
        }
        let host_bits = TrustedProxies::parse(&["10.1.2.3/8"]).expect("valid");
        assert!(host_bits.contains(ip("10.200.0.1")));
    }
}
