//! The tables in play: each game's state cached in memory (rebuilt from the store by
//! replay on a miss), the one path every move takes (check, store, then broadcast), the
//! seats, and the bots.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use engine::Seat;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::bots::BotSeat;
use crate::catalog::{Catalog, GameKind, Setup};
use crate::chat::{ChatChannel, ChatMessage};
use crate::committer::Committer;
use crate::error::ApiError;
use crate::limits::AddressKey;
use crate::names::clean_name;
use crate::notifier::Notifier;
use crate::protocol::{
    ClockChoices, CreateGame, Created, CreatedSeat, ErrorKind, GameSummary, LogEntry, SeatRequest,
};
use crate::store::{
    bots_only, GameRow, LobbyQuery, SeatEvent, SeatRecord, Status, Store, TableSettings,
};
use crate::tokens;

mod chat;
mod clock;
mod ending;
mod follow;
mod hints;
mod kept_apart;
mod leases;
mod lifecycle;
mod matched;
mod moves;
mod notices;
mod ratings;
mod scheduler;
mod seats;
mod shared_presence;
mod stand_in;
mod table;
mod turn_mail;
mod undo;

pub(crate) use crate::protocol::outcome_json;
pub(crate) use crate::time::now_ms;
pub use chat::chat_message;
pub use chat::Speaker;
use clock::check_clock;
pub use clock::clock_choices;
pub use kept_apart::shown_to;
use leases::Leases;
pub use matched::MatchedTable;
pub use scheduler::BotConfig;
use scheduler::BotScheduler;
use shared_presence::SharedPresence;
use table::{seat_infos, Rebuilt, TableState};
pub use table::{Mover, Table, Watch};
use undo::rebuild;

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
    /// How long a person must be offline before another at the table may hand their seat
    /// to a bot.
    pub hand_over_after: Duration,
    /// The messages each chat channel of a table keeps.
    pub chat_per_channel: u32,
    /// The clocks tables may have.
    pub clocks: ClockChoices,
    /// How long a lease on a running table's bots and clocks lasts unrenewed, when several
    /// server processes share the database (`None`: this process is the only one, and
    /// runs every table's).
    pub lease: Option<Duration>,
    /// Sends "it is your turn" mail (`None`: no mail).
    pub mailer: Option<Arc<crate::mail::Mailer>>,
}

/// What a table sends its watchers after a change.
#[derive(Debug)]
pub enum Broadcast {
    /// A stored move: the message for each slot (seats, then the spectator), `None` for a
    /// slot nobody watched.
    Update {
        seq: u64,
        messages: Vec<Option<Utf8Bytes>>,
        /// The game is over after it: the seats may read the spectators' chat now.
        over: bool,
    },
    /// The seats changed: one message for all. `resync`: the state follows it for each
    /// watcher (the game may have started); not for a presence change alone.
    Seats { text: Utf8Bytes, resync: bool },
    /// A chat message, for the connections that read its channel.
    Chat {
        channel: ChatChannel,
        /// The account it was written from ([`ChatMessage::account`]): hidden from the
        /// readers kept apart from it.
        writer: Option<String>,
        text: Utf8Bytes,
    },
}

/// `value` as JSON text to splice into a message (our own types serialize infallibly).
fn json_text(value: &impl serde::Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_default()
}

