//! A table in memory: its state, which only this module changes, through the methods
//! below; who may change it when ([`Reservations`]); the watched slots with the view each
//! was sent last.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use engine::{DynGame, ObservedView, PublicView, Seat};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use super::clock::{running_seat, Clocks};
use super::{now_ms, Broadcast};
use crate::catalog::GameKind;
use crate::chat::ChatMessage;
use crate::error::ApiError;
use crate::protocol::{ClockTimes, PresenceState, ServerMessage};
use crate::store::{GameRow, SeatEvent, SeatRecord, Status};
use crate::tokens;

mod history;
mod presence;
mod reservation;
mod watch;

pub use history::Mover;
pub(super) use history::{
    keeps_decision, point_undone_by, record_decision, take_back, LoggedMove, Rebuilt, Step,
    UndoPoint,
};
pub(super) use presence::PresenceReport;
use reservation::Reservations;
pub(super) use reservation::{AfterWrite, CatchUp, Reservation, Stored, Writing};
use watch::seats_event_message;
pub use watch::Watch;
pub(super) use watch::{legal_actions, seat_infos, seats_message};

/// Updates a connection may fall behind before it is sent the whole state instead.
const UPDATE_BUFFER: usize = 64;

/// A game in play.
pub struct Table {
    pub id: String,
    pub kind: Arc<dyn GameKind>,
    /// The corrected component data the game plays on; `None`: the shipped data.
    data: Option<Arc<str>>,
    state: Mutex<TableState>,
    /// Serializes seat changes (join, claim) so that they compare-and-set in order.
    seats_lock: tokio::sync::Mutex<()>,
    updates: broadcast::Sender<Arc<Broadcast>>,
    /// Where its seats' presence in this process is told to the others on the database
    /// (`None`: there are none).
    presence_out: Option<mpsc::UnboundedSender<PresenceReport>>,
}

