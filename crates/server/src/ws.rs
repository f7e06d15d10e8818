//! Live play: `GET /api/games/{id}/ws`. The client says hello (with its seat's token, or
//! none to watch), gets the state, then an update after every stored move; it sends
//! actions with the seq it has seen. Errors are messages; the connection stays open.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::accounts::session::{self, same_origin};
use crate::app::App;
use crate::chat::{clean_text, ChatChannel, CHAT_BURST, CHAT_PER_MINUTE};
use crate::error::ApiError;
use crate::hub::{chat_message, shown_to, Broadcast, Mover, Speaker, Table, Watch};
use crate::limits::retry_after;
use crate::names::clean_name;
use crate::protocol::{ClientMessage, ErrorKind};
use crate::store::{AccountRow, Status};
use crate::tokens;

/// Largest client message the protocol reads; larger ones get a `too_large` error.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// Larger frames than this close the connection (code 1009) without being read whole.
const MAX_FRAME_BYTES: usize = 1024 * 1024;
/// How much a connection reads at once. The library zeroes this much of its buffer before
/// every read, including the one that finds nothing more to read after each message: its
/// 128 KiB default took most of the server's CPU under load, and 8 KiB still took 4%.
/// Clients send small messages (a move is about a hundred bytes); a larger one is read in
/// several reads.
const READ_BUFFER_BYTES: usize = 512;
/// Heartbeat: a ping this often; a connection silent for `IDLE` is closed.
const PING_EVERY: Duration = Duration::from_secs(20);
const IDLE: Duration = Duration::from_secs(60);
/// The hello must come within this time.
const HELLO_WITHIN: Duration = Duration::from_secs(30);

/// Close codes (RFC 6455).
const NORMAL: u16 = 1000;
const GOING_AWAY: u16 = 1001;
const PROTOCOL_ERROR: u16 = 1002;
const INVALID_DATA: u16 = 1007;
const POLICY: u16 = 1008;
const TOO_BIG: u16 = 1009;
const INTERNAL: u16 = 1011;

#[utoipa::path(
    get,
    path = "/api/games/{id}/ws",
    params(("id" = String, Path, description = "game id")),
    responses((status = 101, description = "WebSocket: ClientMessage in, ServerMessage out (docs/server.md)")),
    tag = "play"
)]
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Response {
    // The signed-in person (their seat is taken by a hello without a token; their name
    // signs a spectator's chat). Only from the server's own pages: another site's page may
    // open a socket with the person's cookie, and gets an anonymous spectator's.
    let signed_in = match same_origin(&headers) {
        Ok(()) => signed_in(&app, &headers, &id).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "looking up a signed-in person's seat failed");
            None
        }),
        Err(_) => None,
    };
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| session(app, id, signed_in, socket))
}

/// A connection's signed-in person: their account, and their seat at the game.
struct SignedIn {
    account: AccountRow,
    seat: Option<u8>,
}

async fn signed_in(app: &App, headers: &HeaderMap, id: &str) -> Result<Option<SignedIn>, ApiError> {
    let Some(account) = session::account_of(app, headers).await? else {
        return Ok(None);
    };
    let seat = session::seat_at(app, &account, id).await?;
    Ok(Some(SignedIn { account, seat }))
}

/// What a connection chats as, and how fast it may.
struct Chatter {
    speaker: Speaker,
    limiter: DefaultDirectRateLimiter,
}

impl Chatter {
    fn new(seat: Option<u8>, signed_in: Option<&SignedIn>) -> Chatter {
        let (spectator, name) = match signed_in {
            Some(s) => (
                format!("account-{}", s.account.id),
                Some(s.account.name.clone()),
            ),
            None => (format!("guest-{}", &tokens::new_token()[..8]), None),
        };
        Chatter {
            speaker: Speaker {
                seat,
                spectator,
                name,
                account: signed_in.map(|s| s.account.id.clone()),
            },
            limiter: RateLimiter::direct(
                Quota::per_minute(CHAT_PER_MINUTE).allow_burst(CHAT_BURST),
            ),
        }
    }

    /// Refuses a message over the connection's rate.
    fn check_rate(&self) -> Result<(), ApiError> {
        self.limiter.check().map_err(|wait| {
            let seconds = retry_after(&wait);
            ApiError::too_many(
                &format!("chat messages from one connection ({CHAT_BURST} at once, then {CHAT_PER_MINUTE} a minute)"),
                seconds,
            )
        })
    }
}