/// The largest integer a JavaScript number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
/// The cached tables, the store, the bots.
pub struct Hub {
    catalog: Catalog,
    store: Arc<dyn Store>,
    committer: Committer,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    bots: BotScheduler,
    bot_game_turn_cap: Option<u32>,
    open_tables_per_address: Option<u32>,
    hand_over_after: Duration,
    chat_per_channel: u32,
    /// The hints each seat of each table may still ask for ([`hints::HINTS_PER_MINUTE`]).
    hint_limits: governor::DefaultKeyedRateLimiter<(String, Seat)>,
    clock_choices: ClockChoices,
    /// The running tables whose bots and clocks this process runs, when it shares the
    /// database with others; `None`: it runs every table's.
    leases: Option<Leases>,
    /// Presence told to and heard from the other processes on the database; `None`: this
    /// process is the only one.
    presence: Option<SharedPresence>,
    /// Sends "it is your turn" mail (`None`: the server sends none).
    mailer: Option<Arc<crate::mail::Mailer>>,
    /// Moves between their check and their broadcast (graceful shutdown waits for them).
    in_flight: AtomicUsize,
    /// Stores the people's notifications and wakes their live pages.
    notifier: Arc<Notifier>,
    /// Whose chat each signed-in reader does not see.
    kept_apart: kept_apart::KeptApart,
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
            notifier: Notifier::new(store.clone()),
            store,
            committer,
            tables: Mutex::new(HashMap::new()),
            bots: BotScheduler::new(config.bots.clone()),
            bot_game_turn_cap: config.bot_game_turn_cap,
            open_tables_per_address: config.open_tables_per_address,
            hand_over_after: config.hand_over_after,
            chat_per_channel: config.chat_per_channel,
            hint_limits: governor::RateLimiter::keyed(
                governor::Quota::per_minute(hints::HINTS_PER_MINUTE)
                    .allow_burst(hints::HINTS_AT_ONCE),
            ),
            clock_choices: config.clocks.clone(),
            leases: config.lease.map(Leases::new),
            presence: config.lease.map(SharedPresence::new),
            mailer: config.mailer.clone(),
            in_flight: AtomicUsize::new(0),
            kept_apart: kept_apart::KeptApart::default(),
        })
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The people's notifications in the site.
    pub fn notifier(&self) -> &Arc<Notifier> {
        &self.notifier
    }

    /// How long a person must be offline before their seat may be handed to a bot.
    pub fn hand_over_after(&self) -> Duration {
        self.hand_over_after
    }

    /// The clocks tables may have.
    pub fn clock_choices(&self) -> &ClockChoices {
        &self.clock_choices
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
        let data = self.data_of(&row).await?;
        let seat_events = self.store.seat_events(id).await?;
        let chat = self.store.chat(id).await?;
        let setup = Setup {
            config: &row.config,
            seed: row.seed,
            data: data.as_deref(),
        };
        let rebuilt = kind
            .begin(setup)
            .map_err(|e| e.to_string())
            .and_then(|start| rebuild(start, &moves, &row.seats))
            .map(|rebuilt| rebuilt.with_clocks(&row, &moves, &seat_events))
            .map_err(|error| {
                tracing::error!(game = id, %error, "stored game does not replay");
                ApiError::new(ErrorKind::Internal, format!("game {id} does not replay"))
            })?;
        let table = self.install_table(kind, row, data, rebuilt, seat_events, chat);
        Ok(table)
    }

    /// Puts a table in the cache (unless another task just did) and starts its bot.
    fn install_table(
        self: &Arc<Self>,
        kind: Arc<dyn GameKind>,
        row: GameRow,
        data: Option<Arc<str>>,
        rebuilt: Rebuilt,
        seat_events: Vec<SeatEvent>,
        chat: Vec<ChatMessage>,
    ) -> Arc<Table> {
        let id = row.id.clone();
        let state = TableState::new(row, rebuilt, seat_events, chat);
        let reporter = self.presence.as_ref().map(SharedPresence::reporter);
        let table = Arc::new(Table::new(id.clone(), kind, data, state, reporter));
        let table = self.cache().entry(id.clone()).or_insert(table).clone();
        // Once in the cache, so that a change heard meanwhile is read again after.
        self.hear_presence(&id);
        self.schedule_bot(&table);
        table
    }

    /// Drops tables nobody watches and nobody used for a while.
    pub fn evict_idle(&self) {
        self.cache().retain(|id, table| {
            let st = table.lock();
            // A running table whose bots and clocks this process runs stays while it has
            // any to run: under leases it must hear the moves other processes store, and
            // the clock ticker looks at the tables in memory.
            let ticking = st.clocks().is_some_and(|c| c.deadline().is_some());
            let runs_here = st.row().status == Status::Running
                && (self.leases.is_some() || ticking)
                && self.runs(id);
            runs_here || st.in_use(IDLE_EVICTION)
        });
        self.hint_limits.retain_recent();
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
        let settings = table_settings(&request, &self.clock_choices)?;
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
        let (game, data) = self.begin_new(&kind, &config, seed)?;
        let text = data.as_ref().map(|d| d.text.clone());
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
                SeatRequest::Human { .. } | SeatRequest::Open {} => {
                    let (name, open) = match seat {
                        SeatRequest::Human { name } => (name, false),
                        _ => (None, true),
                    };
                    let name = name.map(|n| clean_name(&n)).transpose()?;
                    let token = tokens::new_token();
                    let record = SeatRecord::human(name, tokens::hash(&token), open);
                    (record, Some(token))
                }
                SeatRequest::Bot { bot } => {
                    let bot = BotSeat::parse(&bot, self.bots.policy())?;
                    let record = SeatRecord::bot(bot.display_name(), bot.spec_text);
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
        let creator_token = tokens::new_token();
        let now = now_ms();
        let row = GameRow {
            id: tokens::new_game_id(),
            game: kind.name().to_string(),
            config,
            seed,
            seed_chosen: request.seed.is_some(),
            created: now,
            status,
            seats,
            version: 0,
            data_digest: data.map(|d| d.digest),
            owner: Some(tokens::hash(&creator_token)),
            settings,
            started: (status == Status::Running).then_some(now),
        };
        self.store.create_game(&row, creator.as_deref()).await?;
        let id = row.id.clone();
        self.open_stored(kind, row, text, game).await;
        Ok(Created {
            id,
            seats: created,
            creator_token,
        })
    }
}

