//! `tabletop replay FILE`: replays a game record `{game, config, seed, actions}` (as the
//! engine's `record` command writes it) with the game's checked apply, and prints every
//! action with its events, then the outcome. A server's record may hold decisions taken
//! back (`undone`: `{after, seat, action}`, made after `after` actions): each is checked
//! legal where it was made and shown there, marked as taken back.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use engine::{Game, Outcome, Seat};
use serde::Serialize;
use serde_json::Value;

use crate::games::{self, ConfigSpec, GameVisitor};
use crate::CliError;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A game record: {"game", "config", "seed", "actions"} (optionally "data").
    pub file: PathBuf,
    /// Print {"log": [...], "outcome": ...} as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// One replayed action.
#[derive(Debug, Serialize)]
pub struct LogEntry {
    /// 1-based.
    pub number: usize,
    pub seat: Option<Seat>,
    pub action: Value,
    pub description: String,
    pub events: Vec<Value>,
    /// A decision its seat took back (undo): not among the record's actions, and not
    /// played on.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub taken_back: bool,
}

/// The whole replay, as printed by `--json`.
#[derive(Debug, Serialize)]
pub struct Replay {
    pub game: &'static str,
    pub seed: u64,
    pub seats: usize,
    pub log: Vec<LogEntry>,
    /// Who is to move after the last action (null once the game is over).
    pub to_move: Option<Seat>,
    pub outcome: Option<Outcome>,
    /// The last position as a spectator sees it, drawn as text (`Game::render_view`).
    #[serde(skip)]
    pub position: String,
    /// What the outcome's tie-break values are (`Game::TIEBREAKS`).
    #[serde(skip)]
    pub tiebreaks: &'static [&'static str],
}

/// The record `{game, config, seed, actions}` of a game played with `config` from `seed`,
/// and `data`, the data file it was set up with (absolute), if any: what `run` reads.
pub fn record<G: Game>(
    config: &G::Config,
    seed: u64,
    actions: &[G::Action],
    data: Option<&Path>,
) -> Result<Value, serde_json::Error> {
    let mut record = serde_json::to_value(engine::GameRecord {
        game: G::NAME.to_string(),
        config: config.clone(),
        seed,
        actions: actions.to_vec(),
    })?;
    if let (Some(data), Some(map)) = (data, record.as_object_mut()) {
        let data = std::path::absolute(data).unwrap_or_else(|_| data.to_path_buf());
        map.insert("data".into(), Value::String(data.display().to_string()));
    }
    Ok(record)
}

pub fn run(args: &ReplayArgs) -> Result<String, CliError> {
    let path = &args.file;
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::failure(format!("cannot read record {}: {e}", path.display())))?;
    let record: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::failure(format!("record {} is not JSON: {e}", path.display())))?;
    let record = match record.get("record") {
        // Also accept the engine's whole `{"record": …}` reply line.
        Some(inner) if inner.is_object() => inner.clone(),
        _ => record,
    };
    let game = record
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            CliError::failure(format!(
                "record {} has no \"game\" name; expected {{\"game\", \"config\", \"seed\", \"actions\"}}",
                path.display()
            ))
        })?
        .to_string();
    let replay = games::with_game(
        &game,
        ReplayGame {
            record: &record,
            path,
        },
    )
    .map_err(|e| CliError::failure(format!("record {}: {e}", path.display())))??;
    if args.json {
        serde_json::to_string(&replay)
            .map(|s| s + "\n")
            .map_err(|e| CliError::failure(format!("cannot write the replay as JSON: {e}")))
    } else {
        Ok(replay.text())
    }
}

struct ReplayGame<'a> {
    record: &'a Value,
    path: &'a Path,
}

impl GameVisitor for ReplayGame<'_> {
    type Output = Result<Replay, CliError>;
    fn visit<G: Game>(self) -> Self::Output {
        replay::<G>(self.record, self.path)
    }
}

