//! The tabletop game server: a lobby, seats with secret tokens, live play over WebSocket,
//! every move stored before it is acknowledged, and bots in empty seats.
//!
//! It knows the games only through the Game contract: the `tabletop` binary hands it one
//! [`GameKind`] per game of its registry ([`kind`]), and the server plays them as JSON
//! (`engine::DynGame`). The API is documented in `docs/server.md` and served as OpenAPI at
//! `/api/openapi.json`.

#![forbid(unsafe_code)]

mod accounts;
mod api;
mod app;
mod blocks;
mod body;
mod bots;
mod catalog;
pub mod chat;
mod client;
mod client_addr;
mod committer;
mod connections;
mod ending;
mod error;
mod friends;
mod health;
mod hub;
mod limits;
mod live;
pub mod mail;
mod matchmaking;
pub mod model;
pub mod moderation;
mod names;
mod notifications;
mod notifier;
pub mod patch;
pub mod protocol;
mod rating;
pub mod replay;
mod seeks;
pub mod store;
pub mod testing;
mod time;
mod tokens;
mod ws;

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::sync::watch;
use tower_http::trace::TraceLayer;

pub use accounts::deletion::Deletion;
pub use accounts::passkey_list::AccountPasskey;
pub use accounts::passkeys::{PasskeyChallenge, PasskeyFinish, PasskeyStart};
pub use accounts::profile::{GamesPlayed, Profile};
pub use accounts::ratings::{Leaderboard, LevelRating, RatedPerson, Rating};
pub use accounts::seats::{AccountSeat, SeatToken, SeatTokens, MAX_CLAIMED};
pub use accounts::settings::{AccountSettings, AccountSettingsView};
pub use accounts::{Account, Credentials};
pub use api::{ApiDoc, Kinds};
pub use app::App;
pub use blocks::{BlockAccount, Blocked};
pub use bots::{BotPolicy, Strength, STRENGTHS};
pub use catalog::{kind, Catalog, DataFile, GameKind, KindInfo, Setup};
pub use client_addr::TrustedProxies;
pub use connections::{open_files_limit, ConnectionLimits};
pub use ending::{Ending, SeatEnding};
pub use error::ApiError;
pub use friends::{
    AskFriend, Friend, FriendAsked, FriendList, FriendRequest, FriendState, InviteByName,
};
pub use hub::{BotConfig, Hub, HubConfig};
pub use live::LiveMessage;
pub use matchmaking::request::{OpenSeek, PostSeek, SeekList, SeekPosted, SeekState};
pub use notifications::{
    BrowserSeats, HeldSeats, NotificationList, NotificationsUpdate, ReadNotifications, Unread,
};
pub use rating::Unrated;
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
    /// The least time between a bot's turn and its move in a game with a human seat.
    pub bot_pace_with_people: std::time::Duration,
    /// Whether clients may name bot specs (each parameter bounded) besides the strengths.
    pub allow_bot_specs: bool,
    /// The longest a bot decision may take: the bot then moves its best move so far.
    pub bot_deadline: std::time::Duration,
    /// Decisions of games with no human seat that may wait for a worker before new such
    /// games are refused (`busy`).
    pub bot_queue_limit: usize,
    /// The turns a game with no human seat may last (in a game that has a turn cap).
    pub bot_game_turn_cap: Option<u32>,
    /// New games, joins and replays a minute per client address (0: no limit).
    pub post_limit: u32,
    /// Transactions storing moves at once (SQLite has one writer in any case).
    pub writers: usize,
    /// Connections in all and per client, and how long a request's head may take.
    pub connections: ConnectionLimits,
    /// How long a request with a body (the `POST` routes) may take, body and answer.
    pub body_timeout: Duration,
    /// The reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// Open tables (waiting for players) one client address may have at once (`None`: no
    /// cap).
    pub open_tables_per_address: Option<u32>,
    /// How long a table may wait for players before it expires.
    pub expire_open_after: Duration,
    /// How long a person must be offline before their seat may be handed to a bot.
    pub hand_over_after: Duration,
    /// The messages each chat channel of a table keeps.
    pub chat_per_channel: u32,
    /// The shortest bank a clock may start with (`None`: the usual minute or hour).
    pub shortest_clock_secs: Option<u32>,
    /// How long a seek stays matchable after its browser last waited for it.
    pub seek_alive: Duration,
    /// How long a lease on a running table's bots and clocks lasts unrenewed, with several
    /// server processes on one database.
    pub lease: Duration,
    /// Whether the session cookie is marked `Secure`: the server is reached over TLS
    /// (through a reverse proxy that terminates it).
    pub secure_cookies: bool,
    /// Where "it is your turn" mail is sent from (`None`: no mail is sent).
    pub mail: Option<mail::MailConfig>,
    /// The address people open the site at: passkeys are made for it (`None`:
    /// `localhost`, any port).
    pub public_url: Option<String>,
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

