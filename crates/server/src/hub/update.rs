//! The update a stored step (a move or an undo) sends each watcher, made while the step
//! is stored, and its installation once stored.

use super::*;

/// Installs stored step `next` (a move, or an undo) and its update's views; returns the
/// update to broadcast.
pub(super) fn install(
    st: &mut TableState,
    next: Box<dyn DynGame>,
    update: PreparedUpdate,
) -> Broadcast {
    let before = std::mem::replace(&mut st.game, next);
    st.public = update.public;
    st.seq += 1;
    let undo = matches!(update.step, Step::Undo { .. });
    let to_move = st.game.to_move();
    if let Some(clocks) = &mut st.clocks {
        clocks.after_step(&st.row.seats, update.at, update.seat, undo, to_move);
    }
    match update.step {
        Step::Move { mover } => {
            let seq = st.seq;
            record_decision(
                &mut st.undoable,
                before,
                (update.seat, seq),
                update.barrier,
                mover,
            );
        }
        Step::Undo { undid } => {
            take_back(&mut st.undoable, &mut st.log, undid);
        }
    }
    if let Some(entry) = update.log {
        st.log.push(entry);
    }
    if st.game.to_move().is_none() {
        st.row.status = Status::Over;
        st.row.version += 1;
    }
    st.last_used = Instant::now();
    for (slot, view) in st.slots.iter_mut().zip(update.views) {
        // The view this step's message patched the slot to is the base of the next patch.
        // A slot nobody watched when the step was prepared has none: a watcher who came
        // meanwhile was sent an older state, and gets the whole state again (its message is
        // `None`), as does the next step's; keeping the older base would patch a position
        // the watcher never had. A slot whose watchers all left keeps none either.
        slot.view = view.filter(|_| slot.watchers > 0);
    }
    Broadcast::Update {
        seq: st.seq,
        messages: update.messages,
        over: st.row.status == Status::Over,
    }
}

/// What a step sends, made before it is stored: each watched slot's message (`None`: the
/// slot's watchers resync from the whole state) and new view, and the log entry.
#[derive(Default)]
pub(super) struct PreparedUpdate {
    messages: Vec<Option<Utf8Bytes>>,
    views: Vec<Option<Box<dyn ObservedView>>>,
    public: Option<PublicView>,
    log: Option<LoggedMove>,
    seat: Seat,
    step: Step,
    /// The move revealed information or drew chance ([`LoggedEvent::is_barrier`]).
    barrier: bool,
    /// When the step was made (Unix milliseconds): its seat's clock stopped then.
    at: i64,
}

/// The update of the step `seat` made at `at`, leading to `next` (not yet installed): each
/// watched slot's view of `next` and its patch from the view the slot was sent last. Public
/// members are recorded once, and a change alike in several views is worked out once.
pub(super) fn prepare_update(
    table: &Table,
    (seat, at): (Seat, i64),
    step: Step,
    next: &dyn DynGame,
    events: Vec<LoggedEvent>,
) -> PreparedUpdate {
    let st = table.lock();
    let seq = st.seq + 1;
    let barrier = LoggedEvent::is_barrier(&events);
    // The one seat that may take back its last decision once this step is installed.
    let undo_seat = undo_seat_after(&st, seat, step, barrier);
    let undid = match step {
        Step::Undo { undid } => Some(undid),
        Step::Move { .. } => None,
    };
    let to_move = next.to_move();
    let status = if to_move.is_none() {
        Status::Over
    } else {
        st.row.status
    };
    let seats = st.row.seats.len();
    let slot_seat = |index: usize| (index < seats).then_some(index as Seat);
    // The parts of the update alike for every watcher, written once; the events once per
    // slot when the game keeps a part of them from some viewers (V-I1).
    let events_text = json_text(&event_entries(&events));
    let hides = status != Status::Over && events.iter().any(|e| e.seen_by.is_some());
    let slot_events: Option<Vec<Box<RawValue>>> = hides.then(|| {
        (0..st.slots.len())
            .map(|index| {
                let viewer = slot_seat(index);
                json_text(&event_entries(events.iter().map(|e| e.for_viewer(viewer))))
            })
            .collect()
    });
    let legal_text = to_move.map(|_| json_text(&legal_actions(next)));
    // The clocks as the step leaves them (installed with it, on the table as it is then).
    let times = st.clocks.clone().map(|mut clocks| {
        clocks.after_step(&st.row.seats, at, seat, undid.is_some(), to_move);
        clocks.times(at)
    });
    let times_text = json_text(&times);
    let outcome_text = json_text(&next.outcome());
    let watched: Vec<usize> = (0..st.slots.len())
        .filter(|&index| st.slots[index].watchers > 0)
        .collect();
    let observers: Vec<Option<Seat>> = watched.iter().map(|&index| slot_seat(index)).collect();
    let mut views: Vec<Option<Box<dyn ObservedView>>> = (0..st.slots.len()).map(|_| None).collect();
    // `st.game` is the position a move reached `next` from (no other move is in flight):
    // what it left alike is known; an undo goes back, and every member is looked at.
    let before = st
        .public
        .as_ref()
        .filter(|_| matches!(step, Step::Move { .. }))
        .map(|public| (st.game.as_ref(), public));
    let mut public = None;
    if let Ok(observed) = next.observe(&observers, before) {
        for (index, view) in watched.into_iter().zip(observed.views) {
            views[index] = Some(view);
        }
        public = observed.public;
    }
    let mut patcher = ViewPatcher::default();
    // Most watchers get the same update (the seats not to move, whose own members the
    // move left alike, and spectators): each distinct one is written once.
    let mut written: Vec<(json_patch::Patch, (bool, bool), &str, Utf8Bytes)> = Vec::new();
    let messages = st
        .slots
        .iter()
        .zip(&views)
        .enumerate()
        .map(|(index, (slot, view))| {
            // No base to patch (not so while watched): the watchers resync.
            let (Some(sent), Some(view)) = (&slot.view, view) else {
                return None;
            };
            let view_patch = patcher.patch(sent.as_ref(), view.as_ref());
            let to_act = slot_seat(index).is_some_and(|s| Some(s) == to_move);
            let can_undo = slot_seat(index).is_some_and(|s| Some(s) == undo_seat);
            let events = slot_events
                .as_ref()
                .map_or(&*events_text, |told| &*told[index]);
            if let Some((.., text)) = written.iter().find(|(patch, acts, told, _)| {
                *acts == (to_act, can_undo) && *told == events.get() && *patch == view_patch
            }) {
                return Some(text.clone());
            }
            let message = UpdateText {
                kind: "update",
                seq,
                seat,
                events,
                view_patch: &view_patch,
                to_move,
                legal: legal_text.as_deref().filter(|_| to_act),
                status,
                outcome: &outcome_text,
                can_undo,
                times: &times_text,
                undid,
            };
            let text = Utf8Bytes::from(message.to_text());
            written.push((view_patch, (to_act, can_undo), events.get(), text.clone()));
            Some(text)
        })
        .collect();
    drop(patcher);
    PreparedUpdate {
        messages,
        views,
        public,
        log: Some(LoggedMove {
            seq,
            seat,
            events,
            undid,
        }),
        seat,
        step,
        barrier,
        at,
    }
}
