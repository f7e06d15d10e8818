//! "It is your turn" mail ([`crate::mail`]): after a move of this process (or the start
//! of a game) makes it a person's turn at a turn-based table while they are not at it
//! ([`super::notices`] says when).

use std::sync::Arc;

use engine::Seat;

use super::table::Table;
use super::{now_ms, Hub};
use crate::mail::TurnNotice;

/// The least time between two turn mails to one person about one table.
const TURN_MAIL_GAP_MS: i64 = 60 * 60 * 1000;

impl Hub {
    /// Whether this server sends mail.
    pub fn mails(&self) -> bool {
        self.mailer.is_some()
    }

    /// Mails seat `seat`'s account, in a task of its own, if it asked for turn mail and
    /// no turn mail went to them about this table in the last hour.
    pub(super) fn mail_turn(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) {
        let Some(mailer) = self.mailer.clone() else {
            return;
        };
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            if let Err(error) = hub.send_turn_mail(&mailer, &table, seat).await {
                tracing::warn!(game = table.id, seat, %error, "a turn mail was not sent");
            }
        });
    }

    async fn send_turn_mail(
        &self,
        mailer: &crate::mail::Mailer,
        table: &Table,
        seat: Seat,
    ) -> Result<(), String> {
        let store = &self.store;
        let owners = store
            .seat_owners(&table.id)
            .await
            .map_err(|e| e.to_string())?;
        let Some((_, account_id)) = owners.into_iter().find(|(owner, _)| *owner == seat) else {
            return Ok(());
        };
        let settings = store
            .settings(&account_id)
            .await
            .map_err(|e| e.to_string())?;
        let (Some(email), true) = (&settings.email, settings.turn_mail) else {
            return Ok(());
        };
        let Some(account) = store
            .account(&account_id)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(());
        };
        let now = now_ms();
        let claimed = store
            .claim_turn_mail(&table.id, &account_id, now, TURN_MAIL_GAP_MS)
            .await
            .map_err(|e| e.to_string())?;
        if !claimed {
            return Ok(());
        }
        let notice = TurnNotice {
            to: email,
            name: &account.name,
            game: table.kind.name(),
            game_id: &table.id,
            languages: &settings.languages,
            unsubscribe_key: &settings.unsubscribe_key,
        };
        let sent = match mailer.turn_message(&notice) {
            Ok(message) => mailer.send(message).await,
            Err(why) => Err(why),
        };
        if let Err(why) = sent {
            // The next turn tries again rather than an hour later.
            let _ = store.release_turn_mail(&table.id, &account_id, now).await;
            return Err(why);
        }
        metrics::counter!("tabletop_turn_mails_total").increment(1);
        tracing::info!(game = table.id, seat, "turn mail sent");
        Ok(())
    }
}
