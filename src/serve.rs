//! `tabletop serve`: the game server (crates/server) with this binary's games.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::games;
use crate::CliError;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: sqlite://FILE (created and migrated on start) or postgres://…
    #[arg(long, default_value = "sqlite://tabletop.db")]
    pub db: String,
    /// SQLite only: full (an acknowledged move survives power loss) or normal (it survives
    /// a crash of the process; docs/server.md).
    #[arg(long, default_value = "full")]
    pub sync: server::SyncMode,
    /// Bot decisions computed at once. Games with no human seat use at most all but one
    /// of them, so that bots playing people never wait behind them for long.
    #[arg(long, default_value_t = 2)]
    pub bot_workers: usize,
    /// In a game with no human seat, the least time between two moves, so that people can
    /// watch the bots play (0: as fast as the bots decide).
    #[arg(long, default_value_t = 500, value_name = "MS")]
    pub bot_pace_ms: u64,
    /// In a game with a human seat, the least time between a bot's turn and its move, so
    /// that a person can follow each bot move on the board; the bot still decides at once
    /// (0: as fast as the bots decide).
    #[arg(long, default_value_t = 700, value_name = "MS")]
    pub bot_pace_with_people_ms: u64,
    /// In a game with no human seat, the turns it may last before it ends as truncated,
    /// for games that have a turn cap (Valdora): some tables of bots never end (0: no cap).
    #[arg(long, default_value_t = 5_000, value_name = "TURNS")]
    pub bot_game_turn_cap: u32,
    /// New games, joins and replays a minute per client address (an IPv6 client by its
    /// /64; 0: no limit). Behind a reverse proxy, name it with --trusted-proxy so that
    /// clients are told apart.
    #[arg(long, default_value_t = 60, value_name = "N")]
    pub post_limit: u32,
    /// Tables waiting for players that one client address may have open at once (0: no
    /// cap): one client cannot fill the lobby. Kept in the database, so it holds across
    /// restarts and server processes.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub open_tables_per_address: u32,
    /// A table still waiting for players this long after it was created expires: it
    /// leaves the lobby (status `expired`; it is kept) and takes no player.
    #[arg(long, default_value_t = 24 * 3600, value_name = "SECONDS")]
    pub expire_open_after_secs: u64,
    /// How long a person must have been offline before another person at the table may
    /// hand their seat to a bot (which plays it until they take it back).
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub hand_over_after_secs: u64,
    /// The messages each chat channel of a table keeps (the players', the spectators'):
    /// a message past them is refused.
    #[arg(long, default_value_t = server::chat::MAX_CHAT_PER_CHANNEL, value_name = "MESSAGES")]
    pub chat_per_channel: u32,
    /// The shortest time bank a table's clock may start with (tests and benchmarks run
    /// clocks of seconds). Default: a minute for real-time clocks, an hour a move for
    /// turn-based ones.
    #[arg(long, value_name = "SECONDS")]
    pub shortest_clock_secs: Option<u32>,
    /// How long a seek stays matchable after its browser last waited for it: a browser
    /// gone this long is not seated at a table (tests run it shorter).
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub seek_alive_secs: u64,
    /// With several server processes on one PostgreSQL database: how long a process's
    /// lease on a running table's bots and clocks lasts unrenewed (it renews it three
    /// times as often). Another process takes the table over once the lease has lapsed.
    #[arg(long, default_value_t = 6, value_name = "SECONDS")]
    pub lease_secs: u64,
    /// Mark the session cookie `Secure` (sent over HTTPS only): give it when people reach
    /// the server over TLS, through a reverse proxy that terminates it.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Connections open at once, in all; more are closed unread. Default: the open-file
    /// limit (ulimit -n) less 128 kept for the database and files.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections open at once from one client address (an IPv6 client by its /64),
    /// WebSockets included; more are closed unread (0: no cap). Trusted proxies are not
    /// capped.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub max_connections_per_address: usize,
    /// Seconds a request's line and headers may take to arrive; also how long an idle
    /// keep-alive connection is kept. Slow or silent clients are disconnected.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_secs: u64,
    /// Seconds a request with a body (new game, join, replay) may take, body and answer,
    /// before it gets 408.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout_secs: u64,
    /// A reverse proxy whose X-Forwarded-For names the client (repeatable; an address or a
    /// network such as 10.0.0.0/8; none by default). The client is the right-most
    /// address of the header that is not a trusted proxy; from any other peer the header
    /// is ignored.
    #[arg(long, value_name = "CIDR")]
    pub trusted_proxy: Vec<String>,
    /// Corrected component data for new games of GAME (repeatable): checked at start, stored
    /// with every game that plays on it, so that its record replays anywhere; the browser
    /// client draws Valley of the Kings' cards and Pandoria's map and tiles from the data
    /// of the game on the table (`GET /api/games/{id}/data`).
    #[arg(long, value_name = "GAME=FILE")]
    pub data: Vec<String>,
    /// Let clients name bot specs (`ismcts:iters=500`, docs/bots.md) besides the strengths
    /// easy, medium and hard; each parameter is still bounded (iterations, time, nodes,
    /// rollout length, …) and a spec beyond a bound is refused.
    #[arg(long)]
    pub allow_bot_specs: bool,
    /// The longest a bot decision may take: the search is stopped then and the bot moves
    /// its best move so far (a spec's `ms=` budget may not exceed it).
    #[arg(long, default_value_t = 2_000, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub bot_deadline_ms: u64,
    /// Decisions of games with no human seat that may wait for a bot worker; while that
    /// many wait, new games with no human seat are refused (`busy`, HTTP 503). Games with
    /// a person are never refused for it.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub bot_queue_limit: usize,
    /// PostgreSQL only: transactions storing moves at once.
    #[arg(long, default_value_t = 4)]
    pub writers: usize,
    /// The SMTP server "it is your turn" mail is sent through (docs/server.md, "Mail").
    /// Without it the server sends no mail, and people cannot ask for it.
    #[arg(long, value_name = "HOST", requires_all = ["smtp_from", "public_url"])]
    pub smtp_host: Option<String>,
    /// The SMTP server's port. Default: 465 with tls, 587 with starttls, 25 with none.
    #[arg(long, value_name = "PORT")]
    pub smtp_port: Option<u16>,
    /// How the connection to the SMTP server is secured: tls, starttls (required), or none
    /// (a relay on this machine only).
    #[arg(long, default_value = "starttls", value_name = "tls|starttls|none")]
    pub smtp_security: server::mail::SmtpSecurity,
    /// The SMTP account's name, if the server asks for one; its password is read from the
    /// environment variable TABLETOP_SMTP_PASSWORD (never a flag: flags show in `ps`).
    #[arg(long, value_name = "NAME")]
    pub smtp_user: Option<String>,
    /// The sender of the mail, such as "Tabletop <turns@example.org>".
    #[arg(long, value_name = "MAILBOX")]
    pub smtp_from: Option<String>,
    /// The address people open the site at (https://play.example.org): the mail's links,
    /// and the site passkeys are made for (without it: http://localhost, any port).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
}

pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=warn,sqlx=warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the runtime: {e}")))?;
    let config = server::ServeConfig {
        addr: args.addr,
        db: args.db.clone(),
        sync: args.sync,
        bot_workers: args.bot_workers,
        bot_pace: Duration::from_millis(args.bot_pace_ms),
        bot_pace_with_people: Duration::from_millis(args.bot_pace_with_people_ms),
        allow_bot_specs: args.allow_bot_specs,
        bot_deadline: Duration::from_millis(args.bot_deadline_ms),
        bot_queue_limit: args.bot_queue_limit,
        bot_game_turn_cap: Some(args.bot_game_turn_cap).filter(|&turns| turns > 0),
        post_limit: args.post_limit,
        writers: args.writers,
        connections: server::ConnectionLimits {
            max_total: args.max_connections.unwrap_or_else(default_max_connections),
            max_per_address: args.max_connections_per_address,
            header_timeout: Duration::from_secs(args.header_timeout_secs),
        },
        body_timeout: Duration::from_secs(args.body_timeout_secs),
        trusted_proxies: server::TrustedProxies::parse(&args.trusted_proxy)
            .map_err(|why| CliError::usage(format!("--trusted-proxy: {why}")))?,
        open_tables_per_address: Some(args.open_tables_per_address).filter(|&n| n > 0),
        expire_open_after: Duration::from_secs(args.expire_open_after_secs.max(1)),
        hand_over_after: Duration::from_secs(args.hand_over_after_secs),
        chat_per_channel: args.chat_per_channel,
        shortest_clock_secs: args.shortest_clock_secs,
        lease: Duration::from_secs(args.lease_secs.max(1)),
        seek_alive: Duration::from_secs(args.seek_alive_secs.max(1)),
        secure_cookies: args.secure_cookies,
        mail: mail_config(args)?,
        public_url: args.public_url.clone(),
    };
    let catalog = catalog_with_data(&args.data)?;
    let db = args.db.clone();
    runtime
        .block_on(async move {
            let stop = stop_signal();
            server::serve(config, catalog, stop, move |addr| {
                // The first line of stdout is the address: scripts and tests read it.
                println!("tabletop: serving on http://{addr} (database {db}); Ctrl-C stops");
            })
            .await
        })
        .map_err(|e| CliError::failure(e.to_string()))
}

