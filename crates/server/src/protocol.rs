//! The JSON messages of the API: HTTP bodies and WebSocket messages. Game-specific parts
//! (views, actions, events, outcomes) are the games' own JSON, typed `Object` here.

use engine::{DynGame, LoggedEvent};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::ToSchema;

use crate::model::{ChatMessage, SeatEvent, SeatKind, Status};
pub use crate::model::{Clock, ClockKind, HintedAction};

/// Every error the API returns, over HTTP or WebSocket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Not JSON, wrong types, unknown fields or values, an action of another game.
    Malformed,
    /// A well-formed action that is not legal in this position.
    Illegal,
    /// The seat is not the one to move.
    NotYourTurn,
    /// Not allowed to whoever asks: a seat kept for a friend joined from the lobby, a seat
    /// handed to a bot while its person is at the table, a table cancelled by someone who
    /// did not create it.
    Forbidden,
    /// The game still has free seats: no move is taken yet.
    NotStarted,
    /// The `seq` sent is not the game's: the current state follows this error.
    Stale,
    /// Another move for the same position was stored first.
    Conflict,
    /// The token is missing, unknown, or not for this game.
    BadToken,
    GameOver,
    /// The game's record is served only once the game is over.
    NotOver,
    /// No such game, seat or route.
    NotFound,
    /// The seat asked for is taken, or no seat is free.
    SeatTaken,
    /// The message or body is larger than the limit.
    TooLarge,
    /// Too many new games, joins or replays from one address: the `Retry-After` header
    /// says when to try again.
    RateLimited,
    /// The client's address has as many tables waiting for players as the server allows
    /// (`tabletop serve --open-tables-per-address`): one must fill up (or start) first.
    TooManyTables,
    /// The server has too much to do for this request now (a new game with no human seat
    /// while bots-only games already queue for the bot workers): the `Retry-After` header
    /// says when to try again.
    Busy,
    /// An undo the server does not take: `reason` says why (a barrier, not the seat's own
    /// decision, another seat acted since).
    UndoRefused,
    /// The request needs a signed-in person, and its browser has no live session.
    NotSignedIn,
    /// No account has this name and password.
    BadCredentials,
    /// Another account has this name (names are compared without regard to case).
    NameTaken,
    /// A request authenticated by the session cookie came from another site's page.
    CrossOrigin,
    /// A moderator suspended the account: it cannot sign in (the message says until when
    /// and why).
    Suspended,
    /// The server failed (storage); nothing was changed.
    Internal,
}

/// Why an undo is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum UndoRefusal {
    /// The seat's last decision revealed information or drew chance (or the game's end):
    /// undoing it would restore a position whose information the table has now seen.
    Barrier,
    /// The last decision is not the seat's own (and the seat made none to take back).
    NotYours,
    /// Another seat acted after the seat's last decision.
    OthersActed,
}

/// An error: `kind` is stable and machine-readable, `message` says what to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ErrorBody {
    pub kind: ErrorKind,
    pub message: String,
}

/// Whether a seat's person is at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum PresenceState {
    /// Some tab of the seat is open and shown.
    Online,
    /// Every tab of the seat is open but hidden (another tab or window in front).
    Away,
    /// No tab of the seat is open.
    Offline,
}

/// A seat's presence, and since when it has been so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Presence {
    pub state: PresenceState,
    /// Unix milliseconds: when the seat became so (or when this server process first saw
    /// the table, for a seat nobody has connected to since).
    #[ts(type = "number")]
    pub since: i64,
}

/// The least and the most seconds a clock setting may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct SecondsRange {
    pub min: u32,
    pub max: u32,
}

impl SecondsRange {
    pub fn contains(&self, secs: u32) -> bool {
        (self.min..=self.max).contains(&secs)
    }
}

/// The clocks a table may have (`/api/games/kinds`): ready-made ones, and the bounds of
/// each setting. A clock outside them is refused (`malformed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ClockChoices {
    /// The clocks the lobby offers ready-made; the first, no clock, is the default.
    pub presets: Vec<Clock>,
    pub realtime_initial_secs: SecondsRange,
    pub realtime_increment_secs: SecondsRange,
    pub turn_based_per_move_secs: SecondsRange,
    pub turn_based_bank_secs: SecondsRange,
}

