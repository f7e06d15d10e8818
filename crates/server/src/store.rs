//! Event-sourced storage: a `games` row holds `(game, config, seed)` and the seats, the
//! `moves` rows the actions. The [`Store`] trait is what the server needs; [`SqlStore`]
//! implements it on SQLite and PostgreSQL alike (one SQL text, sqlx's `Any` driver), and
//! both pass the same tests. [`open`] picks the database by URL.

pub mod accounts;
pub mod blocks;
pub mod chat;
pub mod friends;
pub mod moderation;
pub mod notifications;
pub mod passkeys;
pub mod presence;
pub mod ratings;
pub mod seeks;
pub mod settings;
mod sql;

use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::model::{Clock, ClockKind};
pub use crate::model::{SeatChange, SeatEvent, SeatKind, Status};
pub use accounts::{AccountRow, AccountStore, NameKeys, SessionRow};
pub use blocks::{BlockRow, BlockStore};
pub use chat::ChatStore;
pub use friends::{Asked, FriendRow, FriendStore, SitePresence};
pub use moderation::{ActionRow, EvidenceRow, ModerationStore, ReportRow, Standing, FOR_GOOD};
pub use notifications::{NewNotification, NotificationPage, NotificationStore};
pub use passkeys::{CeremonyRow, PasskeyListed, PasskeyRemoval, PasskeyRow, PasskeyStore};
pub use presence::PresenceStore;
pub use ratings::{RatingRow, RatingStore};
pub use seeks::{SeekClaim, SeekRow, SeekSpec, SeekStore};
pub use settings::{SettingsRow, SettingsStore};
pub use sql::{SqlStore, SyncMode};

/// A status as [`Status::as_str`] stores it.
fn parse_status(text: &str) -> Result<Status, StoreError> {
    match text {
        "open" => Ok(Status::Open),
        "running" => Ok(Status::Running),
        "over" => Ok(Status::Over),
        "cancelled" => Ok(Status::Cancelled),
        "expired" => Ok(Status::Expired),
        other => Err(StoreError::Corrupt(format!("unknown status {other:?}"))),
    }
}

/// A seat as stored. A human seat with no name is free; `token_hash` is the SHA-256 of
/// its secret token (the token itself is never stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub kind: SeatKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The bot spec a bot seat plays with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
    /// A seat anyone may take from the lobby (else only its invitation link takes it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// The bot spec playing a person's seat for them (handed over while they were gone, or
    /// after they left), until they take it back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<String>,
    /// The person left for good: a bot finishes the seat, and they cannot take it back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
    /// How many times the seat's clock ran out; at [`MAX_RUN_OUTS`] a bot finishes the
    /// seat, which its person can no longer take back.
    #[serde(default, skip_serializing_if = "crate::model::is_zero")]
    pub run_outs: u8,
    /// The seat's person deleted their account after the game: its name is
    /// [`FORMER_PLAYER`], no longer theirs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub former: bool,
    /// A free seat kept for this account (invited by name, [`crate::friends`]): its person
    /// takes it signed in, without the link. Never shown to clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved_for: Option<String>,
}

/// The run-outs of a seat's clock after which a bot plays the seat to the end: a seat
/// that times out and takes its seat back again and again would otherwise play on and on
/// past its bank.
pub const MAX_RUN_OUTS: u8 = 3;

/// The name of a seat whose person deleted their account (clients show it in their
/// language, from [`SeatRecord::former`]).
pub const FORMER_PLAYER: &str = "former player";

impl SeatRecord {
    /// A person's seat: free (no name) until someone takes it with `token_hash`'s token.
    pub fn human(name: Option<String>, token_hash: String, open: bool) -> Self {
        SeatRecord {
            kind: SeatKind::Human,
            name,
            bot: None,
            token_hash: Some(token_hash),
            open,
            stand_in: None,
            left: false,
            run_outs: 0,
            former: false,
            reserved_for: None,
        }
    }

    /// A bot's seat, playing with bot spec `spec`.
    pub fn bot(name: String, spec: String) -> Self {
        SeatRecord {
            kind: SeatKind::Bot,
            name: Some(name),
            bot: Some(spec),
            token_hash: None,
            open: false,
            stand_in: None,
            left: false,
            run_outs: 0,
            former: false,
            reserved_for: None,
        }
    }

    /// The bot spec that moves for this seat: a bot's own, or a person's stand-in.
    pub fn played_by_bot(&self) -> Option<&str> {
        match self.kind {
            SeatKind::Bot => self.bot.as_deref(),
            SeatKind::Human => self.stand_in.as_deref(),
        }
    }

    /// Whether a bot plays the seat to the end: its person left, or their clock ran out
    /// [`MAX_RUN_OUTS`] times.
    pub fn bot_to_the_end(&self) -> bool {
        self.left || self.run_outs >= MAX_RUN_OUTS
    }

