//! [`Store`] on SQLite or PostgreSQL through sqlx's `Any` driver: the SQL is the same for
//! both (`$N` parameters, `ON CONFLICT DO NOTHING`); only set-up differs.

mod accounts;
mod blocks;
mod chat;
mod friends;
mod migrations;
mod moderation;
mod notifications;
mod passkeys;
mod presence;
mod ratings;
mod seeks;
mod settings;

use std::collections::HashSet;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::postgres::PgListener;
use sqlx::{AnyPool, Connection, Executor, Row};
use tokio::sync::mpsc;

use super::{
    parse_status, Change, Commit, GameRow, LobbyQuery, MoveRow, SeatEvent, SeatRecord, Status,
    StatusCounts, Store, StoreError,
};

/// SQLite's `synchronous` setting for the write-ahead log: what an acknowledged move
/// survives (docs/server.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncMode {
    /// Every commit is fsynced: an acknowledged move survives a power loss.
    #[default]
    Full,
    /// The log is fsynced at checkpoints only: an acknowledged move survives a crash of
    /// the process, but the last commits may be lost on power loss.
    Normal,
}

impl FromStr for SyncMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "full" => Ok(SyncMode::Full),
            "normal" => Ok(SyncMode::Normal),
            _ => Err(format!("{s:?}: expected full or normal")),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// Games and moves in a SQL database.
#[derive(Debug, Clone)]
pub struct SqlStore {
    /// Reads.
    pool: AnyPool,
    /// Writes. SQLite: a pool of one connection, so that every write finds the pages the
    /// last one touched in that connection's cache. A connection caches pages for itself
    /// and must read them again after another connection wrote, so writes spread over the
    /// pool's connections spent a quarter of the writer's time reading back pages they
    /// had just written. PostgreSQL: the pool (its caches are the server's, and
    /// `--writers` transactions store moves at once).
    writes: AnyPool,
    backend: Backend,
    /// When the writer last checkpointed (SQLite).
    last_checkpoint: Arc<Mutex<Instant>>,
    /// PostgreSQL: where to listen for the changes other server processes store.
    follow_url: Option<Url>,
}

/// A database URL, which may hold a password: shown without it.
#[derive(Clone)]
struct Url(String);

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&redact(&self.0))
    }
}

/// Changes heard but not yet taken by the hub.
const FOLLOW_BUFFER: usize = 4096;

/// How often the writer copies SQLite's write-ahead log into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// How long connecting to PostgreSQL at start may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a query waits for a pooled connection (sqlx's default is 30 s).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

