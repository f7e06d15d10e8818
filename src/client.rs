//! What the server's clients share (`play --server`, `loadtest`): the server's base URL,
//! a small HTTP/1.1 client for the JSON API, and the WebSocket of a game. The messages
//! are the server's own types (`server::protocol`), so the two sides cannot drift apart.

use std::fmt;

use engine::Game;
use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header;
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use serde::de::DeserializeOwned;
use serde_json::Value;
use server::protocol::{ErrorBody, ErrorKind, ServerMessage};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::games;
use crate::CliError;

/// Why talking to the server failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("bad server URL {url:?}: {reason}")]
    Url { url: String, reason: String },
    #[error("cannot reach the server at {addr}: {error}")]
    Connect { addr: String, error: std::io::Error },
    #[error("HTTP: {0}")]
    Http(#[from] hyper::Error),
    #[error("HTTP request: {0}")]
    Request(#[from] hyper::http::Error),
    /// The server answered with its typed error.
    #[error("the server refused ({status}, {kind}): {message}", kind = kind_name(*.kind))]
    Api {
        status: StatusCode,
        kind: ErrorKind,
        message: String,
    },
    /// An answer that is not what the API documents.
    #[error("unexpected answer from the server ({status}): {detail}")]
    Unexpected { status: StatusCode, detail: String },
    #[error("WebSocket: {0}")]
    WebSocket(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("the server sent a message that is not of the protocol: {0}")]
    Message(String),
    #[error("the server closed the connection{0}")]
    Closed(String),
}

/// The wire name of an error kind (`not_your_turn`).
pub fn kind_name(kind: ErrorKind) -> String {
    match serde_json::to_value(kind) {
        Ok(Value::String(name)) => name,
        _ => format!("{kind:?}"),
    }
}

/// A server's base URL, `http://HOST:PORT` (a path is not allowed: the API is at the
/// root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUrl {
    /// `HOST:PORT` as given (IPv6 hosts in brackets).
    authority: String,
    host: String,
}

impl ServerUrl {
    pub fn parse(url: &str) -> Result<Self, ClientError> {
        let bad = |reason: &str| ClientError::Url {
            url: url.to_string(),
            reason: reason.to_string(),
        };
        let uri: Uri = url
            .trim_end_matches('/')
            .parse()
            .map_err(|_| bad("not a URL"))?;
        if uri.scheme_str() != Some("http") {
            return Err(bad("use http://HOST:PORT (https is not served)"));
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(bad("give the server's root, without a path"));
        }
        let authority = uri.authority().ok_or_else(|| bad("no host"))?;
        let host = authority.host().to_string();
        let port = authority.port_u16().unwrap_or(80);
        Ok(ServerUrl {
            authority: format!("{host}:{port}"),
            host,
        })
    }

    /// True for 127.0.0.1, localhost and [::1]: the load test talks to nothing else.
    pub fn is_loopback(&self) -> bool {
        matches!(self.host.as_str(), "127.0.0.1" | "localhost" | "[::1]")
    }

    /// `http://HOST:PORT{path}`.
    pub fn http(&self, path: &str) -> String {
        format!("http://{}{path}", self.authority)
    }

    /// `ws://HOST:PORT{path}`.
    pub fn ws(&self, path: &str) -> String {
        format!("ws://{}{path}", self.authority)
    }

    /// The address to connect to (`HOST:PORT`; an IPv6 host keeps its brackets, which
    /// the resolver expects).
    fn socket_addr(&self) -> String {
        self.authority.clone()
    }
}

impl fmt::Display for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "http://{}", self.authority)
    }
}

/// One HTTP request on a connection of its own (the clients make a handful, so no pool):
/// the status and body.
pub async fn request(
    base: &ServerUrl,
    method: Method,
    path: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> Result<(StatusCode, Bytes), ClientError> {
    let addr = base.socket_addr();
    let stream = TcpStream::connect(&addr)
        .await
        .map_err(|error| ClientError::Connect { addr, error })?;
    // Small request/response pairs: do not wait to fill a segment.
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    // The connection is driven by its own task until the response is read.
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut builder = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, base.authority.as_str());
    if let Some(token) = bearer {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let payload = match body {
        Some(json) => {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
            Bytes::from(json.to_string())
        }
        None => Bytes::new(),
    };
    let response = sender
        .send_request(builder.body(Full::new(payload))?)
        .await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, bytes))
}

/// The error of a non-success answer: the server's typed error when the body is one.
fn refused(status: StatusCode, body: &[u8]) -> ClientError {
    match serde_json::from_slice::<ErrorBody>(body) {
        Ok(e) => ClientError::Api {
            status,
            kind: e.kind,
            message: e.message,
        },
        Err(_) => ClientError::Unexpected {
            status,
            detail: String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned(),
        },
    }
}

