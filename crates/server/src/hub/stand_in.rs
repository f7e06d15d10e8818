//! Bots standing in for people: a seat whose person is gone may be handed to a bot by
//! another person at the table, its person takes it back with one click, and a person who
//! leaves for good, or whose clock runs out [`MAX_RUN_OUTS`](crate::store::MAX_RUN_OUTS) times, leaves the seat to a
//! bot until the end. Each change is a stored seat
//! event everyone is told and the log keeps.

use std::sync::Arc;

use engine::Seat;

use super::moves::check_running;
use super::seats::SeatsChange;
use super::table::{Mover, Table, TableState};
use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::protocol::{ErrorKind, PresenceState};
use crate::store::{SeatChange, SeatEvent, SeatKind, SeatRecord, Status};

/// The refusal of a move by whoever does not play the seat now; `None`: `mover` plays it.
pub(super) fn check_mover(record: &SeatRecord, mover: Mover) -> Result<(), ApiError> {
    match (mover, record.played_by_bot()) {
        (Mover::Person, Some(_)) => Err(match ended_for_good(record) {
            Some(refusal) => refusal,
            None => ApiError::new(
                ErrorKind::Forbidden,
                "a bot plays your seat now: take your seat back first",
            ),
        }),
        (Mover::Bot, None) => Err(ApiError::new(
            ErrorKind::Forbidden,
            "the seat's person plays it again",
        )),
        _ => Ok(()),
    }
}

/// Why a seat's person can no longer play it, if so: they left, or their clock ran out
/// [`MAX_RUN_OUTS`](crate::store::MAX_RUN_OUTS) times.
fn ended_for_good(record: &SeatRecord) -> Option<ApiError> {
    if !record.bot_to_the_end() {
        return None;
    }
    let why = match record.left {
        true => "you left this game: a bot plays your seat to the end".to_string(),
        false => format!(
            "your clock ran out {} times: a bot plays your seat to the end",
            record.run_outs
        ),
    };
    Some(ApiError::new(ErrorKind::Forbidden, why))
}

/// Whether seat `seat`'s clock ran out on the decision now to be made: its stand-in makes
/// that decision before the person may take the seat back, so that time taken back never
/// adds up to more than the bank.
fn ran_out_on_this_decision(st: &TableState, seat: Seat) -> bool {
    st.seat_events()
        .iter()
        .rev()
        .find(|e| e.seat == seat && e.what != SeatChange::Hinted)
        .is_some_and(|e| e.what == SeatChange::TimedOut && e.seq == st.seq())
}

impl Hub {
    /// Hands seat `seat`, whose person has been offline for the table's hand-over time, to
    /// the table's stand-in bot, for the person at seat `by`.
    pub async fn hand_over(
        self: &Arc<Self>,
        table: &Arc<Table>,
        by: Seat,
        seat: Seat,
    ) -> Result<(), ApiError> {
        let after = self.hand_over_after;
        self.change_seat(
            table,
            seat,
            SeatChange::HandedOver,
            Some(by),
            |st, record| {
                let forbidden = |why: String| Err(ApiError::new(ErrorKind::Forbidden, why));
                if st.clocks().is_some() {
                    return forbidden(
                        "this table has a clock: a bot takes the seat when it runs out".into(),
                    );
                }
                if by == seat {
                    return forbidden("leave the game to give your own seat to a bot".into());
                }
                if record.kind != SeatKind::Human || record.is_free() {
                    return forbidden(format!("seat {seat} is not a person's"));
                }
                if record.stand_in.is_some() {
                    return forbidden(format!("a bot already plays seat {seat}"));
                }
                let presence = st.slots()[usize::from(seat)].presence();
                let gone_for = now_ms().saturating_sub(presence.since);
                if presence.state != PresenceState::Offline
                    || gone_for < i64::try_from(after.as_millis()).unwrap_or(i64::MAX)
                {
                    return forbidden(format!(
                        "seat {seat} is handed to a bot only once its person has been offline for \
                     {} s",
                        after.as_secs()
                    ));
                }
                Ok(())
            },
        )
        .await
    }

    /// Hands seat `seat` to the table's stand-in bot: its clock ran out. Refused
    /// (`conflict`) unless its clock has run out on the table as it stands, so that a
    /// move made meanwhile, here or in another process, keeps the seat its person's.
    pub(super) async fn time_out(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(), ApiError> {
        self.change_seat(table, seat, SeatChange::TimedOut, None, |st, _| {
            let ran_out = st.clocks().and_then(|c| c.ran_out(now_ms()));
            if ran_out != Some(seat) {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    format!("seat {seat}'s clock has not run out"),
                ));
            }
            Ok(())
        })
        .await
    }

    /// Gives seat `seat` back to its person from the bot that stood in for them.
    pub async fn take_back(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(), ApiError> {
        self.change_seat(table, seat, SeatChange::TookBack, None, |st, record| {
            if let Some(refusal) = ended_for_good(record) {
                return Err(refusal);
            }
            if record.stand_in.is_none() {
                return Err(ApiError::new(
                    ErrorKind::Forbidden,
                    "you play your seat already",
                ));
            }
            if ran_out_on_this_decision(st, seat) {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    "your clock ran out on this decision: the bot makes it, then you may take \
                     your seat back",
                ));
            }
            Ok(())
        })
        .await
    }

    /// Leaves the game for good: the table's stand-in bot finishes seat `seat`, and the
    /// seat is marked as left.
    pub async fn leave(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) -> Result<(), ApiError> {
        self.change_seat(table, seat, SeatChange::Left, None, |_, record| {
            if record.left {
                return Err(ApiError::new(
                    ErrorKind::Forbidden,
                    "you left this game already",
                ));
            }
            Ok(())
        })
        .await
    }

    /// Makes seat event `what` of seat `seat` of a running game if `check` allows it (on
    /// the table's row, and again on the stored row if another process changed it first),
    /// stores it with its seat event, tells everyone, and starts the bot if it is to move.
    async fn change_seat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        what: SeatChange,
        by: Option<Seat>,
        check: impl Fn(&TableState, &SeatRecord) -> Result<(), ApiError>,
    ) -> Result<(), ApiError> {
        self.change_seats(table, |st| {
            check_running(st.row().status)?;
            let mut seats = st.row().seats.clone();
            let record = seats
                .get_mut(usize::from(seat))
                .ok_or_else(|| ApiError::not_found(format!("seat {seat} does not exist")))?;
            check(st, record)?;
            record.apply(what, &st.row().settings.stand_in);
            let event = SeatEvent {
                what,
                seat,
                by,
                seq: st.seq(),
                at: now_ms(),
                hint: None,
            };
            Ok(SeatsChange {
                seats,
                status: Status::Running,
                version: st.row().version,
                event: Some(event),
            })
        })
        .await
    }
}
