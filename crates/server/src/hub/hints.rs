//! Hints at tables that allow them: the seat to move asks what the hard bot would do; the
//! answer is searched on a bot worker from that seat's view only (the bots determinize for
//! it first), then stored as a seat event ([`SeatChange::Hinted`]) that every connection
//! receives and the log keeps. Such tables are casual: never rated (docs/server.md).

use std::num::NonZeroU32;
use std::sync::Arc;

use engine::Seat;

use super::moves::check_running;
use super::seats::SeatsChange;
use super::table::{Table, TableState};
use super::{now_ms, Hub};
use crate::error::ApiError;
use crate::limits::retry_after;
use crate::protocol::{ErrorKind, HintedAction};
use crate::store::{SeatChange, SeatEvent};

/// Hints one seat may ask for at once, then this many a minute: each is a search of the
/// hard bot on a bot worker.
pub(super) const HINTS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(10).unwrap();
pub(super) const HINTS_AT_ONCE: NonZeroU32 = NonZeroU32::new(5).unwrap();

/// Mixed into a hint's seed so that it differs from the seat's bot's at the same position
/// (an arbitrary odd constant: "HINT").
const HINT_SEED: u64 = 0x4849_4E54_0000_0001;

/// Clears a seat's "hint being computed" mark however the request ends: answered,
/// refused, or dropped with its connection.
struct Hinting {
    table: Arc<Table>,
    seat: Seat,
}

impl Drop for Hinting {
    fn drop(&mut self) {
        self.table.lock().end_hint(self.seat);
    }
}

/// Refuses a hint `seat` may not ask for on the table as it stands.
fn check_hint(st: &TableState, seat: Seat) -> Result<(), ApiError> {
    if !st.row().settings.hints {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "hints are off at this table: its creator did not allow them",
        ));
    }
    check_running(st.row().status)?;
    let to_move = st.game().to_move();
    if to_move != Some(seat) {
        return Err(ApiError::new(
            ErrorKind::NotYourTurn,
            match to_move {
                Some(other) => format!("a hint is for the seat to move: seat {other}"),
                None => "nobody is to move".to_string(),
            },
        ));
    }
    if st
        .row()
        .seats
        .get(usize::from(seat))
        .is_some_and(|s| s.played_by_bot().is_some())
    {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "a bot plays your seat now: take it back first",
        ));
    }
    if hinted_here(st, seat) {
        return Err(ApiError::new(
            ErrorKind::Conflict,
            format!(
                "you have the hint for this position already: it is in the log at move {}",
                st.seq()
            ),
        ));
    }
    Ok(())
}

/// Whether `seat` was given a hint at the position as it stands: one hint per position,
/// so that asking again computes nothing (a thousand asks were a thousand searches).
fn hinted_here(st: &TableState, seat: Seat) -> bool {
    st.seat_events()
        .iter()
        .rev()
        .take_while(|e| e.seq == st.seq())
        .any(|e| e.what == SeatChange::Hinted && e.seat == seat)
}

impl Hub {
    /// Computes a hint for `seat` (the seat to move, at a table with hints) and stores it
    /// as a seat event everyone receives. Refused: hints off (`forbidden`), not the seat's
    /// turn (`not_your_turn`), a hint for the seat already being computed or given at this
    /// position (`conflict`), more asks than [`HINTS_PER_MINUTE`] (`rate_limited`), the
    /// position moved on while it was computed (`stale`).
    pub async fn hint(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) -> Result<(), ApiError> {
        let (snapshot, seq, seed, _hinting) = {
            let mut st = table.lock();
            check_hint(&st, seat)?;
            if st.is_hinting(seat) {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    "a hint for your seat is being computed already",
                ));
            }
            // Counted once the hint is to be computed: a refused ask costs nothing.
            self.hint_limits
                .check_key(&(table.id.clone(), seat))
                .map_err(|not_until| ApiError::too_many("hints", retry_after(&not_until)))?;
            st.start_hint(seat);
            let guard = Hinting {
                table: table.clone(),
                seat,
            };
            let seed =
                st.row().seed ^ HINT_SEED ^ (st.seq() + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (st.game().box_clone(), st.seq(), seed, guard)
        };
        let worker = self
            .bots
            .worker()
            .await
            .ok_or_else(|| ApiError::new(ErrorKind::Internal, "the server is shutting down"))?;
        let kind = table.kind.clone();
        let stop = self.bots.decision_stop();
        let computed = tokio::task::spawn_blocking(move || {
            let _worker = worker;
            kind.hint(snapshot.as_ref(), seat, seed, &stop)
        })
        .await
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("the hint failed: {e}")))?;
        let actions: Vec<HintedAction> = match computed {
            Some(Ok(actions)) => actions,
            Some(Err(e)) => return Err(ApiError::new(ErrorKind::NotYourTurn, e.to_string())),
            None => {
                return Err(ApiError::new(
                    ErrorKind::Internal,
                    "the table's game is not of its kind",
                ))
            }
        };
        self.change_seats(table, |st| {
            check_hint(st, seat)?;
            if st.seq() != seq {
                return Err(ApiError::new(
                    ErrorKind::Stale,
                    "the game moved on while the hint was computed; ask again",
                ));
            }
            Ok(SeatsChange {
                seats: st.row().seats.clone(),
                status: st.row().status,
                version: st.row().version,
                event: Some(SeatEvent {
                    what: SeatChange::Hinted,
                    seat,
                    by: None,
                    seq,
                    at: now_ms(),
                    hint: Some(actions.clone()),
                }),
            })
        })
        .await
    }
}
