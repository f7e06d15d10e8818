//! The HTTP API (JSON). Every route is in the OpenAPI document served at
//! `/api/openapi.json`, generated from these handlers and types.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::accounts::session::{account_of, bearer_token, required_bearer};
use crate::app::App;
use crate::body::{with_body, JsonBody, MAX_BODY_BYTES};
use crate::bots::{Strength, STRENGTHS};
use crate::catalog::{components_of, KindInfo, OptionInfo};
use crate::chat::{ChatChannel, ChatMessage};
use crate::client_addr::ClientAddr;
use crate::ending::Ending;
use crate::error::ApiError;
use crate::hub::shown_to;
use crate::protocol::{
    ClientMessage, Clock, ClockChoices, ClockKind, ClockTimes, CreateGame, Created, CreatedSeat,
    ErrorBody, ErrorKind, EventEntry, GameSummary, JoinGame, Joined, LegalAction, LogEntry,
    SeatInfo, SeatRequest, SecondsRange, ServerMessage,
};
use crate::replay::{Record, Replay, ReplayRequest};
use crate::store::{LobbyCursor, LobbyQuery, SeatKind, Status};

/// Most games a lobby list returns.
const MAX_LIST: u32 = 200;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "tabletop",
        description = "Lobby, seats and live play of Valdora, Valley of the Kings and Pandoria (docs/server.md)"
    ),
    paths(
        kinds,
        kind_components,
        create,
        list,
        join,
        cancel,
        summary,
        record,
        ending,
        log,
        chat,
        data,
        components,
        replay,
        text,
        health,
        crate::ws::upgrade,
        crate::accounts::sign_up,
        crate::accounts::sign_in,
        crate::accounts::sign_out,
        crate::accounts::sign_out_everywhere,
        crate::accounts::me,
        crate::accounts::deletion::delete,
        crate::accounts::seats::claim,
        crate::accounts::seats::list,
        crate::accounts::profile::profile,
        crate::accounts::ratings::leaderboard,
        crate::accounts::passkeys::register_start,
        crate::accounts::passkeys::register_finish,
        crate::accounts::passkeys::sign_in_start,
        crate::accounts::passkeys::sign_in_finish,
        crate::accounts::passkey_list::list,
        crate::accounts::passkey_list::remove,
        crate::accounts::settings::get,
        crate::accounts::settings::put,
        crate::accounts::unsubscribe::unsubscribe_page,
        crate::accounts::unsubscribe::unsubscribe,
        crate::seeks::post_seek,
        crate::seeks::list,
        crate::seeks::wait,
        crate::seeks::withdraw,
        crate::notifications::list,
        crate::notifications::read,
        crate::notifications::hold_seats,
        crate::live::upgrade,
        crate::moderation::reports::file,
        crate::moderation::reports::mine,
        crate::moderation::actions::queue,
        crate::moderation::actions::act,
        crate::moderation::actions::log,
        crate::moderation::actions::standing,
        crate::blocks::block,
        crate::blocks::unblock,
        crate::blocks::list,
        crate::friends::list,
        crate::friends::ask,
        crate::friends::accept,
        crate::friends::end,
        crate::friends::tables,
        crate::friends::invite
    ),
    components(schemas(
        Kinds,
        KindInfo,
        OptionInfo,
        Strength,
        CreateGame,
        SeatRequest,
        Created,
        CreatedSeat,
        JoinGame,
        Joined,
        GameSummary,
        SeatInfo,
        Clock,
        ClockKind,
        ClockChoices,
        ClockTimes,
        SecondsRange,
        SeatKind,
        Status,
        LogEntry,
        EventEntry,
        ErrorBody,
        ErrorKind,
        ClientMessage,
        ServerMessage,
        LegalAction,
        Record,
        ReplayRequest,
        Replay,
        ChatMessage,
        ChatChannel,
        crate::accounts::Credentials,
        crate::accounts::Account,
        crate::accounts::deletion::Deletion,
        crate::accounts::seats::SeatTokens,
        crate::accounts::seats::SeatToken,
        crate::accounts::seats::AccountSeat,
        crate::accounts::profile::Profile,
        crate::accounts::profile::GamesPlayed,
        crate::accounts::ratings::Rating,
        crate::accounts::ratings::Leaderboard,
        crate::accounts::ratings::RatedPerson,
        crate::accounts::ratings::LevelRating,
        crate::accounts::passkeys::PasskeyStart,
        crate::accounts::passkeys::PasskeyChallenge,
        crate::accounts::passkey_list::AccountPasskey,
        crate::accounts::passkeys::PasskeyFinish,
        crate::accounts::settings::AccountSettings,
        crate::accounts::settings::AccountSettingsView,
        crate::matchmaking::request::PostSeek,
        crate::matchmaking::request::PlayerRange,
        crate::matchmaking::request::RatingRange,
        crate::matchmaking::request::SeekPosted,
        crate::matchmaking::request::OpenSeek,
        crate::matchmaking::request::SeekList,
        crate::matchmaking::request::SeekState,
        crate::model::Notification,
        crate::model::NotificationKind,
        crate::notifications::NotificationList,
        crate::notifications::NotificationsUpdate,
        crate::notifications::ReadNotifications,
        crate::notifications::Unread,
        crate::notifications::BrowserSeats,
        crate::notifications::HeldSeats,
        crate::live::LiveMessage,
        crate::moderation::ReportReason,
        crate::moderation::NewReport,
        crate::moderation::ReportFiled,
        crate::moderation::ReportState,
        crate::moderation::Evidence,
        crate::moderation::MyReport,
        crate::moderation::ActionKind,
        crate::moderation::Moderate,
        crate::moderation::ActionView,
        crate::moderation::ModerationAction,
        crate::moderation::RecentMessage,
        crate::moderation::QueuedReport,
        crate::moderation::MyStanding,
        crate::ending::Ending,
        crate::ending::SeatEnding,
        crate::rating::Unrated,
        crate::blocks::BlockAccount,
        crate::blocks::Blocked,
        crate::friends::FriendState,
        crate::friends::Friend,
        crate::friends::FriendRequest,
        crate::friends::FriendList,
        crate::friends::AskFriend,
        crate::friends::FriendAsked,
        crate::friends::InviteByName
    ))
)]
pub struct ApiDoc;

