//! Rating a table when it ends ([`crate::rating`]): the process that stored the
//! final move rates it, once (the store keeps which games were rated).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use skillratings::weng_lin::WengLinRating;
use tokio::task::JoinHandle;

use super::table::Table;
use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::rating::{participants, update, Rated};
use crate::store::RatingRow;
use crate::store::StoreError;

/// Times a rating is computed again when another game's end changed one of its ratings
/// meanwhile.
const RATING_ATTEMPTS: usize = 5;

/// How often the games left unrated by a stopped process are looked for (and at start).
const SWEEP_EVERY: Duration = Duration::from_secs(60 * 60);

/// Games a sweep rates at most.
const SWEEP_BATCH: u32 = 100;

impl Hub {
    /// Rates `table`, whose game this process just ended, in a task of its own.
    pub(super) fn rate_when_over(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move { hub.rate_retrying(&table).await });
    }

    /// Rates, at start and then every hour, the finished games of people whose end was
    /// never recorded: the process that stored the last move stopped before rating it.
    pub fn sweep_ratings(self: &Arc<Self>) -> JoinHandle<()> {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                match hub.rate_unrated().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(games = n, "games left unrated were rated"),
                    Err(error) => tracing::warn!(%error, "looking for unrated games failed"),
                }
            }
        })
    }

    async fn rate_unrated(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.unrated_games(SWEEP_BATCH).await?;
        for id in &ids {
            let table = self.table(id).await?;
            self.rate_retrying(&table).await;
        }
        Ok(ids.len())
    }

    /// Rates `table`, again while another game's end changes one of its ratings meanwhile.
    async fn rate_retrying(&self, table: &Table) {
        for _ in 0..RATING_ATTEMPTS {
            match self.rate(table).await {
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
    }

    async fn rate(&self, table: &Table) -> Result<(), StoreError> {
        let (row, outcome, events) = {
            let st = table.lock();
            (
                st.row().clone(),
                st.game().outcome(),
                st.seat_events().to_vec(),
            )
        };
        let Some(outcome) = outcome else {
            return Ok(());
        };
        // A table its seekers asked to be casual (crate::matchmaking) is never rated.
        if row.settings.casual {
            tracing::debug!(game = table.id, "not rated: casual");
            return self.store.mark_unrated(&table.id, now_ms()).await;
        }
        let owners = self.store.seat_owners(&table.id).await?;
        if owners.len() < crate::rating::MIN_PEOPLE {
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
                return self.store.mark_unrated(&table.id, now_ms()).await;
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