impl Hub {
    /// Starts a new game of `kind` on the server's data (`--data`, stored at start-up):
    /// the game, and the corrected data file it plays on (`None`: the shipped data).
    fn begin_new(
        &self,
        kind: &Arc<dyn GameKind>,
        config: &Value,
        seed: u64,
    ) -> Result<(Box<dyn engine::DynGame>, Option<crate::catalog::DataFile>), ApiError> {
        let data = self.catalog.data(kind.name()).cloned();
        let game = kind.begin(Setup {
            config,
            seed,
            data: data.as_ref().map(|d| &*d.text),
        })?;
        Ok((game, data))
    }

    /// Caches a new game just stored (`game`: its start), and takes its lease if it runs.
    async fn open_stored(
        self: &Arc<Self>,
        kind: Arc<dyn GameKind>,
        row: GameRow,
        data: Option<Arc<str>>,
        game: Box<dyn engine::DynGame>,
    ) {
        if row.status == Status::Running {
            self.claim_lease(&row.id).await;
        }
        let fresh = Rebuilt {
            to_move: vec![game.to_move()],
            game,
            log: Vec::new(),
            undoable: Vec::new(),
            seq: 0,
            clocks: None,
        }
        .with_clocks(&row, &[], &[]);
        self.install_table(kind, row, data, fresh, Vec::new(), Vec::new());
    }

    /// The spectator summary of a game.
    pub async fn summary(self: &Arc<Self>, id: &str) -> Result<GameSummary, ApiError> {
        let table = self.table(id).await?;
        let st = table.lock();
        let mut summary = summary_of(st.row());
        summary.seq = Some(st.seq());
        summary.to_move = st
            .game()
            .to_move()
            .filter(|_| st.row().status == Status::Running);
        summary.outcome = outcome_json(st.game());
        summary.times = st.clock_times();
        Ok(summary)
    }

    /// A page of the lobby: the newest games first.
    pub async fn list(&self, query: &LobbyQuery) -> Result<Vec<GameSummary>, ApiError> {
        let mut summaries: Vec<GameSummary> = self
            .store
            .list_games(query)
            .await?
            .iter()
            .map(summary_of)
            .collect();
        let ids: Vec<String> = summaries.iter().map(|s| s.id.clone()).collect();
        let seated = self.store.seated_accounts(&ids).await?;
        let position: HashMap<String, usize> = ids.into_iter().zip(0..).collect();
        for account in seated {
            // A seat's info is at its seat number (seat_infos lists every seat in order).
            let seat = position
                .get(&account.game_id)
                .and_then(|&i| summaries[i].seats.get_mut(usize::from(account.seat)));
            if let Some(seat) = seat {
                seat.rating = Some(crate::rating::shown_rating(account.rating));
                seat.languages = account.languages;
            }
        }
        Ok(summaries)
    }

