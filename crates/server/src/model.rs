//! The shared model of a table, below both the wire ([`crate::protocol`]) and the
//! database ([`crate::store`]): where a game stands, who sits in a seat and what happened
//! to it, the clock, a hint's actions, chat messages. Everything here is plain data; the
//! modules above re-export it where it used to live.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Some human seat is free: the game waits for players and takes no move.
    Open,
    Running,
    Over,
    /// Its creator called it off before it started (kept, never deleted).
    Cancelled,
    /// Nobody filled it within the time the server gives (`--expire-open-after-secs`):
    /// it left the lobby (kept, never deleted).
    Expired,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Over => "over",
            Status::Cancelled => "cancelled",
            Status::Expired => "expired",
        }
    }

    /// The table takes no move and no player any more, and never will.
    pub fn is_closed(self) -> bool {
        matches!(self, Status::Cancelled | Status::Expired)
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Human,
    Bot,
}

/// A change of a seat everyone is told and the log keeps: who plays it now, and why; or
/// a hint the seat asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct SeatEvent {
    pub what: SeatChange,
    /// The seat it concerns.
    pub seat: u8,
    /// The seat of the person who made the change, when not the seat's own person.
    pub by: Option<u8>,
    /// Moves stored when it happened: it follows that move in the log.
    #[ts(type = "number")]
    pub seq: u64,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
    /// With [`SeatChange::Hinted`]: what the hard bot would do for the seat, best first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hint: Option<Vec<HintedAction>>,
}

impl SeatEvent {
    /// The event as an English sentence (the terminal client's log), with each seat's
    /// name from `name`.
    pub fn sentence(&self, name: impl Fn(u8) -> String) -> String {
        let who = name(self.seat);
        match (self.what, self.by) {
            (SeatChange::HandedOver, Some(by)) => format!(
                "{who} is gone: {} handed their seat to a bot, which plays it until they take it back.",
                name(by)
            ),
            (SeatChange::HandedOver, None) => {
                format!("{who} is gone: a bot plays their seat until they take it back.")
            }
            (SeatChange::TookBack, _) => format!("{who} took their seat back from the bot."),
            (SeatChange::Left, _) => format!("{who} left the game: a bot finishes their seat."),
            (SeatChange::TimedOut, _) => {
                format!("{who}'s time ran out: a bot plays for them until they take their seat back.")
            }
            (SeatChange::Hinted, _) => {
                let actions: Vec<String> = self
                    .hint
                    .iter()
                    .flatten()
                    .map(|a| format!("{} ({:.0}%)", a.description, a.value * 100.0))
                    .collect();
                format!("{who} asked for a hint: {}.", actions.join("; "))
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum SeatChange {
    /// Another person at the table handed the offline seat to a bot.
    HandedOver,
    /// The seat's person took it back from the bot.
    TookBack,
    /// The seat's person left for good; a bot finishes the seat.
    Left,
    /// The seat's clock ran out: a bot plays it until its person takes it back.
    TimedOut,
    /// The seat to move asked what the hard bot would do (a table with hints): who plays
    /// the seat does not change.
    Hinted,
}

/// A table's clock, chosen when it is created (`/api/games/kinds` lists the choices under
/// `clocks`). A clock runs only while a person plays the seat to move; when it runs out, a
/// bot of the table's stand-in strength plays the seat until its person takes it back.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS,
)]
#[ts(export_to = "server/")]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Clock {
    /// No clock: a friendly table (the default).
    #[default]
    None,
    /// Real time (Fischer): each seat's bank starts at `initial_secs`, and each of its
    /// decisions adds `increment_secs`.
    Realtime {
        initial_secs: u32,
        increment_secs: u32,
    },
    /// A slow table: each decision adds `per_move_secs` to the seat's bank, which starts
    /// at `per_move_secs` and carries what a seat leaves unused over, up to `bank_secs`.
    TurnBased { per_move_secs: u32, bank_secs: u32 },
}

/// A clock's kind, as the lobby filters tables by it (the `kind` of [`Clock`]'s JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    None,
    Realtime,
    TurnBased,
}

