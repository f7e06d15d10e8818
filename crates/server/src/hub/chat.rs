//! Chat at a table ([`crate::chat`]): a message is stored, kept with the table and sent to
//! the connections that read its channel. Another server process's messages are heard
//! (`Change::Chat`) and sent on the same way; a message the table has is never sent twice.

use std::sync::Arc;

use engine::Seat;

use super::table::{Table, TableState};
use super::{now_ms, Broadcast, Hub};
#[cfg(doc)]
use crate::chat::clean_text;
use crate::chat::{ChatChannel, ChatMessage};
use crate::error::ApiError;
use crate::protocol::{ErrorKind, ServerMessage};
use crate::store::moderation::lasting;
use crate::store::{Status, StoreError};

/// Who writes from a connection.
#[derive(Debug, Clone)]
pub struct Speaker {
    /// The connection's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// [`ChatMessage::author`] for a spectator (a seat's is `seat-N`).
    pub spectator: String,
    /// The signed-in person's name, for a spectator.
    pub name: Option<String>,
    /// The signed-in person's account, whose blocks hide what they write
    /// ([`ChatMessage::account`]).
    pub account: Option<String>,
}

impl Hub {
    /// Stores `text` (as [`clean_text`] leaves it) as a message of `speaker` at `table`
    /// and sends it to every connection that reads its channel. Refused, storing nothing:
    /// a table called off, a channel whose chat is full.
    pub async fn say(
        self: &Arc<Self>,
        table: &Arc<Table>,
        speaker: &Speaker,
        text: String,
    ) -> Result<(), ApiError> {
        if let Some(account) = &speaker.account {
            self.check_may_chat(account).await?;
        }
        let mut message = {
            let st = table.lock();
            if st.row().status.is_closed() {
                return Err(ApiError::new(
                    ErrorKind::Forbidden,
                    "the table was called off; its chat is closed",
                ));
            }
            let (channel, author, name) = match speaker.seat {
                Some(seat) => (
                    ChatChannel::Players,
                    format!("seat-{seat}"),
                    st.row()
                        .seats
                        .get(usize::from(seat))
                        .and_then(|s| s.name.clone()),
                ),
                None => (
                    ChatChannel::Spectators,
                    speaker.spectator.clone(),
                    speaker.name.clone(),
                ),
            };
            ChatMessage {
                id: 0,
                channel,
                seat: speaker.seat,
                author,
                name,
                text,
                seq: st.seq(),
                at: now_ms(),
                account: speaker.account.clone(),
            }
        };
        // Counted where it is stored, with every process's messages: a count of what this
        // table holds would let concurrent messages past the cap.
        let Some(id) = self
            .store
            .append_chat(&table.id, &message, self.chat_per_channel)
            .await?
        else {
            return Err(ApiError::new(
                ErrorKind::Forbidden,
                format!(
                    "the {} chat of a table keeps {} messages, and this one is full",
                    match message.channel {
                        ChatChannel::Players => "players'",
                        ChatChannel::Spectators => "spectators'",
                    },
                    self.chat_per_channel
                ),
            ));
        };
        message.id = id;
        table.keep_chat(message);
        Ok(())
    }

    /// Refuses the chat of an account a moderator muted or suspended, saying until when
    /// and why (crate::moderation).
    async fn check_may_chat(&self, account: &str) -> Result<(), ApiError> {
        let standing = self.store.standing(account).await?;
        let now = now_ms();
        let (what, (until, reason)) = match (standing.suspended_at(now), standing.muted_at(now)) {
            (Some(suspended), _) => ("your account is suspended", suspended),
            (None, Some(muted)) => ("a moderator muted your chat", muted),
            (None, None) => return Ok(()),
        };
        Err(ApiError::new(
            ErrorKind::Forbidden,
            format!("{what} {}: {reason}", lasting(*until)),
        ))
    }

    /// Another server process stored message `id` of `table`'s game (or may have: `None`
    /// after notifications went unheard): the table takes what it lacks.
    pub(super) async fn hear_chat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        id: Option<i64>,
    ) -> Result<(), StoreError> {
        let messages = match id {
            Some(id) if table.has_chat(id) => return Ok(()),
            Some(id) => self
                .store
                .chat_message(&table.id, id)
                .await?
                .into_iter()
                .collect(),
            None => self.store.chat(&table.id).await?,
        };
        for message in messages {
            table.keep_chat(message);
        }
        Ok(())
    }
}

impl Table {
    fn has_chat(&self, id: i64) -> bool {
        self.lock()
            .chat()
            .binary_search_by_key(&id, |m| m.id)
            .is_ok()
    }

    /// Keeps a stored message, in the order of id, and sends it to the connections that
    /// read its channel, unless the table has it already.
    fn keep_chat(&self, message: ChatMessage) {
        let mut st = self.lock();
        let Some(kept) = st.add_chat(message) else {
            return;
        };
        let channel = kept.channel;
        let writer = kept.account.clone();
        let text = ServerMessage::Chat {
            messages: vec![kept.clone()],
        }
        .to_text();
        // Sent under the lock, so that a connection starting to watch meanwhile gets the
        // message either in its first chat message or after it, never neither.
        self.broadcast(Broadcast::Chat {
            channel,
            writer,
            text: text.into(),
        });
    }

    /// Whether the table's game is over.
    pub fn is_over(&self) -> bool {
        self.status() == Status::Over
    }

    /// The table's status now.
    pub fn status(&self) -> Status {
        self.lock().row().status
    }

    /// The table's messages that `keep` keeps and a connection as `seat` reads now.
    pub fn chat(
        &self,
        seat: Option<Seat>,
        keep: impl Fn(&ChatMessage) -> bool,
    ) -> Vec<ChatMessage> {
        chat_for(&self.lock(), seat, keep)
    }
}

/// [`ServerMessage::Chat`] with `messages`; `None` without any (nothing to send).
pub fn chat_message(messages: Vec<ChatMessage>) -> Option<String> {
    (!messages.is_empty()).then(|| ServerMessage::Chat { messages }.to_text())
}

/// The messages of `st` that `keep` keeps and a connection as `seat` reads.
pub(super) fn chat_for(
    st: &TableState,
    seat: Option<Seat>,
    keep: impl Fn(&ChatMessage) -> bool,
) -> Vec<ChatMessage> {
    st.chat()
        .iter()
        .filter(|m| m.channel.read_by(seat, st.row().status) && keep(m))
        .cloned()
        .collect()
}
