//! Seats: joining from the lobby and claiming with an invitation.

use super::*;

impl Hub {
    /// A free seat for `request.name`, with a new token.
    pub async fn join(self: &Arc<Self>, id: &str, request: JoinGame) -> Result<Joined, ApiError> {
        let table = self.table(id).await?;
        let name = clean_name(&request.name)?;
        let seat = {
            let st = table.lock();
            if st.row.status.is_closed() {
                return Err(closed_error(st.row.status));
            }
            if st.row.status != Status::Open {
                return Err(ApiError::new(
                    ErrorKind::SeatTaken,
                    "the game has no free seat",
                ));
            }
            match request.seat {
                Some(seat) => seat,
                None => st
                    .row
                    .seats
                    .iter()
                    .position(|s| s.is_free() && s.open)
                    .and_then(|i| Seat::try_from(i).ok())
                    .ok_or_else(|| {
                        ApiError::new(
                            ErrorKind::SeatTaken,
                            "no seat is open to anyone (a seat kept for a friend is taken with \
                             its invitation link)",
                        )
                    })?,
            }
        };
        let token = self.claim(&table, seat, name, None).await?;
        Ok(Joined { seat, token })
    }

    /// Gives free seat `seat` a name and a new token, which it returns: the seat's
    /// invitation link (its token until now) stops working, so that a link is spent by
    /// whoever takes the seat with it, and nobody who opens it later sits there too.
    /// `invitation` is the hash of the token the seat was claimed with over WebSocket
    /// (`None`: joined from the lobby); a claim whose invitation is no longer the seat's
    /// is `bad_token`. Starts the game once no seat is free.
    ///
    /// Of claims racing for one seat exactly one wins: here they queue on the table's
    /// seats lock, and across server processes the row is compare-and-set on its
    /// `version`. A claim that loses the compare-and-set reads the row the other process
    /// stored and is checked again on it.
    pub async fn claim(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: String,
        invitation: Option<&str>,
    ) -> Result<String, ApiError> {
        let token = tokens::new_token();
        self.change_seats(table, |st| {
            let (seats, status, version) = claimed_seats(&st.row, seat, &name, &token, invitation)?;
            Ok(SeatsChange {
                seats,
                status,
                version,
                event: None,
            })
        })
        .await?;
        Ok(token)
    }
}

/// A change of a table's seats: the seats and status it makes of the row at `version`,
/// and the seat event it is, if any.
pub(super) struct SeatsChange {
    pub(super) seats: Vec<SeatRecord>,
    pub(super) status: Status,
    pub(super) version: i64,
    pub(super) event: Option<SeatEvent>,
}

impl Hub {
    /// Stores the seat change `make` works out on the table's row, installs it and tells
    /// every watcher; then starts the bot if one is to move. Changes queue on the table's
    /// seats lock, and across server processes the row is compare-and-set on its
    /// `version`: a change that loses reads the row the other process stored and is
    /// worked out again on it, once.
    pub(super) async fn change_seats(
        self: &Arc<Self>,
        table: &Arc<Table>,
        make: impl Fn(&TableState) -> Result<SeatsChange, ApiError>,
    ) -> Result<(), ApiError> {
        let serial = table.seats_lock.lock().await;
        let moves_held = hold_off_moves(table).await;
        let mut heard_of_others = false;
        let (change, started) = loop {
            let change = make(&table.lock())?;
            let (seats, status, version) = (&change.seats, change.status, change.version);
            let started = (status == Status::Running).then(now_ms);
            let stored = match &change.event {
                Some(event) => {
                    self.store
                        .update_seats_logged(&table.id, seats, status, version, event)
                        .await
                }
                None => {
                    self.store
                        .update_seats(&table.id, seats, status, version, started)
                        .await
                }
            };
            match stored {
                Ok(()) => break (change, started),
                Err(StoreError::Conflict) if !heard_of_others => {
                    // Another server process changed the game: work it out again on its row.
                    heard_of_others = true;
                    let row = self
                        .store
                        .load_row(&table.id)
                        .await?
                        .ok_or_else(|| ApiError::not_found(format!("no game {}", table.id)))?;
                    install_row(table, &row);
                }
                Err(e) => {
                    if e == StoreError::Conflict {
                        drop(moves_held);
                        drop(serial);
                        self.fall_behind(table);
                    }
                    return Err(e.into());
                }
            }
        };
        let starts = {
            let mut st = table.lock();
            let starts = st.row.status == Status::Open && change.status == Status::Running;
            st.row.seats = change.seats;
            st.row.status = change.status;
            st.row.version = change.version + 1;
            st.row.started = st.row.started.or(started);
            st.steer_clocks(change.event.as_ref());
            let message = seats_event_message(&st, change.event.as_ref());
            st.seat_events.extend(change.event);
            let _ = table.updates.send(Arc::new(Broadcast::Seats {
                text: message.into(),
                resync: true,
            }));
            if heard_of_others {
                // The moves the other process stored meanwhile come first; then the bot.
                st.bot_after_catch_up = Some(st.seq);
            }
            starts
        };
        drop(moves_held);
        drop(serial);
        if starts {
            self.claim_lease(&table.id).await;
            self.mail_turn(table);
        }
        if heard_of_others {
            self.fall_behind(table);
        } else {
            self.schedule_bot(table);
        }
        Ok(())
    }
}

/// Moves held off while a seat change is stored ([`Writing::Seats`]), until dropped.
struct MovesHeld<'a>(&'a Table);

impl Drop for MovesHeld<'_> {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        if st.writing == Some(Writing::Seats) {
            st.writing = None;
        }
    }
}

/// Waits for the move being stored, if any, and holds off the next ones: a move checked
/// against the seats a change is replacing (a stand-in's, after its person took the seat
/// back) must not be stored after it.
async fn hold_off_moves(table: &Table) -> MovesHeld<'_> {
    loop {
        {
            let mut st = table.lock();
            if st.writing.is_none() {
                st.writing = Some(Writing::Seats);
                return MovesHeld(table);
            }
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The seats, status and version of `row` with free seat `seat` taken by `name` under the
/// new token `token`; `invitation`: the hash of the invitation token it is taken with.
fn claimed_seats(
    row: &GameRow,
    seat: Seat,
    name: &str,
    token: &str,
    invitation: Option<&str>,
) -> Result<(Vec<SeatRecord>, Status, i64), ApiError> {
    let Some(record) = row.seats.get(usize::from(seat)) else {
        return Err(ApiError::not_found(format!(
            "seat {seat} does not exist; seats are 0..{}",
            row.seats.len()
        )));
    };
    if let Some(invitation) = invitation {
        if !record.is_free() || record.token_hash.as_deref() != Some(invitation) {
            return Err(ApiError::new(
                ErrorKind::BadToken,
                "this invitation was used: its seat is taken (an invitation link seats one \
                 person, once)",
            ));
        }
    }
    if row.status.is_closed() {
        return Err(closed_error(row.status));
    }
    if !record.is_free() {
        return Err(ApiError::new(
            ErrorKind::SeatTaken,
            format!("seat {seat} is taken"),
        ));
    }
    if invitation.is_none() && !record.open {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            format!(
                "seat {seat} is kept for a friend: only its invitation link takes it (the \
                 lobby offers only open seats)"
            ),
        ));
    }
    let mut seats = row.seats.clone();
    let record = &mut seats[usize::from(seat)];
    record.name = Some(name.to_string());
    record.token_hash = Some(tokens::hash(token));
    let status = if seats.iter().any(SeatRecord::is_free) {
        Status::Open
    } else {
        Status::Running
    };
    Ok((seats, status, row.version))
}