/// The lobby's and the tables' routes: `/api/games…` (the table's WebSocket included) and
/// `/api/replay`. `body_timeout`: how long a request with a body may take.
pub fn games_router(body_timeout: Duration) -> Router<Arc<App>> {
    let body = |route: MethodRouter<Arc<App>>, max_bytes| with_body(route, max_bytes, body_timeout);
    Router::new()
        .route("/api/games/kinds", get(kinds))
        .route("/api/games/kinds/{game}/data", get(kind_components))
        .route("/api/games", body(post(create), MAX_BODY_BYTES).get(list))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/join", body(post(join), MAX_BODY_BYTES))
        .route("/api/games/{id}/cancel", post(cancel))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ending", get(ending))
        .route("/api/games/{id}/log", get(log))
        .route("/api/games/{id}/chat", get(chat))
        .route("/api/games/{id}/data", get(data))
        .route("/api/games/{id}/components", get(components))
        .route("/api/games/{id}/text", get(text))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route(
            "/api/replay",
            body(post(replay), crate::replay::MAX_RECORD_BYTES),
        )
}

/// The server's own routes: the OpenAPI document, health and metrics.
pub fn service_router() -> Router<Arc<App>> {
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/healthz", get(health))
        .route("/metrics", get(metrics))
}

/// Every game, and the bot strengths offered.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Kinds {
    pub games: Vec<KindInfo>,
    pub bots: Vec<Strength>,
    /// How long a person must have been offline before another at the table may hand
    /// their seat to a bot (`tabletop serve --hand-over-after-secs`).
    #[ts(type = "number")]
    pub hand_over_after_secs: u64,
    /// The clocks a table may have.
    pub clocks: ClockChoices,
}