impl SqlStore {
    /// Connects to `url` (`sqlite://FILE`, created when missing, or `postgres://…`) and
    /// brings its schema up to date.
    pub async fn open(url: &str, sync: SyncMode) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let (backend, url) = if url.starts_with("sqlite:") {
            check_sqlite_file(url)?;
            // Create the file on first start (no set-up step for the default database).
            let url = if url.contains("mode=") {
                url.to_string()
            } else if url.contains('?') {
                format!("{url}&mode=rwc")
            } else {
                format!("{url}?mode=rwc")
            };
            (Backend::Sqlite, url)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            probe_postgres(url).await?;
            (Backend::Postgres, url.to_string())
        } else {
            return Err(StoreError::Open(format!(
                "{url:?}: the database URL must start with sqlite:// or postgres://"
            )));
        };
        // The writer checkpoints between batches (`Store::between_batches`), not inside
        // the commit that fills the log; a log that was reset is cut back to 64 MiB.
        macro_rules! pragmas {
            ($synchronous:literal) => {
                concat!(
                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = ",
                    $synchronous,
                    "; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864; \
                     PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;"
                )
            };
        }
        let pragmas = match sync {
            SyncMode::Full => pragmas!("FULL"),
            SyncMode::Normal => pragmas!("NORMAL"),
        };
        let connect = |connections: u32| {
            AnyPoolOptions::new()
                .max_connections(connections)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        if backend == Backend::Sqlite {
                            conn.execute(pragmas).await?;
                        }
                        Ok(())
                    })
                })
                .connect(&url)
        };
        let opened = |e: sqlx::Error| StoreError::Open(format!("{}: {e}", redact(&url)));
        if backend == Backend::Sqlite {
            probe_sqlite(&url, pragmas).await?;
        }
        let pool = connect(match backend {
            // One writer at a time in any case; a few readers beside it.
            Backend::Sqlite => 4,
            Backend::Postgres => 8,
        })
        .await
        .map_err(opened)?;
        let migrator = migrations::migrator(backend == Backend::Postgres)
            .await
            .map_err(|e| StoreError::Open(format!("the migrations: {e}")))?;
        let migrated = match backend {
            // On a connection of its own with foreign keys off (sqlx turns them on), as
            // rebuilding a table that others reference needs; off outside the migration's
            // transaction, where SQLite ignores the pragma.
            Backend::Sqlite => {
                let mut connection = sqlx::AnyConnection::connect(&url).await.map_err(opened)?;
                connection
                    .execute("PRAGMA foreign_keys = OFF")
                    .await
                    .map_err(opened)?;
                let migrated = migrator.run(&mut connection).await;
                let _ = connection.close().await;
                migrated
            }
            Backend::Postgres => migrator.run(&pool).await,
        };
        migrated.map_err(|e| StoreError::Open(format!("migrating the schema: {e}")))?;
        let writes = match backend {
            Backend::Sqlite => connect(1).await.map_err(opened)?,
            Backend::Postgres => pool.clone(),
        };
        let store = SqlStore {
            pool,
            writes,
            backend,
            last_checkpoint: Arc::new(Mutex::new(Instant::now())),
            follow_url: (backend == Backend::Postgres).then(|| Url(url.clone())),
        };
        // A database that reads but cannot write (a read-only file or mount, a standby)
        // would serve the lobby and fail every new game and move: refuse it at start.
        store.check_write().await.map_err(|e| {
            StoreError::Open(format!("{} does not accept writes: {e}", redact(&url)))
        })?;
        Ok(store)
    }
}

/// Refuses a SQLite URL with no file: `sqlite://` and `sqlite::memory:` give each pooled
/// connection a database of its own (the writer's moves would be invisible to the
/// readers) and lose every game at exit.
fn check_sqlite_file(url: &str) -> Result<(), StoreError> {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let path = rest.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" || rest.contains("mode=memory") {
        return Err(StoreError::Open(format!(
            "{url:?} names no database file: give one, e.g. sqlite://tabletop.db (an in-memory \
             or temporary database is not shared by the server's connections and is lost at exit)"
        )));
    }
    Ok(())
}

/// Opens SQLite's file once with the pool's settings before the pool is made, so that a file
/// the server may not write fails at once with the reason: the pool's connections failed
/// their settings one after the other (WAL needs a write) until it gave up after 10 s with
/// "pool timed out".
async fn probe_sqlite(url: &str, pragmas: &str) -> Result<(), StoreError> {
    use sqlx::Connection;
    let failed = |e: sqlx::Error| {
        let read_only = e
            .as_database_error()
            .is_some_and(|d| d.message().contains("readonly"));
        StoreError::Open(match read_only {
            true => format!("{} does not accept writes: {e}", redact(url)),
            false => format!("{}: {e}", redact(url)),
        })
    };
    let mut connection = sqlx::AnyConnection::connect(url).await.map_err(failed)?;
    let set = connection.execute(pragmas).await;
    let _ = connection.close().await;
    set.map(|_| ()).map_err(failed)
}

/// Connects once to PostgreSQL before the pool is made, within [`CONNECT_TIMEOUT`], so
/// that a wrong host, port or password fails at once with the reason and names the
/// server, rather than as the pool's "timed out" after its acquire timeout.
async fn probe_postgres(url: &str) -> Result<(), StoreError> {
    use sqlx::postgres::{PgConnectOptions, PgConnection};
    use sqlx::Connection;
    let options = PgConnectOptions::from_str(url)
        .map_err(|e| StoreError::Open(format!("{}: {e}", redact(url))))?;
    let server = format!("{}:{}", options.get_host(), options.get_port());
    match tokio::time::timeout(CONNECT_TIMEOUT, PgConnection::connect_with(&options)).await {
        Ok(Ok(connection)) => {
            let _ = connection.close().await;
            Ok(())
        }
        Ok(Err(e)) => Err(StoreError::Open(format!(
            "cannot connect to PostgreSQL at {server}: {e}"
        ))),
        Err(_) => Err(StoreError::Open(format!(
            "PostgreSQL at {server} did not answer within {} s",
            CONNECT_TIMEOUT.as_secs()
        ))),
    }
}

