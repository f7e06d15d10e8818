//! Watching a table: the state message a connection starts from, the seats messages, and
//! the subscription that counts the connection in its slot's presence.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use engine::{DynGame, Seat};
use tokio::sync::broadcast;

use super::{Slot, Table, TableState};
use crate::error::ApiError;
use crate::hub::chat::{chat_for, chat_message};
use crate::hub::kept_apart::shown_to;
use crate::hub::undo::can_undo;
#[cfg(doc)]
use crate::hub::Hub;
use crate::hub::{outcome_json, Broadcast};
use crate::protocol::{ErrorKind, LegalAction, SeatInfo, ServerMessage};
use crate::store::{GameRow, SeatEvent, SeatKind, Status};

impl Table {
    /// Starts watching as `seat` (`None`: spectator): the state message and the updates
    /// that follow it, with nothing missed or repeated in between.
    /// `token`: the seat's new token, when this connection just claimed it with its
    /// invitation; the state message carries it to this connection alone. `apart`: the
    /// accounts whose chat the connection's person does not see ([`Hub::kept_apart`]).
    pub fn watch(
        self: &Arc<Self>,
        seat: Option<Seat>,
        token: Option<String>,
        apart: &HashSet<String>,
    ) -> Result<Watch, ApiError> {
        let mut st = self.lock();
        let slot = slot_index(&st, seat);
        // Subscribed first, and counted before the state is made: this connection's state
        // shows its seat online, and the others hear it at once.
        let updates = self.updates.subscribe();
        self.change_presence(&mut st, slot, |slot| slot.watchers += 1);
        let state = match state_message(&mut st, seat, token) {
            Ok(state) => state,
            Err(e) => {
                self.change_presence(&mut st, slot, |slot| slot.watchers -= 1);
                return Err(e);
            }
        };
        st.last_used = Instant::now();
        metrics::gauge!("tabletop_ws_connections").increment(1.0);
        Ok(Watch {
            table: self.clone(),
            seat,
            state,
            seq: st.seq,
            chat: chat_message(chat_for(&st, seat, |m| shown_to(apart, m))),
            over: st.row.status == Status::Over,
            updates,
            away: false,
        })
    }

    /// The whole state for `seat` now (after a stale move or a lag); the slot's patch base
    /// becomes this view.
    pub fn state_for(&self, seat: Option<Seat>) -> Result<(u64, String), ApiError> {
        let mut st = self.lock();
        let text = state_message(&mut st, seat, None)?;
        Ok((st.seq, text))
    }
}

/// A connection's subscription to a table; leaving it (drop) stops the slot's patches once
/// its last watcher has gone.
pub struct Watch {
    pub table: Arc<Table>,
    pub seat: Option<Seat>,
    /// The state message to send first.
    pub state: String,
    /// Its seq: updates up to it are already in it.
    pub seq: u64,
    /// The chat message to send after the state: what the connection may read so far
    /// (none before anything was said).
    pub chat: Option<String>,
    /// The game was over when the connection started watching.
    pub over: bool,
    pub updates: broadcast::Receiver<Arc<Broadcast>>,
    /// This connection's tab is hidden.
    away: bool,
}

impl Watch {
    /// This connection's tab was hidden (`away`) or shown again.
    pub fn set_away(&mut self, away: bool) {
        if self.away == away {
            return;
        }
        self.away = away;
        let mut st = self.table.lock();
        let slot = slot_index(&st, self.seat);
        self.table.change_presence(&mut st, slot, |slot| {
            if away {
                slot.hidden += 1;
            } else {
                slot.hidden = slot.hidden.saturating_sub(1);
            }
        });
    }

    /// The index of this watch's slot in an update's messages.
    pub fn slot(&self) -> usize {
        slot_index(&self.table.lock(), self.seat)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut st = self.table.lock();
        let slot = slot_index(&st, self.seat);
        let away = self.away;
        self.table.change_presence(&mut st, slot, |slot| {
            slot.watchers = slot.watchers.saturating_sub(1);
            if away {
                slot.hidden = slot.hidden.saturating_sub(1);
            }
            if slot.watchers == 0 {
                slot.view = None;
            }
        });
        metrics::gauge!("tabletop_ws_connections").decrement(1.0);
    }
}

/// The index of `seat`'s slot (`None`: the spectator's, after the seats').
fn slot_index(st: &TableState, seat: Option<Seat>) -> usize {
    seat.map_or(st.row.seats.len(), usize::from)
}

/// The message telling watchers the seats changed.
pub(in crate::hub) fn seats_message(st: &TableState) -> String {
    seats_event_message(st, None)
}

/// The seats message telling of seat event `event`.
pub(super) fn seats_event_message(st: &TableState, event: Option<&SeatEvent>) -> String {
    ServerMessage::Seats {
        seats: seat_infos(&st.row, &st.slots),
        status: st.row.status,
        event: event.cloned(),
        times: st.clock_times(),
    }
    .to_text()
}

/// The seats of `row` as everyone may see them, with the presence of each taken human seat
/// from its slot in `slots` (none given: no presence, as in lobby lists).
pub(in crate::hub) fn seat_infos(row: &GameRow, slots: &[Slot]) -> Vec<SeatInfo> {
    row.seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatInfo {
            seat: i as Seat,
            kind: s.kind,
            name: s.name.clone(),
            bot: s.bot.clone(),
            open: s.open,
            stand_in: s.stand_in.clone(),
            left: s.left,
            run_outs: s.run_outs,
            former: s.former,
            rating: None,
            languages: Vec::new(),
            presence: slots
                .get(i)
                .filter(|_| s.kind == SeatKind::Human && !s.is_free())
                .map(Slot::presence),
        })
        .collect()
}

pub(in crate::hub) fn legal_actions(game: &dyn DynGame) -> Vec<LegalAction> {
    game.legal_actions_json()
        .into_iter()
        .map(|offered| LegalAction {
            action: offered.action,
            description: offered.description,
            rule: offered.rule.to_owned(),
        })
        .collect()
}

/// The state message for `seat`, making its view the slot's patch base; `token`: the
/// seat's new token, for the connection that just claimed it.
fn state_message(
    st: &mut TableState,
    seat: Option<Seat>,
    token: Option<String>,
) -> Result<String, ApiError> {
    let observed = st
        .game
        .observe(&[seat], None)?
        .views
        .pop()
        .ok_or_else(|| ApiError::new(ErrorKind::Internal, "no view was built"))?;
    let view = observed.json();
    let to_move = st.game.to_move();
    let legal = (seat.is_some() && to_move == seat && st.row.status == Status::Running)
        .then(|| legal_actions(st.game.as_ref()));
    let message = ServerMessage::State {
        seq: st.seq,
        seat,
        status: st.row.status,
        view,
        to_move,
        legal,
        seats: seat_infos(&st.row, &st.slots),
        outcome: outcome_json(st.game.as_ref()),
        can_undo: seat.is_some_and(|seat| can_undo(st, seat)),
        clock: st.row.settings.clock,
        times: st.clock_times(),
        hints: st.row.settings.hints,
        token,
    };
    let slot = slot_index(st, seat);
    st.slots[slot].view = Some(observed);
    Ok(message.to_text())
}
