//! Presence: whether each seat's person is at the table (online, away, offline) and since
//! when, told to everyone at once. Several tabs of one seat are one presence.

use super::{seats_message, Slot, Table, TableState};
use crate::hub::{now_ms, Broadcast};
use crate::protocol::{Presence, PresenceState};
use crate::store::SeatKind;

impl Slot {
    pub(in crate::hub) fn new(since: i64) -> Self {
        Slot {
            watchers: 0,
            hidden: 0,
            since,
            view: None,
        }
    }

    fn state(&self) -> PresenceState {
        if self.watchers == 0 {
            PresenceState::Offline
        } else if self.hidden >= self.watchers {
            PresenceState::Away
        } else {
            PresenceState::Online
        }
    }

    pub(in crate::hub) fn presence(&self) -> Presence {
        Presence {
            state: self.state(),
            since: self.since,
        }
    }
}

impl Table {
    /// Applies `change` to slot `slot`'s watchers and, when it changes the seat's presence,
    /// dates the change and tells every watcher (the spectator slot has no presence). Sent
    /// under the table's lock, so that watchers hear presence in the order it changed.
    pub(in crate::hub) fn change_presence(
        &self,
        st: &mut TableState,
        slot: usize,
        change: impl FnOnce(&mut Slot),
    ) {
        let before = st.slots[slot].state();
        change(&mut st.slots[slot]);
        let seat = st.row.seats.get(slot);
        if st.slots[slot].state() == before || !seat.is_some_and(|s| s.kind == SeatKind::Human) {
            return;
        }
        st.slots[slot].since = now_ms();
        self.broadcast(Broadcast::Seats {
            text: seats_message(st).into(),
            resync: false,
        });
    }
}