    pub fn is_free(&self) -> bool {
        self.kind == SeatKind::Human && self.name.is_none()
    }

    /// Makes seat event `what` of this seat: who plays it after, with `stand_in` the
    /// table's stand-in bot.
    pub fn apply(&mut self, what: SeatChange, stand_in: &str) {
        match what {
            SeatChange::HandedOver => self.stand_in = Some(stand_in.to_string()),
            SeatChange::TimedOut => {
                self.run_outs = self.run_outs.saturating_add(1);
                self.stand_in = Some(stand_in.to_string());
            }
            SeatChange::Left => {
                self.left = true;
                self.stand_in = Some(stand_in.to_string());
            }
            SeatChange::TookBack => self.stand_in = None,
            SeatChange::Hinted => {}
        }
    }
}

/// Whether a table of seats of these kinds has no human seat: its game is there to be
/// watched, with nobody at it.
pub fn bots_only(kinds: impl IntoIterator<Item = SeatKind>) -> bool {
    kinds.into_iter().all(|kind| kind == SeatKind::Bot)
}

/// A `games` row.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub config: Value,
    pub seed: u64,
    pub seed_chosen: bool,
    /// Unix milliseconds.
    pub created: i64,
    pub status: Status,
    pub seats: Vec<SeatRecord>,
    /// Bumped by every change of seats or status: changes are compare-and-set on it.
    pub version: i64,
    /// The corrected component data the game plays on, by the digest of its text
    /// ([`Store::put_data_file`]); `None`: the shipped data.
    pub data_digest: Option<String>,
    /// The SHA-256 of the creator's token, which cancels the table before it starts.
    pub owner: Option<String>,
    /// What the creator chose for the table beyond the game's config.
    pub settings: TableSettings,
    /// When the game started, its seats all taken (Unix milliseconds): its clocks run from
    /// then on. `None` while it waits for players.
    pub started: Option<i64>,
}

/// A table's own settings, chosen at its creation (stored as JSON: fields added later
/// take their defaults in older rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSettings {
    /// The bot strength that plays a person's seat while they are gone or after they left.
    #[serde(default = "default_stand_in")]
    pub stand_in: String,
    /// The table's clock.
    #[serde(default)]
    pub clock: Clock,
    /// Seats may ask what the hard bot would do ([`SeatChange::Hinted`]): a casual table,
    /// never rated.
    #[serde(default)]
    pub hints: bool,
    /// Never rated: its seekers asked for a casual game ([`crate::matchmaking`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub casual: bool,
}

impl TableSettings {
    /// Whether the table's end may be rated: neither hints nor a casual seek rules it out
    /// (whether it is, is decided at its end: two people or more, no seat mostly a bot's).
    pub fn may_be_rated(&self) -> bool {
        !self.hints && !self.casual
    }
}

fn default_stand_in() -> String {
    "medium".into()
}

impl Default for TableSettings {
    fn default() -> Self {
        TableSettings {
            stand_in: default_stand_in(),
            clock: Clock::None,
            hints: false,
            casual: false,
        }
    }
}

/// A page of the lobby: the newest games first, by `created` and then by id, optionally
/// of one game and one status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LobbyQuery {
    pub game: Option<String>,
    pub status: Option<Status>,
    /// Only tables with a clock of this kind.
    pub clock: Option<ClockKind>,
    /// Only tables that may be rated (`true`) or that never are (`false`).
    pub rated: Option<bool>,
    /// Only tables of this many seats.
    pub players: Option<u8>,
    /// Only tables where a seated account speaks this language (its primary subtag, in
    /// lower case: "pt" finds "pt-BR").
    pub language: Option<String>,
    /// Only games listed after this one: the last game of the page before. A page read
    /// from a cursor stays the same when newer games are created meanwhile.
    pub before: Option<LobbyCursor>,
    pub limit: u32,
}

/// Where a page of the lobby ends: its last game's `(created, id)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LobbyCursor {
    pub created: i64,
    pub id: String,
}

/// A `moves` row.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRow {
    pub game_id: String,
    /// 0-based: the number of moves stored before this one.
    pub seq: u64,
    pub seat: u8,
    pub action: Value,
    /// Unix milliseconds.
    pub at: i64,
    /// Set on an undo: the seq of the move it takes back (`action` is then null).
    pub undoes: Option<u64>,
}