impl SqlStore {
    /// Stores every move of `rows`, or none (a taken position fails the whole batch).
    ///
    /// The common batch is one `INSERT` on its own: a statement is atomic, so it needs no
    /// transaction around it, and each statement is a round trip (for SQLite, to sqlx's
    /// worker thread). Nothing is read back: the statement either stored every row or
    /// failed. A batch that ends a game also marks it over, in the same transaction.
    async fn store_all(&self, rows: &[&Commit]) -> Result<(), sqlx::Error> {
        if !rows.iter().any(|c| c.ends_game) {
            insert_moves(self.backend, rows, false)
                .execute(&self.writes)
                .await?;
            return Ok(());
        }
        let mut tx = self.writes.begin().await?;
        insert_moves(self.backend, rows, false)
            .execute(&mut *tx)
            .await?;
        for commit in rows.iter().filter(|c| c.ends_game) {
            mark_over(&commit.mv.game_id).execute(&mut *tx).await?;
        }
        tx.commit().await
    }

    /// Stores what it can of `rows`, move by move in one transaction: whether each was
    /// stored (false: its position was taken).
    async fn store_each(&self, rows: &[&Commit]) -> Result<Vec<bool>, StoreError> {
        let mut tx = self.writes.begin().await?;
        let mut stored = Vec::with_capacity(rows.len());
        for commit in rows {
            let done = insert_moves(self.backend, std::slice::from_ref(commit), true)
                .execute(&mut *tx)
                .await?;
            let fresh = done.rows_affected() == 1;
            if fresh && commit.ends_game {
                mark_over(&commit.mv.game_id).execute(&mut *tx).await?;
            }
            stored.push(fresh);
        }
        tx.commit().await?;
        Ok(stored)
    }
}

/// `count` numbered parameters from `$first` on, for an `IN (…)` list: "$3, $4, $5".
pub(super) fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The statement that stores a new game (`creator`: the digest of its creator's address
/// key, kept while it is open).
pub(super) fn insert_game<'q>(
    game: &'q GameRow,
    creator: Option<&'q str>,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(
        "INSERT INTO games (id, game, config, seed, seed_chosen, created, status, seats, \
         version, data_digest, creator, owner, settings, started, clock_kind, may_be_rated, \
         players) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, \
         $16, $17)",
    )
    .bind(&game.id)
    .bind(&game.game)
    .bind(game.config.to_string())
    // u64 seeds are stored as the i64 of the same bits (neither database has u64).
    .bind(game.seed as i64)
    .bind(i64::from(game.seed_chosen))
    .bind(game.created)
    .bind(game.status.as_str())
    .bind(seats_json(&game.seats))
    .bind(game.version)
    .bind(game.data_digest.clone())
    .bind(creator)
    .bind(game.owner.clone())
    .bind(serde_json::to_string(&game.settings).unwrap_or_else(|_| "{}".into()))
    .bind(game.started)
    // What the lobby filters by (migration 0016 SQLite, 0017 PostgreSQL).
    .bind(game.settings.clock.kind().as_str())
    .bind(i64::from(game.settings.may_be_rated()))
    .bind(i64::try_from(game.seats.len()).unwrap_or(i64::MAX))
}

/// The statement that marks game `id` over.
fn mark_over(id: &str) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
    sqlx::query(
        "UPDATE games SET status = 'over', version = version + 1, creator = NULL WHERE id = $1",
    )
    .bind(id)
}

/// Replaces a game's seats and status if its row is still at `version`; a game that
/// starts running keeps `started` as its start unless it has one.
fn update_seats_query<'q>(
    id: &'q str,
    seats: &[SeatRecord],
    status: Status,
    version: i64,
    started: Option<i64>,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(
        "UPDATE games SET seats = $1, status = $2, version = version + 1, \
         creator = CASE WHEN $2 = 'open' THEN creator END, \
         started = COALESCE(started, CASE WHEN $2 = 'running' THEN $5 END) \
         WHERE id = $3 AND version = $4",
    )
    .bind(seats_json(seats))
    .bind(status.as_str())
    .bind(id)
    .bind(version)
    .bind(started)
}

