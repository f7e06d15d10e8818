//! `tabletop loadtest`: many games of human seats played by random clients against a
//! server on this machine, and what it cost.
//!
//! It creates `--games` games whose seats are all human, opens one WebSocket per seat on
//! one runtime, and each client plays a uniformly random action of its own `legal` list
//! whenever it is to move, until its game ends, `--moves` moves were sent in all, or
//! `--seconds` passed. The report: moves stored and their rate, the latency of a move (from
//! sending the act to receiving the mover's own update of that seq), the sizes of the
//! messages, the errors by kind, and with `--server-pid` the server's CPU time and peak
//! memory.
//!
//! It is bounded so that it cannot be turned on someone else's server or exhaust this
//! machine: loopback URLs only, at most [`MAX_GAMES`] games and [`MAX_SECONDS`] seconds,
//! and no more sockets than the open-file limit allows (it raises no limit).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use engine::Seat;
use futures_util::{SinkExt, StreamExt};
use hyper::Method;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use server::protocol::{Created, ErrorKind};
use server::store::Status;
use tokio::sync::{mpsc, watch, Semaphore};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, kind_name, ClientError, ServerUrl};
use crate::CliError;

/// Most games one run creates.
pub const MAX_GAMES: usize = 2_000;
/// Longest run.
pub const MAX_SECONDS: u64 = 600;
/// WebSocket handshakes in progress at once (a burst larger than the server's accept
/// backlog would only measure refused connections).
const CONNECTING: usize = 64;
/// Games created at once.
const CREATING: usize = 8;
/// Files this process keeps open besides its sockets.
const FILE_MARGIN: u64 = 64;
/// How long a client still waits for the update of a move it sent once the run stops.
const GRACE: Duration = Duration::from_secs(2);

#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// The server, on this machine: http://127.0.0.1:PORT, http://localhost:PORT or
    /// http://[::1]:PORT.
    #[arg(long)]
    pub url: String,
    /// Games played at once (one WebSocket per seat).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// The game played.
    #[arg(long, default_value = "valdora")]
    pub game: String,
    /// Players per game (default: the game's default).
    #[arg(long)]
    pub players: Option<u64>,
    /// Stop once this many moves were sent, over all games.
    #[arg(long)]
    pub moves: Option<u64>,
    /// Stop after this many seconds of play.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// A client's mean pause before each of its moves, as a person thinks (0: move at
    /// once, as fast as the server answers). Each pause is drawn uniformly from 0 to twice
    /// this, so that the games do not move in lockstep (all games' first moves at once,
    /// then all their second moves): with many games, the pauses offer the server a
    /// steady load below its limit, and the latency measured is the latency people meet.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// The server's process id: report its CPU time and peak memory (Linux /proc).
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Seed of the games and of the clients' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Percentiles of a sample.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Spread {
    pub samples: usize,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Spread {
    /// Nearest-rank percentiles of `values` (sorted here).
    fn of(mut values: Vec<f64>) -> Self {
        values.sort_by(f64::total_cmp);
        let rank = |p: f64| -> f64 {
            if values.is_empty() {
                return 0.0;
            }
            let i = ((p / 100.0) * values.len() as f64).ceil() as usize;
            values[i.clamp(1, values.len()) - 1]
        };
        Spread {
            samples: values.len(),
            p50: rank(50.0),
            p90: rank(90.0),
            p99: rank(99.0),
            max: values.last().copied().unwrap_or(0.0),
        }
    }
}

/// A process's CPU time over the run.
#[derive(Debug, Clone, Serialize)]
pub struct CpuUsage {
    /// User plus system CPU time during the run.
    pub cpu_seconds: f64,
    /// In the process's own code.
    pub user_seconds: f64,
    /// In the kernel on its behalf (system calls: the sockets, the database's writes).
    pub system_seconds: f64,
    /// `cpu_seconds` per second of the run (1.0 is one core busy).
    pub cores: f64,
    /// `cpu_seconds` per move stored, in microseconds.
    pub micros_per_move: f64,
}

