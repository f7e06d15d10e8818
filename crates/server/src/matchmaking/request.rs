//! What a client sends and receives about seeks, and the checks a new seek passes before
//! anything is stored.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::catalog::{truncate, KindInfo};
use crate::error::ApiError;
use crate::model::Clock;
use crate::store::{SeekRow, SeekSpec};

/// Most languages a seek names.
pub const MAX_LANGUAGES: usize = 8;
/// The shortest and longest wait before bots fill a seek's table.
pub const BOTS_AFTER_SECS: (u32, u32) = (5, 600);
/// The ratings a range may name (shown scale).
pub const RATING_BOUNDS: (i32, i32) = (0, 4000);

/// Player counts, `min..=max` (equal for one count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct PlayerRange {
    pub min: u8,
    pub max: u8,
}

/// Ratings (the arena's shown scale), `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    pub min: i32,
    pub max: i32,
}

/// A new seek: the table its poster wants, and whom they may be seated with.
#[derive(Debug, Clone, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct PostSeek {
    pub game: String,
    pub players: PlayerRange,
    /// The table's clock (`/api/games/kinds` lists the choices); none by default.
    #[serde(default)]
    #[ts(optional)]
    pub clock: Option<Clock>,
    /// A rated game (signed in only); casual by default.
    #[serde(default)]
    #[ts(optional)]
    pub rated: Option<bool>,
    /// The ratings the others must have; anyone by default. A guest has no rating: a
    /// seek with a range never seats one.
    #[serde(default)]
    #[ts(optional)]
    pub ratings: Option<RatingRange>,
    /// Languages the seeker speaks (ISO 639-1 codes, as "es"); any by default. Two seeks
    /// that both name languages are matched only if they share one.
    #[serde(default)]
    #[ts(optional)]
    pub languages: Option<Vec<String>>,
    /// Bots take the seats nobody took after this many seconds (5 to 600); never by
    /// default.
    #[serde(default)]
    #[ts(optional)]
    pub bots_after_secs: Option<u32>,
    /// A guest's name at the table (a signed-in person sits as their account).
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// A guest's browser: an opaque id its browser keeps (16 to 64 letters, digits, `-`
    /// or `_`). Its seeks are one person's: counted together, never matched together.
    #[serde(default)]
    #[ts(optional)]
    pub browser: Option<String>,
}

/// A seek posted: its id, and its token (kept by its browser only), which waits for the
/// match and withdraws the seek: `Authorization: Bearer TOKEN`.
#[derive(Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct SeekPosted {
    pub id: String,
    pub token: String,
}

/// Never shows the token.
impl std::fmt::Debug for SeekPosted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeekPosted")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// An open seek as the lobby shows it: its settings, and its poster's name and rating
/// only.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct OpenSeek {
    pub id: String,
    pub game: String,
    pub players: PlayerRange,
    pub clock: Clock,
    pub rated: bool,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<RatingRange>,
    pub languages: Vec<String>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bots_after_secs: Option<u32>,
    pub name: String,
    /// `None`: a guest.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created: i64,
}

impl From<&SeekRow> for OpenSeek {
    fn from(row: &SeekRow) -> OpenSeek {
        let spec = &row.spec;
        OpenSeek {
            id: row.id.clone(),
            game: row.game.clone(),
            players: PlayerRange {
                min: spec.players.0,
                max: spec.players.1,
            },
            clock: spec.clock,
            rated: spec.rated,
            ratings: spec.ratings.map(|(min, max)| RatingRange { min, max }),
            languages: spec.languages.clone(),
            bots_after_secs: spec.bots_after_secs,
            name: row.name.clone(),
            rating: row.rating,
            created: row.created,
        }
    }
}

/// The open seeks, oldest first, and how many there are of each game.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct SeekList {
    pub seeks: Vec<OpenSeek>,
    pub per_game: BTreeMap<String, u32>,
}

/// Where a seek is: still waiting, matched (the seat's token is its holder's now), or
/// ended without a table (its browser was gone too long).
#[derive(Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SeekState {
    Waiting,
    Matched {
        game: String,
        seat: u8,
        token: String,
    },
    Expired,
}

/// Never shows the token.
impl std::fmt::Debug for SeekState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeekState::Waiting => f.write_str("Waiting"),
            SeekState::Matched { game, seat, .. } => {
                write!(f, "Matched {{ game: {game:?}, seat: {seat} }}")
            }
            SeekState::Expired => f.write_str("Expired"),
        }
    }
}

/// The settings of `request` for a game of `kind`, checked (`clock` already checked
/// against the server's choices); `signed_in`: whether the poster has an account.
pub fn checked_spec(
    request: &PostSeek,
    kind: &KindInfo,
    clock: Clock,
    signed_in: bool,
) -> Result<SeekSpec, ApiError> {
    let PlayerRange { min, max } = request.players;
    let offered: Vec<u64> = kind
        .options
        .iter()
        .find(|o| o.key == "players")
        .map(|o| o.choices.iter().filter_map(|c| c.as_u64()).collect())
        .unwrap_or_default();
    if min > max || (min..=max).any(|n| !offered.contains(&u64::from(n))) {
        let offered: Vec<String> = offered.iter().map(u64::to_string).collect();
        return Err(ApiError::malformed(format!(
            "players {min} to {max}: {} is played by {}",
            kind.game,
            offered.join(", ")
        )));
    }
    let rated = request.rated.unwrap_or(false);
    if rated && !signed_in {
        return Err(ApiError::malformed(
            "a rated seek needs an account: sign in, or seek a casual game",
        ));
    }
    let ratings = match request.ratings {
        Some(RatingRange { min, max })
            if min > max || min < RATING_BOUNDS.0 || max > RATING_BOUNDS.1 =>
        {
            return Err(ApiError::malformed(format!(
                "ratings {min} to {max}: a range within {} to {}",
                RATING_BOUNDS.0, RATING_BOUNDS.1
            )));
        }
        range => range.map(|r| (r.min, r.max)),
    };
    let mut languages = request.languages.clone().unwrap_or_default();
    if languages.len() > MAX_LANGUAGES {
        return Err(ApiError::malformed(format!(
            "at most {MAX_LANGUAGES} languages"
        )));
    }
    if let Some(bad) = languages
        .iter()
        .find(|l| l.len() != 2 || !l.bytes().all(|b| b.is_ascii_lowercase()))
    {
        return Err(ApiError::malformed(format!(
            "language {:?}: a two-letter ISO 639-1 code, as \"es\"",
            truncate(bad, 12)
        )));
    }
    languages.sort();
    languages.dedup();
    if let Some(secs) = request.bots_after_secs {
        if !(BOTS_AFTER_SECS.0..=BOTS_AFTER_SECS.1).contains(&secs) {
            return Err(ApiError::malformed(format!(
                "bots_after_secs {secs}: from {} to {} seconds",
                BOTS_AFTER_SECS.0, BOTS_AFTER_SECS.1
            )));
        }
    }
    Ok(SeekSpec {
        players: (min, max),
        clock,
        rated,
        ratings,
        languages,
        bots_after_secs: request.bots_after_secs,
    })
}

/// A guest browser's id, checked.
pub fn checked_browser(browser: Option<&str>) -> Result<&str, ApiError> {
    let browser = browser
        .ok_or_else(|| ApiError::malformed("a guest's seek names its browser (or sign in)"))?;
    let fits = (16..=64).contains(&browser.len())
        && browser
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !fits {
        return Err(ApiError::malformed(
            "browser: 16 to 64 letters, digits, - or _",
        ));
    }
    Ok(browser)
}
