//! Following other server processes on the same database: their moves and seats are
//! installed here as if made here.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::moves::{install_update, prepare_update};
use super::table::{point_undone_by, CatchUp, Reservation, Step, Table, Writing};
use super::{Broadcast, Hub};
use crate::store::{Change, GameRow, MoveRow, SeatEvent, StoreError};

impl Hub {
    /// Takes the changes other server processes store on the same database, as they
    /// commit, and brings the cached tables they concern up to date.
    pub fn follow(self: &Arc<Self>, mut changes: mpsc::Receiver<Change>) -> JoinHandle<()> {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(change) = changes.recv().await {
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                match &change {
                    Change::Presence { game } => hub.hear_presence(game),
                    Change::Notified { recipient } => hub.notifier.wake(recipient),
                    Change::Blocks { account } => hub.blocks_changed(account),
                    Change::Missed => {
                        hub.hear_all_presence();
                        hub.forget_kept_apart();
                    }
                    _ => {}
                }
                let tables: Vec<Arc<Table>> = match &change {
                    Change::Moves { game, .. }
                    | Change::Game { game }
                    | Change::Chat { game, .. } => {
                        hub.cache().get(game).cloned().into_iter().collect()
                    }
                    Change::Missed => hub.cache().values().cloned().collect(),
                    // The seeks' own (crate::matchmaking hears them), and presence's.
                    Change::SeekPosted { .. }
                    | Change::SeekEnded { .. }
                    | Change::Presence { .. }
                    | Change::Notified { .. }
                    | Change::Blocks { .. } => Vec::new(),
                };
                for table in &tables {
                    let chat = match change {
                        Change::Chat { id, .. } => Some(Some(id)),
                        Change::Missed => Some(None),
                        Change::Moves { .. }
                        | Change::Game { .. }
                        | Change::SeekPosted { .. }
                        | Change::SeekEnded { .. }
                        | Change::Presence { .. }
                        | Change::Notified { .. }
                        | Change::Blocks { .. } => None,
                    };
                    if let Some(id) = chat {
                        if let Err(error) = hub.hear_chat(table, id).await {
                            tracing::warn!(game = table.id, %error, "reading another process's chat failed");
                        }
                    }
                    let news = match change {
                        Change::Chat { .. }
                        | Change::SeekPosted { .. }
                        | Change::SeekEnded { .. }
                        | Change::Presence { .. }
                        | Change::Notified { .. }
                        | Change::Blocks { .. } => false,
                        // This process's own moves are heard too, once installed or about
                        // to be.
                        Change::Moves { stored, .. } => {
                            let st = table.lock();
                            let own_move = st.writing() == Some(Writing::Move);
                            stored > st.seq() + u64::from(own_move)
                        }
                        Change::Game { .. } | Change::Missed => true,
                    };
                    if news {
                        hub.fall_behind(table);
                    }
                }
            }
        })
    }

    /// Reads the rows of these games again where they are in memory (their seats changed
    /// outside the tables: an account was deleted), and tells their watchers.
    pub fn reload_rows(self: &Arc<Self>, ids: &[String]) {
        for id in ids {
            if let Some(table) = self.cache().get(id).cloned() {
                self.fall_behind(&table);
            }
        }
    }

    /// Marks `table` as missing changes another server process stored, and catches up.
    pub(super) fn fall_behind(self: &Arc<Self>, table: &Arc<Table>) {
        table.lock().fall_behind();
        self.catch_up(table);
    }

    /// Installs what other server processes stored for a table that is behind: its row
    /// (seats, status) and the moves after its own, each broadcast to the watchers as if
    /// made here. Waits for a move in flight to finish first (it does the catching up
    /// then). Bots are left to the process that stored the move before theirs: this one
    /// when the catch-up follows a step of its own ([`CatchUp::Done`]).
    pub(super) fn catch_up(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            let _serial = table.seats_serial().await;
            loop {
                let (catching_up, from) = {
                    let mut st = table.lock();
                    match st.begin_catch_up() {
                        CatchUp::Install(reservation) => (reservation, st.seq()),
                        CatchUp::Wait => return,
                        CatchUp::Done { bot: ours } => {
                            drop(st);
                            // Under leases, the process holding the table's moves its bots
                            // whoever stored the move before.
                            if ours || hub.leases.is_some() {
                                hub.schedule_bot(&table);
                            }
                            return;
                        }
                    }
                };
                let loaded = async {
                    let row = hub.store.load_row(&table.id).await?;
                    let moves = hub.store.load_moves(&table.id, from).await?;
                    let seat_events = hub.store.seat_events(&table.id).await?;
                    Ok::<_, StoreError>((row, moves, seat_events))
                }
                .await;
                let installed = match &loaded {
                    Ok((Some(row), moves, seat_events)) => {
                        install_stored(&table, &catching_up, row, moves, seat_events)
                    }
                    Ok((None, ..)) => Err(format!("game {} is no longer stored", table.id)),
                    Err(_) => Ok(()),
                };
                table.lock().end_catch_up(catching_up, loaded.is_ok());
                if let Err(error) = &loaded {
                    // Tried again on the next change heard or the next move here (which
                    // the database refuses while this copy is behind).
                    tracing::warn!(game = %table.id, %error, "catching up failed");
                    return;
                }
                if let Err(error) = installed {
                    // Rebuilt from the database on next use.
                    tracing::error!(game = %table.id, %error, "catching up failed");
                    hub.evict(&table.id);
                    return;
                }
            }
        });
    }
}

/// Installs moves `moves` (from the table's seq on), row `row` and the seat events as
/// stored by another server process.
fn install_stored(
    table: &Table,
    catching_up: &Reservation,
    row: &GameRow,
    moves: &[MoveRow],
    seat_events: &[SeatEvent],
) -> Result<(), String> {
    for mv in moves {
        let (next, events, step) = {
            let st = table.lock();
            if mv.seq != st.seq() {
                return Err(format!("move {} came when at seq {}", mv.seq, st.seq()));
            }
            match mv.undoes {
                Some(_) => {
                    // The process that stored it took back the last undo point, as kept
                    // here too.
                    let point = point_undone_by(st.undoable(), mv)?;
                    let step = Step::Undo { undid: point.seq };
                    (point.before.box_clone(), Vec::new(), step)
                }
                None => {
                    let (next, events) = st
                        .game()
                        .play_logged(&mv.action)
                        .map_err(|e| format!("stored move {} does not replay: {e}", mv.seq))?;
                    (next, events, Step::default())
                }
            }
        };
        let update = prepare_update(table, (mv.seat, mv.at), step, next.as_ref(), events);
        let update = install_update(&mut table.lock(), catching_up, next, update);
        table.broadcast(update);
        metrics::counter!("tabletop_moves_followed_total").increment(1);
    }
    install_row(table, catching_up, row, seat_events);
    Ok(())
}

/// Installs the seats and status of row `row`, stored by another server process, if it is
/// newer than the table's, and tells the watchers when the seats changed. `seat_events`:
/// the game's seat events as stored (all of them, or none when not read): the new ones join
/// the log, and the seats message tells the last.
pub(super) fn install_row(
    table: &Table,
    writing: &Reservation,
    row: &GameRow,
    seat_events: &[SeatEvent],
) {
    let message = table.lock().install_row(writing, row, seat_events);
    if let Some(message) = message {
        table.broadcast(Broadcast::Seats {
            text: message.into(),
            resync: true,
        });
    }
}