impl CpuUsage {
    fn between(before: CpuTicks, after: CpuTicks, seconds: f64, moves: u64) -> Self {
        let ticks = clock_ticks_per_second() as f64;
        let user_seconds = after.user.saturating_sub(before.user) as f64 / ticks;
        let system_seconds = after.system.saturating_sub(before.system) as f64 / ticks;
        let cpu_seconds = user_seconds + system_seconds;
        CpuUsage {
            cpu_seconds,
            user_seconds,
            system_seconds,
            cores: cpu_seconds / seconds.max(1e-9),
            micros_per_move: cpu_seconds * 1e6 / (moves.max(1) as f64),
        }
    }

    fn text(&self) -> String {
        format!(
            "{:.2} s CPU ({:.2} cores; user {:.2} s, system {:.2} s), {:.0} µs per move",
            self.cpu_seconds,
            self.cores,
            self.user_seconds,
            self.system_seconds,
            self.micros_per_move
        )
    }
}

/// The server's usage over the run.
#[derive(Debug, Clone, Serialize)]
pub struct ServerUsage {
    pub pid: u32,
    #[serde(flatten)]
    pub cpu: CpuUsage,
    /// VmHWM: the process's peak resident memory since it started.
    pub peak_rss_kib: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    pub players: usize,
    pub games: usize,
    pub clients: usize,
    /// Games that ended by their rules during the run.
    pub games_over: usize,
    /// Moves stored (each counted once, by its mover's own update).
    pub moves: u64,
    pub seconds: f64,
    /// The clients' mean pause before each move.
    pub think_ms: u64,
    pub moves_per_second: f64,
    pub create_seconds: f64,
    pub connect_seconds: f64,
    /// From sending an act to receiving the mover's update of that move, in milliseconds.
    pub latency_ms: Spread,
    /// Sizes of the update messages each seat received, in bytes.
    pub update_bytes: Spread,
    /// Sizes of the state messages (after hello and after a resync), in bytes.
    pub state_bytes: Spread,
    /// Server errors by their kind, and client failures (connect, closed, websocket).
    pub errors: BTreeMap<String, u64>,
    pub server: Option<ServerUsage>,
    /// This process: its clients share the machine with the server.
    pub load_generator: CpuUsage,
}

impl Report {
    fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} games of {} ({} players, {} clients): {} over, {} moves stored in {:.1} s = {:.0} moves/s",
            self.games,
            self.game,
            self.players,
            self.clients,
            self.games_over,
            self.moves,
            self.seconds,
            self.moves_per_second
        );
        let _ = writeln!(
            s,
            "setup: games created in {:.2} s, sockets connected in {:.2} s; clients think {} ms on average before a move",
            self.create_seconds, self.connect_seconds, self.think_ms
        );
        let l = &self.latency_ms;
        let _ = writeln!(
            s,
            "move latency (ms, {} moves): p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            l.samples, l.p50, l.p90, l.p99, l.max
        );
        for (name, b) in [("update", &self.update_bytes), ("state", &self.state_bytes)] {
            let _ = writeln!(
                s,
                "{name} message bytes ({} messages): median {:.0}, p99 {:.0}, max {:.0}",
                b.samples, b.p50, b.p99, b.max
            );
        }
        if self.errors.is_empty() {
            let _ = writeln!(s, "errors: none");
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let _ = writeln!(s, "errors: {}", list.join(", "));
            if self.errors.contains_key("connect") {
                // Every client of the load has one address.
                let _ = writeln!(
                    s,
                    "  (the server closes connections past its cap per address: start it \
                     with --max-connections-per-address 0)"
                );
            }
        }
        if let Some(u) = &self.server {
            let _ = writeln!(
                s,
                "server (pid {}): {}, peak RSS {} MiB",
                u.pid,
                u.cpu.text(),
                u.peak_rss_kib / 1024
            );
        }
        let _ = writeln!(s, "load generator: {}", self.load_generator.text());
        s
    }
}