/// A move to store, and whether it ends the game (the status changes in the same
/// transaction).
#[derive(Debug, Clone, PartialEq)]
pub struct Commit {
    pub mv: MoveRow,
    pub ends_game: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// Another writer stored this move's seq first, or changed the row since it was read.
    #[error("another change was stored first")]
    Conflict,
    #[error("storage: {0}")]
    Database(String),
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error("cannot open the database: {0}")]
    Open(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

/// A change stored by some server process on a shared database (PostgreSQL
/// notifications; a process hears its own changes too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Moves of game `game` were stored: it has `stored` moves now.
    Moves { game: String, stored: u64 },
    /// The row of game `game` changed: its seats or status.
    Game { game: String },
    /// Chat message `id` of game `game` was stored.
    Chat { game: String, id: i64 },
    /// Seek `id` was posted: it may complete a table.
    SeekPosted { id: String },
    /// Seek `id` was matched to a table, or withdrawn.
    SeekEnded { id: String },
    /// A seat's presence at game `game` changed in another process.
    Presence { game: String },
    /// A notification of `recipient`'s was stored or read.
    Notified { recipient: String },
    /// A block of `account`'s, or of another's against it, was made or lifted.
    Blocks { account: String },
    /// Changes may have gone unheard (the connection that hears them was lost and made
    /// again): any game may be behind.
    Missed,
}

impl Change {
    /// A notification's payload (migrations/postgres/0002, 0011, 0016, 0018, 0019):
    /// `m ID STORED`, `g ID`, `c ID MESSAGE`, `k SEEK`, `s SEEK`, `p ID`, `n RECIPIENT` or `b ACCOUNT`
    /// (0023).
    fn parse(payload: &str) -> Option<Change> {
        let mut words = payload.split(' ');
        let change = match (words.next()?, words.next()?, words.next()) {
            ("m", game, Some(stored)) => Change::Moves {
                game: game.to_string(),
                stored: stored.parse().ok()?,
            },
            ("g", game, None) => Change::Game {
                game: game.to_string(),
            },
            ("c", game, Some(id)) => Change::Chat {
                game: game.to_string(),
                id: id.parse().ok()?,
            },
            ("k", id, None) => Change::SeekPosted { id: id.to_string() },
            ("s", id, None) => Change::SeekEnded { id: id.to_string() },
            ("p", game, None) => Change::Presence {
                game: game.to_string(),
            },
            ("n", recipient, None) => Change::Notified {
                recipient: recipient.to_string(),
            },
            ("b", account, None) => Change::Blocks {
                account: account.to_string(),
            },
            _ => return None,
        };
        words.next().is_none().then_some(change)
    }
}

/// Counts of games by status (for `/metrics`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub open: u64,
    pub running: u64,
    pub over: u64,
    /// Cancelled or expired.
    pub closed: u64,
}