fn replay<G: Game>(record: &Value, path: &Path) -> Result<Replay, CliError> {
    let bad = |what: String| CliError::failure(format!("record {}: {what}", path.display()));
    let seed = record
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("\"seed\" is missing or not a non-negative integer".into()))?;
    let actions = record
        .get("actions")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("\"actions\" is missing or not an array".into()))?;
    let overrides = match record.get("config") {
        None | Some(Value::Null) => None,
        Some(c @ Value::Object(_)) => Some(c),
        Some(other) => return Err(bad(format!("\"config\" must be an object, not {other}"))),
    };
    let data = match record.get("data") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) => Some(PathBuf::from(p)),
        Some(other) => return Err(bad(format!("\"data\" must be a path, not {other}"))),
    };
    // A record of the server's carries its corrected data's text.
    let data_toml = match record.get("data_toml") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.as_str()),
        Some(other) => return Err(bad(format!("\"data_toml\" must be a string, not {other}"))),
    };
    let spec = ConfigSpec {
        overrides,
        players: None,
        turn_cap: None,
        data: data.as_deref(),
        data_toml,
    };
    let config = games::build_config::<G>(&spec).map_err(|e| bad(e.message))?;
    let mut state = G::new(&config, seed).map_err(|e| bad(format!("cannot set up: {e}")))?;

    let undone = undone_decisions(record).map_err(bad)?;
    let total = actions.len();
    let mut log = Vec::with_capacity(total + undone.len());
    let mut events: Vec<G::Event> = Vec::new();
    let taken_back = |after: usize, state: &G, log: &mut Vec<LogEntry>| {
        for (seat, json) in undone
            .iter()
            .filter(|(a, ..)| *a == after)
            .map(|(_, s, j)| (s, j))
        {
            let action: G::Action = serde_json::from_value((*json).clone())
                .ok()
                .filter(|a| state.to_move() == Some(*seat) && state.is_legal(a))
                .ok_or_else(|| {
                    bad(format!(
                        "the decision {json} taken back after action {after} was not legal \
                         for seat {seat} there"
                    ))
                })?;
            log.push(LogEntry {
                number: after,
                seat: Some(*seat),
                action: (*json).clone(),
                description: state.describe_action(&action),
                events: Vec::new(),
                taken_back: true,
            });
        }
        Ok::<_, CliError>(())
    };
    for (i, json) in actions.iter().enumerate() {
        taken_back(i, &state, &mut log)?;
        let number = i + 1;
        let failed = |why: String| {
            CliError::failure(format!(
                "record {}: action {number} of {total} ({json}) failed: {why}",
                path.display()
            ))
        };
        let action: G::Action = serde_json::from_value(json.clone())
            .map_err(|e| failed(format!("malformed: not a {} action: {e}", G::NAME)))?;
        let Some(seat) = state.to_move() else {
            return Err(failed("game_over: the game is already over".into()));
        };
        if !state.is_legal(&action) {
            return Err(failed(format!("illegal: not legal for seat {seat} now")));
        }
        let description = state.describe_action(&action);
        events.clear();
        state
            .apply(action, &mut events)
            .map_err(|e| failed(format!("{:?}: {}", e.kind, e.message)))?;
        log.push(LogEntry {
            number,
            seat: Some(seat),
            action: json.clone(),
            description,
            events: events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
                .collect(),
            taken_back: false,
        });
    }
    taken_back(total, &state, &mut log)?;
    Ok(Replay {
        game: G::NAME,
        seed,
        seats: state.seats(),
        log,
        to_move: state.to_move(),
        outcome: state.outcome(),
        position: state.render_view(None),
        tiebreaks: G::TIEBREAKS,
    })
}

/// The record's `undone` decisions as `(after, seat, action)`, in the order taken back.
fn undone_decisions(record: &Value) -> Result<Vec<(usize, Seat, &Value)>, String> {
    let Some(undone) = record.get("undone").filter(|u| !u.is_null()) else {
        return Ok(Vec::new());
    };
    let malformed =
        || "\"undone\" must be an array of {\"after\", \"seat\", \"action\"}".to_string();
    undone
        .as_array()
        .ok_or_else(malformed)?
        .iter()
        .map(|entry| {
            let after = entry.get("after").and_then(Value::as_u64);
            let seat = entry.get("seat").and_then(Value::as_u64);
            let seat = seat.and_then(|s| Seat::try_from(s).ok());
            match (after, seat, entry.get("action")) {
                (Some(after), Some(seat), Some(action)) => Ok((after as usize, seat, action)),
                _ => Err(malformed()),
            }
        })
        .collect()
}