#[utoipa::path(get, path = "/api/games/kinds", responses((status = 200, body = Kinds)), tag = "lobby")]
pub async fn kinds(State(app): State<Arc<App>>) -> Json<Kinds> {
    Json(Kinds {
        games: app.hub.catalog().infos().to_vec(),
        bots: STRENGTHS.to_vec(),
        hand_over_after_secs: app.hub.hand_over_after().as_secs(),
        clocks: app.hub.clock_choices().clone(),
    })
}

/// The component tables a board of `game` draws from on the data new games play on (the
/// shipped data, or `tabletop serve --data`'s): Valley of the Kings' cards and sets,
/// Pandoria's map geometry, tiles and cards, compiled by the engine with defaults applied
/// and provisional flags kept (types `valley/Tables`, `pandoria/Tables` in the generated
/// TypeScript). 404 for a game whose views carry everything its board draws (Valdora).
#[utoipa::path(
    get,
    path = "/api/games/kinds/{game}/data",
    params(("game" = String, Path, description = "game name")),
    responses((status = 200, body = Object), (status = 400, body = ErrorBody, description = "no such game"), (status = 404, body = ErrorBody, description = "a game without component tables")),
    tag = "lobby"
)]
pub async fn kind_components(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let catalog = app.hub.catalog();
    let kind = catalog.named(&game)?;
    let data = catalog.data(kind.name()).map(|file| &*file.text);
    components_of(&**kind, data).map(Json)
}

#[utoipa::path(
    post,
    path = "/api/games",
    request_body = CreateGame,
    responses((status = 201, body = Created), (status = 400, body = ErrorBody), (status = 413, body = ErrorBody), (status = 429, body = ErrorBody, description = "too many new games, joins or replays from this address (rate_limited), or too many of its tables waiting for players (too_many_tables)"), (status = 503, body = ErrorBody, description = "busy: too many decisions of games with no human seat wait for the bots; such a game is refused (a game with a person is not)")),
    tag = "lobby"
)]
pub async fn create(
    State(app): State<Arc<App>>,
    client: ClientAddr,
    request: Result<JsonBody<CreateGame>, ApiError>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    app.requests.check(client.key())?;
    let created = app.hub.create(request?.0, client.key()).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only games of this game (a name from `/api/games/kinds`).
    pub game: Option<String>,
    /// Only games of this status (`open`: the games with a free seat).
    pub status: Option<Status>,
    /// Only tables with a clock of this kind (`none`, `realtime`, `turn_based`).
    pub clock: Option<ClockKind>,
    /// Only tables that may be rated (`true`: neither hints nor casual) or that never are.
    pub rated: Option<bool>,
    /// Only tables of this many seats.
    pub players: Option<u8>,
    /// Only tables where a seated person speaks this language (an ISO 639 code, "es";
    /// "pt" finds "pt-BR").
    pub language: Option<String>,
    /// At most this many (default and maximum 200).
    pub limit: Option<u32>,
    /// Only games after this cursor: the one the `Link` header (`rel="next"`) of the page
    /// before names.
    pub before: Option<String>,
}

/// A language the lobby filters by: two or three letters (checked: it is spliced into a
/// `LIKE` pattern and the `Link` header), in lower case.
fn checked_language(text: &str) -> Result<String, ApiError> {
    if (2..=3).contains(&text.len()) && text.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(ApiError::malformed(format!(
            "language is a language code such as \"es\", not {text:?}"
        )))
    }
}

/// A lobby cursor as text: the last listed game's `created`, a dot, its id.
fn cursor_text(cursor: &LobbyCursor) -> String {
    format!("{}.{}", cursor.created, cursor.id)
}

