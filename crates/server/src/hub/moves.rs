//! The one path of every move: check, store, then broadcast.

use super::*;

impl Hub {
    /// The one path of every move, human or bot: check, store, then broadcast. The move is
    /// acknowledged (broadcast) only after its transaction has committed.
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        seq: u64,
        action: &Value,
        mover: Mover,
    ) -> Result<(), ApiError> {
        let started = Instant::now();
        let (next, events, commit) = {
            let mut st = table.lock();
            match st.row.status {
                Status::Open => {
                    return Err(ApiError::new(
                        ErrorKind::NotStarted,
                        "the game has not started: some seats are still free",
                    ))
                }
                Status::Over => return Err(ApiError::new(ErrorKind::GameOver, "the game is over")),
                Status::Cancelled | Status::Expired => return Err(closed_error(st.row.status)),
                Status::Running => {}
            }
            if seq != st.seq {
                return Err(ApiError {
                    seq: Some(st.seq),
                    ..ApiError::new(
                        ErrorKind::Stale,
                        format!(
                            "the game is at seq {}, not {seq}: here is the current state",
                            st.seq
                        ),
                    )
                });
            }
            if st.writing.is_some() {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    "another move for this position is being stored",
                ));
            }
            if st.game.to_move() != Some(seat) {
                return Err(ApiError::new(
                    ErrorKind::NotYourTurn,
                    match st.game.to_move() {
                        Some(s) => format!("seat {s} is to move, not seat {seat}"),
                        None => "nobody is to move".to_string(),
                    },
                ));
            }
            if let Some(record) = st.row.seats.get(usize::from(seat)) {
                check_mover(record, mover)?;
            }
            // What is stored and broadcast is what the game read, written back: never
            // fields it did not read (they are refused).
            let action = st.game.canonical_action(action)?;
            let mut next = st.game.box_clone();
            let events = next.apply_logged(&action)?;
            st.writing = Some(Writing::Move);
            let commit = Commit {
                mv: MoveRow {
                    game_id: table.id.clone(),
                    seq,
                    seat,
                    action,
                    at: now_ms(),
                },
                ends_game: next.to_move().is_none(),
            };
            (next, events, commit)
        };
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        // Stored and installed in a task of its own, so that a client going away mid-way
        // cannot leave the table half-updated.
        let hub = self.clone();
        let table = table.clone();
        let finished = tokio::spawn(async move {
            let outcome = match hub.committer.queue(commit).await {
                Ok(stored) => {
                    // The watchers' messages are made while the writer stores the move;
                    // they are sent once it is stored.
                    let update = prepare_update(&table, seat, next.as_ref(), events);
                    let result = stored.await;
                    hub.finish_move(&table, next, update, result)
                }
                Err(e) => hub.finish_move(&table, next, PreparedUpdate::default(), Err(e)),
            };
            hub.in_flight.fetch_sub(1, Ordering::SeqCst);
            outcome
        })
        .await
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("the move task failed: {e}")))?;
        if finished.is_ok() {
            metrics::counter!("tabletop_moves_total").increment(1);
            metrics::histogram!("tabletop_move_latency_seconds")
                .record(started.elapsed().as_secs_f64());
        }
        finished
    }

    /// After the store answered: install the move and broadcast its update, or undo the
    /// reservation.
    pub(super) fn finish_move(
        self: &Arc<Self>,
        table: &Arc<Table>,
        next: Box<dyn DynGame>,
        update: PreparedUpdate,
        stored: Result<(), StoreError>,
    ) -> Result<(), ApiError> {
        if let Err(e) = stored {
            let behind = {
                let mut st = table.lock();
                st.writing = None;
                // Another server process stored this seq: our copy is behind.
                st.behind |= e == StoreError::Conflict;
                if e != StoreError::Conflict {
                    // The move may be stored all the same (the answer was lost): read what
                    // is, and if it is this move, this process moves the next bot.
                    st.behind = true;
                    st.bot_after_catch_up = Some(st.seq + 1);
                }
                st.behind
            };
            if behind {
                self.catch_up(table);
            }
            return Err(e.into());
        }
        // The move is stored: install it, and never return early from here.
        let (update, behind) = {
            let mut st = table.lock();
            st.writing = None;
            let update = install(&mut st, next, update);
            if st.behind {
                st.bot_after_catch_up = Some(st.seq);
            }
            (update, st.behind)
        };
        let _ = table.updates.send(Arc::new(update));
        if behind {
            self.catch_up(table);
        } else {
            self.schedule_bot(table);
        }
        Ok(())
    }
}

/// Installs stored move `next` and its update's views; returns the update to broadcast
/// once the lock is released.
pub(super) fn install(
    st: &mut TableState,
    next: Box<dyn DynGame>,
    update: PreparedUpdate,
) -> Broadcast {
    st.game = next;
    st.public = update.public;
    st.seq += 1;
    if let Some(entry) = update.log {
        st.log.push(entry);
    }
    if st.game.to_move().is_none() {
        st.row.status = Status::Over;
        st.row.version += 1;
    }
    st.last_used = Instant::now();
    for (slot, view) in st.slots.iter_mut().zip(update.views) {
        // A slot whose watchers all left meanwhile keeps no view.
        if view.is_some() && slot.watchers > 0 {
            slot.view = view;
        }
    }
    Broadcast::Update {
        seq: st.seq,
        messages: update.messages,
    }
}

/// What a move sends, made before it is stored: each watched slot's message (`None`: the
/// slot's watchers resync from the whole state) and new view, and the log entry.
#[derive(Default)]
pub(super) struct PreparedUpdate {
    messages: Vec<Option<Utf8Bytes>>,
    views: Vec<Option<Box<dyn ObservedView>>>,
    public: Option<PublicView>,
    log: Option<LoggedMove>,
}

/// The update of the move `seat` made, leading to `next` (not yet installed): each watched
/// slot's view of `next` and its patch from the view the slot was sent last. Public
/// members are recorded once, and a change alike in several views is worked out once.
pub(super) fn prepare_update(
    table: &Table,
    seat: Seat,
    next: &dyn DynGame,
    events: Vec<LoggedEvent>,
) -> PreparedUpdate {
    let st = table.lock();
    let seq = st.seq + 1;
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
    let outcome_text = json_text(&next.outcome());
    let watched: Vec<usize> = (0..st.slots.len())
        .filter(|&index| st.slots[index].watchers > 0)
        .collect();
    let observers: Vec<Option<Seat>> = watched.iter().map(|&index| slot_seat(index)).collect();
    let mut views: Vec<Option<Box<dyn ObservedView>>> = (0..st.slots.len()).map(|_| None).collect();
    // `st.game` is the position `next` was reached from: no other move is in flight.
    let before = st.public.as_ref().map(|public| (st.game.as_ref(), public));
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
    let mut written: Vec<(json_patch::Patch, bool, &str, Utf8Bytes)> = Vec::new();
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
            let events = slot_events
                .as_ref()
                .map_or(&*events_text, |told| &*told[index]);
            if let Some((.., text)) = written.iter().find(|(patch, acts, told, _)| {
                *acts == to_act && *told == events.get() && *patch == view_patch
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
            };
            let text = Utf8Bytes::from(message.to_text());
            written.push((view_patch, to_act, events.get(), text.clone()));
            Some(text)
        })
        .collect();
    drop(patcher);
    PreparedUpdate {
        messages,
        views,
        public,
        log: Some(LoggedMove { seq, seat, events }),
    }
}
