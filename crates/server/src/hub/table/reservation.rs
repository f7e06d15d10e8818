//! Who writes to a table, one at a time, and what the table missed of the changes other
//! server processes stored.

/// What a table is busy writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::hub) enum Writing {
    /// A move (or an undo) of this process is being stored.
    Move,
    /// Moves and seats stored by another server process are being installed.
    CatchingUp,
    /// A change of seats is being stored: no move is checked against the seats it
    /// replaces.
    Seats,
}

/// The right to change a table, held by one writer at a time: only
/// [`Reservations::reserve`] and [`Reservations::begin_catch_up`] make one, and only
/// [`Reservations::release`], [`Reservations::end_step`], [`Reservations::end_seats`] and
/// [`Reservations::end_catch_up`] take it back. Installing a change on the table asks for
/// it ([`super::TableState::install_step`]).
#[must_use = "a reservation holds the table until it is released"]
#[derive(Debug, PartialEq, Eq)]
pub(in crate::hub) struct Reservation {
    what: Writing,
    /// The table's seq when it was reserved: a step made under it is step `seq + 1`.
    seq: u64,
}

/// What the store answered about a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::hub) enum Stored {
    /// The step is stored.
    Yes,
    /// Another server process stored a step at this position first.
    Conflict,
    /// The store failed: the step may be stored all the same (the answer was lost).
    Unknown,
}

/// What a table does once a writer let it go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::hub) enum AfterWrite {
    /// Catch up with what other processes stored ([`Reservations::begin_catch_up`]).
    CatchUp,
    /// Start the bot to move, if any.
    MoveBot,
}

/// The next turn of a catch-up.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::hub) enum CatchUp {
    /// A writer holds the table: the catch-up is left to it (it catches up as it ends).
    Wait,
    /// The table is up to date. `bot`: this process moves the next bot (it stored the
    /// step before it).
    Done { bot: bool },
    /// Read what other processes stored and install it under this reservation.
    Install(Reservation),
}

/// The reservation protocol of one table.
///
/// - **One writer at a time.** A reservation ([`Reservation`]) is handed out only while no
///   other is out: for a move or an undo of this process, a change of seats, or a
///   catch-up. A second one is refused ([`Reservations::reserve`] gives `None`), and the
///   table's changes are installed only under a reservation.
/// - **Behind.** A table that misses changes another server process stored is marked
///   behind ([`Reservations::fall_behind`]; a step the store refused, or may not have
///   stored, marks it too). The catch-up runs only while nobody writes: one due while a
///   writer holds the table is left to that writer, whose end says to catch up
///   ([`AfterWrite::CatchUp`]).
/// - **The bot after a catch-up.** A step stored (or maybe stored) by this process while
///   the table was behind leaves the next bot to this process, once the catch-up finds the
///   game no further on than that step; further on, the process that moved it on moves the
///   bot. Told once: the next catch-up forgets it.
#[derive(Debug, Default)]
pub(in crate::hub) struct Reservations {
    writing: Option<Writing>,
    behind: bool,
    bot_after_catch_up: Option<u64>,
}

impl Reservations {
    /// What is being written, if anything.
    pub(in crate::hub) fn writing(&self) -> Option<Writing> {
        self.writing
    }

    /// Reserves the table, at seq `seq`, for `what`; `None` while another writer holds it.
    pub(in crate::hub) fn reserve(&mut self, what: Writing, seq: u64) -> Option<Reservation> {
        if self.writing.is_some() {
            return None;
        }
        self.writing = Some(what);
        Some(Reservation { what, seq })
    }

    /// Lets the table go without anything more to do.
    pub(in crate::hub) fn release(&mut self, reservation: Reservation) {
        // Only the writer holding the table has a reservation to give back.
        debug_assert_eq!(self.writing, Some(reservation.what));
        self.writing = None;
    }

    /// Lets the table go after the store answered `stored` about the step reserved for:
    /// a step refused or maybe stored leaves the table behind.
    pub(in crate::hub) fn end_step(
        &mut self,
        reservation: Reservation,
        stored: Stored,
    ) -> AfterWrite {
        let step = reservation.seq + 1;
        self.release(reservation);
        match stored {
            Stored::Yes if self.behind => self.bot_after_catch_up = Some(step),
            Stored::Yes => {}
            Stored::Conflict => self.behind = true,
            // If the catch-up finds this step stored, this process moves the next bot.
            Stored::Unknown => {
                self.behind = true;
                self.bot_after_catch_up = Some(step);
            }
        }
        if self.behind {
            AfterWrite::CatchUp
        } else {
            AfterWrite::MoveBot
        }
    }

    /// Lets the table go after a change of seats was stored. `heard_of_others`: the change
    /// was worked out again on a row another process stored; the moves it stored come
    /// first (the table catches up), then the bot.
    pub(in crate::hub) fn end_seats(
        &mut self,
        reservation: Reservation,
        heard_of_others: bool,
    ) -> AfterWrite {
        let seq = reservation.seq;
        self.release(reservation);
        if heard_of_others {
            self.behind = true;
            self.bot_after_catch_up = Some(seq);
            AfterWrite::CatchUp
        } else {
            AfterWrite::MoveBot
        }
    }

    /// The table misses changes another server process stored.
    pub(in crate::hub) fn fall_behind(&mut self) {
        self.behind = true;
    }

    /// The next turn of a catch-up of the table at seq `seq`.
    pub(in crate::hub) fn begin_catch_up(&mut self, seq: u64) -> CatchUp {
        if self.writing.is_some() {
            return CatchUp::Wait;
        }
        if !self.behind {
            let bot = self
                .bot_after_catch_up
                .take()
                .is_some_and(|step| seq <= step);
            return CatchUp::Done { bot };
        }
        self.behind = false;
        self.writing = Some(Writing::CatchingUp);
        CatchUp::Install(Reservation {
            what: Writing::CatchingUp,
            seq,
        })
    }