fn parse_cursor(text: &str) -> Result<LobbyCursor, ApiError> {
    text.split_once('.')
        .and_then(|(created, id)| {
            let created = created.parse().ok()?;
            crate::tokens::is_game_id(id).then(|| LobbyCursor {
                created,
                id: id.to_string(),
            })
        })
        .ok_or_else(|| {
            ApiError::malformed(
                "before is a cursor from the lobby's Link header (rel=\"next\")".to_string(),
            )
        })
}

/// The lobby, newest first, a page at a time: when more games may follow, the `Link`
/// header names the next page (`</api/games?…&before=CURSOR>; rel="next"`), which stays
/// the same however many games are created meanwhile.
#[utoipa::path(
    get,
    path = "/api/games",
    params(ListQuery),
    responses(
        (status = 200, body = Vec<GameSummary>, headers(("link" = String, description = "the next page: `<URL>; rel=\"next\"`, when more games may follow"))),
        (status = 400, body = ErrorBody)
    ),
    tag = "lobby"
)]
pub async fn list(
    State(app): State<Arc<App>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::malformed(e.body_text()))?;
    if let Some(game) = &query.game {
        app.hub.catalog().named(game)?;
    }
    let lobby = LobbyQuery {
        game: query.game,
        status: query.status,
        clock: query.clock,
        rated: query.rated,
        players: query.players,
        language: query
            .language
            .as_deref()
            .map(checked_language)
            .transpose()?,
        before: query.before.as_deref().map(parse_cursor).transpose()?,
        limit: query.limit.unwrap_or(MAX_LIST).clamp(1, MAX_LIST),
    };
    let games = app.hub.list(&lobby).await?;
    let next = games
        .last()
        .filter(|_| games.len() == lobby.limit as usize)
        .map(|last| {
            let cursor = LobbyCursor {
                created: last.created,
                id: last.id.clone(),
            };
            next_page_link(&lobby, &cursor)
        });
    let mut response = Json(games).into_response();
    if let Some(link) = next.and_then(|link| HeaderValue::try_from(link).ok()) {
        response.headers_mut().insert(header::LINK, link);
    }
    Ok(response)
}

/// The `Link` header value naming the page after `cursor` of the lobby query `lobby`.
fn next_page_link(lobby: &LobbyQuery, cursor: &LobbyCursor) -> String {
    // Game names and statuses are plain ASCII words (checked), and a cursor is digits, a
    // dot and a game id: nothing to escape.
    let mut query = Vec::new();
    if let Some(game) = &lobby.game {
        query.push(format!("game={game}"));
    }
    if let Some(status) = lobby.status {
        query.push(format!("status={}", status.as_str()));
    }
    if let Some(clock) = lobby.clock {
        query.push(format!("clock={}", clock.as_str()));
    }
    if let Some(rated) = lobby.rated {
        query.push(format!("rated={rated}"));
    }
    if let Some(players) = lobby.players {
        query.push(format!("players={players}"));
    }
    if let Some(language) = &lobby.language {
        query.push(format!("language={language}"));
    }
    query.push(format!("limit={}", lobby.limit));
    query.push(format!("before={}", cursor_text(cursor)));
    format!("</api/games?{}>; rel=\"next\"", query.join("&"))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/join",
    params(("id" = String, Path, description = "game id")),
    request_body = JoinGame,
    responses((status = 200, body = Joined), (status = 409, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody), (status = 429, body = ErrorBody, description = "too many new games, joins or replays from this address")),
    tag = "lobby"
)]
pub async fn join(
    State(app): State<Arc<App>>,
    client: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    request: Result<JsonBody<JoinGame>, ApiError>,
) -> Result<Json<Joined>, ApiError> {
    app.requests.check(client.key())?;
    let account = account_of(&app, &headers).await?;
    let joined = app.hub.join(&id, request?.0, account.as_ref()).await?;
    if let Some(account) = &account {
        // The seat follows the signed-in person to their other browsers (a seat kept for
        // them by name is theirs at once).
        app.hub
            .store()
            .claim_seat(&account.id, &id, joined.seat)
            .await?;
    }
    Ok(Json(joined))
}