impl Replay {
    /// The record's actions (the log less the decisions taken back).
    fn actions(&self) -> usize {
        self.log.iter().filter(|e| !e.taken_back).count()
    }

    /// The human-readable log and outcome.
    pub fn text(&self) -> String {
        let mut o = String::new();
        let _ = self.write_text(&mut o);
        o
    }

    fn write_text(&self, o: &mut String) -> std::fmt::Result {
        writeln!(
            o,
            "{}, seed {}, {} seats, {} actions",
            self.game,
            self.seed,
            self.seats,
            self.actions()
        )?;
        let width = self.actions().to_string().len();
        for entry in &self.log {
            let seat = entry
                .seat
                .map_or_else(|| "-".to_string(), |s| s.to_string());
            if entry.taken_back {
                writeln!(
                    o,
                    " {:width$}  seat {seat}  {} (taken back)",
                    "", entry.description
                )?;
                continue;
            }
            writeln!(
                o,
                "#{:<width$}  seat {seat}  {}",
                entry.number, entry.description
            )?;
            for event in &entry.events {
                writeln!(o, " {:width$}    {event}", "")?;
            }
        }
        writeln!(o)?;
        writeln!(o, "position after the last action (spectator's view):")?;
        writeln!(o, "{}", self.position.trim_end())?;
        writeln!(o)?;
        let Some(outcome) = &self.outcome else {
            match self.to_move {
                Some(seat) => writeln!(
                    o,
                    "the record ends before the game is over: seat {seat} is to move"
                )?,
                None => writeln!(o, "the game is over but has no outcome")?,
            }
            return Ok(());
        };
        writeln!(
            o,
            "outcome{}",
            if outcome.truncated {
                " (truncated: ended by a turn cap or a stall, not by the rules)"
            } else {
                ""
            }
        )?;
        write_outcome(o, outcome, self.tiebreaks, None)
    }
}

/// The outcome as a table, one row per seat: rank, score, the points of every scoring
/// category, the tie-break values; then who won and how a tie is broken. `you` marks the
/// terminal player's row. Shared by `replay` and the end screen of `play`.
pub fn write_outcome(
    o: &mut String,
    outcome: &Outcome,
    tiebreaks: &[&str],
    you: Option<Seat>,
) -> std::fmt::Result {
    let mut categories: Vec<&str> = Vec::new();
    for seat in &outcome.seats {
        for line in &seat.breakdown {
            if !categories.contains(&line.category.as_str()) {
                categories.push(&line.category);
            }
        }
    }
    write!(o, "  {:<10}{:>6}{:>7}", "seat", "rank", "score")?;
    for c in &categories {
        write!(o, "  {c:>w$}", w = c.len().max(4))?;
    }
    writeln!(o, "  tie-break")?;
    for seat in &outcome.seats {
        let name = if you == Some(seat.seat) {
            format!("{} (you)", seat.seat)
        } else {
            seat.seat.to_string()
        };
        write!(o, "  {name:<10}{:>6}{:>7}", seat.rank, seat.score)?;
        for c in &categories {
            let points: i32 = seat
                .breakdown
                .iter()
                .filter(|l| l.category == *c)
                .map(|l| l.points)
                .sum();
            write!(o, "  {points:>w$}", w = c.len().max(4))?;
        }
        let values: Vec<String> = seat.tiebreaks.iter().map(i32::to_string).collect();
        writeln!(o, "  {}", values.join(", "))?;
    }
    if !tiebreaks.is_empty() {
        writeln!(
            o,
            "tie-break between equal scores: {}",
            tiebreaks.join(", then ")
        )?;
    }
    let winners: Vec<String> = outcome
        .winners()
        .map(|s| {
            if you == Some(s) {
                format!("seat {s} (you)")
            } else {
                format!("seat {s}")
            }
        })
        .collect();
    match winners.as_slice() {
        [] => Ok(()),
        [one] => writeln!(o, "winner: {one}"),
        many => writeln!(o, "winners (a shared victory): {}", many.join(", ")),
    }
}
