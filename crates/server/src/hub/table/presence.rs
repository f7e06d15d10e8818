//! Presence: whether each seat's person is at the table (online, away, offline) and since
//! when, told to everyone at once. Several tabs of one seat are one presence.

use super::{seats_message, Slot, Table, TableState};
use crate::hub::{now_ms, Broadcast};
use crate::protocol::{Presence, PresenceState};
use crate::store::SeatKind;

/// A seat's presence in this process changed: some tab of it shown (`Some(true)`), all
/// hidden (`Some(false)`), or none connected here (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::hub) struct PresenceReport {
    pub game: String,
    pub seat: u8,
    pub shown: Option<bool>,
}

impl Slot {
    pub(in crate::hub) fn new(since: i64) -> Self {
        Slot {
            watchers: 0,
            hidden: 0,
            elsewhere: None,
            since,
            view: None,
        }
    }

    /// Whether a tab of the seat connected to this process is shown (`None`: none is
    /// connected here).
    fn shown_here(&self) -> Option<bool> {
        (self.watchers > 0).then_some(self.hidden < self.watchers)
    }

    /// Online when a tab is shown here or in another process, away when every tab anywhere
    /// is hidden, offline when none is open.
    fn state(&self) -> PresenceState {
        match (self.shown_here(), self.elsewhere) {
            (Some(true), _) | (_, Some(true)) => PresenceState::Online,
            (Some(false), _) | (_, Some(false)) => PresenceState::Away,
            (None, None) => PresenceState::Offline,
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
    /// Whether a tab of seat `seat` is open, here or in another process.
    pub fn seat_present(&self, seat: u8) -> bool {
        let st = self.lock();
        st.slots
            .get(usize::from(seat))
            .filter(|_| usize::from(seat) < st.row.seats.len())
            .is_some_and(|slot| slot.state() != PresenceState::Offline)
    }

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
        let here_before = st.slots[slot].shown_here();
        change(&mut st.slots[slot]);
        let shown = st.slots[slot].shown_here();
        if let (Some(out), Ok(seat)) = (&self.presence_out, u8::try_from(slot)) {
            if shown != here_before && slot < st.row.seats.len() {
                let report = PresenceReport {
                    game: self.id.clone(),
                    seat,
                    shown,
                };
                // Closed only when the process shuts down.
                let _ = out.send(report);
            }
        }
        if date_presence(st, slot, before) {
            self.broadcast_presence(st);
        }
    }

    /// Installs the seats' presence in the other server processes, `elsewhere` (for each
    /// seat with a tab there, whether one is shown), and tells the watchers if that
    /// changes a seat's presence.
    pub(in crate::hub) fn install_presence_elsewhere(&self, elsewhere: &[(u8, bool)]) {
        let mut st = self.lock();
        let mut changed = false;
        for slot in 0..st.row.seats.len() {
            let before = st.slots[slot].state();
            st.slots[slot].elsewhere = elsewhere
                .iter()
                .find(|(seat, _)| usize::from(*seat) == slot)
                .map(|&(_, shown)| shown);
            changed |= date_presence(&mut st, slot, before);
        }
        if changed {
            self.broadcast_presence(&st);
        }
    }

    fn broadcast_presence(&self, st: &TableState) {
        self.broadcast(Broadcast::Seats {
            text: seats_message(st).into(),
            resync: false,
        });
    }
}

/// Dates slot `slot`'s presence now if it is no longer `before` and the seat is a
/// person's: whether the watchers are to be told.
fn date_presence(st: &mut TableState, slot: usize, before: PresenceState) -> bool {
    let seat = st.row.seats.get(slot);
    if st.slots[slot].state() == before || !seat.is_some_and(|s| s.kind == SeatKind::Human) {
        return false;
    }
    st.slots[slot].since = now_ms();
    true
}
