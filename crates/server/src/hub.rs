//! The tables in play: each game's state cached in memory (rebuilt from the store by
//! replay on a miss), the one path every move takes (check, store, then broadcast), the
//! seats, and the bots.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use engine::{DynGame, LoggedEvent, ObservedView, PublicView, Seat};
use serde_json::value::RawValue;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

use crate::bots::BotSeat;
use crate::catalog::{Catalog, GameKind, Setup};
use crate::committer::Committer;
use crate::error::ApiError;
use crate::limits::AddressKey;
use crate::names::clean_name;
use crate::patch::ViewPatcher;
use crate::protocol::{
    CreateGame, Created, CreatedSeat, ErrorKind, EventEntry, GameSummary, JoinGame, Joined,
    LegalAction, LogEntry, SeatInfo, SeatRequest, ServerMessage, UpdateText,
};
use crate::store::{
    bots_only, Change, Commit, GameRow, LobbyQuery, MoveRow, SeatKind, SeatRecord, Status, Store,
    StoreError,
};
use crate::tokens;

mod scheduler;

pub use scheduler::BotConfig;
use scheduler::BotScheduler;

/// Updates a connection may fall behind before it is sent the whole state instead.
const UPDATE_BUFFER: usize = 64;
/// Tables nobody watched for this long leave the cache (they are reloaded on demand).
const IDLE_EVICTION: Duration = Duration::from_secs(300);

/// What the hub is told at start.
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// How the bots are run.
    pub bots: BotConfig,
    /// The turns a game whose seats are all bots may last, in a game that has a turn cap:
    /// some tables of bots never end (docs/bots.md), and nobody at them would stop them.
    pub bot_game_turn_cap: Option<u32>,
    /// Tables waiting for players one client address may have at once (`None`: no cap),
    /// so that one client cannot fill the lobby.
    pub open_tables_per_address: Option<u32>,
}

/// What a table sends its watchers after a change.
#[derive(Debug)]
pub enum Broadcast {
    /// A stored move: the message for each slot (seats, then the spectator), `None` for a
    /// slot nobody watched.
    Update {
        seq: u64,
        messages: Vec<Option<Utf8Bytes>>,
    },
    /// The seats changed: one message for all.
    Seats(Utf8Bytes),
}

/// One watched slot: the view last sent to its watchers (the base of the next patch), with
/// its record.
#[derive(Default)]
struct Slot {
    watchers: usize,
    view: Option<Box<dyn ObservedView>>,
}

struct TableState {
    row: GameRow,
    game: Box<dyn DynGame>,
    /// Moves stored.
    seq: u64,
    /// Every stored move's events, with each viewer's form of those some may not keep.
    log: Vec<LoggedMove>,
    /// What is being written to the table, if anything: another move for the same
    /// position meanwhile is a conflict.
    writing: Option<Writing>,
    /// Another server process stored changes this copy does not have yet (it catches up
    /// once nothing is being written).
    behind: bool,
    /// The seq a bot of this process thinks (or tries to move) for.
    bot_thinking: Option<u64>,
    /// Set when this process stored a move (or may have: its store failed) while the
    /// table was behind: the catch-up that follows starts the next bot unless it found
    /// the game moved further on than that seq (then another process moves it).
    bot_after_catch_up: Option<u64>,
    /// Seats, then the spectator.
    slots: Vec<Slot>,
    /// The spectator's view of `game` as the last move's update built it: the next move's
    /// takes from it what that move leaves alike.
    public: Option<PublicView>,
    last_used: Instant,
}

/// What a table is busy writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writing {
    /// A move of this process is being stored.
    Move,
    /// Moves and seats stored by another server process are being installed.
    CatchingUp,
}

/// A game in play.
pub struct Table {
    pub id: String,
    pub kind: Arc<dyn GameKind>,
    /// The corrected component data the game plays on; `None`: the shipped data.
    data: Option<Arc<str>>,
    state: Mutex<TableState>,
    /// Serializes seat changes (join, claim) so that they compare-and-set in order.
    seats_lock: tokio::sync::Mutex<()>,
    updates: broadcast::Sender<Arc<Broadcast>>,
}

impl Table {
    fn lock(&self) -> MutexGuard<'_, TableState> {
        // A panic while holding the lock cannot leave a half-applied move: moves are
        // applied to a copy and installed whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The seat whose token this is, if any.
    pub fn seat_of_token(&self, token: &str) -> Option<Seat> {
        self.token_seat(token).map(|(seat, _)| seat)
    }

    /// The seat whose token this is, and whether it is free (the token is then its
    /// invitation), read at once.
    pub fn token_seat(&self, token: &str) -> Option<(Seat, bool)> {
        let hash = tokens::hash(token);
        let st = self.lock();
        let (index, record) = st
            .row
            .seats
            .iter()
            .enumerate()
            .find(|(_, s)| s.token_hash.as_deref() == Some(hash.as_str()))?;
        Some((Seat::try_from(index).ok()?, record.is_free()))
    }