/// The routes of the API over `app`, by area; every one reads a body of at most
/// [`body::MAX_BODY_BYTES`] unless its area's router says more.
pub fn router(app: Arc<App>) -> Router {
    let body_timeout = app.body_timeout;
    Router::new()
        .merge(client::router())
        .merge(api::games_router(body_timeout))
        .merge(accounts::router(body_timeout))
        .merge(seeks::router(body_timeout))
        .merge(notifications::router(body_timeout))
        .merge(friends::router(body_timeout))
        .merge(blocks::router(body_timeout))
        .merge(moderation::router(body_timeout))
        .merge(live::router())
        .merge(api::service_router())
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(body::MAX_BODY_BYTES))
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
    #[error("mail: {0}")]
    Mail(String),
    #[error("{0}")]
    Config(String),
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
    accounts::fill_name_skeletons(store.as_ref()).await?;
    let writers = if config.db.starts_with("sqlite:") {
        1
    } else {
        config.writers.max(1)
    };
    let (committer, mut writer_tasks) = committer::Committer::start(store.clone(), writers);
    let changes = store.follow().await?;
    let passkeys = accounts::passkeys::relying_party(config.public_url.as_deref())
        .map_err(ServeError::Config)?;
    if passkeys.is_none() {
        tracing::info!("passkeys are off: --public-url names no domain");
    }
    let mailer = match &config.mail {
        Some(mail) => Some(Arc::new(mail::Mailer::new(mail).map_err(ServeError::Mail)?)),
        None => None,
    };
    let hub = Hub::new(
        catalog,
        store.clone(),
        committer,
        &HubConfig {
            bots: BotConfig {
                workers: config.bot_workers,
                pace: config.bot_pace,
                pace_with_people: config.bot_pace_with_people,
                policy: BotPolicy {
                    allow_specs: config.allow_bot_specs,
                    deadline: config.bot_deadline,
                },
                queue_limit: config.bot_queue_limit,
            },
            bot_game_turn_cap: config.bot_game_turn_cap,
            open_tables_per_address: config.open_tables_per_address,
            hand_over_after: config.hand_over_after,
            chat_per_channel: config.chat_per_channel,
            clocks: hub::clock_choices(config.shortest_clock_secs),
            // Only a database other processes may share (its changes can be followed)
            // needs leases.
            lease: changes.is_some().then_some(config.lease),
            mailer,
        },
    );
    // Other server processes on the same database (PostgreSQL): their moves reach the
    // watchers connected here too.
    let seeks = matchmaking::Seeks::new(hub.clone(), config.seek_alive);
    let following = changes.map(|changes| hub.follow(matchmaking::split_changes(changes, &seeks)));
    let matching = seeks.start();
    let leasing = hub.keep_leases();
    let sharing = hub.share_presence();
    let forgetting = hub.notifier().keep();
    let clocks = hub.run_clocks();
    let rating_sweep = hub.sweep_ratings();
    let (shutdown_tx, shutdown) = watch::channel(false);
    let app = Arc::new(App {
        hub: hub.clone(),
        seeks,
        health: health::Health::new(store.clone()),
        requests: limits::RequestLimit::new(config.post_limit),
        accounts: app::Accounts::new(config.secure_cookies, passkeys),
        trusted_proxies: config.trusted_proxies.clone(),
        body_timeout: config.body_timeout,
        metrics: metrics_handle(),
        shutdown,
    });
    let listener = connections::listen(config.addr).map_err(|error| ServeError::Bind {
        addr: config.addr,
        error,
    })?;
    ready(listener.local_addr()?);
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
            sweeper.accounts.limits.forget_idle();
            sweeper.accounts.reports.forget_idle();
        }
    });
    // Looked for a few times within the expiry time, and at least once a minute: a table
    // expires at most a quarter of that time late.
    let expiring = hub.clone();
    let expire_after = config.expire_open_after;
    let expiry = tokio::spawn(async move {
        let period = (expire_after / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
        let mut every = tokio::time::interval(period);
        loop {
            every.tick().await;
            if let Err(e) = expiring.expire_open(expire_after).await {
                tracing::warn!(error = %e, "expiring open tables failed");
            }
        }
    });
    let stopping = hub.clone();
    let graceful = async move {
        stop.await;
        tracing::info!("shutting down: closing connections after their moves");
        // Thinking bots return at once and make no move: the blocking threads they run
        // on would otherwise keep the process alive until their searches end.
        stopping.stop_bots();
        let _ = shutdown_tx.send(true);
    };
    connections::serve(
        listener,
        router(app.clone()),
        config.connections.clone(),
        config.trusted_proxies.clone(),
        graceful,
    )
    .await;
    sweeping.abort();
    matching.abort();
    expiry.abort();
    clocks.abort();
    rating_sweep.abort();
    forgetting.abort();
    if let Some(leasing) = leasing {
        leasing.abort();
    }
    if let Some(following) = following {
        following.abort();
    }
    for task in sharing.into_iter().flatten() {
        task.abort();
    }
    // Moves already checked are stored and broadcast before the database closes.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while hub.moves_in_flight() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    hub.release_leases().await;
    hub.release_presence().await;
    hub.notifier().release().await;
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
