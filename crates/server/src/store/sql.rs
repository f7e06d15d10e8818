//! [`Store`] on SQLite or PostgreSQL through sqlx's `Any` driver: the SQL is the same for
//! both (`$N` parameters, `ON CONFLICT DO NOTHING`); only set-up differs.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::OnceLock;

use async_trait::async_trait;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Executor, Row};

use super::{Commit, GameRow, MoveRow, SeatRecord, Status, StatusCounts, Store, StoreError};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

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
    pool: AnyPool,
}

impl SqlStore {
    /// Connects to `url` (`sqlite://FILE`, created when missing, or `postgres://…`) and
    /// brings its schema up to date.
    pub async fn open(url: &str, sync: SyncMode) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let (backend, url) = if url.starts_with("sqlite:") {
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
            (Backend::Postgres, url.to_string())
        } else {
            return Err(StoreError::Open(format!(
                "{url:?}: the database URL must start with sqlite:// or postgres://"
            )));
        };
        let pragmas = match sync {
            SyncMode::Full => {
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                           PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;"
            }
            SyncMode::Normal => {
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;"
            }
        };
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                // One writer at a time in any case; a few readers beside it.
                Backend::Sqlite => 4,
                Backend::Postgres => 8,
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute(pragmas).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| StoreError::Open(format!("{}: {e}", redact(&url))))?;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator
            .run(&pool)
            .await
            .map_err(|e| StoreError::Open(format!("migrating the schema: {e}")))?;
        Ok(SqlStore { pool })
    }
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
        status: Status::parse(&row.try_get::<String, _>("status")?)?,
        seats: parse_json("seats", &row.try_get::<String, _>("seats")?)?,
        version: row.try_get("version")?,
    })
}

fn parse_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn seats_json(seats: &[SeatRecord]) -> String {
    // Structs of strings and enums serialize infallibly.
    serde_json::to_string(seats).unwrap_or_else(|_| "[]".into())
}

/// Moves stored by one `INSERT` (5 parameters each: well under both databases' limits).
const ROWS_PER_INSERT: usize = 256;

/// `INSERT` of `rows` moves that skips those whose (game, seq) is taken and returns the
/// keys of those stored. The text is built once per row count.
fn insert_moves_sql(rows: usize) -> &'static str {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        (0..=ROWS_PER_INSERT)
            .map(|rows| {
                let values: Vec<String> = (0..rows)
                    .map(|row| {
                        let p = row * 5;
                        format!(
                            "(${}, ${}, ${}, ${}, ${})",
                            p + 1,
                            p + 2,
                            p + 3,
                            p + 4,
                            p + 5
                        )
                    })
                    .collect();
                format!(
                    "INSERT INTO moves (game_id, seq, seat, action, at) VALUES {} \
                     ON CONFLICT DO NOTHING RETURNING game_id, seq",
                    values.join(", ")
                )
            })
            .collect()
    });
    &texts[rows.min(ROWS_PER_INSERT)]
}

const GAME_COLUMNS: &str = "id, game, config, seed, seed_chosen, created, status, seats, version";

#[async_trait]
impl Store for SqlStore {
    async fn create_game(&self, game: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, game, config, seed, seed_chosen, created, status, seats, \
             version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let rows =
            sqlx::query("SELECT seq, seat, action, at FROM moves WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        let mut moves = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let seq = row.try_get::<i64, _>("seq")? as u64;
            if seq != i as u64 {
                return Err(StoreError::Corrupt(format!(
                    "game {id}: move {i} is stored with seq {seq}"
                )));
            }
            moves.push(MoveRow {
                game_id: id.to_string(),
                seq,
                seat: u8::try_from(row.try_get::<i64, _>("seat")?)
                    .map_err(|e| StoreError::Corrupt(format!("seat: {e}")))?,
                action: parse_json("action", &row.try_get::<String, _>("action")?)?,
                at: row.try_get("at")?,
            });
        }
        Ok(Some((game, moves)))
    }

    async fn list_games(
        &self,
        status: Option<Status>,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = match status {
            Some(status) => {
                sqlx::query(&format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE status = $1 \
                     ORDER BY created DESC, id LIMIT $2"
                ))
                .bind(status.as_str())
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(&format!(
                    "SELECT {GAME_COLUMNS} FROM games ORDER BY created DESC, id LIMIT $1"
                ))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?
            }
        };
        rows.iter().map(game_row).collect()
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
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE games SET seats = $1, status = $2, version = version + 1 \
             WHERE id = $3 AND version = $4",
        )
        .bind(seats_json(seats))
        .bind(status.as_str())
        .bind(id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    async fn append_moves(
        &self,
        batch: &[Commit],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        // Each (game, seq) of the batch, at its first move: a second move for the same
        // position in one batch is a conflict before it reaches the database (one
        // statement must not hold both).
        let mut first_of: HashMap<(&str, u64), usize> = HashMap::with_capacity(batch.len());
        for (i, commit) in batch.iter().enumerate() {
            first_of
                .entry((&commit.mv.game_id, commit.mv.seq))
                .or_insert(i);
        }
        let rows: Vec<&Commit> = batch
            .iter()
            .enumerate()
            .filter(|(i, c)| first_of[&(c.mv.game_id.as_str(), c.mv.seq)] == *i)
            .map(|(_, c)| c)
            .collect();
        let mut stored = vec![false; batch.len()];
        let mut tx = self.pool.begin().await?;
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            // One statement per chunk rather than per move: each statement is a round trip
            // to the database (for SQLite, to sqlx's worker thread).
            let mut query = sqlx::query(insert_moves_sql(chunk.len()));
            for commit in chunk {
                let mv = &commit.mv;
                query = query
                    .bind(mv.game_id.as_str())
                    .bind(mv.seq as i64)
                    .bind(i64::from(mv.seat))
                    .bind(mv.action.to_string())
                    .bind(mv.at);
            }
            for row in query.fetch_all(&mut *tx).await? {
                let id: String = row.try_get(0)?;
                let seq = row.try_get::<i64, _>(1)? as u64;
                if let Some(&i) = first_of.get(&(id.as_str(), seq)) {
                    stored[i] = true;
                }
            }
        }
        for (commit, _) in batch.iter().zip(&stored).filter(|(c, &s)| s && c.ends_game) {
            sqlx::query("UPDATE games SET status = 'over', version = version + 1 WHERE id = $1")
                .bind(&commit.mv.game_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(stored
            .into_iter()
            .map(|s| if s { Ok(()) } else { Err(StoreError::Conflict) })
            .collect())
    }

    async fn status_counts(&self) -> Result<StatusCounts, StoreError> {
        let rows = sqlx::query("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
            .fetch_all(&self.pool)
            .await?;
        let mut counts = StatusCounts::default();
        for row in &rows {
            let n = row.try_get::<i64, _>("n")? as u64;
            match Status::parse(&row.try_get::<String, _>("status")?)? {
                Status::Open => counts.open = n,
                Status::Running => counts.running = n,
                Status::Over => counts.over = n,
            }
        }
        Ok(counts)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