    /// The summaries of these games as stored (unknown ids are left out), in their order.
    pub async fn stored_summaries(&self, ids: &[String]) -> Result<Vec<GameSummary>, ApiError> {
        let mut summaries = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = self.store.load_row(id).await? {
                summaries.push(summary_of(&row));
            }
        }
        Ok(summaries)
    }

    /// The replay record, once the game is over (before, it would reveal the seed).
    /// A game on corrected data carries the data file's text (`data_toml`), so that the
    /// record replays anywhere.
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<Value, ApiError> {
        let table = self.table(id).await?;
        let mut record = {
            let st = table.lock();
            if st.row().status != Status::Over {
                return Err(ApiError::new(
                    ErrorKind::NotOver,
                    "the record holds the seed, which fixes every hidden order: it is served \
                     once the game is over",
                ));
            }
            st.game().record()
        };
        let moves = self.store.load_moves(id, 0).await?;
        let undone = crate::replay::undone_decisions(&moves);
        let ending =
            serde_json::to_value(self.ending_with(&table, &moves).await?).unwrap_or_default();
        if let Some(fields) = record.as_object_mut() {
            fields.insert(crate::replay::ENDING.into(), ending);
            if let Some(data) = table.data() {
                let text = Value::String(data.to_string());
                fields.insert(crate::replay::DATA_TOML.into(), text);
            }
            if !undone.is_empty() {
                let undone = serde_json::to_value(&undone).unwrap_or_default();
                fields.insert(crate::replay::UNDONE.into(), undone);
            }
        }
        Ok(record)
    }

    /// The text of the corrected component data file game `id` plays on; `not_found` for a
    /// game on the shipped data, which every client is built with.
    pub async fn data(self: &Arc<Self>, id: &str) -> Result<Arc<str>, ApiError> {
        let table = self.table(id).await?;
        table.data().cloned().ok_or_else(|| {
            ApiError::not_found(format!("game {id} plays on the shipped component data"))
        })
    }

    /// The component tables the board of game `id` draws from: those of the data it plays
    /// on ([`GameKind::components`]); `not_found` for a game whose views carry everything.
    pub async fn components(self: &Arc<Self>, id: &str) -> Result<Value, ApiError> {
        let table = self.table(id).await?;
        crate::catalog::components_of(&*table.kind, table.data().map(|text| &**text))
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
        let over = st.row().status == Status::Over;
        // Each seat event after the move it followed.
        let mut seat_events = st.seat_events().iter().peekable();
        let mut entries = Vec::with_capacity(st.log().len() + st.seat_events().len());
        let mut seat_events_until = |seq: u64, entries: &mut Vec<LogEntry>| {
            while let Some(event) = seat_events.next_if(|e| e.seq <= seq) {
                entries.push(LogEntry {
                    seq: event.seq,
                    seat: event.seat,
                    events: Vec::new(),
                    undid: None,
                    seat_event: Some(event.clone()),
                });
            }
        };
        for mv in st.log() {
            seat_events_until(mv.seq - 1, &mut entries);
            entries.push(mv.entry_for(viewer, over));
        }
        seat_events_until(u64::MAX, &mut entries);
        Ok(entries)
    }

    /// The position drawn as text for `seat` (the terminal client).
    pub async fn text(self: &Arc<Self>, id: &str, seat: Option<Seat>) -> Result<String, ApiError> {
        let table = self.table(id).await?;
        let text = table.lock().game().render_text(seat);
        Ok(text)
    }
}

/// The table's own settings `request` asks for, checked against the clocks offered.
fn table_settings(request: &CreateGame, clocks: &ClockChoices) -> Result<TableSettings, ApiError> {
    let mut settings = TableSettings::default();
    if let Some(clock) = request.clock {
        settings.clock = check_clock(clock, clocks)?;
    }
    settings.hints = request.hints.unwrap_or(false);
    if let Some(stand_in) = &request.stand_in {
        if !crate::bots::STRENGTHS.iter().any(|s| s.name == stand_in) {
            return Err(ApiError::malformed(format!(
                "stand_in {:?}: one of easy, medium, hard",
                crate::catalog::truncate(stand_in, 24)
            )));
        }
        settings.stand_in = stand_in.clone();
    }
    Ok(settings)
}

fn summary_of(row: &GameRow) -> GameSummary {
    GameSummary {
        id: row.id.clone(),
        game: row.game.clone(),
        config: row.config.clone(),
        status: row.status,
        seats: seat_infos(row, &[]),
        seats_free: row.seats.iter().filter(|s| s.is_free()).count() as u8,
        created: row.created,
        seed_chosen: row.seed_chosen,
        seq: None,
        to_move: None,
        outcome: None,
        data_digest: row.data_digest.clone(),
        clock: row.settings.clock,
        times: None,
        hints: row.settings.hints,
        casual: row.settings.casual,
    }
}