    /// Starts watching as `seat` (`None`: spectator): the state message and the updates
    /// that follow it, with nothing missed or repeated in between.
    /// `token`: the seat's new token, when this connection just claimed it with its
    /// invitation; the state message carries it to this connection alone.
    pub fn watch(
        self: &Arc<Self>,
        seat: Option<Seat>,
        token: Option<String>,
    ) -> Result<Watch, ApiError> {
        let mut st = self.lock();
        let slot = slot_index(&st, seat);
        let state = state_message(&mut st, seat, token)?;
        st.slots[slot].watchers += 1;
        st.last_used = Instant::now();
        let updates = self.updates.subscribe();
        metrics::gauge!("tabletop_ws_connections").increment(1.0);
        Ok(Watch {
            table: self.clone(),
            seat,
            state,
            seq: st.seq,
            updates,
        })
    }

    /// The whole state for `seat` now (after a stale move or a lag); the slot's patch base
    /// becomes this view.
    pub fn state_for(&self, seat: Option<Seat>) -> Result<(u64, String), ApiError> {
        let mut st = self.lock();
        let text = state_message(&mut st, seat, None)?;
        Ok((st.seq, text))
    }
}

/// A connection's subscription to a table; leaving it (drop) stops the slot's patches once
/// its last watcher has gone.
pub struct Watch {
    pub table: Arc<Table>,
    pub seat: Option<Seat>,
    /// The state message to send first.
    pub state: String,
    /// Its seq: updates up to it are already in it.
    pub seq: u64,
    pub updates: broadcast::Receiver<Arc<Broadcast>>,
}

impl Watch {
    /// The index of this watch's slot in an update's messages.
    pub fn slot(&self) -> usize {
        slot_index(&self.table.lock(), self.seat)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut st = self.table.lock();
        let slot = slot_index(&st, self.seat);
        let slot = &mut st.slots[slot];
        slot.watchers = slot.watchers.saturating_sub(1);
        if slot.watchers == 0 {
            slot.view = None;
        }
        metrics::gauge!("tabletop_ws_connections").decrement(1.0);
    }
}

fn slot_index(st: &TableState, seat: Option<Seat>) -> usize {
    seat.map_or(st.row.seats.len(), usize::from)
}

/// The message telling watchers the seats changed.
fn seats_message(row: &GameRow) -> String {
    ServerMessage::Seats {
        seats: seat_infos(row),
        status: row.status,
    }
    .to_text()
}

fn seat_infos(row: &GameRow) -> Vec<SeatInfo> {
    row.seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatInfo {
            seat: i as Seat,
            kind: s.kind,
            name: s.name.clone(),
            bot: s.bot.clone(),
        })
        .collect()
}

fn legal_actions(game: &dyn DynGame) -> Vec<LegalAction> {
    game.legal_actions_json()
        .into_iter()
        .map(|(action, description)| LegalAction {
            action,
            description,
        })
        .collect()
}

/// `value` as JSON text to splice into a message (our own types serialize infallibly).
fn json_text(value: &impl serde::Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_default()
}

pub(crate) fn outcome_json(game: &dyn DynGame) -> Option<Value> {
    game.outcome().and_then(|o| serde_json::to_value(o).ok())
}

/// The largest integer a JavaScript number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Events as a client is told them: each already in the form for that client
/// ([`LoggedEvent::for_viewer`]).
pub(crate) fn event_entries<'a>(
    events: impl IntoIterator<Item = &'a LoggedEvent>,
) -> Vec<EventEntry> {
    events
        .into_iter()
        .map(|e| EventEntry {
            event: e.event.clone(),
            text: e.text.clone(),
        })
        .collect()
}

/// A stored move and its events as the game logged them (each viewer's form included).
#[derive(Clone)]
struct LoggedMove {
    /// The number of moves once this one was made (the first move is 1).
    seq: u64,
    seat: Seat,
    events: Vec<LoggedEvent>,
}

impl LoggedMove {
    /// The entry `viewer` (`None`: a spectator) may read; once the game is over, every
    /// event as it happened (nothing is hidden any more).
    fn entry_for(&self, viewer: Option<Seat>, over: bool) -> LogEntry {
        LogEntry {
            seq: self.seq,
            seat: self.seat,
            events: if over {
                event_entries(&self.events)
            } else {
                event_entries(self.events.iter().map(|e| e.for_viewer(viewer)))
            },
        }
    }
}

/// The state message for `seat`, making its view the slot's patch base; `token`: the
/// seat's new token, for the connection that just claimed it.
fn state_message(
    st: &mut TableState,
    seat: Option<Seat>,
    token: Option<String>,
) -> Result<String, ApiError> {
    let observed = st
        .game
        .observe(&[seat], None)?
        .views
        .pop()
        .ok_or_else(|| ApiError::new(ErrorKind::Internal, "no view was built"))?;
    let view = observed.json();
    let to_move = st.game.to_move();
    let legal = (seat.is_some() && to_move == seat && st.row.status == Status::Running)
        .then(|| legal_actions(st.game.as_ref()));
    let message = ServerMessage::State {
        seq: st.seq,
        seat,
        status: st.row.status,
        view,
        to_move,
        legal,
        seats: seat_infos(&st.row),
        outcome: outcome_json(st.game.as_ref()),
        token,
    };
    let slot = slot_index(st, seat);
    st.slots[slot].view = Some(observed);
    Ok(message.to_text())
}

