//! The browser client (web/, built by Vite into web/dist) served at `/`.
//!
//! Release builds embed the files in the binary, so `tabletop serve` needs nothing beside
//! it; debug builds read web/dist at run time, so a new `npm run build` shows without
//! recompiling the server. A binary built before the client was shows a page that says so.

use axum::extract::Path;
use axum::http::{header, HeaderValue};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::Embed;

use crate::error::ApiError;

#[derive(Embed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct ClientFiles;

/// The browser client's routes: its page, its assets and the icon.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(asset))
        .route("/favicon.svg", get(favicon))
}

/// `/`: the client's page (the client routes by the URL's fragment, so this is its only
/// page).
pub async fn index() -> Response {
    match file("index.html", "no-cache") {
        Some(page) => page,
        None => Html(include_str!("unbuilt.html")).into_response(),
    }
}

/// `/assets/{file}`: the client's scripts, styles and images. Their names carry a content
/// hash (Vite), so they are cached for good.
pub async fn asset(Path(name): Path<String>) -> Result<Response, ApiError> {
    // Only the flat names Vite writes: no directories, no `..`, no other characters.
    let safe = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    safe.then(|| {
        file(
            &format!("assets/{name}"),
            "public, max-age=31536000, immutable",
        )
    })
    .flatten()
    .ok_or_else(|| ApiError::not_found("no such file of the client"))
}

/// `/favicon.svg`.
pub async fn favicon() -> Result<Response, ApiError> {
    file("favicon.svg", "public, max-age=86400")
        .ok_or_else(|| ApiError::not_found("no such file of the client"))
}

fn file(path: &str, cache: &'static str) -> Option<Response> {
    let file = ClientFiles::get(path)?;
    let mime = file.metadata.mimetype();
    let mut response = file.data.into_owned().into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(mime).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(response)
}
