//! Request bodies: the JSON body extractor every handler that reads one uses, and the
//! limits a route with a body runs under (its size, declared or sent, and its time).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Json;
use serde::de::DeserializeOwned;
use tower_http::timeout::TimeoutLayer;

use crate::error::ApiError;
use crate::protocol::ErrorKind;

/// Largest HTTP body read.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// A JSON body, or the typed error for one that is not: `too_large` for a body that could
/// not be read (past the route's limit), `malformed` for any other. A handler that checks
/// something first (a rate limit) takes `Result<JsonBody<T>, ApiError>` and reads it after.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(JsonRejection::BytesRejection(_)) => Err(ApiError::new(
                ErrorKind::TooLarge,
                format!("the body is unreadable or larger than {MAX_BODY_BYTES} bytes"),
            )),
            Err(e) => Err(ApiError::malformed(e.body_text())),
        }
    }
}

/// A route that reads a body of at most `max_bytes`: a body declared longer
/// (`Content-Length`) is refused at once, before any of it is read; one sent in chunks is
/// refused once it passes the limit. The request, body and answer, must be done within
/// `timeout` (408 otherwise): a client that sends its body slowly holds its connection no
/// longer.
pub fn with_body<S: Clone + Send + Sync + 'static>(
    route: MethodRouter<S>,
    max_bytes: usize,
    timeout: Duration,
) -> MethodRouter<S> {
    route
        .layer(DefaultBodyLimit::max(max_bytes))
        .layer::<_, Infallible>(middleware::from_fn_with_state(
            max_bytes,
            refuse_declared_oversize,
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
}

/// `too_large` for a request whose `Content-Length` is over `max_bytes`, without waiting
/// for its body.
async fn refuse_declared_oversize(
    State(max_bytes): State<usize>,
    request: Request,
    next: Next,
) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    match declared {
        Some(length) if length > max_bytes as u64 => ApiError::new(
            ErrorKind::TooLarge,
            format!("the body has {length} bytes; this route takes at most {max_bytes}"),
        )
        .into_response(),
        _ => next.run(request).await,
    }
}