/// Unix milliseconds now.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The cached tables, the store, the bots.
pub struct Hub {
    catalog: Catalog,
    store: Arc<dyn Store>,
    committer: Committer,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    bots: BotScheduler,
    bot_game_turn_cap: Option<u32>,
    open_tables_per_address: Option<u32>,
    /// Moves between their check and their broadcast (graceful shutdown waits for them).
    in_flight: AtomicUsize,
}

impl Hub {
    pub fn new(
        catalog: Catalog,
        store: Arc<dyn Store>,
        committer: Committer,
        config: &HubConfig,
    ) -> Arc<Self> {
        Arc::new(Hub {
            catalog,
            store,
            committer,
            tables: Mutex::new(HashMap::new()),
            bots: BotScheduler::new(config.bots.clone()),
            bot_game_turn_cap: config.bot_game_turn_cap,
            open_tables_per_address: config.open_tables_per_address,
            in_flight: AtomicUsize::new(0),
        })
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Moves being stored right now.
    pub fn moves_in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    fn cache(&self) -> MutexGuard<'_, HashMap<String, Arc<Table>>> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The corrected data game `row` plays on: the server's own when it is the same file,
    /// else the one stored with the game; `None` for the shipped data.
    async fn data_of(&self, row: &GameRow) -> Result<Option<Arc<str>>, ApiError> {
        let Some(digest) = &row.data_digest else {
            return Ok(None);
        };
        if let Some(data) = self.catalog.data(&row.game).filter(|d| &d.digest == digest) {
            return Ok(Some(data.text.clone()));
        }
        match self.store.data_file(digest).await? {
            Some(text) => Ok(Some(text.into())),
            None => {
                tracing::error!(game = %row.id, digest, "the game's data file is not stored");
                Err(ApiError::new(
                    ErrorKind::Internal,
                    format!("game {} names a data file that is not stored", row.id),
                ))
            }
        }
    }

    /// The table of game `id`, from the cache or rebuilt from the store by replay.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if let Some(table) = self.cache().get(id) {
            return Ok(table.clone());
        }
        if !tokens::is_game_id(id) {
            return Err(ApiError::not_found(format!(
                "no game {:?}",
                crate::catalog::truncate(id, 24)
            )));
        }
        let Some((row, moves)) = self.store.load_game(id).await? else {
            return Err(ApiError::not_found(format!("no game {id:?}")));
        };
        let kind = self.catalog.get(&row.game).cloned().ok_or_else(|| {
            ApiError::new(
                ErrorKind::Internal,
                format!(
                    "game {id} is of {:?}, which this server does not offer",
                    row.game
                ),
            )
        })?;
        let actions: Vec<Value> = moves.iter().map(|m| m.action.clone()).collect();
        let data = self.data_of(&row).await?;
        let setup = Setup {
            config: &row.config,
            seed: row.seed,
            data: data.as_deref(),
        };
        let (game, events) = kind.replay(setup, &actions).map_err(|e| {
            tracing::error!(game = id, error = %e, "stored game does not replay");
            ApiError::new(ErrorKind::Internal, format!("game {id} does not replay"))
        })?;
        let log = moves
            .iter()
            .zip(events)
            .map(|(m, events)| LoggedMove {
                seq: m.seq + 1,
                seat: m.seat,
                events,
            })
            .collect();
        let table = self.install_table(kind, row, data, game, moves.len() as u64, log);
        Ok(table)
    }

    /// Puts a table in the cache (unless another task just did) and starts its bot.
    fn install_table(
        self: &Arc<Self>,
        kind: Arc<dyn GameKind>,
        row: GameRow,
        data: Option<Arc<str>>,
        game: Box<dyn DynGame>,
        seq: u64,
        log: Vec<LoggedMove>,
    ) -> Arc<Table> {
        let slots = (0..=row.seats.len()).map(|_| Slot::default()).collect();
        let id = row.id.clone();
        let table = Arc::new(Table {
            id: id.clone(),
            kind,
            data,
            state: Mutex::new(TableState {
                row,
                game,
                seq,
                log,
                writing: None,
                behind: false,
                bot_thinking: None,
                bot_after_catch_up: None,
                slots,
                public: None,
                last_used: Instant::now(),
            }),
            seats_lock: tokio::sync::Mutex::new(()),
            updates: broadcast::channel(UPDATE_BUFFER).0,
        });
        let table = self.cache().entry(id).or_insert(table).clone();
        self.schedule_bot(&table);
        table
    }

    /// Drops tables nobody watches and nobody used for a while.
    pub fn evict_idle(&self) {
        self.cache().retain(|_, table| {
            let st = table.lock();
            st.writing.is_some()
                || st.bot_thinking.is_some()
                || st.slots.iter().any(|s| s.watchers > 0)
                || st.last_used.elapsed() < IDLE_EVICTION
        });
    }

    fn evict(&self, id: &str) {
        self.cache().remove(id);
    }

    /// Loads every running game so that bots whose turn it is move again after a restart.
    pub async fn resume_bots(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.game_ids(Status::Running).await?;
        for id in &ids {
            self.table(id).await?;
        }
        Ok(ids.len())
    }

    /// Creates a game for `creator`: checks the config and seats, stores it, returns the
    /// seats' tokens.
    pub async fn create(
        self: &Arc<Self>,
        request: CreateGame,
        creator: AddressKey,
    ) -> Result<Created, ApiError> {
        let kind = self.catalog.named(&request.game)?.clone();
        let config = request
            .config
            .unwrap_or_else(|| Value::Object(Default::default()));
        // At most 2^53 - 1: a record's seed must survive a JavaScript number (the browser
        // client sends records back to /api/replay).
        let seed = request
            .seed
            .unwrap_or_else(|| rand::random::<u64>() & MAX_SAFE_INTEGER);
        kind.check_config(&config)?;
        let bots_only = bots_only(request.seats.iter().map(SeatRequest::kind));
        if bots_only {
            self.bots.admit_bots_only()?;
        }
        // The cap is the server's, set once the client's config is checked.
        let config = self
            .bot_game_turn_cap
            .filter(|_| bots_only)
            .and_then(|turns| kind.with_turn_cap(&config, turns))
            .unwrap_or(config);
        // New games play on the server's data (`--data`), stored at start-up.
        let data = self.catalog.data(kind.name()).cloned();
        let text = data.as_ref().map(|d| d.text.clone());
        let game = kind.begin(Setup {
            config: &config,
            seed,
            data: text.as_deref(),
        })?;
        if request.seats.len() != game.seats() {
            return Err(ApiError::malformed(format!(
                "{} seats given; this game has {} players (set config.players to change it)",
                request.seats.len(),
                game.seats()
            )));
        }
        let mut seats = Vec::with_capacity(request.seats.len());
        let mut created = Vec::with_capacity(request.seats.len());
        for (i, seat) in request.seats.into_iter().enumerate() {
            let (record, token) = match seat {
                SeatRequest::Human { name } => {
                    let name = name.map(|n| clean_name(&n)).transpose()?;
                    let token = tokens::new_token();
                    let record = SeatRecord {
                        kind: SeatKind::Human,
                        name,
                        bot: None,
                        token_hash: Some(tokens::hash(&token)),
                    };
                    (record, Some(token))
                }
                SeatRequest::Bot { bot } => {
                    let bot = BotSeat::parse(&bot, self.bots.policy())?;
                    let record = SeatRecord {
                        kind: SeatKind::Bot,
                        name: Some(bot.display_name()),
                        bot: Some(bot.spec_text),
                        token_hash: None,
                    };
                    (record, None)
                }
            };
            created.push(CreatedSeat {
                seat: i as Seat,
                kind: record.kind,
                token,
            });
            seats.push(record);
        }
        let status = if seats.iter().any(SeatRecord::is_free) {
            Status::Open
        } else {
            Status::Running
        };
        // Only a table waiting for players is kept with its creator, and only while it
        // waits: what the cap counts.
        let creator = (status == Status::Open).then(|| creator.digest());
        if let (Some(creator), Some(cap)) = (&creator, self.open_tables_per_address) {
            // Counted, then stored: requests of one address racing each other may pass the
            // cap by as many as run at once (which the request limit bounds).
            if self.store.open_tables_of(creator).await? >= u64::from(cap) {
                return Err(ApiError::too_many_tables(cap));
            }
        }
        let row = GameRow {
            id: tokens::new_game_id(),
            game: kind.name().to_string(),
            config,
            seed,
            seed_chosen: request.seed.is_some(),
            created: now_ms(),
            status,
            seats,
            version: 0,
            data_digest: data.map(|d| d.digest),
        };
        self.store.create_game(&row, creator.as_deref()).await?;
        let id = row.id.clone();
        self.install_table(kind, row, text, game, 0, Vec::new());
        Ok(Created { id, seats: created })
    }

    /// A free seat for `request.name`, with a new token.
    pub async fn join(self: &Arc<Self>, id: &str, request: JoinGame) -> Result<Joined, ApiError> {
        let table = self.table(id).await?;
        let name = clean_name(&request.name)?;
        let seat = {
            let st = table.lock();
            if st.row.status != Status::Open {
                return Err(ApiError::new(
                    ErrorKind::SeatTaken,
                    "the game has no free seat",
                ));
            }
            match request.seat {
                Some(seat) => seat,
                None => st
                    .row
                    .seats
                    .iter()
                    .position(SeatRecord::is_free)
                    .and_then(|i| Seat::try_from(i).ok())
                    .ok_or_else(|| ApiError::new(ErrorKind::SeatTaken, "no seat is free"))?,
            }
        };
        let token = self.claim(&table, seat, name, None).await?;
        Ok(Joined { seat, token })
    }

    /// Gives free seat `seat` a name and a new token, which it returns: the seat's
    /// invitation link (its token until now) stops working, so that a link is spent by
    /// whoever takes the seat with it, and nobody who opens it later sits there too.
    /// `invitation` is the hash of the token the seat was claimed with over WebSocket
    /// (`None`: joined from the lobby); a claim whose invitation is no longer the seat's
    /// is `bad_token`. Starts the game once no seat is free.
    ///
    /// Of claims racing for one seat exactly one wins: here they queue on the table's
    /// seats lock, and across server processes the row is compare-and-set on its
    /// `version`. A claim that loses the compare-and-set reads the row the other process
    /// stored and is checked again on it.
    pub async fn claim(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: String,
        invitation: Option<&str>,
    ) -> Result<String, ApiError> {
        let token = tokens::new_token();
        let serial = table.seats_lock.lock().await;
        let mut heard_of_others = false;
        let (seats, status, version) = loop {
            let (seats, status, version) = {
                let st = table.lock();
                claimed_seats(&st.row, seat, &name, &token, invitation)?
            };
            match self
                .store
                .update_seats(&table.id, &seats, status, version)
                .await
            {
                Ok(()) => break (seats, status, version),
                Err(StoreError::Conflict) if !heard_of_others => {
                    // Another server process changed the game: check again on its row.
                    heard_of_others = true;
                    let row = self
                        .store
                        .load_row(&table.id)
                        .await?
                        .ok_or_else(|| ApiError::not_found(format!("no game {}", table.id)))?;
                    install_row(table, &row);
                }
                Err(e) => {
                    if e == StoreError::Conflict {
                        drop(serial);
                        self.fall_behind(table);
                    }
                    return Err(e.into());
                }
            }
        };
        let message = {
            let mut st = table.lock();
            st.row.seats = seats;
            st.row.status = status;
            st.row.version = version + 1;
            seats_message(&st.row)
        };
        let _ = table
            .updates
            .send(Arc::new(Broadcast::Seats(message.into())));
        drop(serial);
        if heard_of_others {
            // Moves the other process stored, if it started the game meanwhile.
            self.fall_behind(table);
        } else if status == Status::Running {
            self.schedule_bot(table);
        }
        Ok(token)
    }

    /// The one path of every move, human or bot: check, store, then broadcast. The move is
    /// acknowledged (broadcast) only after its transaction has committed.
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        seq: u64,
        action: &Value,
    ) -> Result<(), ApiError> {
        let started = Instant::now();
        let (next, events, commit) = {
            let mut st = table.lock();
            match st.row.status {
                Status::Open => {
                    return Err(ApiError::new(
                        ErrorKind::NotStarted,
                        "the game has not started: some seats are still free",
                    ))
                }
                Status::Over => return Err(ApiError::new(ErrorKind::GameOver, "the game is over")),
                Status::Running => {}
            }
            if seq != st.seq {
                return Err(ApiError {
                    seq: Some(st.seq),
                    ..ApiError::new(
                        ErrorKind::Stale,
                        format!(
                            "the game is at seq {}, not {seq}: here is the current state",
                            st.seq
                        ),
                    )
                });
            }
            if st.writing.is_some() {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    "another move for this position is being stored",
                ));
            }
            if st.game.to_move() != Some(seat) {
                return Err(ApiError::new(
                    ErrorKind::NotYourTurn,
                    match st.game.to_move() {
                        Some(s) => format!("seat {s} is to move, not seat {seat}"),
                        None => "nobody is to move".to_string(),
                    },
                ));
            }
            // What is stored and broadcast is what the game read, written back: never
            // fields it did not read (they are refused).
            let action = st.game.canonical_action(action)?;
            let mut next = st.game.box_clone();
            let events = next.apply_logged(&action)?;
            st.writing = Some(Writing::Move);
            let commit = Commit {
                mv: MoveRow {
                    game_id: table.id.clone(),
                    seq,
                    seat,
                    action,
                    at: now_ms(),
                },
                ends_game: next.to_move().is_none(),
            };
            (next, events, commit)
        };
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        // Stored and installed in a task of its own, so that a client going away mid-way
        // cannot leave the table half-updated.
        let hub = self.clone();
        let table = table.clone();
        let finished = tokio::spawn(async move {
            let outcome = match hub.committer.queue(commit).await {
                Ok(stored) => {
                    // The watchers' messages are made while the writer stores the move;
                    // they are sent once it is stored.
                    let update = prepare_update(&table, seat, next.as_ref(), events);
                    let result = stored.await;
                    hub.finish_move(&table, next, update, result)
                }
                Err(e) => hub.finish_move(&table, next, PreparedUpdate::default(), Err(e)),
            };
            hub.in_flight.fetch_sub(1, Ordering::SeqCst);
            outcome
        })
        .await
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("the move task failed: {e}")))?;
        if finished.is_ok() {
            metrics::counter!("tabletop_moves_total").increment(1);
            metrics::histogram!("tabletop_move_latency_seconds")
                .record(started.elapsed().as_secs_f64());
        }
        finished
    }

    /// After the store answered: install the move and broadcast its update, or undo the
    /// reservation.
    fn finish_move(
        self: &Arc<Self>,
        table: &Arc<Table>,
        next: Box<dyn DynGame>,
        update: PreparedUpdate,
        stored: Result<(), StoreError>,
    ) -> Result<(), ApiError> {
        if let Err(e) = stored {
            let behind = {
                let mut st = table.lock();
                st.writing = None;
                // Another server process stored this seq: our copy is behind.
                st.behind |= e == StoreError::Conflict;
                if e != StoreError::Conflict {
                    // The move may be stored all the same (the answer was lost): read what
                    // is, and if it is this move, this process moves the next bot.
                    st.behind = true;
                    st.bot_after_catch_up = Some(st.seq + 1);
                }
                st.behind
            };
            if behind {
                self.catch_up(table);
            }
            return Err(e.into());
        }
        // The move is stored: install it, and never return early from here.
        let (update, behind) = {
            let mut st = table.lock();
            st.writing = None;
            let update = install(&mut st, next, update);
            if st.behind {
                st.bot_after_catch_up = Some(st.seq);
            }
            (update, st.behind)
        };
        let _ = table.updates.send(Arc::new(update));
        if behind {
            self.catch_up(table);
        } else {
            self.schedule_bot(table);
        }
        Ok(())
    }

    /// Takes the changes other server processes store on the same database, as they
    /// commit, and brings the cached tables they concern up to date.
    pub fn follow(self: &Arc<Self>, mut changes: mpsc::Receiver<Change>) -> JoinHandle<()> {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(change) = changes.recv().await {
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                let tables: Vec<Arc<Table>> = match &change {
                    Change::Moves { game, .. } | Change::Game { game } => {
                        hub.cache().get(game).cloned().into_iter().collect()
                    }
                    Change::Missed => hub.cache().values().cloned().collect(),
                };
                for table in &tables {
                    let news = match change {
                        // This process's own moves are heard too, once installed or about
                        // to be.
                        Change::Moves { stored, .. } => {
                            let st = table.lock();
                            let own_move = st.writing == Some(Writing::Move);
                            stored > st.seq + u64::from(own_move)
                        }
                        Change::Game { .. } | Change::Missed => true,
                    };
                    if news {
                        hub.fall_behind(table);
                    }
                }
            }
        })
    }

    /// Marks `table` as missing changes another server process stored, and catches up.
    fn fall_behind(self: &Arc<Self>, table: &Arc<Table>) {
        table.lock().behind = true;
        self.catch_up(table);
    }

    /// Installs what other server processes stored for a table that is behind: its row
    /// (seats, status) and the moves after its own, each broadcast to the watchers as if
    /// made here. Waits for a move in flight to finish first (it does the catching up
    /// then). Bots are left to the process that stored the move before theirs: this one
    /// when the catch-up follows a move of its own (`bot_after_catch_up`).
    fn catch_up(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            let _serial = table.seats_lock.lock().await;
            loop {
                let from = {
                    let mut st = table.lock();
                    if st.writing.is_some() {
                        return;
                    }
                    if !st.behind {
                        let ours = st
                            .bot_after_catch_up
                            .take()
                            .is_some_and(|seq| st.seq <= seq);
                        drop(st);
                        if ours {
                            hub.schedule_bot(&table);
                        }
                        return;
                    }
                    st.behind = false;
                    st.writing = Some(Writing::CatchingUp);
                    st.seq
                };
                let loaded = async {
                    let row = hub.store.load_row(&table.id).await?;
                    let moves = hub.store.load_moves(&table.id, from).await?;
                    Ok::<_, StoreError>((row, moves))
                }
                .await;
                let installed = match &loaded {
                    Ok((Some(row), moves)) => install_stored(&table, row, moves),
                    Ok((None, _)) => Err(format!("game {} is no longer stored", table.id)),
                    Err(_) => Ok(()),
                };
                let mut st = table.lock();
                st.writing = None;
                if let Err(error) = &loaded {
                    // Tried again on the next change heard or the next move here (which
                    // the database refuses while this copy is behind).
                    st.behind = true;
                    tracing::warn!(game = %table.id, %error, "catching up failed");
                    return;
                }
                if let Err(error) = installed {
                    // Rebuilt from the database on next use.
                    drop(st);
                    tracing::error!(game = %table.id, %error, "catching up failed");
                    hub.evict(&table.id);
                    return;
                }
            }
        });
    }

    /// The spectator summary of a game.
    pub async fn summary(self: &Arc<Self>, id: &str) -> Result<GameSummary, ApiError> {
        let table = self.table(id).await?;
        let st = table.lock();
        let mut summary = summary_of(&st.row);
        summary.seq = Some(st.seq);
        summary.to_move = st
            .game
            .to_move()
            .filter(|_| st.row.status == Status::Running);
        summary.outcome = outcome_json(st.game.as_ref());
        Ok(summary)
    }

    /// A page of the lobby: the newest games first.
    pub async fn list(&self, query: &LobbyQuery) -> Result<Vec<GameSummary>, ApiError> {
        Ok(self
            .store
            .list_games(query)
            .await?
            .iter()
            .map(summary_of)
            .collect())
    }

    /// The replay record, once the game is over (before, it would reveal the seed).
    /// A game on corrected data carries the data file's text (`data_toml`), so that the
    /// record replays anywhere.
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<Value, ApiError> {
        let table = self.table(id).await?;
        let mut record = {
            let st = table.lock();
            if st.row.status != Status::Over {
                return Err(ApiError::new(
                    ErrorKind::NotOver,
                    "the record holds the seed, which fixes every hidden order: it is served \
                     once the game is over",
                ));
            }
            st.game.record()
        };
        if let (Some(data), Some(fields)) = (&table.data, record.as_object_mut()) {
            fields.insert(
                crate::replay::DATA_TOML.into(),
                Value::String(data.to_string()),
            );
        }
        Ok(record)
    }

    /// The text of the corrected component data file game `id` plays on; `not_found` for a
    /// game on the shipped data, which every client is built with.
    pub async fn data(self: &Arc<Self>, id: &str) -> Result<Arc<str>, ApiError> {
        let table = self.table(id).await?;
        table.data.clone().ok_or_else(|| {
            ApiError::not_found(format!("game {id} plays on the shipped component data"))
        })
    }

    /// Every stored move's events with their sentences, as `viewer` (`None`: a
    /// spectator) is told them.
    pub async fn log(
        self: &Arc<Self>,
        id: &str,
        viewer: Option<Seat>,
    ) -> Result<Vec<LogEntry>, ApiError> {
        let table = self.table(id).await?;
        let st = table.lock();
        let over = st.row.status == Status::Over;
        Ok(st.log.iter().map(|m| m.entry_for(viewer, over)).collect())
    }

    /// The position drawn as text for `seat` (the terminal client).
    pub async fn text(self: &Arc<Self>, id: &str, seat: Option<Seat>) -> Result<String, ApiError> {
        let table = self.table(id).await?;
        let text = table.lock().game.render_text(seat);
        Ok(text)
    }
}

