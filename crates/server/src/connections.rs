//! The connections the server accepts, served by hyper: a cap on connections in all and per
//! client address, each closed at once (before anything is read) when over its cap; a time
//! limit on a request's head, which also ends idle keep-alive connections; an accept loop
//! that pauses when the process runs out of files instead of spinning or stopping; and a
//! graceful shutdown.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::client_addr::TrustedProxies;
use crate::limits::AddressKey;

/// How the server takes connections.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// Connections open at once, in all (WebSockets included).
    pub max_total: usize,
    /// Connections open at once from one client address ([`AddressKey`]: IPv6 by /64);
    /// 0: no cap. Trusted proxies are not capped: they carry many clients.
    pub max_per_address: usize,
    /// The time a request's head (request line and headers) may take to arrive, from the
    /// moment the connection waits for it: also how long a keep-alive connection may stay
    /// idle between two requests.
    pub header_timeout: Duration,
}

/// The first pause after an accept failed that is not the client's doing (out of files or
/// memory); it doubles up to [`MAX_ACCEPT_PAUSE`] while accepts keep failing.
const MIN_ACCEPT_PAUSE: Duration = Duration::from_millis(10);
const MAX_ACCEPT_PAUSE: Duration = Duration::from_secs(1);

/// Connections the kernel completes and queues for the accept loop (capped by
/// `net.core.somaxconn`). Tokio's default of 1024 filled up under a flood of connections
/// from one client, and the kernel then dropped every client's handshakes alike: another
/// client's connection waited a second for its retry.
const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `address`.
pub fn listen(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server may listen again at once.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Connections open now, in all and by client.
#[derive(Default)]
struct Counts {
    total: usize,
    by_client: HashMap<AddressKey, usize>,
}

/// Admits connections within the caps.
struct Admission {
    limits: ConnectionLimits,
    trusted: TrustedProxies,
    counts: Mutex<Counts>,
}

/// Why a connection was closed unread.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    Total,
    PerAddress,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Total => "total",
            Refusal::PerAddress => "per_address",
        }
    }
}

impl Admission {
    fn counts(&self) -> MutexGuard<'_, Counts> {
        // Counts are changed by whole statements: a panic cannot leave them half-changed.
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a connection from `peer`, or says why it is over a cap.
    fn admit(self: &Arc<Self>, peer: SocketAddr) -> Result<Permit, Refusal> {
        let client = (self.limits.max_per_address > 0 && !self.trusted.contains(peer.ip()))
            .then(|| AddressKey::from(peer.ip()));
        let mut counts = self.counts();
        if counts.total >= self.limits.max_total {
            return Err(Refusal::Total);
        }
        if let Some(client) = client {
            let open = counts.by_client.entry(client).or_default();
            if *open >= self.limits.max_per_address {
                return Err(Refusal::PerAddress);
            }
            *open += 1;
        }
        counts.total += 1;
        metrics::gauge!("tabletop_connections").set(counts.total as f64);
        Ok(Permit {
            admission: self.clone(),
            client,
        })
    }
}

/// One admitted connection, counted until it is dropped: it travels with the socket, into
/// the WebSocket the connection may become.
struct Permit {
    admission: Arc<Admission>,
    client: Option<AddressKey>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.admission.counts();
        counts.total -= 1;
        if let Some(client) = self.client {
            if let Some(open) = counts.by_client.get_mut(&client) {
                *open -= 1;
                if *open == 0 {
                    counts.by_client.remove(&client);
                }
            }
        }
        metrics::gauge!("tabletop_connections").set(counts.total as f64);
    }
}

/// A socket with its [`Permit`]: the connection counts as long as the socket is open.
struct CountedStream {
    stream: TcpStream,
    _permit: Permit,
}

