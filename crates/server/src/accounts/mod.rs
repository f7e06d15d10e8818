//! Accounts, optional: a name and a password (argon2id), and sessions in an HTTP-only
//! cookie (docs/server.md, "Accounts"). Guests keep playing with seat tokens.

pub mod deletion;
pub mod passkey_list;
pub mod passkeys;
mod password;
pub mod profile;
pub mod ratings;
mod routes;
pub mod seats;
pub mod session;
pub mod settings;
pub mod unsubscribe;

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use axum_extra::extract::cookie::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::body::JsonBody;
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::names::{clean_name, name_skeleton};
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::{AccountRow, NameKeys, Store, StoreError};
use crate::time::now_ms;
use crate::tokens;
pub use routes::router;
use session::{SameOrigin, SignedIn};

/// A name and a password, to sign up or sign in.
#[derive(Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 1 to 32 characters; compared without regard to case.
    pub name: String,
    /// 8 to 256 characters.
    pub password: String,
}

/// Never shows the password (logs, panics).
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("name", &self.name)
            .field("password", &"…")
            .finish()
    }
}

/// A signed-in person's account.
#[derive(Debug, Clone, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Account {
    pub id: String,
    pub name: String,
}

impl From<&AccountRow> for Account {
    fn from(row: &AccountRow) -> Self {
        Account {
            id: row.id.clone(),
            name: row.name.clone(),
        }
    }
}

/// The name as accounts are told apart by: "Ana" and "ana" are one.
pub(crate) fn name_key(clean: &str) -> String {
    clean.to_lowercase()
}

/// Every way a new account's name `clean` is compared with the others'.
fn name_keys(clean: &str) -> NameKeys {
    NameKeys {
        key: name_key(clean),
        skeleton: name_skeleton(clean),
    }
}

/// Gives the accounts made before skeletons were kept theirs, at start. An account whose
/// skeleton another has already keeps none: both names stay as they were made, and no
/// new account can take a look-alike of either.
pub(crate) async fn fill_name_skeletons(store: &dyn Store) -> Result<(), StoreError> {
    for (id, name) in store.accounts_without_skeleton().await? {
        // A clash with a process filling in at the same time is left for the next start.
        match store.set_name_skeleton(&id, &name_skeleton(&name)).await {
            Ok(true) => {}
            Ok(false) => tracing::warn!(account = %id, "a look-alike of an older account's name"),
            Err(e) => tracing::warn!(account = %id, "the name's skeleton was not stored: {e}"),
        }
    }
    Ok(())
}

/// `name_taken` unless a new account may be named `clean`: another account has the
/// name, or one that looks like it ("Аda" with a Cyrillic А beside "Ada").
async fn check_name_free(app: &App, clean: &str) -> Result<(), ApiError> {
    let names = name_keys(clean);
    let store = app.hub.store();
    let why = if store.account_named(&names.key).await?.is_some() {
        format!("{clean:?} has an account already: sign in, or choose another name")
    } else if let Some(other) = store.account_like(&names.skeleton).await? {
        format!(
            "{clean:?} looks too much like the name of the account {:?}: choose another name",
            other.name
        )
    } else {
        return Ok(());
    };
    Err(ApiError::new(ErrorKind::NameTaken, why))
}

/// The account named `name` (as names compare), else `not_found`.
pub(crate) async fn named_account(app: &App, name: &str) -> Result<AccountRow, ApiError> {
    account_by_name(app, name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("nobody is called {:?} here", name.trim())))
}

/// The account named `name` (as names compare), if any: a name no account could have
/// is found by none.
pub(crate) async fn account_by_name(app: &App, name: &str) -> Result<Option<AccountRow>, ApiError> {
    let Ok(clean) = clean_name(name) else {
        return Ok(None);
    };
    Ok(app.hub.store().account_named(&name_key(&clean)).await?)
}

/// Runs the slow `work` (password hashing) off the async threads.
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError::new(ErrorKind::Internal, "a password check failed"))
}

/// Starts a session of `account` and hands its cookie to the browser.
async fn signed_in(
    app: &App,
    jar: CookieJar,
    account: &AccountRow,
) -> Result<(CookieJar, Json<Account>), ApiError> {
    check_not_suspended(app, account).await?;
    let (row, cookie) = session::start(account, app.accounts.secure_cookies);
    app.hub.store().create_session(&row).await?;
    // A suspension stored between the check and the session ends the session with it.
    if let Err(suspended) = check_not_suspended(app, account).await {
        app.hub.store().end_session(&row.token_hash).await?;
        return Err(suspended);
    }
    Ok((jar.add(cookie), Json(Account::from(account))))
}