/// Where a table's clocks stand, as of the message that carries them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ClockTimes {
    /// Each seat's time left in milliseconds when the message was made (0 once it ran
    /// out); a bot's own seat has no clock and keeps its start.
    #[ts(type = "Array<number>")]
    pub left_ms: Vec<i64>,
    /// The seat whose clock runs: `null` while none runs (the game waits for players or is
    /// over, or a bot plays the seat to move).
    pub running: Option<u8>,
    /// When the running clock runs out (Unix milliseconds): a bot then plays the seat.
    #[ts(type = "number | null")]
    pub deadline: Option<i64>,
}

/// A seat as everyone may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct SeatInfo {
    pub seat: u8,
    pub kind: SeatKind,
    /// The player's name; `null` for a free human seat.
    pub name: Option<String>,
    /// The bot spec of a bot seat.
    pub bot: Option<String>,
    /// A seat anyone may take from the lobby; a free seat that is not open waits for the
    /// friend its creator sent the invitation link to.
    #[serde(default)]
    pub open: bool,
    /// Whether the person of a taken human seat is at the table; `null` for bots, free
    /// seats and in lobby lists.
    #[serde(default)]
    pub presence: Option<Presence>,
    /// The bot strength playing a person's seat for them, until they take it back.
    #[serde(default)]
    pub stand_in: Option<String>,
    /// The person left the game for good (a bot finishes the seat).
    #[serde(default)]
    pub left: bool,
    /// How many times the seat's clock ran out; at three a bot finishes the seat, which
    /// its person can no longer take back. Absent when none.
    #[serde(default, skip_serializing_if = "crate::model::is_zero")]
    #[ts(as = "Option<u8>", optional)]
    pub run_outs: u8,
    /// The shown rating in this game of the account seated here (a newcomer's is 1000);
    /// absent for guests, bots and free seats, and outside lobby lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<i32>,
    /// The languages the account seated here speaks (its settings), the best first; absent
    /// when none or outside lobby lists.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub languages: Vec<String>,
    /// The seat's person deleted their account after the game: `name` is a placeholder,
    /// which clients show as "former player" in their language.
    #[serde(default)]
    pub former: bool,
}

/// A seat of a new game.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatRequest {
    /// A person; without a name the seat is free until the friend sent its invitation
    /// link takes it (the lobby does not offer it).
    Human {
        #[serde(default)]
        name: Option<String>,
    },
    /// A seat anyone may take, from the lobby or with its invitation link.
    Open {},
    /// A bot: `easy`, `medium`, `hard`, or a bot spec such as `greedy` or `ismcts:iters=500`.
    Bot { bot: String },
}

impl SeatRequest {
    pub fn kind(&self) -> SeatKind {
        match self {
            SeatRequest::Human { .. } | SeatRequest::Open {} => SeatKind::Human,
            SeatRequest::Bot { .. } => SeatKind::Bot,
        }
    }
}

/// `POST /api/games`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// A game name from `/api/games/kinds`.
    pub game: String,
    /// Config options from `/api/games/kinds` (missing ones take their defaults).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub config: Option<Value>,
    /// Fixes every hidden order: leave it out for a real game (the summary says when a
    /// seed was chosen).
    #[serde(default)]
    #[ts(type = "number | null")]
    pub seed: Option<u64>,
    /// One per player, in seat order.
    pub seats: Vec<SeatRequest>,
    /// The bot strength (`easy`, `medium`, `hard`) that plays a person's seat while they
    /// are gone (handed over) or after they left; `medium` when left out.
    #[serde(default)]
    pub stand_in: Option<String>,
    /// The table's clock; none when left out.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// Whether seats may ask for hints (what the hard bot would do, shown to everyone):
    /// a casual table, never rated. Off when left out.
    #[serde(default)]
    #[ts(optional)]
    pub hints: Option<bool>,
}

