//! Seats that belong to an account: a guest's seats (their tokens, kept in the browser)
//! join the account when they sign in, and a signed-in person's seats open in any browser.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::protocol::{ErrorBody, GameSummary};

/// Most seats one request hands to an account (their tokens fit in a 16 KiB body).
pub const MAX_CLAIMED: usize = 100;
/// Most seats listed.
pub const MAX_LISTED: u32 = 200;

/// Seats this browser holds the tokens of.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct SeatTokens {
    /// At most 100.
    pub seats: Vec<SeatToken>,
}

/// A seat's token at a game.
#[derive(Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct SeatToken {
    /// The game id.
    pub game: String,
    pub token: String,
}

/// Never shows the token.
impl std::fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatToken")
            .field("game", &self.game)
            .field("token", &"…")
            .finish()
    }
}

/// One seat of an account, with its game as the lobby shows it.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct AccountSeat {
    pub seat: u8,
    pub game: GameSummary,
}

#[utoipa::path(
    post,
    path = "/api/account/seats",
    request_body = SeatTokens,
    responses(
        (status = 200, body = Vec<AccountSeat>, description = "the seats of these tokens that are the account's now: a token that is no taken seat of its game (unknown, or an invitation not yet used), or a seat of another account, is left out"),
        (status = 400, body = ErrorBody, description = "malformed, or more than 100 seats"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin")
    ),
    tag = "accounts"
)]
pub async fn claim(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<SeatTokens>,
) -> Result<Json<Vec<AccountSeat>>, ApiError> {
    let SeatTokens { seats } = request;
    if seats.len() > MAX_CLAIMED {
        return Err(ApiError::malformed(format!(
            "at most {MAX_CLAIMED} seats at once"
        )));
    }
    let store = app.hub.store();
    let mut claimed = Vec::new();
    for SeatToken { game, token } in seats {
        // An unknown game is left out like an unknown token.
        let Ok(table) = app.hub.table(&game).await else {
            continue;
        };
        // A free seat's token is an invitation: its holder has not taken the seat.
        let Some((seat, false)) = table.token_seat(&token) else {
            continue;
        };
        if store.claim_seat(&signed_in.account.id, &game, seat).await? {
            claimed.push((game, seat));
        }
    }
    Ok(Json(with_summaries(&app, claimed).await?))
}

#[utoipa::path(
    get,
    path = "/api/account/seats",
    responses(
        (status = 200, body = Vec<AccountSeat>, description = "the account's seats, the newest games first (at most 200)"),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "accounts"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    signed_in: SignedIn,
) -> Result<Json<Vec<AccountSeat>>, ApiError> {
    let seats = app
        .hub
        .store()
        .seats_of(&signed_in.account.id, MAX_LISTED)
        .await?;
    Ok(Json(with_summaries(&app, seats).await?))
}

/// Each seat with its game's summary as stored (a game no longer stored is left out).
pub(super) async fn with_summaries(
    app: &App,
    seats: Vec<(String, u8)>,
) -> Result<Vec<AccountSeat>, ApiError> {
    let ids: Vec<String> = seats.iter().map(|(id, _)| id.clone()).collect();
    let summaries = app.hub.stored_summaries(&ids).await?;
    Ok(seats
        .into_iter()
        .filter_map(|(id, seat)| {
            let game = summaries.iter().find(|s| s.id == id)?.clone();
            Some(AccountSeat { seat, game })
        })
        .collect())
}
