//! Seats: joining from the lobby and claiming with an invitation.

use std::sync::Arc;
use std::time::Duration;

use engine::Seat;

use super::follow::install_row;
use super::lifecycle::closed_error;
use super::table::{AfterWrite, Reservation, Table, TableState, Writing};
use super::{now_ms, Broadcast, Hub};
use crate::error::ApiError;
use crate::names::clean_name;
use crate::protocol::{ErrorKind, JoinGame, Joined};
use crate::store::{AccountRow, GameRow, SeatEvent, SeatRecord, Status, StoreError};
use crate::tokens;

impl Hub {
    /// A free seat for `request.name`, with a new token. `account`: the signed-in person
    /// joining, who takes a seat kept for them (invited by name) under their account's
    /// name.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        request: JoinGame,
        account: Option<&AccountRow>,
    ) -> Result<Joined, ApiError> {
        let table = self.table(id).await?;
        if let Some(account) = account {
            self.may_sit_at(&account.id, id).await?;
        }
        let reserved = {
            let st = table.lock();
            request
                .seat
                .and_then(|seat| st.row().seats.get(usize::from(seat)))
                .and_then(|record| record.reserved_for.clone())
                .filter(|kept| account.is_some_and(|a| a.id == *kept))
        };
        let name = match (&reserved, account) {
            (Some(_), Some(account)) => account.name.clone(),
            _ => clean_name(&request.name)?,
        };
        let seat = {
            let st = table.lock();
            let status = st.row().status;
            if status.is_closed() {
                return Err(closed_error(status));
            }
            if status != Status::Open {
                return Err(ApiError::new(
                    ErrorKind::SeatTaken,
                    "the game has no free seat",
                ));
            }
            match request.seat {
                Some(seat) => seat,
                None => st
                    .row()
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
        let token = self
            .claim_seat(&table, seat, name, None, reserved.as_deref())
            .await?;
        Ok(Joined { seat, token })
    }

    /// Keeps free seat `seat` of open table `table` for account `account_id` (invited by
    /// name): `invitation` must be the seat's invitation token, which only whoever made
    /// the table (or was sent its link) holds; else `forbidden`, and nothing changes.
    pub async fn reserve(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        invitation: &str,
        account_id: &str,
    ) -> Result<(), ApiError> {
        let invitation = tokens::hash(invitation);
        self.change_seats(table, |st| {
            let row = st.row();
            if row.status.is_closed() {
                return Err(closed_error(row.status));
            }
            let mut seats = row.seats.clone();
            let record = seats
                .get_mut(usize::from(seat))
                .ok_or_else(|| ApiError::not_found(format!("seat {seat} does not exist")))?;
            if !record.is_free() || record.token_hash.as_deref() != Some(invitation.as_str()) {
                return Err(ApiError::new(
                    ErrorKind::Forbidden,
                    format!(
                        "you do not hold the invitation of seat {seat}: it is not yours to give"
                    ),
                ));
            }
            record.reserved_for = Some(account_id.to_string());
            Ok(SeatsChange {
                seats,
                status: row.status,
                version: row.version,
                event: None,
            })
        })
        .await
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
        self.claim_seat(table, seat, name, invitation, None).await
    }

    /// [`Hub::claim`], or with `reserved_for` the claim of a seat kept for that account.
    async fn claim_seat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: String,
        invitation: Option<&str>,
        reserved_for: Option<&str>,
    ) -> Result<String, ApiError> {
        let token = tokens::new_token();
        self.change_seats(table, |st| {
            let claim = Claim {
                seat,
                name: &name,
                token: &token,
                invitation,
                reserved_for,
            };
            let (seats, status, version) = claimed_seats(st.row(), &claim)?;
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
        let serial = table.seats_serial().await;
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
                    install_row(table, moves_held.reservation(), &row, &[]);
                }
                Err(e) => {
                    if e == StoreError::Conflict {
                        moves_held.release();
                        drop(serial);
                        self.fall_behind(table);
                    }
                    return Err(e.into());
                }
            }
        };
        let (starts, after) = {
            let mut st = table.lock();
            let seats = (change.seats, change.status, change.version + 1);
            let (starts, message) =
                st.install_seats(moves_held.reservation(), seats, started, change.event);
            table.broadcast(Broadcast::Seats {
                text: message.into(),
                resync: true,
            });
            // Having heard of another process's change, the moves it stored meanwhile come
            // first; then the bot.
            (starts, moves_held.end(&mut st, heard_of_others))
        };
        drop(serial);
        if starts {
            self.claim_lease(&table.id).await;
            self.tell_turn(table);
        }
        match after {
            AfterWrite::CatchUp => self.catch_up(table),
            AfterWrite::MoveBot => self.schedule_bot(table),
        }
        Ok(())
    }
}

/// Moves held off while a seat change is stored ([`Writing::Seats`]): the table's
/// reservation, let go when ended or dropped.
struct MovesHeld<'a> {
    table: &'a Table,
    reservation: Option<Reservation>,
}

impl MovesHeld<'_> {
    fn reservation(&self) -> &Reservation {
        self.reservation
            .as_ref()
            .expect("held until ended or dropped")
    }

    /// Lets the table go once the change is installed (in `st`, the table's state).
    fn end(mut self, st: &mut TableState, heard_of_others: bool) -> AfterWrite {
        match self.reservation.take() {
            Some(reservation) => st.end_seats(reservation, heard_of_others),
            None => AfterWrite::MoveBot,
        }
    }

    /// Lets the table go: the change was not stored.
    fn release(self) {
        drop(self);
    }
}

impl Drop for MovesHeld<'_> {
    fn drop(&mut self) {
        if let Some(reservation) = self.reservation.take() {
            self.table.lock().release(reservation);
        }
    }
}

/// Waits for the move being stored, if any, and holds off the next ones: a move checked
/// against the seats a change is replacing (a stand-in's, after its person took the seat
/// back) must not be stored after it.
async fn hold_off_moves(table: &Table) -> MovesHeld<'_> {
    loop {
        if let Some(reservation) = table.lock().reserve(Writing::Seats) {
            return MovesHeld {
                table,
                reservation: Some(reservation),
            };
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Free seat `seat` taken by `name` under the new token `token`; `invitation`: the hash of
/// the invitation token it is taken with; `reserved_for`: the account it was kept for,
/// taking it.
struct Claim<'a> {
    seat: Seat,
    name: &'a str,
    token: &'a str,
    invitation: Option<&'a str>,
    reserved_for: Option<&'a str>,
}

/// The seats, status and version of `row` with `claim` made.
fn claimed_seats(row: &GameRow, claim: &Claim) -> Result<(Vec<SeatRecord>, Status, i64), ApiError> {
    let Claim {
        seat,
        name,
        token,
        invitation,
        reserved_for,
    } = *claim;
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
    let kept_for_claimer = reserved_for.is_some() && record.reserved_for.as_deref() == reserved_for;
    if invitation.is_none() && !record.open && !kept_for_claimer {
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
    record.reserved_for = None;
    let status = if seats.iter().any(SeatRecord::is_free) {
        Status::Open
    } else {
        Status::Running
    };
    Ok((seats, status, row.version))
}