impl AsyncRead for CountedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// This process's soft limit of open files (`Max open files` of /proc/self/limits).
pub fn open_files_limit() -> Result<u64, String> {
    let limits = std::fs::read_to_string("/proc/self/limits")
        .map_err(|e| format!("cannot read /proc/self/limits: {e}"))?;
    let soft = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or("/proc/self/limits has no open-file limit")?;
    Ok(match soft {
        "unlimited" => u64::MAX,
        n => n
            .parse()
            .map_err(|_| format!("open-file limit {n:?} is not a number"))?,
    })
}

/// Serves `router` on the connections of `listener` until `stop` resolves, then lets every
/// connection finish the request it is serving (hyper's graceful shutdown) and returns
/// once they are all closed. WebSockets are on their own by then (`App::shutdown` closes
/// them).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    trusted: TrustedProxies,
    stop: impl Future<Output = ()>,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let admission = Arc::new(Admission {
        limits,
        trusted,
        counts: Mutex::default(),
    });
    // Every connection holds a receiver: it hears the shutdown on it, and the server knows
    // every connection is closed when no receiver is left.
    let (stopping, stopping_heard) = watch::channel(());
    let mut stop = pin!(stop);
    let mut pause = MIN_ACCEPT_PAUSE;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                pause = MIN_ACCEPT_PAUSE;
                match admission.admit(peer) {
                    Ok(permit) => {
                        let stream = CountedStream {
                            stream,
                            _permit: permit,
                        };
                        let connection = serve_connection(
                            &http,
                            stream,
                            peer,
                            router.clone(),
                            stopping_heard.clone(),
                        );
                        tokio::spawn(connection);
                    }
                    Err(refusal) => refuse(stream, refusal),
                }
            }
            // The client gave up before its connection was taken: nothing to do.
            Err(error) if is_connection_error(&error) => {}
            // Out of files or memory: accepting again at once would fail again at once.
            // The connections open now must close first; the ones waiting keep waiting
            // in the listen queue.
            Err(error) => {
                tracing::error!(%error, pause_ms = pause.as_millis() as u64, "accepting a connection failed; pausing");
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    () = &mut stop => break,
                }
                pause = (pause * 2).min(MAX_ACCEPT_PAUSE);
            }
        }
    }
    drop(listener);
    drop(stopping_heard);
    let _ = stopping.send(());
    stopping.closed().await;
}

/// Closes a connection over a cap without reading it: a reset (linger 0) frees the socket
/// at once, with no TIME_WAIT kept for it.
fn refuse(stream: TcpStream, refusal: Refusal) {
    metrics::counter!("tabletop_connections_refused_total", "cap" => refusal.label()).increment(1);
    let _ = stream.set_zero_linger();
    drop(stream);
}

/// Errors of `accept` that are one connection's, not the server's.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// One connection: HTTP/1.1 requests until the client or the server closes it, or an
/// upgrade to WebSocket.
fn serve_connection(
    http: &http1::Builder,
    stream: CountedStream,
    peer: SocketAddr,
    router: Router,
    mut stopping: watch::Receiver<()>,
) -> impl Future<Output = ()> + Send + 'static {
    // Nagle's algorithm off: an update is one small frame that should leave at once. With
    // it on, a seat's next update waited for the acknowledgement of its last one, which a
    // client that is not moving sends late (delayed ACK): milliseconds per move.
    if let Err(error) = stream.stream.set_nodelay(true) {
        tracing::warn!(%error, "could not turn Nagle's algorithm off for a connection");
    }
    // Handlers that need the peer (`ClientAddr`) find it as `ConnectInfo`, as with axum's
    // own server.
    let service = router.map_request(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.map(Body::new)
    });
    let connection = http
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
        .with_upgrades();
    async move {
        let mut connection = pin!(connection);
        let mut told = false;
        loop {
            tokio::select! {
                served = connection.as_mut() => {
                    if let Err(error) = served {
                        tracing::debug!(%error, %peer, "connection ended with an error");
                    }
                    break;
                }
                heard = stopping.changed(), if !told => {
                    told = true;
                    if heard.is_ok() {
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
        }
    }
}
