//! People's ratings as the profile and the leaderboard show them; the rating itself is
//! [`crate::rating`]'s.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use skillratings::weng_lin::WengLinRating;
use utoipa::ToSchema;

use crate::app::App;
use crate::catalog::truncate;
use crate::error::ApiError;
use crate::protocol::ErrorBody;
use crate::rating::shown;
use crate::store::RatingRow;

/// A person's rating in one game, as the profile and the leaderboard show it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Rating {
    pub game: String,
    /// On the arena's scale (random play at 0, a newcomer at 1,000).
    pub rating: f64,
    /// One standard deviation of it, on the same scale.
    pub deviation: f64,
    /// Rated games played.
    pub games: u32,
}

impl From<&RatingRow> for Rating {
    fn from(row: &RatingRow) -> Rating {
        let (rating, deviation) = shown(WengLinRating {
            rating: row.mu,
            uncertainty: row.sigma,
        });
        Rating {
            game: row.game.clone(),
            rating,
            deviation,
            games: row.games,
        }
    }
}

/// The best rated people of a game, and the levels' fixed ratings beside them.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Leaderboard {
    pub game: String,
    /// Best first, by rating less two deviations (a rating proven by few games ranks
    /// below a like one proven by many); at most 100.
    pub people: Vec<RatedPerson>,
    /// `easy`, `medium`, `hard` with their fixed ratings.
    pub levels: Vec<LevelRating>,
}

/// One person on a leaderboard.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct RatedPerson {
    /// The account id (their page: `/api/accounts/{id}`).
    pub account: String,
    pub name: String,
    #[serde(flatten)]
    #[ts(flatten)]
    pub rating: Rating,
}

/// A bot level's fixed rating.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct LevelRating {
    pub level: String,
    pub rating: f64,
}

/// People listed on a leaderboard.
const LEADERBOARD_SIZE: u32 = 100;

#[utoipa::path(
    get,
    path = "/api/ratings/{game}",
    params(("game" = String, Path, description = "a game of /api/games/kinds")),
    responses(
        (status = 200, body = Leaderboard),
        (status = 404, body = ErrorBody, description = "no such game")
    ),
    tag = "accounts"
)]
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    let kind = app
        .hub
        .catalog()
        .get(&game)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("no game {:?}", truncate(&game, 24))))?;
    let people = app
        .hub
        .store()
        .leaderboard(kind.name(), LEADERBOARD_SIZE)
        .await?
        .into_iter()
        .map(|(row, name)| RatedPerson {
            account: row.account_id.clone(),
            name,
            rating: Rating::from(&row),
        })
        .collect();
    let levels = kind
        .level_ratings()
        .iter()
        .map(|&(level, rating)| LevelRating {
            level: level.to_string(),
            rating,
        })
        .collect();
    Ok(Json(Leaderboard {
        game: kind.name().to_string(),
        people,
        levels,
    }))
}
