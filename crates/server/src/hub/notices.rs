//! What the people at a table are told away from it ([`crate::notifier`], and turn mail):
//! their turn at a turn-based table, and their clock running low.

use std::sync::Arc;

use engine::Seat;

use super::clock::running_seat;
use super::table::Table;
use super::Hub;
use crate::model::NotificationKind;
use crate::notifier::{account_recipient, About, Recipient};
use crate::protocol::{Clock, PresenceState};
use crate::store::{Status, StoreError};

impl Hub {
    /// After a move of this process (or the start of a game): tells the seat to move at
    /// `table` it is their turn, if the table is turn-based and running, a person (not a
    /// bot for them) plays the seat, and no tab of it is open in any process. The
    /// notification is told once until read; the mail follows its own rules
    /// ([`Hub::mail_turn`]).
    pub(super) fn tell_turn(self: &Arc<Self>, table: &Arc<Table>) {
        let seat = {
            let st = table.lock();
            let row = st.row();
            let turn_based = matches!(row.settings.clock, Clock::TurnBased { .. });
            let to_move = st
                .game()
                .to_move()
                .filter(|_| turn_based && row.status == Status::Running);
            match running_seat(&row.seats, to_move) {
                Some(seat)
                    if st.slots()[usize::from(seat)].presence().state == PresenceState::Offline =>
                {
                    seat
                }
                _ => return,
            }
        };
        self.notify_seat(table, seat, NotificationKind::YourTurn);
        self.mail_turn(table, seat);
    }

    /// Tells the person at seat `seat` of `table` `kind` about it, in a task of its own,
    /// once until read: the account the seat is, or else the guest's browser that named it
    /// (`POST /api/notifications/seats`), if any.
    pub(super) fn notify_seat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        kind: NotificationKind,
    ) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            let recipient = match hub.seat_recipient(&table.id, seat).await {
                Ok(Some(recipient)) => recipient,
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(game = table.id, seat, %error, "the seat's person was not read");
                    return;
                }
            };
            let about = About {
                game_id: &table.id,
                game: table.kind.name(),
                seat,
            };
            hub.notifier
                .notify(&recipient, kind, Some(about), None, true)
                .await;
        });
    }

    /// Whom seat `seat` of game `id` notifies: its account, or the guest's browser holding it.
    async fn seat_recipient(&self, id: &str, seat: Seat) -> Result<Option<Recipient>, StoreError> {
        let owners = self.store.seat_owners(id).await?;
        if let Some((_, account_id)) = owners.into_iter().find(|(owner, _)| *owner == seat) {
            return Ok(Some(account_recipient(&account_id)));
        }
        Ok(self
            .store
            .seat_browser(id, seat)
            .await?
            .map(Recipient::stored))
    }
}
