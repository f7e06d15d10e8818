//! Replays a finished game's record for the replay viewer: the position as one seat saw it
//! (or a spectator) before the first move, then one JSON patch per move, with the log. The
//! client steps through the patches without asking again.
//!
//! A record holds the seed, so it is only served once a game is over
//! (`GET /api/games/{id}/record`); here the client sends a record it already has (from that
//! route, or a file `tabletop replay` reads), so nothing hidden is revealed.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::catalog::{Catalog, Setup};
use crate::error::ApiError;
use crate::protocol::{event_entries, outcome_json, LogEntry};

/// Largest record body read (a long game has a few thousand actions).
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;
/// Most moves replayed in one request.
const MAX_MOVES: usize = 20_000;

/// The record `tabletop replay` reads and `GET /api/games/{id}/record` returns. A record
/// that names a data file by its path (`tabletop play --data`) is refused: a client never
/// names a file on the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub game: String,
    #[schema(value_type = Object)]
    pub config: Value,
    #[ts(type = "number")]
    pub seed: u64,
    #[schema(value_type = Vec<Object>)]
    pub actions: Vec<Value>,
    /// The corrected component data file (TOML) the game played on, when not the shipped
    /// data (`tabletop serve --data`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub data_toml: Option<String>,
    /// The decisions made and taken back (undo), in the order they were taken back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UndoneDecision>>")]
    pub undone: Vec<UndoneDecision>,
    /// How the game went, seat by seat (a server's record says it; a replay does not need
    /// it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ending: Option<crate::ending::Ending>,
}

/// A decision made and then taken back: `actions` do not hold it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct UndoneDecision {
    /// It was made after this many of the record's actions.
    #[ts(type = "number")]
    pub after: usize,
    pub seat: u8,
    #[schema(value_type = Object)]
    pub action: Value,
}

/// The log entries of the decisions `record` says were taken back after `after` of its
/// actions, at `game` (that position): an undo entry each, following action `after`, whose
/// `undid` is the place the decision had (`after + 1`). Each must have been legal there.
fn taken_back_after(
    record: &Record,
    after: usize,
    game: &dyn engine::DynGame,
) -> Result<Vec<LogEntry>, ApiError> {
    record
        .undone
        .iter()
        .filter(|undone| undone.after == after)
        .map(|undone| {
            let mut tried = game.box_clone();
            let legal =
                game.to_move() == Some(undone.seat) && tried.apply_logged(&undone.action).is_ok();
            if !legal {
                return Err(ApiError::malformed(format!(
                    "the decision taken back after move {after} was not legal for seat {} there",
                    undone.seat
                )));
            }
            Ok(LogEntry {
                seq: after as u64,
                seat: undone.seat,
                events: Vec::new(),
                undid: Some(after as u64 + 1),
                seat_event: None,
            })
        })
        .collect()
}

/// [`Record::undone`]'s name in a record.
pub const UNDONE: &str = "undone";
/// The record's field of how the game went ([`crate::ending::Ending`]).
pub const ENDING: &str = "ending";

/// The decisions stored steps `rows` took back, each with the number of the record's
/// actions it followed (an undo takes back the last decision of the line played).
pub fn undone_decisions(rows: &[crate::store::MoveRow]) -> Vec<UndoneDecision> {
    let mut line: Vec<&crate::store::MoveRow> = Vec::with_capacity(rows.len());
    let mut undone = Vec::new();
    for row in rows {
        let Some(undid) = row.undoes else {
            line.push(row);
            continue;
        };
        if let Some(at) = line.iter().rposition(|mv| mv.seq == undid) {
            let mv = line.remove(at);
            undone.push(UndoneDecision {
                after: at,
                seat: mv.seat,
                action: mv.action.clone(),
            });
        }
    }
    undone
}

/// [`Record::data_toml`]'s name in a record.
pub const DATA_TOML: &str = "data_toml";

/// `POST /api/replay`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    pub record: Record,
    /// The seat whose view to show; `null` for a spectator's.
    #[serde(default)]
    pub seat: Option<u8>,
}

/// A whole game as one seat (or a spectator) saw it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Replay {
    pub game: String,
    pub seat: Option<u8>,
    /// The view before the first move.
    #[schema(value_type = Object)]
    pub view: Value,
    /// `patches[i]` turns the view after move `i` into the view after move `i + 1`
    /// (RFC 6902).
    #[schema(value_type = Vec<Vec<Object>>)]
    #[ts(as = "Vec<Vec<Value>>")]
    pub patches: Vec<json_patch::Patch>,
    /// Who was to move before each move, then at the end (`moves + 1` entries).
    pub to_move: Vec<Option<u8>>,
    /// Each move's seat, events and sentences.
    pub log: Vec<LogEntry>,
    #[schema(value_type = Option<Object>)]
    #[ts(as = "Option<engine::Outcome>")]
    pub outcome: Option<Value>,
    /// For a record on corrected data (`data_toml`), the component tables the board draws
    /// from on it (`/api/games/kinds/{game}/data`'s type); absent on the shipped data, whose
    /// tables the client is built with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    #[ts(optional, type = "unknown")]
    pub components: Option<Value>,
}

/// Plays `request.record` from its start, keeping the seat's view after every move.
pub fn replay(catalog: &Catalog, request: &ReplayRequest) -> Result<Replay, ApiError> {
    let record = &request.record;
    let kind = catalog.named(&record.game)?;
    if record.actions.len() + record.undone.len() > MAX_MOVES {
        return Err(ApiError::malformed(format!(
            "a record of {} moves is longer than the {MAX_MOVES} replayed",
            record.actions.len() + record.undone.len()
        )));
    }
    let mut game = kind.begin(Setup {
        config: &record.config,
        seed: record.seed,
        data: record.data_toml.as_deref(),
    })?;
    if request.seat.is_some_and(|s| usize::from(s) >= game.seats()) {
        return Err(ApiError::malformed(format!(
            "the game has {} seats",
            game.seats()
        )));
    }
    let first = game.view_json(request.seat)?;
    let mut view = first.clone();
    let mut patches = Vec::with_capacity(record.actions.len());
    let mut to_move = Vec::with_capacity(record.actions.len() + 1);
    let mut log = Vec::with_capacity(record.actions.len() + record.undone.len());
    for (index, action) in record.actions.iter().enumerate() {
        log.extend(taken_back_after(record, index, game.as_ref())?);
        let mover = game.to_move();
        to_move.push(mover);
        let events = game.apply_logged(action).map_err(|e| {
            let e = ApiError::from(e);
            ApiError::new(
                e.kind,
                format!("move {} of the record: {}", index + 1, e.message),
            )
        })?;
        let next = game.view_json(request.seat)?;
        patches.push(json_patch::diff(&view, &next));
        view = next;
        log.push(LogEntry {
            seq: index as u64 + 1,
            seat: mover.unwrap_or_default(),
            events: event_entries(&events),
            undid: None,
            seat_event: None,
        });
    }
    log.extend(taken_back_after(
        record,
        record.actions.len(),
        game.as_ref(),
    )?);
    to_move.push(game.to_move());
    Ok(Replay {
        game: record.game.clone(),
        seat: request.seat,
        view: first,
        patches,
        to_move,
        log,
        outcome: outcome_json(game.as_ref()),
        components: match record.data_toml.as_deref() {
            Some(data) => kind.components(Some(data))?,
            None => None,
        },
    })
}