async fn send(socket: &mut WebSocket, text: impl Into<Utf8Bytes>) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Closes the connection after a read failed, with the code that says why (RFC 6455
/// 7.4.1); a connection that is already gone is left as it is.
async fn close_after(socket: &mut WebSocket, error: axum::Error) {
    if let Some((code, reason)) = close_code(&error) {
        close(socket, code, reason).await;
    }
}

/// The close code and reason for a read error: `None` when the connection is gone (no
/// close frame can reach the client).
fn close_code(error: &axum::Error) -> Option<(u16, &'static str)> {
    use tungstenite::Error;
    let inner = std::error::Error::source(error)?;
    Some(match inner.downcast_ref::<Error>()? {
        Error::Capacity(_) => (TOO_BIG, "frame or message too large"),
        Error::Utf8(_) => (INVALID_DATA, "text frame is not UTF-8"),
        Error::ConnectionClosed | Error::AlreadyClosed | Error::Io(_) => return None,
        // Protocol errors (reserved opcodes or bits, unmasked client frames, bad control
        // frames, …) and anything else the peer sent that is not WebSocket.
        _ => (PROTOCOL_ERROR, "not a valid WebSocket frame"),
    })
}

async fn send_error(socket: &mut WebSocket, error: &ApiError) -> bool {
    send(socket, error.to_message().to_text()).await
}

/// What a client's text frame says, or the error to send back.
fn parse(text: &str) -> Result<ClientMessage, ApiError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ApiError::new(
            ErrorKind::TooLarge,
            format!("a message has at most {MAX_MESSAGE_BYTES} bytes"),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        ApiError::malformed(format!(
            "not a client message ({e}); send {{\"type\":\"hello\",\"token\":…}} or \
             {{\"type\":\"act\",\"seq\":N,\"action\":…}}"
        ))
    })
}

