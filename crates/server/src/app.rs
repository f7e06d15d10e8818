//! What every handler shares ([`App`], the router's state), and how a handler reads the
//! client's address from it. Below the handlers (`api`, `ws`, `accounts`), above the hub.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::sync::watch;

use crate::client_addr::{ClientAddr, TrustedProxies};
use crate::error::ApiError;
use crate::health::Health;
use crate::hub::Hub;
use crate::limits::{AttemptLimits, ReportLimit, RequestLimit};
use crate::matchmaking::Seeks;
use crate::protocol::ErrorKind;

/// What every handler shares.
pub struct App {
    pub hub: Arc<Hub>,
    /// The seeks waited for on this process, and the matcher.
    pub(crate) seeks: Arc<Seeks>,
    /// `/healthz`'s checks of the database.
    pub(crate) health: Health,
    /// New games, joins and replays per client address.
    pub(crate) requests: RequestLimit,
    /// Sign-in attempts and the session cookie's settings.
    pub(crate) accounts: Accounts,
    /// Whose `X-Forwarded-For` names the client ([`ClientAddr`]).
    pub(crate) trusted_proxies: TrustedProxies,
    /// How long a request with a body may take.
    pub(crate) body_timeout: Duration,
    pub(crate) metrics: PrometheusHandle,
    /// Becomes true when the server shuts down: connections close after their move.
    pub(crate) shutdown: watch::Receiver<bool>,
}

/// What the server keeps for accounts besides the database.
pub struct Accounts {
    pub limits: AttemptLimits,
    /// Reports per reporter.
    pub reports: ReportLimit,
    /// Whether the session cookie is marked `Secure` (the server is reached over TLS).
    pub secure_cookies: bool,
    /// The relying party of passkeys (`None`: the site's address cannot have them).
    pub passkeys: Option<webauthn_rs::Webauthn>,
}

impl Accounts {
    pub fn new(secure_cookies: bool, passkeys: Option<webauthn_rs::Webauthn>) -> Self {
        Accounts {
            limits: AttemptLimits::default(),
            reports: ReportLimit::default(),
            secure_cookies,
            passkeys,
        }
    }
}

/// The client's address, read with the state's trusted proxies (here rather than in
/// `client_addr`, which stays below the state).
impl FromRequestParts<Arc<App>> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        // Every connection's requests carry its peer (connections.rs).
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
            return Err(ApiError::new(
                ErrorKind::Internal,
                "the server does not know the client's address",
            ));
        };
        Ok(ClientAddr(
            app.trusted_proxies.client(peer.ip(), &parts.headers),
        ))
    }
}