/// Refuses a suspended account a session: `suspended`, with until when and why.
async fn check_not_suspended(app: &App, account: &AccountRow) -> Result<(), ApiError> {
    let standing = app.hub.store().standing(&account.id).await?;
    let Some((until, reason)) = standing.suspended_at(crate::time::now_ms()) else {
        return Ok(());
    };
    Err(ApiError::new(
        ErrorKind::Suspended,
        format!(
            "a moderator suspended this account {}: {reason}",
            crate::store::moderation::lasting(*until)
        ),
    ))
}

#[utoipa::path(
    post,
    path = "/api/account/sign-up",
    request_body = Credentials,
    responses(
        (status = 201, body = Account, description = "the account, signed in: the session cookie is set"),
        (status = 400, body = ErrorBody, description = "malformed: the name or the password is not of the allowed length or characters"),
        (status = 403, body = ErrorBody, description = "cross_origin: sent from another site's page"),
        (status = 409, body = ErrorBody, description = "name_taken"),
        (status = 429, body = ErrorBody)
    ),
    tag = "accounts"
)]
pub async fn sign_up(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    jar: CookieJar,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<(StatusCode, CookieJar, Json<Account>), ApiError> {
    let Credentials { name, password } = request;
    let name = clean_name(&name)?;
    password::check(&password)?;
    // Counted once the request is well-formed: what the limit spares is the hashing.
    app.accounts.limits.check(client.key(), None)?;
    let hash = off_thread(move || password::hash(&password)).await??;
    let account = AccountRow {
        id: tokens::new_account_id(),
        password_hash: Some(hash),
        created: now_ms(),
        name,
    };
    if !app
        .hub
        .store()
        .create_account(&account, &name_keys(&account.name))
        .await?
    {
        check_name_free(&app, &account.name).await?;
        return Err(ApiError::new(
            ErrorKind::NameTaken,
            format!("{:?} was taken meanwhile", account.name),
        ));
    }
    let (jar, account) = signed_in(&app, jar, &account).await?;
    Ok((StatusCode::CREATED, jar, account))
}

#[utoipa::path(
    post,
    path = "/api/account/sign-in",
    request_body = Credentials,
    responses(
        (status = 200, body = Account, description = "signed in: the session cookie is set"),
        (status = 401, body = ErrorBody, description = "bad_credentials: no account has this name and password (the same answer, in the same time, whether or not the name has an account)"),
        (status = 403, body = ErrorBody, description = "cross_origin"),
        (status = 429, body = ErrorBody, description = "rate_limited: too many attempts on this name or from this address")
    ),
    tag = "accounts"
)]
pub async fn sign_in(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    jar: CookieJar,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<(CookieJar, Json<Account>), ApiError> {
    let Credentials { name, password } = request;
    // A name no account could have is looked up like any other, and found by none.
    let key = clean_name(&name)
        .map(|name| name_key(&name))
        .unwrap_or_default();
    app.accounts.limits.check(client.key(), Some(&key))?;
    let account = app.hub.store().account_named(&key).await?;
    let stored = account.as_ref().and_then(|a| a.password_hash.clone());
    let opens = off_thread(move || password::verify(stored.as_deref(), &password)).await?;
    match account {
        Some(account) if opens => signed_in(&app, jar, &account).await,
        _ => Err(ApiError::new(
            ErrorKind::BadCredentials,
            "no account has this name and password",
        )),
    }
}

#[utoipa::path(
    post,
    path = "/api/account/sign-out",
    responses(
        (status = 204, description = "this browser is signed out (also when it was not signed in)"),
        (status = 403, body = ErrorBody, description = "cross_origin")
    ),
    tag = "accounts"
)]
pub async fn sign_out(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    jar: CookieJar,
) -> Result<(StatusCode, CookieJar), ApiError> {
    if let Some(token_hash) = session::token_hash(&headers) {
        app.hub.store().end_session(&token_hash).await?;
    }
    Ok((StatusCode::NO_CONTENT, jar.remove(session::removal())))
}

#[utoipa::path(
    post,
    path = "/api/account/sign-out-everywhere",
    responses(
        (status = 204, description = "every session of the account has ended, this one too"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin")
    ),
    tag = "accounts"
)]
pub async fn sign_out_everywhere(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    jar: CookieJar,
    signed_in: SignedIn,
) -> Result<(StatusCode, CookieJar), ApiError> {
    app.hub
        .store()
        .end_sessions_of(&signed_in.account.id)
        .await?;
    Ok((StatusCode::NO_CONTENT, jar.remove(session::removal())))
}

#[utoipa::path(
    get,
    path = "/api/account",
    responses(
        (status = 200, body = Account, description = "the signed-in account"),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "accounts"
)]
pub async fn me(signed_in: SignedIn) -> Json<Account> {
    Json(Account::from(&signed_in.account))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_show_the_password() {
        let credentials: Credentials =
            serde_json::from_str(r#"{"name":"Ana","password":"hunter2hunter2"}"#).expect("json");
        let shown = format!("{credentials:?}");
        assert!(
            shown.contains("Ana") && !shown.contains("hunter2"),
            "{shown}"
        );
    }
}
