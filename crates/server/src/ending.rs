//! How a finished game went, seat by seat (docs/server.md, "How a game ended"): whether
//! its person left or timed out, how many of its decisions a bot made for them, and
//! whether the game was rated and, if not, why. The end screen, the game's page and the
//! record say it, so that "Winner: Ben" never hides that a bot played Ben's seat.

use engine::Outcome;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rating::{bot_decisions, verdict, Unrated};
use crate::store::{GameRow, MoveRow, SeatChange, SeatEvent, SeatKind};

/// One seat's part in how the game went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct SeatEnding {
    pub seat: u8,
    /// A bot's seat from the start (no person played it).
    pub bot: bool,
    /// Its person left the game for good.
    pub left: bool,
    /// How many times its clock ran out.
    pub timed_out: u32,
    /// Its decisions (undoes not counted).
    pub decisions: u32,
    /// Of them, made by a bot for its person (handed over, timed out, left).
    pub by_bot: u32,
}

/// How a finished game went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// Every seat, in seat order.
    pub seats: Vec<SeatEnding>,
    /// Whether the game counts for the people's ratings.
    pub rated: bool,
    /// Why not, when it does not.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<Unrated>,
}

/// How game `row`, over with `outcome`, went: from its stored moves and seat events, the
/// accounts owning its seats (`owners`) and the game's bot levels' ratings (`levels`),
/// judged as [`crate::rating`] rates it.
pub fn ending_of(
    row: &GameRow,
    outcome: &Outcome,
    owners: &[(u8, String)],
    (levels, moves, events): (&[(&str, f64)], &[MoveRow], &[SeatEvent]),
) -> Ending {
    let seats = row
        .seats
        .iter()
        .zip(0u8..)
        .map(|(record, seat)| {
            let (decisions, by_bot) = bot_decisions(seat, moves, events);
            let timed_out = events
                .iter()
                .filter(|e| e.seat == seat && e.what == SeatChange::TimedOut)
                .count();
            SeatEnding {
                seat,
                bot: record.kind == SeatKind::Bot,
                left: record.left,
                timed_out: u32::try_from(timed_out).unwrap_or(u32::MAX),
                decisions,
                by_bot,
            }
        })
        .collect();
    let unrated = verdict(row, outcome, owners, (levels, moves, events)).err();
    Ending {
        seats,
        rated: unrated.is_none(),
        unrated,
    }
}
