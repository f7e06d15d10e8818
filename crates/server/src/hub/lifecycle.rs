//! The ends of a table that never started: cancelled by its creator, or expired when nobody
//! filled it in time. Both keep the table (its status says what became of it).

use std::sync::Arc;
use std::time::Duration;

use super::table::{seats_message, Table};
use super::{now_ms, Broadcast, Hub};
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::{Status, StoreError};
use crate::tokens;

/// The refusal of anything asked of a cancelled or expired table.
pub(super) fn closed_error(status: Status) -> ApiError {
    let message = match status {
        Status::Cancelled => "its creator cancelled this table",
        _ => "this table expired: nobody filled its seats in time",
    };
    ApiError::new(ErrorKind::GameOver, message)
}

impl Hub {
    /// Cancels table `id` for the holder of its creator token, while it waits for players.
    pub async fn cancel(self: &Arc<Self>, id: &str, creator_token: &str) -> Result<(), ApiError> {
        let table = self.table(id).await?;
        let _serial = table.seats_serial().await;
        let (seats, version) = {
            let st = table.lock();
            let row = st.row();
            let owner = row.owner.as_deref();
            // Hashes are compared, never the token: equal prefixes reveal nothing.
            if owner != Some(tokens::hash(creator_token).as_str()) {
                return Err(ApiError::new(
                    ErrorKind::Forbidden,
                    "only the table's creator cancels it (with the creator token its creation \
                     returned)",
                ));
            }
            match row.status {
                Status::Open => {}
                Status::Cancelled | Status::Expired => return Err(closed_error(row.status)),
                Status::Running | Status::Over => {
                    return Err(ApiError::new(
                        ErrorKind::Forbidden,
                        "the game has started: a table is cancelled only while it waits for \
                         players",
                    ))
                }
            }
            (row.seats.clone(), row.version)
        };
        match self
            .store
            .update_seats(&table.id, &seats, Status::Cancelled, version, None)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                // Another process changed the table first (a player joined): nothing is
                // cancelled; the table learns what changed.
                drop(_serial);
                self.fall_behind(&table);
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    "the table changed meanwhile (someone joined): look again",
                ));
            }
            Err(e) => return Err(e.into()),
        }
        set_status(&table, Status::Cancelled, version + 1);
        Ok(())
    }

    /// Expires every open table created more than `after` ago; returns how many.
    pub async fn expire_open(self: &Arc<Self>, after: Duration) -> Result<usize, ApiError> {
        let before = now_ms() - i64::try_from(after.as_millis()).unwrap_or(i64::MAX);
        let ids = self.store.expire_open(before).await?;
        for id in &ids {
            tracing::info!(game = %id, "open table expired");
            let table = self.cache().get(id).cloned();
            if let Some(table) = table {
                // Read back: the row's version is the database's.
                self.fall_behind(&table);
            }
        }
        Ok(ids.len())
    }
}

/// Installs status `status` at `version` and tells every watcher.
fn set_status(table: &Table, status: Status, version: i64) {
    let mut st = table.lock();
    st.set_status(status, version);
    table.broadcast(Broadcast::Seats {
        text: seats_message(&st).into(),
        resync: true,
    });
}