/// Installs moves `moves` (from the table's seq on) and row `row` as stored by another
/// server process.
fn install_stored(table: &Table, row: &GameRow, moves: &[MoveRow]) -> Result<(), String> {
    for mv in moves {
        let (next, events) = {
            let st = table.lock();
            if mv.seq != st.seq {
                return Err(format!("move {} came when at seq {}", mv.seq, st.seq));
            }
            let mut next = st.game.box_clone();
            let events = next
                .apply_logged(&mv.action)
                .map_err(|e| format!("stored move {} does not replay: {e}", mv.seq))?;
            (next, events)
        };
        let update = prepare_update(table, mv.seat, next.as_ref(), events);
        let update = install(&mut table.lock(), next, update);
        let _ = table.updates.send(Arc::new(update));
        metrics::counter!("tabletop_moves_followed_total").increment(1);
    }
    install_row(table, row);
    Ok(())
}

/// Installs the seats and status of row `row`, stored by another server process, if it is
/// newer than the table's, and tells the watchers when the seats changed.
fn install_row(table: &Table, row: &GameRow) {
    let message = {
        let mut st = table.lock();
        if row.version <= st.row.version {
            return;
        }
        let seats_changed = row.seats != st.row.seats;
        st.row.seats = row.seats.clone();
        st.row.status = row.status;
        st.row.version = row.version;
        seats_changed.then(|| seats_message(&st.row))
    };
    if let Some(message) = message {
        let _ = table
            .updates
            .send(Arc::new(Broadcast::Seats(message.into())));
    }
}