/// A seat of a created game, with its secret token for a human seat (shown only here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct CreatedSeat {
    pub seat: u8,
    pub kind: SeatKind,
    pub token: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Created {
    pub id: String,
    pub seats: Vec<CreatedSeat>,
    /// The creator's secret: it cancels the table while it waits for players
    /// (`POST /api/games/{id}/cancel`). Shown only here.
    pub creator_token: String,
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    /// The seat wanted; the first free seat when left out.
    #[serde(default)]
    pub seat: Option<u8>,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Joined {
    pub seat: u8,
    pub token: String,
}

/// A game as the lobby lists it and as a spectator sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct GameSummary {
    pub id: String,
    pub game: String,
    #[schema(value_type = Object)]
    pub config: Value,
    pub status: Status,
    pub seats: Vec<SeatInfo>,
    pub seats_free: u8,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created: i64,
    /// True when the creator chose the seed (and so could know the hidden orders).
    pub seed_chosen: bool,
    /// Moves stored; `null` in lobby lists.
    #[ts(type = "number | null")]
    pub seq: Option<u64>,
    /// The seat to move; `null` when the game is over or in lobby lists.
    pub to_move: Option<u8>,
    /// Scores, breakdowns and ranks once the game is over.
    #[schema(value_type = Option<Object>)]
    #[ts(as = "Option<engine::Outcome>")]
    pub outcome: Option<Value>,
    /// The SHA-256 of the corrected component data file the game plays on (`tabletop serve
    /// --data`), which `GET /api/games/{id}/data` serves; `null`: the shipped data.
    pub data_digest: Option<String>,
    /// The table's clock.
    #[serde(default)]
    pub clock: Clock,
    /// Where the clocks stand; `null` without a clock and in lobby lists.
    #[serde(default)]
    pub times: Option<ClockTimes>,
    /// Whether seats may ask for hints: a casual table, never rated.
    #[serde(default)]
    pub hints: bool,
    /// A table its seekers asked to be casual: never rated.
    #[serde(default)]
    pub casual: bool,
}

/// One event of a move: the game's JSON and its sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct EventEntry {
    #[schema(value_type = Object)]
    pub event: Value,
    pub text: String,
}

/// A stored move and what it caused, in `GET /api/games/{id}/log`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct LogEntry {
    /// The number of moves once this one was made, as in the update that announced it
    /// (the first move is 1).
    #[ts(type = "number")]
    pub seq: u64,
    pub seat: u8,
    pub events: Vec<EventEntry>,
    /// Set when seat `seat` took back a decision here: the seq of the entry it took back
    /// (which the log no longer holds); `events` is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub undid: Option<u64>,
    /// A change of who plays a seat (then `events` is empty), after move `seq`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seat_event: Option<SeatEvent>,
}

/// A legal action, its description, and the rule it follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct LegalAction {
    #[schema(value_type = Object)]
    pub action: Value,
    pub description: String,
    /// The id of the game's rule the action follows (`P-T1`): the link into the rules
    /// panel (`/api/games/kinds` lists each game's `rules`).
    pub rule: String,
}

/// Client → server over the WebSocket.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: a seat's token, or none to watch as a spectator. A free seat's
    /// token (an invitation link) claims the seat, under `name` if given.
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    /// An action for the seat, with the number of moves the client has seen.
    Act {
        #[ts(type = "number")]
        seq: u64,
        #[schema(value_type = Object)]
        action: Value,
    },
    /// The tab was hidden (`away`) or shown again: the seat's presence for the others.
    Presence { away: bool },
    /// Takes back the seat's last decision (a misclick), with the seq the client has seen:
    /// only decisions since the last barrier, and only while no other seat acted since.
    Undo {
        #[ts(type = "number")]
        seq: u64,
    },
    /// Hands seat `seat`, whose person has been offline for a while, to the table's bot.
    HandOver { seat: u8 },
    /// Takes this connection's seat back from the bot that plays it.
    TakeBack {},
    /// Leaves the game for good: a bot finishes this connection's seat.
    Leave {},
    /// "Why not?": may this connection's seat take `action` now, and by which rule? Asked
    /// by a seat only (the answer may depend on its hidden cards); answered to the asker
    /// alone with [`ServerMessage::Why`]; the game is untouched.
    Why {
        #[schema(value_type = Object)]
        action: Value,
    },
    /// Asks what the hard bot would do for this connection's seat, on its own turn, at a
    /// table with hints. Computed from the seat's view only, then stored as a seat event
    /// ([`SeatChange::Hinted`](crate::store::SeatChange)) that everyone receives.
    Hint {},
    /// A chat message: in the players' channel from a seat, in the spectators' channel
    /// from a spectator ([`crate::chat`]). Everyone who reads the channel receives it as
    /// [`ServerMessage::Chat`], the writer too.
    Say { text: String },
}