/// A JSON API call: the answer's body as `T`, or the server's error.
pub async fn call<T: DeserializeOwned>(
    base: &ServerUrl,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> Result<T, ClientError> {
    let (status, bytes) = request(base, method, path, None, body).await?;
    if !status.is_success() {
        return Err(refused(status, &bytes));
    }
    serde_json::from_slice(&bytes).map_err(|e| ClientError::Unexpected {
        status,
        detail: format!("not the documented JSON: {e}"),
    })
}

/// `GET /api/games/{id}/text` for the seat of `token`: the position drawn as text.
pub async fn text(base: &ServerUrl, id: &str, token: &str) -> Result<String, ClientError> {
    let path = format!("/api/games/{id}/text");
    let (status, bytes) = request(base, Method::GET, &path, Some(token), None).await?;
    if !status.is_success() {
        return Err(refused(status, &bytes));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How much a socket reads at once. The library zeroes this much of its buffer before every
/// read, including the one that finds nothing more after each message: enough for an
/// update in one read (the median is about 540 bytes, the largest about 3 KB), and no more.
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// Opens the WebSocket of game `id` and says hello with `token` (none: a spectator).
pub async fn connect(
    base: &ServerUrl,
    id: &str,
    token: Option<&str>,
    name: Option<&str>,
) -> Result<Socket, ClientError> {
    let url = base.ws(&format!("/api/games/{id}/ws"));
    // A small read buffer (READ_BUFFER_BYTES). Nagle off: a move is one small frame and
    // its latency is what players feel.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER_BYTES);
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await?;
    let mut hello = serde_json::json!({ "type": "hello" });
    if let Some(token) = token {
        hello["token"] = Value::from(token);
    }
    if let Some(name) = name {
        hello["name"] = Value::from(name);
    }
    socket.send(Message::text(hello.to_string())).await?;
    Ok(socket)
}

/// The text of `{"type":"act","seq":N,"action":A}`.
pub fn act_message(seq: u64, action: &Value) -> Message {
    Message::text(serde_json::json!({ "type": "act", "seq": seq, "action": action }).to_string())
}

/// The next protocol message and its size in bytes; `None` when the connection closed.
/// Pings are answered by the WebSocket layer while it reads.
pub async fn next_message(
    socket: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
) -> Result<Option<(ServerMessage, usize)>, ClientError> {
    let Some(text) = next_text(socket).await? else {
        return Ok(None);
    };
    let message = parse_message(&text)?;
    Ok(Some((message, text.len())))
}

/// `text` as a server message of type `T` (a [`ServerMessage`], or a lighter reading of
/// one that skips what its reader does not use).
pub fn parse_message<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T, ClientError> {
    serde_json::from_str(text).map_err(|e| ClientError::Message(format!("{e}: {}", truncate(text))))
}

/// The next text message; `None` when the connection closed. Pings are answered by the
/// WebSocket layer while it reads.
pub async fn next_text(
    socket: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
) -> Result<Option<Utf8Bytes>, ClientError> {
    loop {
        match socket.next().await {
            None => return Ok(None),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(Message::Text(text))) => return Ok(Some(text)),
            Some(Ok(Message::Close(frame))) => {
                return Err(ClientError::Closed(match frame {
                    Some(f) => format!(" ({}: {})", u16::from(f.code), f.reason),
                    None => String::new(),
                }))
            }
            Some(Ok(_)) => continue,
        }
    }
}

fn truncate(text: &str) -> &str {
    match text.char_indices().nth(120) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The canonical name and seat count of game `name` with `players` (the game's default
/// when `None`): what a client of the server needs to ask for one seat per player.
pub fn seat_count(name: &str, players: Option<u64>) -> Result<(&'static str, usize), CliError> {
    struct SeatCount(Option<u64>);
    impl games::GameVisitor for SeatCount {
        type Output = Result<(&'static str, usize), CliError>;
        fn visit<G: Game>(self) -> Self::Output {
            let spec = games::ConfigSpec {
                players: self.0,
                ..games::ConfigSpec::default()
            };
            let config = games::build_config::<G>(&spec).map_err(|e| CliError::usage(e.message))?;
            let game = G::new(&config, 0).map_err(|e| CliError::usage(e.to_string()))?;
            Ok((G::NAME, game.seats()))
        }
    }
    games::with_game(name, SeatCount(players)).map_err(|e| CliError::usage(e.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls() {
        let u = ServerUrl::parse("http://127.0.0.1:8080/").expect("valid");
        assert!(u.is_loopback());
        assert_eq!(u.ws("/x"), "ws://127.0.0.1:8080/x");
        assert!(ServerUrl::parse("http://localhost:1")
            .expect("valid")
            .is_loopback());
        assert!(ServerUrl::parse("http://[::1]:1")
            .expect("valid")
            .is_loopback());
        assert!(!ServerUrl::parse("http://10.0.0.1:1")
            .expect("valid")
            .is_loopback());
        assert!(!ServerUrl::parse("http://127.0.0.1.example.com:1")
            .expect("valid")
            .is_loopback());
        assert!(ServerUrl::parse("https://127.0.0.1:1").is_err());
        assert!(ServerUrl::parse("http://127.0.0.1:1/api").is_err());
        assert!(ServerUrl::parse("not a url").is_err());
    }
}