pub fn run(args: &LoadtestArgs) -> Result<String, CliError> {
    let base = ServerUrl::parse(&args.url).map_err(|e| CliError::usage(e.to_string()))?;
    if !base.is_loopback() {
        return Err(CliError::usage(format!(
            "--url {}: the load test only talks to a server on this machine (127.0.0.1, \
             localhost or [::1])",
            args.url
        )));
    }
    if args.games == 0 || args.games > MAX_GAMES {
        return Err(CliError::usage(format!("--games is 1 to {MAX_GAMES}")));
    }
    if args.seconds == 0 || args.seconds > MAX_SECONDS {
        return Err(CliError::usage(format!("--seconds is 1 to {MAX_SECONDS}")));
    }
    let (game, players) = client::seat_count(&args.game, args.players)?;
    let clients = args.games * players;
    let limit = server::open_files_limit().map_err(CliError::failure)?;
    if clients as u64 + FILE_MARGIN > limit {
        return Err(CliError::usage(format!(
            "{clients} sockets do not fit the open-file limit of {limit} (ulimit -n): \
             play fewer games"
        )));
    }
    if let Some(pid) = args.server_pid {
        CpuTicks::of(pid).map_err(CliError::usage)?;
    }
    // One thread: the clients share the machine with the server they measure, and a thread
    // of their own wakes once for all the sockets that became readable (two threads took
    // about a seventh more CPU per move, in wake-ups of each other).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the runtime: {e}")))?;
    let plan = Plan {
        base,
        game,
        players,
        games: args.games,
        moves: args.moves,
        seconds: args.seconds,
        think: Duration::from_millis(args.think_ms),
        seed: args.seed,
        server_pid: args.server_pid,
    };
    let report = runtime.block_on(load(plan))?;
    if args.json {
        serde_json::to_string_pretty(&report)
            .map(|s| s + "\n")
            .map_err(|e| CliError::failure(format!("cannot write the report: {e}")))
    } else {
        Ok(report.text())
    }
}

struct Plan {
    base: ServerUrl,
    game: &'static str,
    players: usize,
    games: usize,
    moves: Option<u64>,
    seconds: u64,
    think: Duration,
    seed: u64,
    server_pid: Option<u32>,
}

/// What every client shares.
struct Shared {
    base: ServerUrl,
    connecting: Semaphore,
    /// Moves sent so far, against `limit`.
    sent: AtomicU64,
    limit: Option<u64>,
    think: Duration,
    stop: watch::Sender<bool>,
}

impl Shared {
    /// Takes one move of the run's budget; false once it is spent.
    fn reserve_move(&self) -> bool {
        let n = self.sent.fetch_add(1, Ordering::SeqCst);
        !matches!(self.limit, Some(limit) if n >= limit)
    }
}

/// What one client saw.
#[derive(Debug, Default)]
struct ClientStats {
    moves: u64,
    latencies_ms: Vec<f64>,
    update_bytes: Vec<f64>,
    state_bytes: Vec<f64>,
    errors: BTreeMap<String, u64>,
    over: bool,
}

impl ClientStats {
    fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }
}

async fn create_game(plan: &Plan, index: usize) -> Result<Created, ClientError> {
    let seats: Vec<Value> = (0..plan.players)
        .map(|s| json!({ "kind": "human", "name": format!("load {index}.{s}") }))
        .collect();
    let body = json!({
        "game": plan.game,
        "config": { "players": plan.players },
        "seed": plan.seed.wrapping_add(index as u64),
        "seats": seats,
    });
    client::call(&plan.base, Method::POST, "/api/games", Some(&body)).await
}