/// The seats, status and version of `row` with free seat `seat` taken by `name` under the
/// new token `token`; `invitation`: the hash of the invitation token it is taken with.
fn claimed_seats(
    row: &GameRow,
    seat: Seat,
    name: &str,
    token: &str,
    invitation: Option<&str>,
) -> Result<(Vec<SeatRecord>, Status, i64), ApiError> {
    let Some(record) = row.seats.get(usize::from(seat)) else {
        return Err(ApiError::not_found(format!(
            "seat {seat} does not exist; seats are 0..{}",
            row.seats.len()
        )));
    };
    if let Some(invitation) = invitation {
        if !record.is_free() || record.token_hash.as_deref() != Some(invitation) {
            return Err(ApiError::new(
                ErrorKind::BadToken,
                "this invitation was used: its seat is taken (an invitation link seats one \
                 person, once)",
            ));
        }
    }
    if !record.is_free() {
        return Err(ApiError::new(
            ErrorKind::SeatTaken,
            format!("seat {seat} is taken"),
        ));
    }
    let mut seats = row.seats.clone();
    let record = &mut seats[usize::from(seat)];
    record.name = Some(name.to_string());
    record.token_hash = Some(tokens::hash(token));
    let status = if seats.iter().any(SeatRecord::is_free) {
        Status::Open
    } else {
        Status::Running
    };
    Ok((seats, status, row.version))
}