/// One connection. Its task alone reads and writes the socket, never both at once, so the
/// socket is not split into halves (each of which would take a lock to reach it).
async fn session(app: Arc<App>, id: String, signed_in: Option<SignedIn>, mut socket: WebSocket) {
    let table = match app.hub.table(&id).await {
        Ok(table) => table,
        Err(e) => {
            send_error(&mut socket, &e).await;
            close(&mut socket, POLICY, "no such game").await;
            return;
        }
    };
    let mut shutdown = app.shutdown.clone();
    // Hello first.
    let deadline = tokio::time::sleep(HELLO_WITHIN);
    tokio::pin!(deadline);
    let seat = loop {
        tokio::select! {
            _ = &mut deadline => {
                close(&mut socket, POLICY, "no hello").await;
                return;
            }
            _ = shutdown.changed() => {
                close(&mut socket, GOING_AWAY, "server shutting down").await;
                return;
            }
            frame = socket.recv() => {
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(Message::Binary(_))) => {
                        send_error(&mut socket, &ApiError::malformed("send JSON text frames")).await;
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        close_after(&mut socket, e).await;
                        return;
                    }
                };
                match parse(&text) {
                    Ok(ClientMessage::Hello { token, name }) => {
                        let account_seat = signed_in.as_ref().and_then(|s| s.seat);
                        let account = signed_in.as_ref().map(|s| s.account.id.as_str());
                        match hello(&app, &table, (token, account_seat), name, account).await {
                            Ok(seated) => break seated,
                            Err(e) => {
                                send_error(&mut socket, &e).await;
                            }
                        }
                    }
                    Ok(_) => {
                        let e = ApiError::new(ErrorKind::BadToken, "say hello with your seat's token first");
                        send_error(&mut socket, &e).await;
                    }
                    Err(e) => {
                        send_error(&mut socket, &e).await;
                    }
                }
            }
        }
    };
    let (seat, new_token) = seat;
    // The signed-in person's blocks hide chat both ways.
    let reader = signed_in.as_ref().map(|s| s.account.id.clone());
    let apart = match &reader {
        Some(reader) => match app.hub.kept_apart(reader).await {
            Ok(apart) => apart,
            Err(e) => {
                send_error(&mut socket, &e.into()).await;
                close(&mut socket, INTERNAL, "cannot read the blocks").await;
                return;
            }
        },
        None => Default::default(),
    };
    let mut watch = match table.watch(seat, new_token, &apart) {
        Ok(watch) => watch,
        Err(e) => {
            send_error(&mut socket, &e).await;
            close(&mut socket, POLICY, "cannot watch this game").await;
            return;
        }
    };
    let slot = watch.slot();
    if !send(&mut socket, std::mem::take(&mut watch.state)).await {
        return;
    }
    if let Some(chat) = watch.chat.take() {
        if !send(&mut socket, chat).await {
            return;
        }
    }
    let chatter = Chatter::new(seat, signed_in.as_ref());
    let mut seen = watch.seq;
    // The game was over when the connection started: it read every channel then.
    let mut over = watch.over;
    // Each connection's pings start at a random point of the period: connections opened
    // together (a restart, a crowd arriving) would otherwise be pinged all at once, a
    // burst that delays the moves around it.
    let first_ping = tokio::time::Instant::now() + PING_EVERY.mul_f64(rand::random::<f64>());
    let mut heartbeat = tokio::time::interval_at(first_ping, PING_EVERY);
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            update = watch.updates.recv() => {
                // The message, and whether the game is over after it.
                let (text, now_over) = match update {
                    Ok(update) => match update.as_ref() {
                        Broadcast::Update { seq, .. } if *seq <= seen => continue,
                        Broadcast::Update { seq, messages, over: now_over } => match messages.get(slot) {
                            Some(Some(text)) => {
                                seen = *seq;
                                (text.clone(), *now_over)
                            }
                            // Not watched when the update was made: the whole state.
                            _ => match resync(&watch, &mut seen) {
                                Some(text) => (text, *now_over),
                                None => break,
                            },
                        },
                        Broadcast::Chat { channel, .. }
                            if !channel.read_by(watch.seat, if over { Status::Over } else { Status::Running }) =>
                        {
                            continue
                        }
                        Broadcast::Chat { writer: Some(writer), .. }
                            if !visible_to(&app, reader.as_deref(), writer).await =>
                        {
                            continue
                        }
                        Broadcast::Chat { text, .. } => (text.clone(), over),
                        Broadcast::Seats { text, resync: false } => (text.clone(), over),
                        Broadcast::Seats { text, resync: true } => {
                            if !send(&mut socket, text.clone()).await {
                                break;
                            }
                            // The game may have started: the seat to move needs its actions.
                            match resync(&watch, &mut seen) {
                                Some(text) => (text, over),
                                None => break,
                            }
                        }
                    },
                    // The updates missed may have ended the game: the table says.
                    Err(RecvError::Lagged(_)) => match resync(&watch, &mut seen) {
                        Some(text) => (text, watch.table.is_over()),
                        None => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if !send(&mut socket, text).await {
                    break;
                }
                // A seat reads the spectators' channel from the end on: what they said
                // follows the message that ended the game, once.
                if now_over && !over {
                    over = true;
                    let apart = kept_apart_now(&app, reader.as_deref()).await;
                    let revealed = watch.seat.and_then(|_| {
                        chat_message(watch.table.chat(watch.seat, |m| {
                            m.channel == ChatChannel::Spectators && shown_to(&apart, m)
                        }))
                    });
                    if let Some(chat) = revealed {
                        if !send(&mut socket, chat).await {
                            break;
                        }
                    }
                }
            }
            frame = socket.recv() => {
                last_heard = Instant::now();
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(Message::Binary(_))) => {
                        if !send_error(&mut socket, &ApiError::malformed("send JSON text frames")).await {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        close_after(&mut socket, e).await;
                        break;
                    }
                };
                let reply = handle(&app, &mut watch, &chatter, &text).await;
                let ok = match reply {
                    Ok(None) => true,
                    Ok(Some(answer)) => send(&mut socket, answer).await,
                    Err(e) if e.kind == ErrorKind::Stale => {
                        send_error(&mut socket, &e).await
                            && match resync(&watch, &mut seen) {
                                Some(text) => send(&mut socket, text).await,
                                None => false,
                            }
                    }
                    Err(e) => send_error(&mut socket, &e).await,
                };
                if !ok {
                    break;
                }
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > IDLE {
                    close(&mut socket, NORMAL, "idle").await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                close(&mut socket, GOING_AWAY, "server shutting down").await;
                break;
            }
        }
    }
}

/// The accounts kept apart from `reader` (signed in) now; none for a guest, nor when the
/// store cannot say (the messages checked one by one, [`visible_to`], are hidden then).
async fn kept_apart_now(app: &App, reader: Option<&str>) -> Arc<HashSet<String>> {
    let Some(reader) = reader else {
        return Default::default();
    };
    app.hub.kept_apart(reader).await.unwrap_or_else(|error| {
        tracing::warn!(%error, "reading the blocks failed");
        Default::default()
    })
}