async fn load(plan: Plan) -> Result<Report, CliError> {
    let started = Instant::now();
    let created: Vec<Result<Created, ClientError>> = futures_util::stream::iter(0..plan.games)
        .map(|i| create_game(&plan, i))
        .buffered(CREATING)
        .collect()
        .await;
    let created: Vec<Created> = created.into_iter().collect::<Result<_, _>>().map_err(|e| {
        let hint = match e {
            ClientError::Api {
                kind: ErrorKind::RateLimited,
                ..
            } => " (the server limits new games per address: start it with --post-limit 0)",
            _ => "",
        };
        CliError::failure(format!("creating the games: {e}{hint}"))
    })?;
    let create_seconds = started.elapsed().as_secs_f64();

    let cpu_before = plan
        .server_pid
        .map(CpuTicks::of)
        .transpose()
        .map_err(CliError::failure)?;
    let own_cpu_before = CpuTicks::of(std::process::id()).map_err(CliError::failure)?;
    let (stop, _) = watch::channel(false);
    let shared = Arc::new(Shared {
        base: plan.base.clone(),
        connecting: Semaphore::new(CONNECTING),
        sent: AtomicU64::new(0),
        limit: plan.moves,
        think: plan.think,
        stop,
    });
    let (go_tx, go) = watch::channel(false);
    let (ready_tx, mut ready) = mpsc::channel::<()>(64);
    let connecting = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    let mut clients = 0usize;
    for (g, game) in created.iter().enumerate() {
        for seat in &game.seats {
            let Some(token) = seat.token.clone() else {
                continue;
            };
            clients += 1;
            let rng_seed = plan.seed
                ^ ((g as u64) << 8 | u64::from(seat.seat)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let seat_client = SeatClient {
                shared: shared.clone(),
                game: g,
                id: game.id.clone(),
                seat: seat.seat,
                token,
                rng: ChaCha8Rng::seed_from_u64(rng_seed),
            };
            let go = go.clone();
            let stop = shared.stop.subscribe();
            let ready = ready_tx.clone();
            tasks.spawn(seat_client.run(go, stop, ready));
        }
    }
    drop(ready_tx);
    // Every client connected (or failed to) before the clock starts.
    for _ in 0..clients {
        if ready.recv().await.is_none() {
            break;
        }
    }
    let connect_seconds = connecting.elapsed().as_secs_f64();
    let play_started = Instant::now();
    go_tx.send_replace(true);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(plan.seconds);
    let mut results = Vec::with_capacity(clients);
    loop {
        tokio::select! {
            joined = tasks.join_next() => match joined {
                Some(Ok(stats)) => results.push((stats.0, stats.1)),
                Some(Err(e)) => {
                    let mut stats = ClientStats::default();
                    stats.error(format!("client task: {e}"));
                    results.push((usize::MAX, stats));
                }
                None => break,
            },
            () = tokio::time::sleep_until(deadline), if !*shared.stop.borrow() => {
                shared.stop.send_replace(true);
            }
            // A client that misses its stop (it cannot: they all watch it) is cut off.
            () = tokio::time::sleep_until(deadline + GRACE * 2) => {
                tasks.abort_all();
            }
        }
    }
    let seconds = play_started.elapsed().as_secs_f64();
    let own_cpu_after = CpuTicks::of(std::process::id()).map_err(CliError::failure)?;
    let server_cpu_after = match (plan.server_pid, cpu_before) {
        (Some(pid), Some(before)) => {
            Some((pid, before, CpuTicks::of(pid).map_err(CliError::failure)?))
        }
        _ => None,
    };

    let mut games_over = vec![false; plan.games];
    let mut moves = 0;
    let (mut latencies, mut updates, mut states) = (Vec::new(), Vec::new(), Vec::new());
    let mut errors = BTreeMap::new();
    for (game, stats) in results {
        if let Some(over) = games_over.get_mut(game) {
            *over |= stats.over;
        }
        moves += stats.moves;
        latencies.extend(stats.latencies_ms);
        updates.extend(stats.update_bytes);
        states.extend(stats.state_bytes);
        for (kind, n) in stats.errors {
            *errors.entry(kind).or_default() += n;
        }
    }
    Ok(Report {
        game: plan.game.to_string(),
        players: plan.players,
        games: plan.games,
        clients,
        games_over: games_over.iter().filter(|&&o| o).count(),
        moves,
        seconds,
        think_ms: plan.think.as_millis() as u64,
        moves_per_second: moves as f64 / seconds.max(1e-9),
        create_seconds,
        connect_seconds,
        latency_ms: Spread::of(latencies),
        update_bytes: Spread::of(updates),
        state_bytes: Spread::of(states),
        errors,
        server: server_cpu_after
            .map(|(pid, before, after)| -> Result<ServerUsage, CliError> {
                Ok(ServerUsage {
                    pid,
                    cpu: CpuUsage::between(before, after, seconds, moves),
                    peak_rss_kib: peak_rss_kib(pid).map_err(CliError::failure)?,
                })
            })
            .transpose()?,
        load_generator: CpuUsage::between(own_cpu_before, own_cpu_after, seconds, moves),
    })
}

/// What a client of the load test reads of a server message: the fields it plays by. The
/// rest (views, patches, events) is skipped unparsed, so that the load generator, which
/// shares the machine with the server, spends its CPU on the protocol rather than on
/// documents it would throw away.
#[derive(Deserialize)]
struct Seen<'a> {
    /// "state", "update", "seats" or "error".
    #[serde(rename = "type")]
    kind: &'a str,
    seq: Option<u64>,
    /// An update's mover.
    seat: Option<Seat>,
    to_move: Option<Seat>,
    #[serde(borrow)]
    legal: Option<Vec<SeenAction<'a>>>,
    status: Option<Status>,
    /// An error's kind.
    #[serde(rename = "kind")]
    error: Option<ErrorKind>,
}