/// The URL without a password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…{}", &url[..scheme], &url[at..]),
        _ => url.to_string(),
    }
}

fn game_row(row: &AnyRow) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        config: parse_json("config", &row.try_get::<String, _>("config")?)?,
        seed: row.try_get::<i64, _>("seed")? as u64,
        seed_chosen: row.try_get::<i64, _>("seed_chosen")? != 0,
        created: row.try_get("created")?,
        status: parse_status(&row.try_get::<String, _>("status")?)?,
        seats: parse_json("seats", &row.try_get::<String, _>("seats")?)?,
        version: row.try_get("version")?,
        data_digest: row.try_get("data_digest")?,
        owner: row.try_get("owner")?,
        settings: parse_json("settings", &row.try_get::<String, _>("settings")?)?,
        started: row.try_get("started")?,
    })
}

fn parse_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn seats_json(seats: &[SeatRecord]) -> String {
    // Structs of strings and enums serialize infallibly.
    serde_json::to_string(seats).unwrap_or_else(|_| "[]".into())
}

/// The `INSERT` of a batch of moves, for `backend`: one parameter, the batch as a JSON
/// array of `[game_id, seq, seat, action, at, undoes]` rows (the action as its JSON text), so that
/// every batch, whatever its size, is the same prepared statement with one value to bind.
/// With `or_skip`, a move whose (game, seq) is taken is skipped rather than failing the
/// statement.
fn insert_moves_sql(backend: Backend, or_skip: bool) -> &'static str {
    macro_rules! sqlite_rows {
        () => {
            concat!(
                "INSERT INTO moves (game_id, seq, seat, action, at, undoes) ",
                "SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ",
                "value ->> 5 ",
                "FROM json_each($1)"
            )
        };
    }
    macro_rules! postgres_rows {
        () => {
            concat!(
                "INSERT INTO moves (game_id, seq, seat, action, at, undoes) ",
                "SELECT m ->> 0, (m ->> 1)::bigint, (m ->> 2)::bigint, m ->> 3, (m ->> 4)::bigint, ",
                "(m ->> 5)::bigint ",
                "FROM jsonb_array_elements($1::jsonb) AS m"
            )
        };
    }
    match (backend, or_skip) {
        (Backend::Sqlite, false) => sqlite_rows!(),
        // SQLite needs a WHERE before an upsert clause of an INSERT … SELECT (to tell it
        // from a join's ON).
        (Backend::Sqlite, true) => concat!(sqlite_rows!(), " WHERE true ON CONFLICT DO NOTHING"),
        (Backend::Postgres, false) => postgres_rows!(),
        (Backend::Postgres, true) => concat!(postgres_rows!(), " ON CONFLICT DO NOTHING"),
    }
}

/// A move row as the insert statement reads it: `[game_id, seq, seat, action, at, undoes]`.
type MoveRowJson<'a> = (&'a str, u64, u8, String, i64, Option<u64>);

/// The statement inserting `rows`, with their values bound.
fn insert_moves<'q>(
    backend: Backend,
    rows: &[&Commit],
    or_skip: bool,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let rows: Vec<MoveRowJson> = rows
        .iter()
        .map(|c| {
            let mv = &c.mv;
            (
                mv.game_id.as_str(),
                mv.seq,
                mv.seat,
                mv.action.to_string(),
                mv.at,
                mv.undoes,
            )
        })
        .collect();
    // Strings, integers and tuples serialize infallibly.
    let batch = serde_json::to_string(&rows).unwrap_or_default();
    sqlx::query(insert_moves_sql(backend, or_skip)).bind(batch)
}