#[utoipa::path(
    get,
    path = "/api/games/{id}",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = GameSummary), (status = 404, body = ErrorBody)),
    tag = "games"
)]
pub async fn summary(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<GameSummary>, ApiError> {
    Ok(Json(app.hub.summary(&id).await?))
}

/// How a finished game went, seat by seat: whether its person left or timed out, how many
/// of its decisions a bot made for them, and whether it was rated and, if not, why. Only
/// once the game is over.
#[utoipa::path(
    get,
    path = "/api/games/{id}/ending",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Ending), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "not_over")),
    tag = "games"
)]
pub async fn ending(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Ending>, ApiError> {
    Ok(Json(app.hub.ending(&id).await?))
}

/// The record `tabletop replay` reads: `{game, config, seed, actions}`. Only once the game
/// is over.
#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Object), (status = 409, body = ErrorBody, description = "not over yet")),
    tag = "games"
)]
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.hub.record(&id).await?))
}

/// Every stored move's events, as the seat of the bearer token is told them (the
/// spectator without one): until the game is over, another seat's hidden part of an event
/// (Valdora's completed commissions) is left out.
#[utoipa::path(
    get,
    path = "/api/games/{id}/log",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Vec<LogEntry>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)),
    security((), ("seat_token" = [])),
    tag = "games"
)]
pub async fn log(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Vec<LogEntry>>, ApiError> {
    let seat = bearer_seat(&app, &id, &headers).await?;
    Ok(Json(app.hub.log(&id, seat).await?))
}

/// The table's chat as the seat of the bearer token (or the signed-in person's seat)
/// reads it: the players' channel, and the spectators' once the game is over. Without
/// either, a spectator's: both channels. What the replay shows beside the log.
#[utoipa::path(
    get,
    path = "/api/games/{id}/chat",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Vec<ChatMessage>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)),
    security((), ("seat_token" = [])),
    tag = "games"
)]
pub async fn chat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Vec<ChatMessage>>, ApiError> {
    let seat = bearer_seat(&app, &id, &headers).await?;
    let table = app.hub.table(&id).await?;
    // A signed-in person's blocks hide chat both ways.
    let apart = match account_of(&app, &headers).await? {
        Some(account) => app.hub.kept_apart(&account.id).await?,
        None => Default::default(),
    };
    Ok(Json(table.chat(seat, |m| shown_to(&apart, m))))
}

/// Cancels a table that waits for players, for its creator: `Authorization: Bearer
/// CREATOR_TOKEN` (the `creator_token` of its creation). The table is kept, as
/// `cancelled`; its watchers are told.
#[utoipa::path(
    post,
    path = "/api/games/{id}/cancel",
    params(("id" = String, Path, description = "game id")),
    responses((status = 204, description = "cancelled"), (status = 401, body = ErrorBody, description = "no bearer token"), (status = 403, body = ErrorBody, description = "not the creator's token, or the game has started"), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "already over, cancelled or expired, or changed meanwhile")),
    security(("creator_token" = [])),
    tag = "lobby"
)]
pub async fn cancel(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = required_bearer(&headers, "the creator")?;
    app.hub.cancel(&id, token).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The seat of the request's bearer token (`Authorization: Bearer TOKEN`); without the
/// header, the signed-in person's seat at the game, if any; else `None` (a spectator).
async fn bearer_seat(app: &App, id: &str, headers: &HeaderMap) -> Result<Option<u8>, ApiError> {
    let Some(token) = bearer_token(headers)? else {
        return crate::accounts::session::seat_of(app, headers, id).await;
    };
    let table = app.hub.table(id).await?;
    table
        .seat_of_token(token)
        .map(Some)
        .ok_or_else(|| ApiError::new(ErrorKind::BadToken, "this token is not a seat of this game"))
}

/// The corrected component data file the game plays on (`tabletop serve --data`), as TOML
/// (what a record names as `data_toml`). Only for a game whose summary has a `data_digest`.
/// Boards draw from `/api/games/{id}/components`.
#[utoipa::path(
    get,
    path = "/api/games/{id}/data",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = String, content_type = "application/toml"), (status = 404, body = ErrorBody, description = "no such game, or a game on the shipped data")),
    tag = "games"
)]
pub async fn data(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = app.hub.data(&id).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/toml; charset=utf-8")],
        text.to_string(),
    )
        .into_response())
}