/// Installs stored move `next` and its update's views; returns the update to broadcast
/// once the lock is released.
fn install(st: &mut TableState, next: Box<dyn DynGame>, update: PreparedUpdate) -> Broadcast {
    st.game = next;
    st.public = update.public;
    st.seq += 1;
    if let Some(entry) = update.log {
        st.log.push(entry);
    }
    if st.game.to_move().is_none() {
        st.row.status = Status::Over;
        st.row.version += 1;
    }
    st.last_used = Instant::now();
    for (slot, view) in st.slots.iter_mut().zip(update.views) {
        // A slot whose watchers all left meanwhile keeps no view.
        if view.is_some() && slot.watchers > 0 {
            slot.view = view;
        }
    }
    Broadcast::Update {
        seq: st.seq,
        messages: update.messages,
    }
}

/// What a move sends, made before it is stored: each watched slot's message (`None`: the
/// slot's watchers resync from the whole state) and new view, and the log entry.
#[derive(Default)]
struct PreparedUpdate {
    messages: Vec<Option<Utf8Bytes>>,
    views: Vec<Option<Box<dyn ObservedView>>>,
    public: Option<PublicView>,
    log: Option<LoggedMove>,
}

/// The update of the move `seat` made, leading to `next` (not yet installed): each watched
/// slot's view of `next` and its patch from the view the slot was sent last. Public
/// members are recorded once, and a change alike in several views is worked out once.
fn prepare_update(
    table: &Table,
    seat: Seat,
    next: &dyn DynGame,
    events: Vec<LoggedEvent>,
) -> PreparedUpdate {
    let st = table.lock();
    let seq = st.seq + 1;
    let to_move = next.to_move();
    let status = if to_move.is_none() {
        Status::Over
    } else {
        st.row.status
    };
    let seats = st.row.seats.len();
    let slot_seat = |index: usize| (index < seats).then_some(index as Seat);
    // The parts of the update alike for every watcher, written once; the events once per
    // slot when the game keeps a part of them from some viewers (V-I1).
    let events_text = json_text(&event_entries(&events));
    let hides = status != Status::Over && events.iter().any(|e| e.seen_by.is_some());
    let slot_events: Option<Vec<Box<RawValue>>> = hides.then(|| {
        (0..st.slots.len())
            .map(|index| {
                let viewer = slot_seat(index);
                json_text(&event_entries(events.iter().map(|e| e.for_viewer(viewer))))
            })
            .collect()
    });
    let legal_text = to_move.map(|_| json_text(&legal_actions(next)));
    let outcome_text = json_text(&next.outcome());
    let watched: Vec<usize> = (0..st.slots.len())
        .filter(|&index| st.slots[index].watchers > 0)
        .collect();
    let observers: Vec<Option<Seat>> = watched.iter().map(|&index| slot_seat(index)).collect();
    let mut views: Vec<Option<Box<dyn ObservedView>>> = (0..st.slots.len()).map(|_| None).collect();
    // `st.game` is the position `next` was reached from: no other move is in flight.
    let before = st.public.as_ref().map(|public| (st.game.as_ref(), public));
    let mut public = None;
    if let Ok(observed) = next.observe(&observers, before) {
        for (index, view) in watched.into_iter().zip(observed.views) {
            views[index] = Some(view);
        }
        public = observed.public;
    }
    let mut patcher = ViewPatcher::default();
    // Most watchers get the same update (the seats not to move, whose own members the
    // move left alike, and spectators): each distinct one is written once.
    let mut written: Vec<(json_patch::Patch, bool, &str, Utf8Bytes)> = Vec::new();
    let messages = st
        .slots
        .iter()
        .zip(&views)
        .enumerate()
        .map(|(index, (slot, view))| {
            // No base to patch (not so while watched): the watchers resync.
            let (Some(sent), Some(view)) = (&slot.view, view) else {
                return None;
            };
            let view_patch = patcher.patch(sent.as_ref(), view.as_ref());
            let to_act = slot_seat(index).is_some_and(|s| Some(s) == to_move);
            let events = slot_events
                .as_ref()
                .map_or(&*events_text, |told| &*told[index]);
            if let Some((.., text)) = written.iter().find(|(patch, acts, told, _)| {
                *acts == to_act && *told == events.get() && *patch == view_patch
            }) {
                return Some(text.clone());
            }
            let message = UpdateText {
                kind: "update",
                seq,
                seat,
                events,
                view_patch: &view_patch,
                to_move,
                legal: legal_text.as_deref().filter(|_| to_act),
                status,
                outcome: &outcome_text,
            };
            let text = Utf8Bytes::from(message.to_text());
            written.push((view_patch, to_act, events.get(), text.clone()));
            Some(text)
        })
        .collect();
    drop(patcher);
    PreparedUpdate {
        messages,
        views,
        public,
        log: Some(LoggedMove { seq, seat, events }),
    }
}

fn summary_of(row: &GameRow) -> GameSummary {
    GameSummary {
        id: row.id.clone(),
        game: row.game.clone(),
        config: row.config.clone(),
        status: row.status,
        seats: seat_infos(row),
        seats_free: row.seats.iter().filter(|s| s.is_free()).count() as u8,
        created: row.created,
        seed_chosen: row.seed_chosen,
        seq: None,
        to_move: None,
        outcome: None,
        data_digest: row.data_digest.clone(),
    }
}
