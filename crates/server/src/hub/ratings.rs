//! Rating a table when it ends ([`crate::accounts::ratings`]): the process that stored the
//! final move rates it, once (the store keeps which games were rated).

use std::collections::BTreeMap;

use skillratings::weng_lin::WengLinRating;

use super::*;
use crate::accounts::ratings::{participants, update, Rated};
use crate::store::RatingRow;

/// Times a rating is computed again when another game's end changed one of its ratings
/// meanwhile.
const RATING_ATTEMPTS: usize = 5;

impl Hub {
    /// Rates `table`, whose game this process just ended, in a task of its own.
    pub(super) fn rate_when_over(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            for _ in 0..RATING_ATTEMPTS {
                match hub.rate(&table).await {
                    Err(StoreError::Conflict) => continue,
                    Err(error) => {
                        tracing::warn!(game = table.id, %error, "rating a finished game failed");
                    }
                    Ok(()) => {}
                }
                return;
            }
            tracing::warn!(
                game = table.id,
                "a rating kept changing; the game is not rated"
            );
        });
    }

    async fn rate(&self, table: &Table) -> Result<(), StoreError> {
        let (row, outcome, events) = {
            let st = table.lock();
            (st.row.clone(), st.game.outcome(), st.seat_events.clone())
        };
        let Some(outcome) = outcome else {
            return Ok(());
        };
        let owners = self.store.seat_owners(&table.id).await?;
        if owners.len() < crate::accounts::ratings::MIN_PEOPLE {
            return Ok(());
        }
        let moves = self.store.load_moves(&table.id, 0).await?;
        let levels = table.kind.level_ratings();
        let rated = match participants(
            &row.seats,
            row.settings.hints,
            &outcome,
            &owners,
            (levels, &moves, &events),
        ) {
            Ok(rated) => rated,
            Err(why) => {
                tracing::debug!(game = table.id, ?why, "not rated");
                return Ok(());
            }
        };
        let accounts: Vec<String> = rated
            .iter()
            .filter_map(|p| match &p.who {
                Rated::Person(account) => Some(account.clone()),
                Rated::Level(_) => None,
            })
            .collect();
        let before: BTreeMap<String, RatingRow> = self
            .store
            .ratings_in(&row.game, &accounts)
            .await?
            .into_iter()
            .map(|r| (r.account_id.clone(), r))
            .collect();
        let before_ratings = before
            .iter()
            .map(|(account, r)| {
                let rating = WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                };
                (account.clone(), rating)
            })
            .collect();
        let after = update(&rated, &before_ratings);
        let rows: Vec<RatingRow> = rated
            .iter()
            .zip(after)
            .filter_map(|(p, rating)| match (&p.who, rating) {
                (Rated::Person(account), Some(rating)) => Some(RatingRow {
                    account_id: account.clone(),
                    game: row.game.clone(),
                    mu: rating.rating,
                    sigma: rating.uncertainty,
                    games: before.get(account).map_or(0, |r| r.games) + 1,
                }),
                _ => None,
            })
            .collect();
        if self.store.rate_game(&table.id, &rows, now_ms()).await? {
            metrics::counter!("tabletop_rated_games_total").increment(1);
        }
        Ok(())
    }
}