/// Whether `error` is a (game, seq) already taken.
fn is_taken(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

/// The end of a statement inserting leases: a lease already there is taken only if it is
/// the same owner's or lapsed before parameter `now` (its number).
fn take_lease(now: u8) -> String {
    format!(
        "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, until = excluded.until \
         WHERE table_leases.owner = excluded.owner OR table_leases.until < ${now}"
    )
}

const GAME_COLUMNS: &str =
    "id, game, config, seed, seed_chosen, created, status, seats, version, data_digest, owner, settings, started";

#[async_trait]
impl Store for SqlStore {
    async fn create_game(&self, game: &GameRow, creator: Option<&str>) -> Result<(), StoreError> {
        insert_game(game, creator).execute(&self.writes).await?;
        Ok(())
    }

    async fn open_tables_of(&self, creator: &str) -> Result<u64, StoreError> {
        let open: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE creator = $1 AND status = 'open'")
                .bind(creator)
                .fetch_one(&self.pool)
                .await?;
        Ok(open as u64)
    }

    async fn put_data_file(&self, digest: &str, game: &str, text: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO data_files (digest, game, text) VALUES ($1, $2, $3) \
             ON CONFLICT (digest) DO NOTHING",
        )
        .bind(digest)
        .bind(game)
        .bind(text)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn data_file(&self, digest: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT text FROM data_files WHERE digest = $1")
            .bind(digest)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("text")).transpose()?)
    }

    async fn load_row(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(game_row)
            .transpose()
    }

    async fn load_moves(&self, id: &str, from: u64) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, seat, action, at, undoes FROM moves WHERE game_id = $1 AND seq >= $2 \
             ORDER BY seq",
        )
        .bind(id)
        .bind(from as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut moves = Vec::with_capacity(rows.len());
        for (expected, row) in (from..).zip(&rows) {
            let seq = row.try_get::<i64, _>("seq")? as u64;
            if seq != expected {
                return Err(StoreError::Corrupt(format!(
                    "game {id}: move {expected} is stored with seq {seq}"
                )));
            }
            moves.push(MoveRow {
                game_id: id.to_string(),
                seq,
                seat: u8::try_from(row.try_get::<i64, _>("seat")?)
                    .map_err(|e| StoreError::Corrupt(format!("seat: {e}")))?,
                action: parse_json("action", &row.try_get::<String, _>("action")?)?,
                at: row.try_get("at")?,
                undoes: row
                    .try_get::<Option<i64>, _>("undoes")?
                    .map(|seq| seq as u64),
            });
        }
        Ok(moves)
    }

    async fn list_games(&self, query: &LobbyQuery) -> Result<Vec<GameRow>, StoreError> {
        // Only the filters asked for are in the statement, so that each shape of query
        // uses its index (migrations 0004 SQLite, 0005 PostgreSQL).
        let mut conditions = Vec::new();
        let mut next = 1;
        let mut param = || {
            let text = format!("${next}");
            next += 1;
            text
        };
        if query.game.is_some() {
            conditions.push(format!("game = {}", param()));
        }
        if query.status.is_some() {
            conditions.push(format!("status = {}", param()));
        } else {
            // Cancelled and expired tables left the lobby; they are listed when asked for.
            conditions.push("status NOT IN ('cancelled', 'expired')".into());
        }
        if query.clock.is_some() {
            conditions.push(format!("clock_kind = {}", param()));
        }
        if query.rated.is_some() {
            conditions.push(format!("may_be_rated = {}", param()));
        }
        if query.players.is_some() {
            conditions.push(format!("players = {}", param()));
        }
        if query.language.is_some() {
            // The languages are kept comma-separated (migration 0012 SQLite, 0013
            // PostgreSQL): the tag alone, or with subtags.
            let (alone, with_subtags) = (param(), param());
            conditions.push(format!(
                "EXISTS (SELECT 1 FROM account_seats JOIN account_settings \
                 ON account_settings.account_id = account_seats.account_id \
                 WHERE account_seats.game_id = games.id \
                 AND (',' || account_settings.languages || ',' LIKE {alone} \
                 OR ',' || account_settings.languages || ',' LIKE {with_subtags}))"
            ));
        }
        if query.before.is_some() {
            let (created, id) = (param(), param());
            conditions.push(format!(
                "(created < {created} OR (created = {created} AND id < {id}))"
            ));
        }
        let filter = if conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conditions.join(" AND "))
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games {filter} ORDER BY created DESC, id DESC LIMIT {}",
            param()
        );
        let mut statement = sqlx::query(&sql);
        if let Some(game) = &query.game {
            statement = statement.bind(game.as_str());
        }
        if let Some(status) = query.status {
            statement = statement.bind(status.as_str());
        }
        if let Some(clock) = query.clock {
            statement = statement.bind(clock.as_str());
        }
        if let Some(rated) = query.rated {
            statement = statement.bind(i64::from(rated));
        }
        if let Some(players) = query.players {
            statement = statement.bind(i64::from(players));
        }
        if let Some(language) = &query.language {
            statement = statement
                .bind(format!("%,{language},%"))
                .bind(format!("%,{language}-%"));
        }
        if let Some(cursor) = &query.before {
            statement = statement.bind(cursor.created).bind(cursor.id.as_str());
        }
        let rows = statement
            .bind(i64::from(query.limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(game_row).collect()
    }

    async fn expire_open(&self, created_before: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "UPDATE games SET status = 'expired', version = version + 1, creator = NULL \
             WHERE status = 'open' AND created < $1 RETURNING id",
        )
        .bind(created_before)
        .fetch_all(&self.writes)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(StoreError::from))
            .collect()
    }

    async fn game_ids(&self, status: Status) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = $1")
            .bind(status.as_str())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(StoreError::from))
            .collect()
    }

    async fn update_seats(
        &self,
        id: &str,
        seats: &[SeatRecord],
        status: Status,
        version: i64,
        started: Option<i64>,
    ) -> Result<(), StoreError> {
        let done = update_seats_query(id, seats, status, version, started)
            .execute(&self.writes)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    async fn update_seats_logged(
        &self,
        id: &str,
        seats: &[SeatRecord],
        status: Status,
        version: i64,
        event: &SeatEvent,
    ) -> Result<(), StoreError> {
        let mut tx = self.writes.begin().await?;
        let done = update_seats_query(id, seats, status, version, None)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        // Numbered by the row's new version: one event per change, in order.
        sqlx::query("INSERT INTO seat_events (game_id, n, event) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(version + 1)
            .bind(serde_json::to_string(event).unwrap_or_default())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn seat_events(&self, id: &str) -> Result<Vec<SeatEvent>, StoreError> {
        let rows = sqlx::query("SELECT event FROM seat_events WHERE game_id = $1 ORDER BY n")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| parse_json("seat event", &r.try_get::<String, _>("event")?))
            .collect()
    }

    async fn append_moves(
        &self,
        batch: &[Commit],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        // Each (game, seq) of the batch, at its first move: a second move for the same
        // position in one batch is a conflict before it reaches the database (one
        // statement must not hold both).
        let mut seen = HashSet::with_capacity(batch.len());
        let firsts: Vec<usize> = (0..batch.len())
            .filter(|&i| seen.insert((batch[i].mv.game_id.as_str(), batch[i].mv.seq)))
            .collect();
        let rows: Vec<&Commit> = firsts.iter().map(|&i| &batch[i]).collect();
        let stored = match self.store_all(&rows).await {
            Ok(()) => vec![true; rows.len()],
            // Another server process stored one of these positions first: the batch is
            // stored again move by move, to find out which.
            Err(e) if is_taken(&e) => self.store_each(&rows).await?,
            Err(e) => return Err(e.into()),
        };
        let mut results = vec![Err(StoreError::Conflict); batch.len()];
        for (&i, stored) in firsts.iter().zip(stored) {
            if stored {
                results[i] = Ok(());
            }
        }
        Ok(results)
    }

    /// A passive checkpoint: the write-ahead log is copied into the database file.
    ///
    /// SQLite's own checkpoints (turned off: `wal_autocheckpoint = 0`) run inside the
    /// commit that fills the log past 1,000 pages, and every move waiting for the next
    /// commit waited for them too: up to 70 ms with `--sync normal`, the longest stalls of
    /// a paced load (docs/experiments/server-load.md, "Steps of 2026-11-24 (evening)"). The writer runs this one at most every
    /// [`CHECKPOINT_EVERY`], after it has acknowledged a batch. Run by the writer, it is
    /// never overtaken by a commit, so it leaves every frame in the database file and the
    /// next commit starts the log over from its beginning: a checkpoint on a connection of
    /// its own, overtaken by a commit nearly every time under a steady load, let the log
    /// grow by hundreds of megabytes a minute.
    async fn between_batches(&self) {
        if self.backend != Backend::Sqlite {
            return;
        }
        {
            let mut last = self
                .last_checkpoint
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.elapsed() < CHECKPOINT_EVERY {
                return;
            }
            *last = Instant::now();
        }
        if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_optional(&self.writes)
            .await
        {
            tracing::warn!(%error, "checkpointing the write-ahead log failed");
        }
    }

    /// PostgreSQL: a connection of its own listens to the schema's channel, which the
    /// triggers of migration 0002 notify as each change commits.
    async fn follow(&self) -> Result<Option<mpsc::Receiver<Change>>, StoreError> {
        let Some(url) = &self.follow_url else {
            return Ok(None);
        };
        let schema: String = sqlx::query_scalar("SELECT current_schema()::text")
            .fetch_one(&self.pool)
            .await?;
        let mut listener = PgListener::connect(&url.0).await?;
        listener.listen(&format!("tabletop.{schema}")).await?;
        let (changes, receiver) = mpsc::channel(FOLLOW_BUFFER);
        tokio::spawn(async move {
            // Set when the connection failed: once it answers again, changes made
            // meanwhile went unheard.
            let mut lost = false;
            loop {
                let heard = tokio::select! {
                    () = changes.closed() => return,
                    heard = listener.try_recv() => heard,
                };
                let change = match heard {
                    Ok(Some(notification)) => Change::parse(notification.payload()),
                    // The connection was lost and made again.
                    Ok(None) => Some(Change::Missed),
                    Err(error) => {
                        tracing::warn!(%error, "listening for other servers' changes failed");
                        lost = true;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                for change in std::mem::take(&mut lost)
                    .then_some(Change::Missed)
                    .into_iter()
                    .chain(change)
                {
                    if changes.send(change).await.is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Some(receiver))
    }

    async fn claim_lease(
        &self,
        id: &str,
        owner: &str,
        until: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "INSERT INTO table_leases (game_id, owner, until) VALUES ($1, $2, $3) {}",
            take_lease(4)
        ))
        .bind(id)
        .bind(owner)
        .bind(until)
        .bind(now)
        .execute(&self.writes)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn renew_leases(
        &self,
        owner: &str,
        until: i64,
        now: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(&format!(
            "INSERT INTO table_leases (game_id, owner, until) \
             SELECT id, $1, $2 FROM games WHERE status = 'running' {} RETURNING game_id",
            take_lease(3)
        ))
        .bind(owner)
        .bind(until)
        .bind(now)
        .fetch_all(&self.writes)
        .await?;
        sqlx::query(
            "DELETE FROM table_leases WHERE owner = $1 AND game_id IN \
             (SELECT id FROM games WHERE status <> 'running')",
        )
        .bind(owner)
        .execute(&self.writes)
        .await?;
        rows.iter()
            .map(|r| r.try_get("game_id").map_err(StoreError::from))
            .collect()
    }

    async fn release_leases(&self, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM table_leases WHERE owner = $1")
            .bind(owner)
            .execute(&self.writes)
            .await?;
        Ok(())
    }

    async fn status_counts(&self) -> Result<StatusCounts, StoreError> {
        let rows = sqlx::query("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
            .fetch_all(&self.pool)
            .await?;
        let mut counts = StatusCounts::default();
        for row in &rows {
            let n = row.try_get::<i64, _>("n")? as u64;
            match parse_status(&row.try_get::<String, _>("status")?)? {
                Status::Open => counts.open = n,
                Status::Running => counts.running = n,
                Status::Over => counts.over = n,
                Status::Cancelled | Status::Expired => counts.closed += n,
            }
        }
        Ok(counts)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// One row rewritten through the writer's connection: it waits behind the moves
    /// being stored, as a new move would.
    async fn check_write(&self) -> Result<(), StoreError> {
        let now = crate::time::now_ms();
        sqlx::query(
            "INSERT INTO health (id, checked) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET checked = excluded.checked",
        )
        .bind(now)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    async fn close(&self) {
        self.writes.close().await;
        self.pool.close().await;
    }
}
