//! `tabletop serve`: the game server (crates/server) with this binary's games.

use std::net::SocketAddr;

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
    /// In a game with no human seat, the turns it may last before it ends as truncated,
    /// for games that have a turn cap (Valdora): some tables of bots never end (0: no cap).
    #[arg(long, default_value_t = 5_000, value_name = "TURNS")]
    pub bot_game_turn_cap: u32,
    /// New games, joins and replays a minute per client address (0: no limit). Behind a
    /// reverse proxy every client has the proxy's address: limit there and set 0 here.
    #[arg(long, default_value_t = 60, value_name = "N")]
    pub post_limit: u32,
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
        bot_pace: std::time::Duration::from_millis(args.bot_pace_ms),
        allow_bot_specs: args.allow_bot_specs,
        bot_deadline: std::time::Duration::from_millis(args.bot_deadline_ms),
        bot_queue_limit: args.bot_queue_limit,
        bot_game_turn_cap: Some(args.bot_game_turn_cap).filter(|&turns| turns > 0),
        post_limit: args.post_limit,
        writers: args.writers,
    };
    let catalog = catalog_with_data(&args.data)?;
    let db = args.db.clone();
    runtime
        .block_on(server::serve(config, catalog, stop_signal(), move |addr| {
            // The first line of stdout is the address: scripts and tests read it.
            println!("tabletop: serving on http://{addr} (database {db}); Ctrl-C stops");
        }))
        .map_err(|e| CliError::failure(e.to_string()))
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

/// Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
