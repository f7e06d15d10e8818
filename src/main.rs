//! `tabletop`: simulate, serve and replay the project's games from the command line.
//!
//! - `tabletop simulate GAME` plays many random games and prints statistics;
//! - `tabletop engine` drives games through a JSON line protocol on stdin/stdout
//!   (`docs/engine-protocol.md`);
//! - `tabletop replay FILE` replays a game record and prints its log and outcome;
//! - `tabletop arena` plays bots against each other and reports their strength;
//! - `tabletop positions` records bot games' evaluation features for a fitted evaluation;
//! - `tabletop play GAME` plays a game in the terminal against bots;
//! - `tabletop play GAME --server URL` plays it on a game server;
//! - `tabletop serve` runs the game server (docs/server.md);
//! - `tabletop loadtest` plays many random games against a server on this machine.

#![forbid(unsafe_code)]

mod admin;
mod arena;
mod batch;
mod client;
mod engine_protocol;
mod loadtest;
mod play;
mod positions;
mod remote;
mod replay;
mod serve;
mod simulate;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tabletop::games;

/// The server builds and drops many small JSON values per move (views, patches, messages);
/// mimalloc measured faster than the system allocator there (`git show 7a5cde1:docs/benchmarks.md`, "Before the allocator change").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    name = "tabletop",
    version,
    about = "Rules-exact board games (Valdora, Valley of the Kings, Pandoria): serve, \
             simulate, engine, replay, arena, play"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play many uniformly random games and print statistics.
    Simulate(simulate::SimulateArgs),
    /// Serve the JSON line protocol on stdin/stdout (see docs/engine-protocol.md).
    Engine(EngineArgs),
    /// Replay a game record (as written by the engine's "record" command).
    Replay(replay::ReplayArgs),
    /// Play bots against each other over many seeded games with rotated seats.
    Arena(arena::ArenaArgs),
    /// Record the evaluation features of bot games' positions with their final scores
    /// (CSV), for scripts/fit-evaluation.
    Positions(positions::PositionsArgs),
    /// Play a game in the terminal against bots (or on a server with --server).
    Play(play::PlayArgs),
    /// Run the game server: lobby, live play over WebSocket, stored moves, bot seats.
    Serve(serve::ServeArgs),
    /// Server operators' commands on the database: `admin moderator add NAME`.
    Admin(admin::AdminArgs),
    /// Play many games of random clients against a server on this machine and report
    /// throughput, latency, message sizes and the server's CPU and memory.
    Loadtest(loadtest::LoadtestArgs),
}

#[derive(Debug, clap::Args)]
struct EngineArgs {
    /// Refuse every "data" path in "new" requests (for servers: a client must never
    /// name a file on this machine).
    #[arg(long)]
    no_data_files: bool,
}

/// A failed command: the message for stderr and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// Bad input on the command line or a config that cannot start a game (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// The command ran but failed (exit 1).
    pub fn failure(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

/// A game of bots that could not be played: a bad config is the caller's input, a bot's
/// failure is a bug.
impl From<tabletop::tournament::PlayError> for CliError {
    fn from(e: tabletop::tournament::PlayError) -> Self {
        match e {
            tabletop::tournament::PlayError::Setup(message) => CliError::usage(message),
            tabletop::tournament::PlayError::Bot(message) => CliError::failure(message),
        }
    }
}

fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // The reader went away (e.g. `| head`): nothing left to do.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::failure(format!("cannot write to stdout: {e}"))),
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Simulate(args) => print(&simulate::run(&args)?),
        Command::Replay(args) => print(&replay::run(&args)?),
        Command::Arena(args) => print(&arena::run(&args)?),
        Command::Positions(args) => print(&positions::run(&args)?),
        // On a server or here: both draw the same screen (play.rs), remote.rs on top of it.
        Command::Play(args) => match &args.server {
            Some(url) => remote::run(&args, url),
            None => play::run(&args),
        },
        Command::Serve(args) => serve::run(&args),
        Command::Admin(args) => print(&admin::run(&args)?),
        Command::Loadtest(args) => print(&loadtest::run(&args)?),
        Command::Engine(args) => match engine_protocol::run(args.no_data_files) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(CliError::failure(format!("engine: {e}"))),
        },
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Not `eprintln!`: it panics when stderr is closed, which would turn the
            // exit code into 101. The code says what happened; the message may be lost.
            let _ = writeln!(std::io::stderr(), "error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