/// The storage of games and moves, of accounts and their ratings, and of the tables' chat.
#[async_trait]
pub trait Store:
    AccountStore
    + BlockStore
    + ChatStore
    + FriendStore
    + ModerationStore
    + NotificationStore
    + PasskeyStore
    + PresenceStore
    + RatingStore
    + SeekStore
    + SettingsStore
    + Send
    + Sync
    + 'static
{
    /// Stores a new game; its id must be new, and its data file stored. `creator`: the
    /// digest of the creator's address key, kept while the game is open (every change
    /// of status away from open erases it).
    async fn create_game(&self, game: &GameRow, creator: Option<&str>) -> Result<(), StoreError>;
    /// How many open games `creator` (as given to [`Store::create_game`]) has.
    async fn open_tables_of(&self, creator: &str) -> Result<u64, StoreError>;
    /// Keeps a corrected component data file of `game` under `digest` (the SHA-256 of
    /// `text`); storing it again changes nothing.
    async fn put_data_file(&self, digest: &str, game: &str, text: &str) -> Result<(), StoreError>;
    /// The data file stored under `digest`.
    async fn data_file(&self, digest: &str) -> Result<Option<String>, StoreError>;
    /// The game's row, or `None` for an unknown id.
    async fn load_row(&self, id: &str) -> Result<Option<GameRow>, StoreError>;
    /// The game's moves from seq `from` on, in order.
    async fn load_moves(&self, id: &str, from: u64) -> Result<Vec<MoveRow>, StoreError>;
    /// The game and its moves in order, or `None` for an unknown id.
    async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let Some(row) = self.load_row(id).await? else {
            return Ok(None);
        };
        let moves = self.load_moves(id, 0).await?;
        Ok(Some((row, moves)))
    }
    /// The games `query` asks for, newest first (by `created`, then by id).
    async fn list_games(&self, query: &LobbyQuery) -> Result<Vec<GameRow>, StoreError>;
    /// Marks every open game created before `created_before` (Unix milliseconds) expired;
    /// returns their ids. Running it twice, or in two processes at once, expires each once.
    async fn expire_open(&self, created_before: i64) -> Result<Vec<String>, StoreError>;
    /// Like [`Store::update_seats`], and keeps `event` in the game's seat log in the same
    /// transaction.
    async fn update_seats_logged(
        &self,
        id: &str,
        seats: &[SeatRecord],
        status: Status,
        version: i64,
        event: &SeatEvent,
    ) -> Result<(), StoreError>;
    /// The game's seat events in the order they happened.
    async fn seat_events(&self, id: &str) -> Result<Vec<SeatEvent>, StoreError>;
    /// Ids of the games of a status (start-up: running games whose bots must move).
    async fn game_ids(&self, status: Status) -> Result<Vec<String>, StoreError>;
    /// Replaces the seats and status if the row is still at `version` (then at
    /// `version + 1`); otherwise [`StoreError::Conflict`]. A game that starts running
    /// keeps `started` as its start (a start stored before stays).
    async fn update_seats(
        &self,
        id: &str,
        seats: &[SeatRecord],
        status: Status,
        version: i64,
        started: Option<i64>,
    ) -> Result<(), StoreError>;
    /// Stores a batch of moves in one transaction (group commit). Each move whose
    /// `(game_id, seq)` is taken gets [`StoreError::Conflict`]; the others are stored.
    async fn append_moves(
        &self,
        batch: &[Commit],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError>;
    /// Housekeeping the writer runs between two batches, and after a second without
    /// moves, while no move is being stored (SQLite: a checkpoint of the write-ahead log).
    /// Failures are logged, not returned: the moves are stored either way.
    async fn between_batches(&self) {}
    /// The changes other server processes store on this database, as they commit:
    /// `None` when the database cannot tell (SQLite: one server process per file).
    async fn follow(&self) -> Result<Option<mpsc::Receiver<Change>>, StoreError> {
        Ok(None)
    }
    /// Takes game `id`'s lease for process `owner` until `until` (Unix milliseconds) if it
    /// has none, or one that lapsed before `now`, or renews `owner`'s: whether `owner`
    /// holds it now.
    async fn claim_lease(
        &self,
        id: &str,
        owner: &str,
        until: i64,
        now: i64,
    ) -> Result<bool, StoreError>;
    /// Renews `owner`'s leases of running games until `until`, takes those of running
    /// games with no lease or one that lapsed before `now`, and drops `owner`'s leases of
    /// games no longer running: returns the running games `owner` holds.
    async fn renew_leases(
        &self,
        owner: &str,
        until: i64,
        now: i64,
    ) -> Result<Vec<String>, StoreError>;
    /// Gives up `owner`'s leases (its process shuts down: the others take over at once).
    async fn release_leases(&self, owner: &str) -> Result<(), StoreError>;
    async fn status_counts(&self) -> Result<StatusCounts, StoreError>;
    /// Whether the database answers a read.
    async fn ping(&self) -> Result<(), StoreError>;
    /// Whether the database accepts a write (`/healthz`, and at start).
    async fn check_write(&self) -> Result<(), StoreError>;
    async fn close(&self);
}

/// Opens (creating and migrating as needed) the database at `url`: `sqlite://FILE` or
/// `postgres://…`.
pub async fn open(url: &str, sync: SyncMode) -> Result<Arc<dyn Store>, StoreError> {
    Ok(Arc::new(SqlStore::open(url, sync).await?))
}

#[cfg(test)]
mod tests {
    use super::Change;

    #[test]
    fn notifications_are_read_exactly() {
        assert_eq!(
            Change::parse("m abc 12"),
            Some(Change::Moves {
                game: "abc".into(),
                stored: 12
            })
        );
        assert_eq!(
            Change::parse("g abc"),
            Some(Change::Game { game: "abc".into() })
        );
        assert_eq!(
            Change::parse("c abc 7"),
            Some(Change::Chat {
                game: "abc".into(),
                id: 7
            })
        );
        assert_eq!(
            Change::parse("k s1"),
            Some(Change::SeekPosted { id: "s1".into() })
        );
        assert_eq!(
            Change::parse("s s1"),
            Some(Change::SeekEnded { id: "s1".into() })
        );
        assert_eq!(
            Change::parse("p abc"),
            Some(Change::Presence { game: "abc".into() })
        );
        assert_eq!(
            Change::parse("n account-a1"),
            Some(Change::Notified {
                recipient: "account-a1".into()
            })
        );
        assert_eq!(
            Change::parse("b a1"),
            Some(Change::Blocks {
                account: "a1".into()
            })
        );
        for unknown in [
            "n",
            "p",
            "p abc 1",
            "",
            "k",
            "k s1 2",
            "s",
            "m",
            "m abc",
            "m abc x",
            "m abc 1 2",
            "g",
            "g abc 1",
            "c abc",
            "c abc x",
            "c abc 1 2",
            "x abc 1",
        ] {
            assert_eq!(Change::parse(unknown), None, "{unknown:?}");
        }
    }
}
