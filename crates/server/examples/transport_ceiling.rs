//! The ceiling that loopback WebSockets put on `tabletop serve` on this machine: a stand-in
//! server that speaks just enough of the protocol for `tabletop loadtest` to drive it, and
//! does none of a game server's work. A move is checked against the seq and the seat to
//! move, and answered with one update per seat, as the real server does, but nothing is
//! played, stored, viewed or patched: every message is a fixed text of the size the real
//! updates have (median 536 bytes).
//!
//! Driven by the real load generator, it measures what the transport alone costs (axum and
//! tungstenite on both sides, loopback TCP, the kernel): an upper bound for any server with
//! this protocol on this machine. Figures are in docs/benchmarks.md ("Server").
//!
//! ```sh
//! cargo run --release -p server --example transport_ceiling &     # prints its address
//! target/release/tabletop loadtest --url http://127.0.0.1:PORT --games 100 --seconds 15 \
//!     --server-pid $!
//! ```

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;

/// The real server's median update message, in bytes (docs/benchmarks.md).
const UPDATE_BYTES: usize = 536;
/// The real server's median state message.
const STATE_BYTES: usize = 8_100;
/// Legal actions offered to the seat to move.
const ACTIONS: usize = 8;
/// As the real server's WebSocket read buffer.
const READ_BUFFER_BYTES: usize = 8 * 1024;

/// One game: the seq and the seat to move; the updates go to every connection.
struct Table {
    players: u8,
    position: Mutex<(u64, u8)>,
    updates: broadcast::Sender<Arc<[Utf8Bytes]>>,
}

#[derive(Default)]
struct Tables {
    next_id: AtomicU64,
    by_id: Mutex<HashMap<String, Arc<Table>>>,
}

impl Tables {
    fn get(&self, id: &str) -> Option<Arc<Table>> {
        let tables = self.by_id.lock().unwrap_or_else(PoisonError::into_inner);
        tables.get(id).cloned()
    }
}

#[derive(Deserialize)]
struct CreateGame {
    config: CreateConfig,
}

#[derive(Deserialize)]
struct CreateConfig {
    players: u8,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    Hello { token: Option<String> },
    Act { seq: u64 },
}

/// A message for `seat` at `seq`: `legal` filled for the seat to move, padded to `bytes`.
fn message(kind: &str, seq: u64, mover: u8, to_move: u8, seat: u8, bytes: usize) -> Utf8Bytes {
    let legal = (seat == to_move).then(|| {
        (0..ACTIONS)
            .map(|a| json!({ "action": a, "description": "an action" }))
            .collect::<Vec<_>>()
    });
    let legal = serde_json::to_string(&legal).unwrap_or_default();
    let mut text = format!(
        r#"{{"type":"{kind}","seq":{seq},"seat":{mover},"to_move":{to_move},"legal":{legal},"status":"running","pad":""}}"#
    );
    // The padding goes inside the empty "pad" string, just before the closing `"}`.
    let padding = bytes.saturating_sub(text.len());
    text.insert_str(text.len() - 2, &"x".repeat(padding));
    text.into()
}

async fn create(State(tables): State<Arc<Tables>>, Json(request): Json<CreateGame>) -> Json<Value> {
    let players = request.config.players.max(1);
    let id = tables.next_id.fetch_add(1, Ordering::Relaxed).to_string();
    let table = Arc::new(Table {
        players,
        position: Mutex::new((0, 0)),
        updates: broadcast::channel(16).0,
    });
    tables
        .by_id
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id.clone(), table);
    let seats: Vec<Value> = (0..players)
        .map(|seat| json!({ "seat": seat, "kind": "human", "token": seat.to_string() }))
        .collect();
    Json(json!({ "id": id, "seats": seats }))
}

async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(tables): State<Arc<Tables>>,
) -> Response {
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| async move {
            if let Some(table) = tables.get(&id) {
                session(table, socket).await;
            }
        })
}

/// One connection, as the real server's: the hello, the state, then updates out and moves
/// in, in one task.
async fn session(table: Arc<Table>, mut socket: WebSocket) {
    let seat = loop {
        match socket.recv().await {
            Some(Ok(Message::Text(text))) => match serde_json::from_str(&text) {
                Ok(ClientMessage::Hello { token }) => {
                    break token.and_then(|t| t.parse::<u8>().ok()).unwrap_or(u8::MAX)
                }
                _ => continue,
            },
            Some(Ok(_)) => continue,
            _ => return,
        }
    };
    let mut updates = table.updates.subscribe();
    let (seq, to_move) = *table
        .position
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let state = message("state", seq, to_move, to_move, seat, STATE_BYTES);
    if socket.send(Message::Text(state)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let Ok(messages) = update else { return };
                let Some(text) = messages.get(usize::from(seat)) else { continue };
                if socket.send(Message::Text(text.clone())).await.is_err() {
                    return;
                }
            }
            frame = socket.recv() => {
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                    _ => return,
                };
                if let Ok(ClientMessage::Act { seq }) = serde_json::from_str(&text) {
                    act(&table, seat, seq);
                }
            }
        }
    }
}

/// A move at the right seq by the seat to move: the next seat is to move, every seat gets
/// its update. (A wrong one is dropped: the load generator never sends one.)
fn act(table: &Table, seat: u8, seq: u64) {
    let mut position = table
        .position
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if position.0 != seq || position.1 != seat {
        return;
    }
    let next = (seq + 1, (seat + 1) % table.players);
    *position = next;
    let messages: Arc<[Utf8Bytes]> = (0..table.players)
        .map(|s| message("update", next.0, seat, next.1, s, UPDATE_BYTES))
        .collect();
    let _ = table.updates.send(messages);
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let app = Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}/ws", get(upgrade))
        .with_state(Arc::new(Tables::default()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    // As the real server: Nagle's algorithm off.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    println!("transport ceiling listening on http://{}", address);
    axum::serve(listener, app).await
}
