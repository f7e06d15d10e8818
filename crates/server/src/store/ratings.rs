//! What the server keeps of people's ratings ([`crate::rating`]).

use async_trait::async_trait;

use super::StoreError;

/// An account's Weng-Lin rating in one game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub account_id: String,
    pub game: String,
    pub mu: f64,
    pub sigma: f64,
    /// Rated games played, this one included when it is a new rating to store.
    pub games: u32,
}

/// What the lobby's rows show of an account seated at a game: its rating in that game and
/// the languages it speaks.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatedAccount {
    pub game_id: String,
    pub seat: u8,
    /// `None`: the account has no rating in the game yet (a newcomer).
    pub rating: Option<(f64, f64)>,
    /// Language tags, the one spoken best first.
    pub languages: Vec<String>,
}

/// The storage of ratings.
#[async_trait]
pub trait RatingStore: Send + Sync {
    /// The accounts that own seats of a game, as (seat, account id).
    async fn seat_owners(&self, game_id: &str) -> Result<Vec<(u8, String)>, StoreError>;
    /// The accounts' seats of these games with each account's (mu, sigma) in the seat's
    /// game and its languages, in one read for a lobby page.
    async fn seated_accounts(&self, game_ids: &[String]) -> Result<Vec<SeatedAccount>, StoreError>;
    /// The ratings of `accounts` in `game`, for those rated in it.
    async fn ratings_in(
        &self,
        game: &str,
        accounts: &[String],
    ) -> Result<Vec<RatingRow>, StoreError>;
    /// The account's ratings, most played game first.
    async fn ratings_of(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError>;
    /// Stores the new ratings game `game_id` gave, in one transaction, each over the one
    /// it was computed from (`games - 1` games: none for 0). `Ok(false)`, storing
    /// nothing, when the game was rated already; [`StoreError::Conflict`], storing
    /// nothing, when one of the ratings changed since it was read (read and rate again).
    async fn rate_game(
        &self,
        game_id: &str,
        ratings: &[RatingRow],
        at: i64,
    ) -> Result<bool, StoreError>;
    /// Records that game `game_id`, looked at, is not rated (nothing if its end was
    /// recorded already).
    async fn mark_unrated(&self, game_id: &str, at: i64) -> Result<(), StoreError>;
    /// Finished games of two or more people whose end nobody recorded (rated or not):
    /// their process stopped between the last move and the rating. At most `limit`.
    async fn unrated_games(&self, limit: u32) -> Result<Vec<String>, StoreError>;
    /// The best `limit` ratings of `game` by `mu - 2 sigma`, with the accounts' names.
    async fn leaderboard(
        &self,
        game: &str,
        limit: u32,
    ) -> Result<Vec<(RatingRow, String)>, StoreError>;
}