/// The SMTP settings of `--smtp-host` and its companions, if given.
fn mail_config(args: &ServeArgs) -> Result<Option<server::mail::MailConfig>, CliError> {
    let Some(host) = &args.smtp_host else {
        return Ok(None);
    };
    let password = std::env::var("TABLETOP_SMTP_PASSWORD").ok();
    if args.smtp_user.is_some() != password.is_some() {
        return Err(CliError::usage(
            "--smtp-user and TABLETOP_SMTP_PASSWORD go together: give both or neither",
        ));
    }
    Ok(Some(server::mail::MailConfig {
        host: host.clone(),
        port: args.smtp_port,
        security: args.smtp_security,
        username: args.smtp_user.clone(),
        password,
        from: args.smtp_from.clone().unwrap_or_default(),
        public_url: args.public_url.clone().unwrap_or_default(),
    }))
}

/// Files kept for other uses than connections: the database's, the listener, logs.
const FILES_BESIDE_CONNECTIONS: u64 = 128;

/// As many connections as the process may open files, less those kept for the rest, so
/// that a crowd of connections never leaves the database without a file.
fn default_max_connections() -> usize {
    let limit = server::open_files_limit().unwrap_or(1024);
    usize::try_from(limit.saturating_sub(FILES_BESIDE_CONNECTIONS).max(1)).unwrap_or(usize::MAX)
}

/// The games, with the corrected data of each `GAME=FILE`.
fn catalog_with_data(data: &[String]) -> Result<server::Catalog, CliError> {
    let mut catalog = games::catalog();
    for entry in data {
        let Some((game, file)) = entry.split_once('=') else {
            return Err(CliError::usage(format!(
                "--data {entry:?}: give GAME=FILE, e.g. --data valdora=my-valdora.toml"
            )));
        };
        let game = game.trim().to_ascii_lowercase();
        let text = games::read_data_file(std::path::Path::new(file))
            .map_err(|e| CliError::usage(e.message))?;
        catalog = catalog
            .with_data(&game, &text)
            .map_err(|why| CliError::usage(format!("--data {game}={file}: {why}")))?;
    }
    Ok(catalog)
}

/// Ctrl-C or SIGTERM. The handlers are installed at once (call it within the runtime),
/// before the server prints its address: a signal sent as soon as the address is read
/// stops the server gracefully instead of killing it.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, Signal, SignalKind};
        let term = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        let wait = |signal: Option<Signal>| async move {
            match signal {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        async move {
            tokio::select! {
                () = wait(term) => {}
                () = wait(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