impl Table {
    pub(super) fn new(
        id: String,
        kind: Arc<dyn GameKind>,
        data: Option<Arc<str>>,
        state: TableState,
        presence_out: Option<mpsc::UnboundedSender<PresenceReport>>,
    ) -> Self {
        Table {
            id,
            kind,
            data,
            state: Mutex::new(state),
            seats_lock: tokio::sync::Mutex::new(()),
            updates: broadcast::channel(UPDATE_BUFFER).0,
            presence_out,
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, TableState> {
        // A panic while holding the lock cannot leave a half-applied move: moves are
        // applied to a copy and installed whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The corrected component data the game plays on; `None`: the shipped data.
    pub(super) fn data(&self) -> Option<&Arc<str>> {
        self.data.as_ref()
    }

    /// Waits for the seat changes before this one (join, claim, catch-up), and holds off
    /// the next until dropped.
    pub(super) async fn seats_serial(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.seats_lock.lock().await
    }

    /// Waits while what another server process stored is being installed here: a step
    /// checked meanwhile would be refused as conflicting with a catch-up that, as often as
    /// not, brings nothing new (a notice of a row already read). A catch-up holds the
    /// seats lock throughout, so taking it once is waiting for the catch-up's end.
    pub(in crate::hub) async fn after_catch_up(&self) {
        let catching_up = self.lock().writing() == Some(Writing::CatchingUp);
        if catching_up {
            drop(self.seats_serial().await);
        }
    }

    /// Sends `message` to every watcher.
    pub(super) fn broadcast(&self, message: Broadcast) {
        let _ = self.updates.send(Arc::new(message));
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
}

/// One watched slot: the view last sent to its watchers (the base of the next patch), with
/// its record, and who watches it.
pub(super) struct Slot {
    /// Connections watching (several tabs of one seat are one presence).
    watchers: usize,
    /// Those of the watchers whose tab is hidden.
    hidden: usize,
    /// The seat's presence in the other server processes: some tab shown there
    /// (`Some(true)`), all hidden (`Some(false)`), none (`None`).
    elsewhere: Option<bool>,
    /// When the slot's presence last changed (Unix milliseconds).
    since: i64,
    view: Option<Box<dyn ObservedView>>,
}

impl Slot {
    /// Connections watching.
    pub(super) fn watchers(&self) -> usize {
        self.watchers
    }

    /// The view last sent to the slot's watchers: the base of its next patch.
    pub(super) fn view(&self) -> Option<&dyn ObservedView> {
        self.view.as_deref()
    }
}

/// The state of a table, behind its lock. Read through the getters; changed only through
/// the methods below, each one change whole.
pub(super) struct TableState {
    row: GameRow,
    game: Box<dyn DynGame>,
    /// Moves stored.
    seq: u64,
    /// Every stored move's events, with each viewer's form of those some may not keep.
    log: Vec<LoggedMove>,
    /// Every stored change of who plays a seat, in order.
    seat_events: Vec<SeatEvent>,
    /// The table's chat, in the order of id.
    chat: Vec<ChatMessage>,
    /// The decisions that may be taken back, oldest first: the last seat's own since the
    /// last barrier ([`UndoPoint`]).
    undoable: Vec<UndoPoint>,
    /// The seats' clocks; `None` for a table without a clock.
    clocks: Option<Clocks>,
    /// A seat's time-out is being stored.
    timing_out: bool,
    /// The seat last told its clock runs low, and the seq it was told at.
    low_clock_told: Option<(Seat, u64)>,
    /// Who writes to the table, and what it missed of other processes' changes.
    reservations: Reservations,
    /// The seq a bot of this process thinks (or tries to move) for.
    bot_thinking: Option<u64>,
    /// Seats whose hint this process is computing (at most one each).
    hinting: Vec<Seat>,
    /// Seats, then the spectator.
    slots: Vec<Slot>,
    /// The spectator's view of `game` as the last move's update built it: the next move's
    /// takes from it what that move leaves alike.
    public: Option<PublicView>,
    last_used: Instant,
}

/// What a stored step leaves on the table besides its position, worked out before it was
/// stored (`moves::prepare_update`).
pub(super) struct StepRecord {
    pub(super) seat: Seat,
    /// When the step was made (Unix milliseconds): its seat's clock stopped then.
    pub(super) at: i64,
    pub(super) step: Step,
    /// The move revealed information or drew chance ([`engine::LoggedEvent::is_barrier`]).
    pub(super) barrier: bool,
    /// Each slot's view of the new position; `None` for a slot nobody watched.
    pub(super) views: Vec<Option<Box<dyn ObservedView>>>,
    /// The spectator's view, as [`TableState::public`] keeps it.
    pub(super) public: Option<PublicView>,
    pub(super) log: LoggedMove,
}

/// Getters.
impl TableState {
    pub(super) fn row(&self) -> &GameRow {
        &self.row
    }

    pub(super) fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// Steps stored.
    pub(super) fn seq(&self) -> u64 {
        self.seq
    }

    pub(super) fn log(&self) -> &[LoggedMove] {
        &self.log
    }

    pub(super) fn seat_events(&self) -> &[SeatEvent] {
        &self.seat_events
    }

    pub(super) fn chat(&self) -> &[ChatMessage] {
        &self.chat
    }

    pub(super) fn undoable(&self) -> &[UndoPoint] {
        &self.undoable
    }

    pub(super) fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The clocks as of now, for a message.
    pub(super) fn clock_times(&self) -> Option<ClockTimes> {
        self.clocks.as_ref().map(|c| c.times(now_ms()))
    }

    /// Seats, then the spectator.
    pub(super) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The spectator's view as the last move's update built it.
    pub(super) fn public(&self) -> Option<&PublicView> {
        self.public.as_ref()
    }

    /// What is being written to the table, if anything: another move for the same
    /// position meanwhile is a conflict.
    pub(super) fn writing(&self) -> Option<Writing> {
        self.reservations.writing()
    }

    /// Whether the table is in use: written to, thought about by a bot, watched, or used
    /// less than `idle` ago.
    pub(super) fn in_use(&self, idle: Duration) -> bool {
        self.writing().is_some()
            || self.bot_thinking.is_some()
            || self.slots.iter().any(|s| s.watchers > 0)
            || self.last_used.elapsed() < idle
    }
}

/// The reservation protocol ([`Reservations`]), at the table's seq.
impl TableState {
    pub(super) fn reserve(&mut self, what: Writing) -> Option<Reservation> {
        self.reservations.reserve(what, self.seq)
    }

    pub(super) fn release(&mut self, reservation: Reservation) {
        self.reservations.release(reservation);
    }

    pub(super) fn end_step(&mut self, reservation: Reservation, stored: Stored) -> AfterWrite {
        self.reservations.end_step(reservation, stored)
    }

    pub(super) fn end_seats(&mut self, reservation: Reservation, heard: bool) -> AfterWrite {
        self.reservations.end_seats(reservation, heard)
    }

    pub(super) fn fall_behind(&mut self) {
        self.reservations.fall_behind();
    }

    pub(super) fn begin_catch_up(&mut self) -> CatchUp {
        self.reservations.begin_catch_up(self.seq)
    }

    pub(super) fn end_catch_up(&mut self, reservation: Reservation, read: bool) {
        self.reservations.end_catch_up(reservation, read);
    }
}

/// Changes.
impl TableState {
    /// The state of a table of `row` rebuilt (or just begun) as `rebuilt`.
    pub(super) fn new(
        row: GameRow,
        rebuilt: Rebuilt,
        seat_events: Vec<SeatEvent>,
        chat: Vec<ChatMessage>,
    ) -> Self {
        let Rebuilt {
            game,
            log,
            undoable,
            seq,
            clocks,
            ..
        } = rebuilt;
        let now = now_ms();
        let slots = (0..=row.seats.len()).map(|_| Slot::new(now)).collect();
        TableState {
            row,
            game,
            seq,
            log,
            seat_events,
            chat,
            undoable,
            clocks,
            timing_out: false,
            low_clock_told: None,
            reservations: Reservations::default(),
            bot_thinking: None,
            hinting: Vec::new(),
            slots,
            public: None,
            last_used: Instant::now(),
        }
    }

    /// Installs stored step `next` (a move, or an undo) and what its update made
    /// (`record`); returns the table's new seq.
    pub(super) fn install_step(
        &mut self,
        _writing: &Reservation,
        next: Box<dyn DynGame>,
        record: StepRecord,
    ) -> u64 {
        let before = std::mem::replace(&mut self.game, next);
        self.public = record.public;
        self.seq += 1;
        let undo = matches!(record.step, Step::Undo { .. });
        let to_move = self.game.to_move();
        if let Some(clocks) = &mut self.clocks {
            clocks.after_step(&self.row.seats, record.at, record.seat, undo, to_move);
        }
        match record.step {
            Step::Move { mover } => {
                let decision = (record.seat, self.seq);
                record_decision(&mut self.undoable, before, decision, record.barrier, mover);
            }
            Step::Undo { undid } => {
                take_back(&mut self.undoable, &mut self.log, undid);
            }
        }
        self.log.push(record.log);
        if self.game.to_move().is_none() {
            self.row.status = Status::Over;
            self.row.version += 1;
        }
        self.last_used = Instant::now();
        for (slot, view) in self.slots.iter_mut().zip(record.views) {
            // The view this step's message patched the slot to is the base of the next
            // patch. A slot nobody watched when the step was prepared has none: a watcher
            // who came meanwhile was sent an older state, and gets the whole state again
            // (its message is `None`), as does the next step's; keeping the older base
            // would patch a position the watcher never had. A slot whose watchers all left
            // keeps none either.
            slot.view = view.filter(|_| slot.watchers > 0);
        }
        self.seq
    }

    /// Installs the seats and status of row `row`, stored by another server process, if it
    /// is newer than the table's, with the game's seat events as stored (`seat_events`:
    /// all of them, or none when not read). Returns the seats message to send when the
    /// seats changed.
    pub(super) fn install_row(
        &mut self,
        _writing: &Reservation,
        row: &GameRow,
        seat_events: &[SeatEvent],
    ) -> Option<String> {
        if row.version <= self.row.version {
            return None;
        }
        let seats_changed = row.seats != self.row.seats;
        self.row.seats = row.seats.clone();
        self.row.status = row.status;
        self.row.version = row.version;
        self.row.started = row.started;
        let known = self.seat_events.len();
        let news = seat_events.get(known..).unwrap_or_default();
        self.seat_events.extend_from_slice(news);
        self.steer_clocks(None);
        for event in news {
            self.steer_clocks(Some(event));
        }
        seats_changed.then(|| seats_event_message(self, news.last()))
    }

    /// Installs a change of seats this process stored: `seats` and `status` at `version`,
    /// the game `started` then (if it did), and its seat event. Returns whether it started
    /// the game, and the seats message.
    pub(super) fn install_seats(
        &mut self,
        _writing: &Reservation,
        (seats, status, version): (Vec<SeatRecord>, Status, i64),
        started: Option<i64>,
        event: Option<SeatEvent>,
    ) -> (bool, String) {
        let starts = self.row.status == Status::Open && status == Status::Running;
        self.row.seats = seats;
        self.row.status = status;
        self.row.version = version;
        self.row.started = self.row.started.or(started);
        self.steer_clocks(event.as_ref());
        let message = seats_event_message(self, event.as_ref());
        self.seat_events.extend(event);
        (starts, message)
    }

    /// Installs status `status` at `version` (a table that never started, called off).
    pub(super) fn set_status(&mut self, status: Status, version: i64) {
        self.row.status = status;
        self.row.version = version;
    }

    /// Starts the clocks when the game starts, and steers them by seat event `event`: the
    /// seats or status changed.
    fn steer_clocks(&mut self, event: Option<&SeatEvent>) {
        let to_move = self
            .game
            .to_move()
            .filter(|_| self.row.status == Status::Running);
        let running = running_seat(&self.row.seats, to_move);
        let Some(clocks) = &mut self.clocks else {
            return;
        };
        match (event, self.row.started) {
            (Some(event), _) => clocks.seat_event(event, running),
            (None, Some(started)) if !clocks.is_started() && to_move.is_some() => {
                clocks.start(started, running)
            }
            _ => {}
        }
    }

    /// Keeps stored chat message `message`, in the order of id; `None` when the table has
    /// it already.
    pub(super) fn add_chat(&mut self, message: ChatMessage) -> Option<&ChatMessage> {
        let at = self
            .chat
            .binary_search_by_key(&message.id, |m| m.id)
            .err()?;
        self.chat.insert(at, message);
        self.chat.get(at)
    }

    /// Marks `seat`'s hint as being computed; `false` if it is already.
    pub(super) fn is_hinting(&self, seat: Seat) -> bool {
        self.hinting.contains(&seat)
    }

    /// Marks `seat`'s hint as being computed (its caller found it was not).
    pub(super) fn start_hint(&mut self, seat: Seat) {
        self.hinting.push(seat);
    }

    pub(super) fn end_hint(&mut self, seat: Seat) {
        self.hinting.retain(|&s| s != seat);
    }

    /// The seq a bot of this process thinks (or tries to move) for.
    pub(super) fn bot_thinking(&self) -> Option<u64> {
        self.bot_thinking
    }

    /// A bot of this process thinks for the position now.
    pub(super) fn think_for_bot(&mut self) {
        self.bot_thinking = Some(self.seq);
    }

    /// The bot that thought for seq `seq` is done.
    pub(super) fn bot_done(&mut self, seq: u64) {
        if self.bot_thinking == Some(seq) {
            self.bot_thinking = None;
        }
    }

    /// The seat whose clock ran out by `now`, if its time-out is due and not yet being
    /// stored; marks it as being stored.
    pub(super) fn begin_time_out(&mut self, now: i64) -> Option<Seat> {
        let ran_out = self.clocks.as_ref().and_then(|c| c.ran_out(now));
        let due = ran_out.filter(|_| {
            self.row.status == Status::Running && !self.timing_out && self.writing().is_none()
        });
        self.timing_out |= due.is_some();
        due
    }

    /// The time-out is stored, or refused.
    pub(super) fn end_time_out(&mut self) {
        self.timing_out = false;
    }

    /// The seat to tell that its clock runs low: its person is to move with `within_ms`
    /// or less left and no tab of the table shown, and was not told at this position yet.
    pub(super) fn tell_low_clock(&mut self, now: i64, within_ms: i64) -> Option<Seat> {
        let seat = self.clocks.as_ref()?.running_low(now, within_ms)?;
        let told = Some((seat, self.seq));
        let shown = self.slots[usize::from(seat)].presence().state == PresenceState::Online;
        if self.row.status != Status::Running || self.low_clock_told == told || shown {
            return None;
        }
        self.low_clock_told = told;
        Some(seat)
    }
}
