//! A person's public page: their name, since when they play here, how many games of each
//! game they have played, and their recent games (docs/server.md, "Accounts").

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use super::ratings::Rating;
use super::seats::{with_summaries, AccountSeat, MAX_LISTED};
use crate::app::App;
use crate::error::ApiError;
use crate::protocol::ErrorBody;
use crate::store::Status;

/// Recent games shown on a profile.
const RECENT: usize = 20;

/// A person as everyone may see them.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Profile {
    pub id: String,
    pub name: String,
    /// When the account was made, Unix milliseconds.
    #[ts(type = "number")]
    pub created: i64,
    /// Per game, most played first.
    pub games: Vec<GamesPlayed>,
    /// The newest games first (at most 20).
    pub recent: Vec<AccountSeat>,
    /// Per game rated in, most rated games first.
    pub ratings: Vec<Rating>,
    /// The languages the person speaks, the best first (language tags: "es", "pt-BR").
    pub languages: Vec<String>,
}

/// How many tables of one game a person has sat at.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct GamesPlayed {
    pub game: String,
    /// Tables started (running or over).
    pub played: u32,
    /// Of those, the ones over.
    pub finished: u32,
}

#[utoipa::path(
    get,
    path = "/api/accounts/{id}",
    params(("id" = String, Path, description = "account id")),
    responses(
        (status = 200, body = Profile),
        (status = 404, body = ErrorBody, description = "no such account")
    ),
    tag = "accounts"
)]
pub async fn profile(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let store = app.hub.store();
    let account = store
        .account(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account {id:?}")))?;
    let seats = with_summaries(&app, store.seats_of(&account.id, MAX_LISTED).await?).await?;
    let ratings = store.ratings_of(&account.id).await?;
    let languages = store.settings(&account.id).await?.languages;
    Ok(Json(Profile {
        languages,
        ratings: ratings.iter().map(Rating::from).collect(),
        games: games_played(&seats),
        recent: seats.into_iter().take(RECENT).collect(),
        id: account.id,
        name: account.name,
        created: account.created,
    }))
}

/// The tables started of each game, most played first (then by name); a table where the
/// person holds two seats counts once.
fn games_played(seats: &[AccountSeat]) -> Vec<GamesPlayed> {
    let mut games: Vec<GamesPlayed> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for AccountSeat { game, .. } in seats {
        let started = matches!(game.status, Status::Running | Status::Over);
        if !started || !seen.insert(game.id.as_str()) {
            continue;
        }
        let index = match games.iter().position(|g| g.game == game.game) {
            Some(index) => index,
            None => {
                games.push(GamesPlayed {
                    game: game.game.clone(),
                    played: 0,
                    finished: 0,
                });
                games.len() - 1
            }
        };
        games[index].played += 1;
        games[index].finished += u32::from(game.status == Status::Over);
    }
    games.sort_by(|a, b| b.played.cmp(&a.played).then_with(|| a.game.cmp(&b.game)));
    games
}