    /// Lets the table go after a catch-up's turn; `read`: what other processes stored was
    /// read (else the table is still behind, and tries again on the next change heard or
    /// the next move here).
    pub(in crate::hub) fn end_catch_up(&mut self, reservation: Reservation, read: bool) {
        self.release(reservation);
        if !read {
            self.behind = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reserved(what: Writing, seq: u64) -> (Reservations, Reservation) {
        let mut table = Reservations::default();
        let reservation = table.reserve(what, seq).expect("a free table is reserved");
        (table, reservation)
    }

    #[test]
    fn one_writer_at_a_time() {
        let (mut table, move_) = reserved(Writing::Move, 3);
        assert_eq!(table.writing(), Some(Writing::Move));
        assert_eq!(table.reserve(Writing::Move, 3), None);
        assert_eq!(table.reserve(Writing::Seats, 3), None);
        assert_eq!(table.begin_catch_up(3), CatchUp::Wait);
        table.release(move_);
        assert_eq!(table.writing(), None);
        let seats = table.reserve(Writing::Seats, 3).expect("free again");
        assert_eq!(table.reserve(Writing::Move, 3), None);
        assert_eq!(table.end_seats(seats, false), AfterWrite::MoveBot);
        assert_eq!(table.writing(), None);
    }

    #[test]
    fn a_stored_step_moves_the_bot_unless_the_table_is_behind() {
        let (mut table, step) = reserved(Writing::Move, 3);
        assert_eq!(table.end_step(step, Stored::Yes), AfterWrite::MoveBot);
        assert_eq!(table.writing(), None);
        // Nothing was missed: the catch-up has nothing to install and no bot to move.
        assert_eq!(table.begin_catch_up(4), CatchUp::Done { bot: false });
    }

    #[test]
    fn a_catch_up_due_while_a_step_is_stored_follows_it_and_then_its_bot() {
        let (mut table, step) = reserved(Writing::Move, 3);
        table.fall_behind();
        assert_eq!(table.begin_catch_up(3), CatchUp::Wait);
        assert_eq!(table.end_step(step, Stored::Yes), AfterWrite::CatchUp);
        let CatchUp::Install(catching_up) = table.begin_catch_up(4) else {
            panic!("the table is behind");
        };
        assert_eq!(table.writing(), Some(Writing::CatchingUp));
        assert_eq!(table.reserve(Writing::Move, 4), None);
        table.end_catch_up(catching_up, true);
        // Nothing newer was stored elsewhere: the bot after step 4 is this process's, once.
        assert_eq!(table.begin_catch_up(4), CatchUp::Done { bot: true });
        assert_eq!(table.begin_catch_up(4), CatchUp::Done { bot: false });
    }

    #[test]
    fn a_bot_after_a_catch_up_that_found_the_game_further_on_is_not_ours() {
        let (mut table, step) = reserved(Writing::Move, 3);
        table.fall_behind();
        assert_eq!(table.end_step(step, Stored::Yes), AfterWrite::CatchUp);
        let CatchUp::Install(catching_up) = table.begin_catch_up(4) else {
            panic!("the table is behind");
        };
        table.end_catch_up(catching_up, true);
        assert_eq!(table.begin_catch_up(6), CatchUp::Done { bot: false });
    }

    #[test]
    fn a_refused_step_leaves_the_table_behind() {
        let (mut table, step) = reserved(Writing::Move, 3);
        assert_eq!(table.end_step(step, Stored::Conflict), AfterWrite::CatchUp);
        let CatchUp::Install(catching_up) = table.begin_catch_up(3) else {
            panic!("the table is behind");
        };
        table.end_catch_up(catching_up, true);
        // Another process stored step 4: it moves the bot after it.
        assert_eq!(table.begin_catch_up(4), CatchUp::Done { bot: false });
    }

    #[test]
    fn a_step_maybe_stored_leaves_its_bot_here_if_it_was() {
        let (mut table, step) = reserved(Writing::Move, 3);
        assert_eq!(table.end_step(step, Stored::Unknown), AfterWrite::CatchUp);
        let CatchUp::Install(catching_up) = table.begin_catch_up(3) else {
            panic!("the table is behind");
        };
        table.end_catch_up(catching_up, true);
        // The step was stored (the table is at 4): its bot is this process's.
        assert_eq!(table.begin_catch_up(4), CatchUp::Done { bot: true });
    }

    #[test]
    fn a_catch_up_that_could_not_read_leaves_the_table_behind() {
        let mut table = Reservations::default();
        table.fall_behind();
        let CatchUp::Install(catching_up) = table.begin_catch_up(3) else {
            panic!("the table is behind");
        };
        assert_eq!(table.writing(), Some(Writing::CatchingUp));
        table.end_catch_up(catching_up, false);
        assert_eq!(table.writing(), None);
        assert!(matches!(table.begin_catch_up(3), CatchUp::Install(_)));
    }

    #[test]
    fn seats_worked_out_on_another_process_row_catch_up_then_move_the_bot() {
        let (mut table, seats) = reserved(Writing::Seats, 5);
        assert_eq!(table.end_seats(seats, true), AfterWrite::CatchUp);
        let CatchUp::Install(catching_up) = table.begin_catch_up(5) else {
            panic!("the table is behind");
        };
        table.end_catch_up(catching_up, true);
        assert_eq!(table.begin_catch_up(5), CatchUp::Done { bot: true });
    }
}
