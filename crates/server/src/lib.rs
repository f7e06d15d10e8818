//! The tabletop game server: a lobby, seats with secret tokens, live play over WebSocket,
//! every move stored before it is acknowledged, and bots in empty seats.
//!
//! It knows the games only through the Game contract: the `tabletop` binary hands it one
//! [`GameKind`] per game of its registry ([`kind`]), and the server plays them as JSON
//! (`engine::DynGame`). The API is documented in `docs/server.md` and served as OpenAPI at
//! `/api/openapi.json`.

#![forbid(unsafe_code)]

mod api;
mod bots;
mod catalog;
mod client;
mod committer;
mod error;
mod hub;
mod limits;
mod names;
pub mod patch;
pub mod protocol;
pub mod replay;
pub mod store;
pub mod testing;
mod tokens;
mod ws;

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::Router;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::sync::watch;
use tower_http::trace::TraceLayer;

pub use api::{ApiDoc, Kinds};
pub use bots::{Strength, STRENGTHS};
pub use catalog::{kind, Catalog, DataFile, GameKind, KindInfo, Setup};
pub use error::ApiError;
pub use hub::{Hub, HubConfig};
pub use store::{Store, StoreError, SyncMode};

/// How `tabletop serve` runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    /// `sqlite://FILE` or `postgres://…`.
    pub db: String,
    pub sync: SyncMode,
    /// Bot decisions computed at once.
    pub bot_workers: usize,
    /// The least time between two moves of a game with no human seat.
    pub bot_pace: std::time::Duration,
    /// The turns a game with no human seat may last (in a game that has a turn cap).
    pub bot_game_turn_cap: Option<u32>,
    /// New games, joins and replays a minute per client address (0: no limit).
    pub post_limit: u32,
    /// Transactions storing moves at once (SQLite has one writer in any case).
    pub writers: usize,
}

/// What every handler shares.
pub struct App {
    pub hub: Arc<Hub>,
    /// New games, joins and replays per client address.
    requests: limits::RequestLimit,
    metrics: PrometheusHandle,
    /// Becomes true when the server shuts down: connections close after their move.
    shutdown: watch::Receiver<bool>,
}

/// The process-wide metrics recorder (one per process, however many servers it runs).
fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Suffix("_seconds".into()),
                    &[
                        0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                    ],
                )
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full("tabletop_commit_batch_size".into()),
                        &[1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0],
                    )
                })
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            // Another recorder may be installed already (tests): then ours renders empty.
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}

/// The routes of the API over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(client::index))
        .route("/assets/{name}", get(client::asset))
        .route("/favicon.svg", get(client::favicon))
        .route("/api/games/kinds", get(api::kinds))
        .route("/api/games", post(api::create).get(api::list))
        .route("/api/games/{id}", get(api::summary))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/log", get(api::log))
        .route("/api/games/{id}/data", get(api::data))
        .route("/api/games/{id}/text", get(api::text))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route(
            "/api/replay",
            post(api::replay).layer(DefaultBodyLimit::max(replay::MAX_RECORD_BYTES)),
        )
        .route("/api/openapi.json", get(api::openapi))
        .route("/healthz", get(api::health))
        .route("/metrics", get(api::metrics))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(api::MAX_BODY_BYTES))
        .layer(TraceLayer::new_for_http())
        .with_state(app)
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        addr: SocketAddr,
        error: std::io::Error,
    },
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs the server until `stop` resolves (Ctrl-C or SIGTERM in the binary), then shuts
/// down gracefully: no new connections, every connection closed with a reason after its
/// move, moves being stored finish, the database is closed. `ready` is told the address
/// once the server listens.
pub async fn serve(
    config: ServeConfig,
    catalog: Catalog,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let store = store::open(&config.db, config.sync).await?;
    // Stored before any game names them.
    for (game, data) in catalog.data_files() {
        store.put_data_file(&data.digest, game, &data.text).await?;
    }
    let writers = if config.db.starts_with("sqlite:") {
        1
    } else {
        config.writers.max(1)
    };
    let (committer, mut writer_tasks) = committer::Committer::start(store.clone(), writers);
    let hub = Hub::new(
        catalog,
        store.clone(),
        committer,
        &HubConfig {
            bot_workers: config.bot_workers,
            bot_pace: config.bot_pace,
            bot_game_turn_cap: config.bot_game_turn_cap,
        },
    );
    // Other server processes on the same database (PostgreSQL): their moves reach the
    // watchers connected here too.
    let following = store.follow().await?.map(|changes| hub.follow(changes));
    let (shutdown_tx, shutdown) = watch::channel(false);
    let app = Arc::new(App {
        hub: hub.clone(),
        requests: limits::RequestLimit::new(config.post_limit),
        metrics: metrics_handle(),
        shutdown,
    });
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|error| ServeError::Bind {
            addr: config.addr,
            error,
        })?;
    ready(listener.local_addr()?);
    // Nagle's algorithm off: an update is one small frame that should leave at once. With
    // it on, a seat's next update waited for the acknowledgement of its last one, which a
    // client that is not moving sends late (delayed ACK): milliseconds per move.
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::warn!(%error, "could not turn Nagle's algorithm off for a connection");
        }
    });
    let resumed = hub.clone();
    tokio::spawn(async move {
        match resumed.resume_bots().await {
            Ok(n) => tracing::info!(games = n, "running games loaded"),
            Err(e) => tracing::error!(error = %e, "loading running games failed"),
        }
    });
    let sweeper = app.clone();
    let sweeping = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            sweeper.hub.evict_idle();
            sweeper.requests.forget_idle();
        }
    });
    let graceful = async move {
        stop.await;
        tracing::info!("shutting down: closing connections after their moves");
        let _ = shutdown_tx.send(true);
    };
    // The client's address is what the request limit counts by.
    let service = router(app.clone()).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(graceful)
        .await?;
    sweeping.abort();
    if let Some(following) = following {
        following.abort();
    }
    // Moves already checked are stored and broadcast before the database closes.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while hub.moves_in_flight() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(app);
    drop(hub);
    // The writers end once the queue is empty and every committer handle is gone; bot
    // tasks still deciding may hold one, so do not wait for them forever.
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while writer_tasks.join_next().await.is_some() {}
    })
    .await;
    store.close().await;
    Ok(())
}