/// Whether `reader` (signed in; `None`: a guest) sees a message written from account
/// `writer`: not when the two are kept apart, nor when the store cannot say whether they
/// are.
async fn visible_to(app: &App, reader: Option<&str>, writer: &str) -> bool {
    let Some(reader) = reader else {
        return true;
    };
    match app.hub.kept_apart(reader).await {
        Ok(apart) => !apart.contains(writer),
        Err(error) => {
            tracing::warn!(%error, "reading the blocks failed: a message is hidden");
            false
        }
    }
}

/// The whole state now, remembering its seq.
fn resync(watch: &Watch, seen: &mut u64) -> Option<Utf8Bytes> {
    let (seq, text) = watch.table.state_for(watch.seat).ok()?;
    *seen = seq;
    Some(text.into())
}

/// The seat of a hello: the token's seat; without a token, the signed-in person's seat at
/// the table (`account_seat`), or the spectator. A free seat's token is its invitation:
/// the hello claims the seat, which gets a new token (returned, for this connection's
/// state message), and the invitation is spent, unless the signed-in person (`account`)
/// is kept apart from someone at the table.
async fn hello(
    app: &Arc<App>,
    table: &Arc<Table>,
    (token, account_seat): (Option<String>, Option<u8>),
    name: Option<String>,
    account: Option<&str>,
) -> Result<(Option<u8>, Option<String>), ApiError> {
    let Some(token) = token else {
        return Ok((account_seat, None));
    };
    let (seat, free) = table.token_seat(&token).ok_or_else(|| {
        ApiError::new(
            ErrorKind::BadToken,
            "this token is not a seat of this game (an invitation link works once); say \
             hello without a token to watch",
        )
    })?;
    if !free {
        return Ok((Some(seat), None));
    }
    if let Some(account) = account {
        app.hub.may_sit_at(account, &table.id).await?;
    }
    let name = match name {
        Some(name) => clean_name(&name)?,
        None => format!("Player {}", seat + 1),
    };
    let invitation = tokens::hash(&token);
    let new_token = app.hub.claim(table, seat, name, Some(&invitation)).await?;
    Ok((Some(seat), Some(new_token)))
}

/// The seat of a connection that said hello with a seat's token.
fn seated(watch: &Watch) -> Result<u8, ApiError> {
    watch.seat.ok_or_else(|| {
        ApiError::new(
            ErrorKind::Forbidden,
            "only a person seated at the table does that; say hello with your seat's token",
        )
    })
}

/// Handles one client message; what it returns is sent to this connection alone (an
/// answer to a question), everything else reaches it through the table's updates.
async fn handle(
    app: &Arc<App>,
    watch: &mut Watch,
    chatter: &Chatter,
    text: &str,
) -> Result<Option<String>, ApiError> {
    let changed = match parse(text)? {
        ClientMessage::Hello { .. } => Err(ApiError::malformed(
            "hello was already said; reconnect to change seats",
        )),
        ClientMessage::Act { seq, action } => {
            let seat = watch.seat.ok_or_else(|| {
                ApiError::new(
                    ErrorKind::BadToken,
                    "spectators cannot move; say hello with a seat's token",
                )
            })?;
            app.hub
                .act(&watch.table, seat, seq, &action, Mover::Person)
                .await
        }
        // A spectator may not ask: the mover's answer may depend on its hidden cards.
        ClientMessage::Why { action } => {
            return watch.table.why(seated(watch)?, &action).map(Some);
        }
        ClientMessage::Undo { seq } => app.hub.undo(&watch.table, seated(watch)?, seq).await,
        ClientMessage::HandOver { seat } => {
            let by = seated(watch)?;
            app.hub.hand_over(&watch.table, by, seat).await
        }
        ClientMessage::TakeBack {} => app.hub.take_back(&watch.table, seated(watch)?).await,
        ClientMessage::Leave {} => app.hub.leave(&watch.table, seated(watch)?).await,
        ClientMessage::Hint {} => app.hub.hint(&watch.table, seated(watch)?).await,
        ClientMessage::Presence { away } => {
            watch.set_away(away);
            Ok(())
        }
        // Only a message the table would keep counts against the rate.
        ClientMessage::Say { text } => {
            let text = clean_text(&text)?;
            chatter.check_rate()?;
            app.hub.say(&watch.table, &chatter.speaker, text).await
        }
    };
    changed.map(|()| None)
}