/// The component tables the board of this game draws from: those of the data it plays on
/// (as `/api/games/kinds/{game}/data`, but for this table's data, corrected or shipped).
#[utoipa::path(
    get,
    path = "/api/games/{id}/components",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Object), (status = 404, body = ErrorBody, description = "no such game, or a game without component tables")),
    tag = "games"
)]
pub async fn components(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    app.hub.components(&id).await.map(Json)
}

/// A finished game's record (from `/api/games/{id}/record` or a file `tabletop replay`
/// reads) played again for the replay viewer: the seat's first view, one patch per move,
/// the log and the outcome. Bodies up to 1 MiB.
#[utoipa::path(
    post,
    path = "/api/replay",
    request_body = ReplayRequest,
    responses((status = 200, body = Replay), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody, description = "an action of the record is illegal"), (status = 413, body = ErrorBody, description = "a body over 1 MiB"), (status = 429, body = ErrorBody, description = "too many new games, joins or replays from this address")),
    tag = "games"
)]
pub async fn replay(
    State(app): State<Arc<App>>,
    client: ClientAddr,
    request: Result<JsonBody<ReplayRequest>, ApiError>,
) -> Result<Json<Replay>, ApiError> {
    app.requests.check(client.key())?;
    let request = request?.0;
    let catalog = app.hub.catalog().clone();
    tokio::task::spawn_blocking(move || crate::replay::replay(&catalog, &request))
        .await
        .map_err(|_| ApiError::new(ErrorKind::Internal, "the replay failed"))?
        .map(Json)
}

/// The position drawn as text for the seat of the bearer token (the spectator without
/// one): what `tabletop play --server` shows.
#[utoipa::path(
    get,
    path = "/api/games/{id}/text",
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 401, body = ErrorBody)),
    security((), ("seat_token" = [])),
    tag = "games"
)]
pub async fn text(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let seat = bearer_seat(&app, &id, &headers).await?;
    let text = app.hub.text(&id, seat).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// `ok` when the database answers a read and accepts a write (checked at most once a
/// second); otherwise 503 saying which failed.
#[utoipa::path(
    get,
    path = "/healthz",
    responses(
        (status = 200, body = String, content_type = "text/plain", description = "ok"),
        (status = 503, body = String, content_type = "text/plain", description = "failing: the database does not answer reads, or does not accept writes")
    ),
    tag = "operations"
)]
pub async fn health(State(app): State<Arc<App>>) -> (StatusCode, &'static str) {
    match app.health.check().await {
        Ok(()) => (StatusCode::OK, "ok\n"),
        Err(failure) => (StatusCode::SERVICE_UNAVAILABLE, failure.message()),
    }
}

/// Prometheus text: games by status, moves, move latency, connections, bot queue.
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    if let Ok(counts) = app.hub.store().status_counts().await {
        for (status, n) in [
            ("open", counts.open),
            ("running", counts.running),
            ("over", counts.over),
            ("closed", counts.closed),
        ] {
            metrics::gauge!("tabletop_games", "status" => status).set(n as f64);
        }
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.metrics.render(),
    )
        .into_response()
}

pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such route; the API is described at /api/openapi.json")
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorKind::NotFound,
        "this route does not take that method; see /api/openapi.json",
    )
}
