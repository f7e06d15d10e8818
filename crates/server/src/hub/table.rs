//! A table in memory: its state and versions, the watched slots with the view each was
//! sent last, and the state message a connection starts from.

use super::*;

/// One watched slot: the view last sent to its watchers (the base of the next patch), with
/// its record, and who watches it.
pub(super) struct Slot {
    /// Connections watching (several tabs of one seat are one presence).
    pub(super) watchers: usize,
    /// Those of the watchers whose tab is hidden.
    pub(super) hidden: usize,
    /// When the slot's presence last changed (Unix milliseconds).
    pub(super) since: i64,
    pub(super) view: Option<Box<dyn ObservedView>>,
}

pub(super) struct TableState {
    pub(super) row: GameRow,
    pub(super) game: Box<dyn DynGame>,
    /// Moves stored.
    pub(super) seq: u64,
    /// Every stored move's events, with each viewer's form of those some may not keep.
    pub(super) log: Vec<LoggedMove>,
    /// Every stored change of who plays a seat, in order.
    pub(super) seat_events: Vec<SeatEvent>,
    /// The table's chat, in the order of id.
    pub(super) chat: Vec<ChatMessage>,
    /// The decisions that may be taken back, oldest first: the last seat's own since the
    /// last barrier ([`UndoPoint`]).
    pub(super) undoable: Vec<UndoPoint>,
    /// The seats' clocks; `None` for a table without a clock.
    pub(super) clocks: Option<Clocks>,
    /// A seat's time-out is being stored.
    pub(super) timing_out: bool,
    /// What is being written to the table, if anything: another move for the same
    /// position meanwhile is a conflict.
    pub(super) writing: Option<Writing>,
    /// Another server process stored changes this copy does not have yet (it catches up
    /// once nothing is being written).
    pub(super) behind: bool,
    /// The seq a bot of this process thinks (or tries to move) for.
    pub(super) bot_thinking: Option<u64>,
    /// Seats whose hint this process is computing (at most one each).
    pub(super) hinting: Vec<Seat>,
    /// Set when this process stored a move (or may have: its store failed) while the
    /// table was behind: the catch-up that follows starts the next bot unless it found
    /// the game moved further on than that seq (then another process moves it).
    pub(super) bot_after_catch_up: Option<u64>,
    /// Seats, then the spectator.
    pub(super) slots: Vec<Slot>,
    /// The spectator's view of `game` as the last move's update built it: the next move's
    /// takes from it what that move leaves alike.
    pub(super) public: Option<PublicView>,
    pub(super) last_used: Instant,
}

/// What a table is busy writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Writing {
    /// A move of this process is being stored.
    Move,
    /// Moves and seats stored by another server process are being installed.
    CatchingUp,
    /// A change of seats is being stored: no move is checked against the seats it
    /// replaces.
    Seats,
}

/// A game in play.
pub struct Table {
    pub id: String,
    pub kind: Arc<dyn GameKind>,
    /// The corrected component data the game plays on; `None`: the shipped data.
    pub(super) data: Option<Arc<str>>,
    pub(super) state: Mutex<TableState>,
    /// Serializes seat changes (join, claim) so that they compare-and-set in order.
    pub(super) seats_lock: tokio::sync::Mutex<()>,
    pub(super) updates: broadcast::Sender<Arc<Broadcast>>,
}

impl Table {
    pub(super) fn lock(&self) -> MutexGuard<'_, TableState> {
        // A panic while holding the lock cannot leave a half-applied move: moves are
        // applied to a copy and installed whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The seat whose token this is, if any.
    pub fn seat_of_token(&self, token: &str) -> Option<Seat> {
        self.token_seat(token).map(|(seat, _)| seat)
    }

    /// The seat whose token this is, and whether it is free (the token is then its
    /// invitation), read at once.
    pub fn token_seat(&self, token: &str) -> Option<(Seat, bool)> {
        let hash = tokens::hash(token);
        let st = self.lock();
        let (index, record) = st
            .row
            .seats
            .iter()
            .enumerate()
            .find(|(_, s)| s.token_hash.as_deref() == Some(hash.as_str()))?;
        Some((Seat::try_from(index).ok()?, record.is_free()))
    }

    /// Starts watching as `seat` (`None`: spectator): the state message and the updates
    /// that follow it, with nothing missed or repeated in between.
    /// `token`: the seat's new token, when this connection just claimed it with its
    /// invitation; the state message carries it to this connection alone.
    pub fn watch(
        self: &Arc<Self>,
        seat: Option<Seat>,
        token: Option<String>,
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
            chat: chat_message(chat_for(&st, seat, |_| true)),
            over: st.row.status == Status::Over,
            updates,
            away: false,
        })
    }

    /// "Why not?" for `action` on behalf of `seat` now: the [`ServerMessage::Why`] text
    /// for the asker alone. The game is only read; a malformed action is an error.
    pub fn why(&self, seat: Seat, action: &Value) -> Result<String, ApiError> {
        let st = self.lock();
        let action = st.game.canonical_action(action)?;
        let explanation = st.game.why(seat, &action)?;
        Ok(ServerMessage::Why {
            action,
            legal: explanation.legal,
            rule: explanation.rule.to_owned(),
            reason: explanation
                .reason
                .and_then(|reason| serde_json::to_value(reason).ok()),
        }
        .to_text())
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

pub(super) fn slot_index(st: &TableState, seat: Option<Seat>) -> usize {
    seat.map_or(st.row.seats.len(), usize::from)
}

/// The message telling watchers the seats changed.
pub(super) fn seats_message(st: &TableState) -> String {
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
pub(super) fn seat_infos(row: &GameRow, slots: &[Slot]) -> Vec<SeatInfo> {
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
            former: s.former,
            presence: slots
                .get(i)
                .filter(|_| s.kind == SeatKind::Human && !s.is_free())
                .map(Slot::presence),
        })
        .collect()
}

pub(super) fn legal_actions(game: &dyn DynGame) -> Vec<LegalAction> {
    game.legal_actions_json()
        .into_iter()
        .map(|offered| LegalAction {
            action: offered.action,
            description: offered.description,
            rule: offered.rule.to_owned(),
        })
        .collect()
}

/// A stored move and its events as the game logged them (each viewer's form included).
#[derive(Clone)]
pub(super) struct LoggedMove {
    /// The number of moves once this one was made (the first move is 1).
    pub(super) seq: u64,
    pub(super) seat: Seat,
    pub(super) events: Vec<LoggedEvent>,
    /// Set on an undo: the seq of the entry it took back.
    pub(super) undid: Option<u64>,
}

impl LoggedMove {
    /// The entry `viewer` (`None`: a spectator) may read; once the game is over, every
    /// event as it happened (nothing is hidden any more).
    pub(super) fn entry_for(&self, viewer: Option<Seat>, over: bool) -> LogEntry {
        LogEntry {
            seq: self.seq,
            seat: self.seat,
            events: if over {
                event_entries(&self.events)
            } else {
                event_entries(self.events.iter().map(|e| e.for_viewer(viewer)))
            },
            undid: self.undid,
            seat_event: None,
        }
    }
}

/// The state message for `seat`, making its view the slot's patch base; `token`: the
/// seat's new token, for the connection that just claimed it.
pub(super) fn state_message(
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
