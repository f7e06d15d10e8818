//! How a finished table went ([`crate::ending`]), from what the table and the store keep.

use std::sync::Arc;

use super::table::Table;
use super::Hub;
use crate::ending::{ending_of, Ending};
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::{MoveRow, Status};

impl Hub {
    /// How game `id` went, seat by seat, and whether it was rated; `not_over` before its
    /// end.
    pub async fn ending(self: &Arc<Self>, id: &str) -> Result<Ending, ApiError> {
        let table = self.table(id).await?;
        let moves = self.store.load_moves(id, 0).await?;
        self.ending_with(&table, &moves).await
    }

    /// How `table` went, from its stored `moves` (the record has read them already).
    pub(super) async fn ending_with(
        &self,
        table: &Table,
        moves: &[MoveRow],
    ) -> Result<Ending, ApiError> {
        let (row, outcome, events) = {
            let st = table.lock();
            (
                st.row().clone(),
                st.game().outcome(),
                st.seat_events().to_vec(),
            )
        };
        let outcome = match (row.status, outcome) {
            (Status::Over, Some(outcome)) => outcome,
            _ => {
                return Err(ApiError::new(
                    ErrorKind::NotOver,
                    "how a game went is told once it is over",
                ))
            }
        };
        let owners = self.store.seat_owners(&table.id).await?;
        let levels = table.kind.level_ratings();
        Ok(ending_of(&row, &outcome, &owners, (levels, moves, &events)))
    }
}
