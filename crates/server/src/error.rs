//! The one error type of the server's operations, shown to clients as [`ErrorBody`] over
//! HTTP and as an error message over WebSocket.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::{GameError, GameErrorKind};

use crate::protocol::{ErrorBody, ErrorKind, ServerMessage, UndoRefusal};
use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub kind: ErrorKind,
    pub message: String,
    /// The game's seq, for `stale`.
    pub seq: Option<u64>,
    /// Seconds to wait, for `rate_limited` and `busy` (the `Retry-After` header).
    pub retry_after: Option<u64>,
    /// Why, for `undo_refused`.
    pub reason: Option<UndoRefusal>,
}

impl ApiError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ApiError {
            kind,
            message: message.into(),
            seq: None,
            retry_after: None,
            reason: None,
        }
    }

    /// An undo refused for `reason`.
    pub fn undo_refused(reason: UndoRefusal, message: impl Into<String>) -> Self {
        ApiError {
            reason: Some(reason),
            ..Self::new(ErrorKind::UndoRefused, message)
        }
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, message)
    }

    /// Too many requests from one address: try again in `seconds`.
    pub fn rate_limited(seconds: u64) -> Self {
        Self::too_many("new games, joins or replays from this address", seconds)
    }

    /// Too many of `what` (`rate_limited`): try again in `seconds`.
    pub fn too_many(what: &str, seconds: u64) -> Self {
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(
                ErrorKind::RateLimited,
                format!("too many {what}; try again in {seconds} s"),
            )
        }
    }

    /// The client's address has `cap` tables waiting for players already.
    pub fn too_many_tables(cap: u32) -> Self {
        Self::new(
            ErrorKind::TooManyTables,
            format!(
                "this address has {cap} tables waiting for players, as many as this server \
                 allows; start or fill one of them first"
            ),
        )
    }

    /// The server is too busy for this request: try again in `seconds`.
    pub fn busy(message: impl Into<String>, seconds: u64) -> Self {
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(ErrorKind::Busy, message)
        }
    }

    pub fn to_message(&self) -> ServerMessage {
        ServerMessage::Error {
            kind: self.kind,
            message: self.message.clone(),
            seq: self.seq,
            reason: self.reason,
        }
    }

    fn status(&self) -> StatusCode {
        match self.kind {
            ErrorKind::Malformed => StatusCode::BAD_REQUEST,
            ErrorKind::BadToken | ErrorKind::NotSignedIn | ErrorKind::BadCredentials => {
                StatusCode::UNAUTHORIZED
            }
            ErrorKind::Forbidden | ErrorKind::CrossOrigin | ErrorKind::Suspended => {
                StatusCode::FORBIDDEN
            }
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::RateLimited | ErrorKind::TooManyTables => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorKind::Illegal
            | ErrorKind::NotYourTurn
            | ErrorKind::NotStarted
            | ErrorKind::Stale
            | ErrorKind::Conflict
            | ErrorKind::GameOver
            | ErrorKind::NotOver
            | ErrorKind::UndoRefused
            | ErrorKind::SeatTaken
            | ErrorKind::NameTaken => StatusCode::CONFLICT,
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        let kind = match e.kind {
            GameErrorKind::Malformed
            | GameErrorKind::Setup
            | GameErrorKind::BadSeat
            | GameErrorKind::NoSpaces
            | GameErrorKind::IndexOutOfRange
            | GameErrorKind::BadBuffer => ErrorKind::Malformed,
            GameErrorKind::Illegal => ErrorKind::Illegal,
            GameErrorKind::GameOver => ErrorKind::GameOver,
            GameErrorKind::NotYourTurn => ErrorKind::NotYourTurn,
        };
        ApiError::new(kind, e.message)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => ApiError::new(
                ErrorKind::Conflict,
                "another change to this game was stored first; reload it",
            ),
            other => {
                tracing::error!(error = %other, "storage failed");
                ApiError::new(
                    ErrorKind::Internal,
                    "the server could not store or read the game; nothing was changed",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            kind: self.kind,
            message: self.message.clone(),
        };
        let mut response = (self.status(), Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