#[derive(Deserialize)]
struct SeenAction<'a> {
    #[serde(borrow)]
    action: &'a RawValue,
}

/// One seat's WebSocket client.
struct SeatClient {
    shared: Arc<Shared>,
    game: usize,
    id: String,
    seat: u8,
    token: String,
    rng: ChaCha8Rng,
}

impl SeatClient {
    /// Connects, says it is ready, waits for the start, then plays until its game is over
    /// or the run stops. Returns its game's index and what it saw.
    async fn run(
        mut self,
        mut go: watch::Receiver<bool>,
        mut stop: watch::Receiver<bool>,
        ready: mpsc::Sender<()>,
    ) -> (usize, ClientStats) {
        let mut stats = ClientStats::default();
        let connected = {
            // Only fails once the semaphore is closed, which it never is.
            let _permit = self.shared.connecting.acquire().await;
            client::connect(&self.shared.base, &self.id, Some(&self.token), None).await
        };
        let _ = ready.send(()).await;
        drop(ready);
        let mut socket = match connected {
            Ok(socket) => socket,
            Err(e) => {
                stats.error(failure_kind(&e));
                return (self.game, stats);
            }
        };
        if go.wait_for(|&go| go).await.is_err() {
            return (self.game, stats);
        }
        let mut seq = 0;
        let mut to_move = None;
        let mut legal: Option<Vec<Box<RawValue>>> = None;
        // The seq an act was sent at, and when.
        let mut pending: Option<(u64, Instant)> = None;
        // Set once the run stops: the end of the wait for a pending move's update.
        let mut stopping: Option<tokio::time::Instant> = None;
        loop {
            let grace = stopping.unwrap_or_else(|| tokio::time::Instant::now() + GRACE);
            let received = tokio::select! {
                received = client::next_text(&mut socket) => received,
                changed = stop.changed(), if stopping.is_none() => {
                    if changed.is_err() || *stop.borrow() {
                        stopping = Some(tokio::time::Instant::now() + GRACE);
                        if pending.is_none() {
                            break;
                        }
                    }
                    continue;
                }
                () = tokio::time::sleep_until(grace), if stopping.is_some() => break,
            };
            let text = match received {
                Ok(Some(text)) => text,
                Ok(None) => {
                    stats.error("closed");
                    break;
                }
                Err(e) => {
                    stats.error(failure_kind(&e));
                    break;
                }
            };
            let message: Seen = match client::parse_message(text.as_str()) {
                Ok(message) => message,
                Err(e) => {
                    stats.error(failure_kind(&e));
                    break;
                }
            };
            let bytes = text.len() as f64;
            let status = match message.kind {
                "state" | "update" => {
                    let now = message.seq.unwrap_or(seq);
                    if message.kind == "state" {
                        stats.state_bytes.push(bytes);
                        // A state replaces whatever was sent before it.
                        pending = None;
                    } else {
                        stats.update_bytes.push(bytes);
                        if message.seat == Some(self.seat) {
                            stats.moves += 1;
                            if let Some((sent, at)) = pending.take() {
                                if now == sent + 1 {
                                    stats.latencies_ms.push(at.elapsed().as_secs_f64() * 1e3);
                                }
                            }
                        }
                    }
                    seq = now;
                    to_move = message.to_move;
                    legal = message
                        .legal
                        .map(|actions| actions.into_iter().map(|a| a.action.to_owned()).collect());
                    message.status.unwrap_or(Status::Running)
                }
                "error" => {
                    stats.error(message.error.map_or_else(|| "error".into(), kind_name));
                    // The move was refused (a stale one is followed by the state).
                    pending = None;
                    Status::Running
                }
                _ => message.status.unwrap_or(Status::Running),
            };
            if status == Status::Over {
                stats.over = true;
                break;
            }
            if stopping.is_some() {
                if pending.is_none() {
                    break;
                }
                continue;
            }
            let Some(actions) = legal.as_ref().filter(|a| !a.is_empty()) else {
                continue;
            };
            if pending.is_some() || to_move != Some(self.seat) {
                continue;
            }
            if !self.shared.think.is_zero() {
                let pause = self.shared.think.mul_f64(self.rng.gen_range(0.0..2.0));
                tokio::time::sleep(pause).await;
            }
            if !self.shared.reserve_move() {
                self.shared.stop.send_replace(true);
                break;
            }
            let action = &actions[self.rng.gen_range(0..actions.len())];
            let act = format!(r#"{{"type":"act","seq":{seq},"action":{}}}"#, action.get());
            if let Err(e) = socket.send(Message::text(act)).await {
                stats.error(failure_kind(&ClientError::from(e)));
                break;
            }
            pending = Some((seq, Instant::now()));
        }
        // The run is over for this seat; how the close goes does not change the figures.
        let _ = socket.close(None).await;
        (self.game, stats)
    }
}

/// The error count a client failure is filed under.
fn failure_kind(e: &ClientError) -> String {
    match e {
        ClientError::Connect { .. } => "connect".into(),
        ClientError::Closed(_) => "closed".into(),
        ClientError::Message(_) => "bad_message".into(),
        ClientError::WebSocket(_) => "websocket".into(),
        ClientError::Api { kind, .. } => kind_name(*kind),
        ClientError::Url { .. }
        | ClientError::Http(_)
        | ClientError::Request(_)
        | ClientError::Unexpected { .. } => "http".into(),
    }
}

/// A process's CPU time so far, in clock ticks.
#[derive(Debug, Clone, Copy)]
struct CpuTicks {
    user: u64,
    system: u64,
}

impl CpuTicks {
    /// User and system CPU time of process `pid` (/proc/PID/stat fields 14 and 15).
    fn of(pid: u32) -> Result<Self, String> {
        let path = format!("/proc/{pid}/stat");
        let stat = std::fs::read_to_string(&path)
            .map_err(|e| format!("--server-pid {pid}: cannot read {path}: {e}"))?;
        // The command name (field 2) is in parentheses and may hold spaces: count fields
        // after its closing parenthesis, where field 3 is the first.
        let rest = stat
            .rfind(')')
            .map(|i| &stat[i + 1..])
            .ok_or_else(|| format!("{path} is not a stat line"))?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |n: usize| -> Result<u64, String> {
            fields
                .get(n - 3)
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| format!("{path} has no field {n}"))
        };
        Ok(CpuTicks {
            user: field(14)?,
            system: field(15)?,
        })
    }
}

/// Clock ticks per second (`getconf CLK_TCK`; Linux reports 100 on every common
/// architecture, the fallback).
fn clock_ticks_per_second() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(100)
}

/// VmHWM of process `pid` in KiB: its peak resident memory.
fn peak_rss_kib(pid: u32) -> Result<u64, String> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("{path} has no VmHWM"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let s = Spread::of((1..=100).rev().map(f64::from).collect());
        assert_eq!(
            (s.samples, s.p50, s.p90, s.p99, s.max),
            (100, 50.0, 90.0, 99.0, 100.0)
        );
        let one = Spread::of(vec![7.0]);
        assert_eq!((one.p50, one.p99, one.max), (7.0, 7.0, 7.0));
        assert_eq!(Spread::of(Vec::new()).samples, 0);
    }

    #[test]
    fn this_process_has_cpu_time_and_memory() {
        let pid = std::process::id();
        assert!(CpuTicks::of(pid).is_ok());
        assert!(peak_rss_kib(pid).expect("VmHWM") > 0);
        assert!(server::open_files_limit().expect("limit") > 0);
    }
}