impl ClockKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClockKind::None => "none",
            ClockKind::Realtime => "realtime",
            ClockKind::TurnBased => "turn_based",
        }
    }
}

impl Clock {
    pub fn kind(&self) -> ClockKind {
        match self {
            Clock::None => ClockKind::None,
            Clock::Realtime { .. } => ClockKind::Realtime,
            Clock::TurnBased { .. } => ClockKind::TurnBased,
        }
    }
}

/// One action of a hint: what the hard bot would do for the seat that asked, with the
/// search's estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct HintedAction {
    /// The seat's next action, as its legal actions list it.
    #[schema(value_type = Object)]
    pub action: Value,
    pub description: String,
    /// The estimated chance of winning (share of the victory) after it, 0 to 1.
    pub value: f64,
    /// How many of the search's iterations went through it.
    #[ts(type = "number")]
    pub visits: u64,
}

/// Who may read a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// Written by the seated people; everyone reads it.
    Players,
    /// Written by spectators; the seats read it once the game is over.
    Spectators,
}

impl ChatChannel {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }

    pub fn parse(text: &str) -> Option<ChatChannel> {
        match text {
            "players" => Some(ChatChannel::Players),
            "spectators" => Some(ChatChannel::Spectators),
            _ => None,
        }
    }

    /// Whether a connection as `seat` (`None`: a spectator) reads this channel at a table
    /// of `status`.
    pub fn read_by(self, seat: Option<u8>, status: Status) -> bool {
        self == ChatChannel::Players || seat.is_none() || status == Status::Over
    }
}

/// One stored message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct ChatMessage {
    /// Orders the messages of a table (ids grow, but are not consecutive).
    #[ts(type = "number")]
    pub id: i64,
    pub channel: ChatChannel,
    /// The writer's seat; `null` for a spectator.
    pub seat: Option<u8>,
    /// Who wrote it, the same for all their messages at this table (what a person mutes):
    /// `seat-N`, `account-ID` for a signed-in spectator, `guest-X` for another spectator
    /// (X is drawn for the connection).
    pub author: String,
    /// The seat's or the account's name; `null` for a spectator who is not signed in.
    pub name: Option<String>,
    pub text: String,
    /// Moves stored when it was said: it follows that move in the log and the replay.
    #[ts(type = "number")]
    pub seq: u64,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
    /// The account it was written from (signed in), whose blocks hide it
    /// ([`crate::store::BlockStore`]); `None` for a guest. Never sent to clients.
    #[serde(skip)]
    #[ts(skip)]
    pub account: Option<String>,
}

/// What a notification in the site tells (docs/server.md, "Notifications").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    /// It became the person's turn at a turn-based table they are not at.
    YourTurn,
    /// A seek of the person's was matched: their table is made.
    SeekMatched,
    /// The person's clock, at a table they are not at, has a minute or less left.
    ClockLow,
    /// A friend invited the person to a seat, kept for them.
    Invitation,
    /// Someone asked to be the person's friend.
    FriendRequest,
}

impl NotificationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NotificationKind::YourTurn => "your_turn",
            NotificationKind::SeekMatched => "seek_matched",
            NotificationKind::ClockLow => "clock_low",
            NotificationKind::Invitation => "invitation",
            NotificationKind::FriendRequest => "friend_request",
        }
    }

    pub fn parse(text: &str) -> Option<NotificationKind> {
        [
            NotificationKind::YourTurn,
            NotificationKind::SeekMatched,
            NotificationKind::ClockLow,
            NotificationKind::Invitation,
            NotificationKind::FriendRequest,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// One notification of a person's, as stored and as their pages show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Notification {
    /// Orders a person's notifications (ids grow, but are not consecutive).
    #[ts(type = "number")]
    pub id: i64,
    pub kind: NotificationKind,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
    pub read: bool,
    /// The table it is about, and its game (`valdora`, …).
    pub game_id: Option<String>,
    pub game: Option<String>,
    /// The person's seat at that table (an invitation: the seat kept for them).
    pub seat: Option<u8>,
    /// The name of the person it comes from (an invitation, a friend request).
    pub from: Option<String>,
}

/// Whether a count is zero: a field serde leaves out when so (`skip_serializing_if`).
pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}
