//! The one path of every move: check, store, then broadcast.

use super::*;

/// The refusal of anything but a running game: one that waits for players, is over, or
/// was cancelled or expired.
pub(super) fn check_running(status: Status) -> Result<(), ApiError> {
    match status {
        Status::Running => Ok(()),
        Status::Open => Err(ApiError::new(
            ErrorKind::NotStarted,
            "the game has not started: some seats are still free",
        )),
        Status::Over => Err(ApiError::new(ErrorKind::GameOver, "the game is over")),
        Status::Cancelled | Status::Expired => Err(closed_error(status)),
    }
}

/// The refusal of a step (a move or an undo) for position `seq` of the table in `st`: a
/// table that takes no step, a stale `seq`, or another step being stored.
pub(super) fn check_position(st: &TableState, seq: u64) -> Result<(), ApiError> {
    check_running(st.row.status)?;
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
            "another move for this position, or a change of seats, is being stored",
        ));
    }
    Ok(())
}

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
            check_position(&st, seq)?;
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
            let (next, events) = st.game.play_logged(&action)?;
            st.writing = Some(Writing::Move);
            let commit = Commit {
                mv: MoveRow {
                    game_id: table.id.clone(),
                    seq,
                    seat,
                    action,
                    at: now_ms(),
                    undoes: None,
                },
                ends_game: next.to_move().is_none(),
            };
            (next, events, commit)
        };
        self.store_step(table, Step::Move { mover }, next, events, commit, started)
            .await
    }

    /// Stores a checked move or undo (`commit`, of its seat, leading to `next`), then
    /// installs and broadcasts it: the one way a step reaches the watchers, after it has
    /// committed.
    pub(super) async fn store_step(
        self: &Arc<Self>,
        table: &Arc<Table>,
        step: Step,
        next: Box<dyn DynGame>,
        events: Vec<LoggedEvent>,
        commit: Commit,
        started: Instant,
    ) -> Result<(), ApiError> {
        let made = (commit.mv.seat, commit.mv.at);
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        // Stored and installed in a task of its own, so that a client going away mid-way
        // cannot leave the table half-updated.
        let hub = self.clone();
        let table = table.clone();
        let finished = tokio::spawn(async move {
            let outcome = match hub.committer.queue(commit).await {
                Ok(stored) => {
                    // The watchers' messages are made while the writer stores the step;
                    // they are sent once it is stored.
                    let update = prepare_update(&table, made, step, next.as_ref(), events);
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
        let over = matches!(update, Broadcast::Update { over: true, .. });
        let _ = table.updates.send(Arc::new(update));
        if over {
            self.rate_when_over(table);
        } else {
            self.mail_turn(table);
        }
        if behind {
            self.catch_up(table);
        } else {
            self.schedule_bot(table);
        }
        Ok(())
    }
}