/// Server → client over the WebSocket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole position as this connection's seat sees it: after hello, after a stale
    /// move, and whenever the connection fell behind.
    State {
        #[ts(type = "number")]
        seq: u64,
        /// The connection's seat; `null` for a spectator.
        seat: Option<u8>,
        status: Status,
        #[schema(value_type = Object)]
        view: Value,
        to_move: Option<u8>,
        /// The legal actions, for the seat to move only.
        legal: Option<Vec<LegalAction>>,
        seats: Vec<SeatInfo>,
        #[schema(value_type = Option<Object>)]
        #[ts(as = "Option<engine::Outcome>")]
        outcome: Option<Value>,
        /// Whether the seat may take back its last decision now (`undo`).
        #[serde(default)]
        can_undo: bool,
        /// The table's clock.
        #[serde(default)]
        clock: Clock,
        /// Where the clocks stand; `null` without a clock.
        #[serde(default)]
        times: Option<ClockTimes>,
        /// Whether the table's seats may ask for hints ([`ClientMessage::Hint`]).
        #[serde(default)]
        hints: bool,
        /// The seat's new token, only in the state sent to the connection that has just
        /// taken a free seat with its invitation token: the invitation is spent (it gets
        /// `bad_token` from now on), and this token is the way back to the seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        token: Option<String>,
    },
    /// One stored move: its events, the seat's view as an RFC 6902 patch of the previous
    /// one, and who is to move now.
    Update {
        #[ts(type = "number")]
        seq: u64,
        /// The seat that moved.
        seat: u8,
        events: Vec<EventEntry>,
        #[schema(value_type = Vec<Object>)]
        #[ts(as = "Vec<Value>")]
        view_patch: json_patch::Patch,
        to_move: Option<u8>,
        legal: Option<Vec<LegalAction>>,
        status: Status,
        #[schema(value_type = Option<Object>)]
        #[ts(as = "Option<engine::Outcome>")]
        outcome: Option<Value>,
        /// Whether the watcher's seat may take back its last decision now.
        #[serde(default)]
        can_undo: bool,
        /// Where the clocks stand after this step; `null` without a clock.
        #[serde(default)]
        times: Option<ClockTimes>,
        /// Set when this update takes a decision back: the seq of the update that made it
        /// (its log entry is gone, and `events` is empty).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        undid: Option<u64>,
    },
    /// The seats changed: someone joined, a seat's presence changed, or who plays a seat
    /// (`event`, which the log keeps).
    Seats {
        seats: Vec<SeatInfo>,
        status: Status,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        event: Option<SeatEvent>,
        /// Where the clocks stand after the change; `null` without a clock.
        #[serde(default)]
        times: Option<ClockTimes>,
    },
    /// Chat messages the connection may read: after the state, those said so far; then
    /// each new one; and, to the seats, the spectators' once the game is over. A client
    /// keeps them by `id` (a message may come twice).
    Chat { messages: Vec<ChatMessage> },
    /// The answer to [`ClientMessage::Why`], to the asker alone.
    Why {
        /// The action asked about, as the game reads it.
        #[schema(value_type = Object)]
        action: Value,
        /// Whether the seat may take it now.
        legal: bool,
        /// The rule the action follows when legal, the first one it breaks when not.
        rule: String,
        /// Why not, as a code and named values for the game's catalogue
        /// (`why.<code>`); absent when legal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Object>)]
        #[ts(optional, as = "Option<engine::Reason>")]
        reason: Option<Value>,
    },
    Error {
        kind: ErrorKind,
        message: String,
        /// The game's seq, with `stale`.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(type = "number | null")]
        seq: Option<u64>,
        /// Why, with `undo_refused`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<UndoRefusal>,
    },
}

/// [`ServerMessage::Update`] as the server writes it: the parts alike for every watcher of
/// a move (events, the mover's legal actions, the outcome) are written once and spliced in
/// as JSON text; the view patch is each watcher's own. A test checks that the text is the
/// one `ServerMessage::Update` writes.
#[derive(Serialize)]
pub(crate) struct UpdateText<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub seq: u64,
    pub seat: u8,
    pub events: &'a RawValue,
    pub view_patch: &'a json_patch::Patch,
    pub to_move: Option<u8>,
    pub legal: Option<&'a RawValue>,
    pub status: Status,
    pub outcome: &'a RawValue,
    pub can_undo: bool,
    pub times: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undid: Option<u64>,
}

impl UpdateText<'_> {
    pub fn to_text(&self) -> String {
        // Numbers, enums, patches and JSON text serialize infallibly.
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"type":"error","kind":"internal","message":"unserializable message"}"#.into()
        })
    }
}

impl ServerMessage {
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> Self {
        ServerMessage::Error {
            kind,
            message: message.into(),
            seq: None,
            reason: None,
        }
    }

    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        // Values and plain structs serialize infallibly.
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"type":"error","kind":"internal","message":"unserializable message"}"#.into()
        })
    }
}

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

/// A game's outcome as JSON, `None` while it runs.
pub(crate) fn outcome_json(game: &dyn DynGame) -> Option<Value> {
    game.outcome().and_then(|o| serde_json::to_value(o).ok())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_update_written_from_its_parts_is_the_update_message() {
        let events = vec![EventEntry {
            event: json!({"moved": {"to": 3, "name": "a \"quoted\" town"}}),
            text: "Seat 1 moves to a \"quoted\" town.".into(),
        }];
        let legal = vec![LegalAction {
            action: json!({"pass": null}),
            description: "pass".into(),
            rule: "V-T1".into(),
        }];
        let patch: json_patch::Patch = serde_json::from_value(
            json!([{"op": "replace", "path": "/seats/1/coins", "value": 4}]),
        )
        .expect("a patch");
        let times = ClockTimes {
            left_ms: vec![1_000, 59_500, 0],
            running: Some(1),
            deadline: Some(1_790_000_059_500),
        };
        for (legal, outcome) in [
            (Some(legal), None),
            (None, Some(json!({"ranks": [1, 2], "scores": [10, 7]}))),
        ] {
            let expected = ServerMessage::Update {
                seq: 7,
                seat: 1,
                events: events.clone(),
                view_patch: patch.clone(),
                to_move: legal.as_ref().map(|_| 2),
                legal: legal.clone(),
                status: if outcome.is_some() {
                    Status::Over
                } else {
                    Status::Running
                },
                outcome: outcome.clone(),
                can_undo: true,
                times: Some(times.clone()),
                undid: None,
            };
            let (events, legal, outcome) = (raw(&events), legal.as_ref().map(raw), raw(&outcome));
            let times_text = raw(&Some(&times));
            let text = UpdateText {
                kind: "update",
                seq: 7,
                seat: 1,
                events: &events,
                view_patch: &patch,
                to_move: legal.as_ref().map(|_| 2),
                legal: legal.as_deref(),
                status: if outcome.get() == "null" {
                    Status::Running
                } else {
                    Status::Over
                },
                outcome: &outcome,
                can_undo: true,
                times: &times_text,
                undid: None,
            }
            .to_text();
            assert_eq!(text, expected.to_text());
        }
    }

    fn raw(value: &impl Serialize) -> Box<RawValue> {
        serde_json::value::to_raw_value(value).expect("serializable")
    }
}
