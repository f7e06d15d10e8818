//! Passkeys (WebAuthn, the `webauthn-rs` crate): signing up with a passkey instead of a
//! password, adding one to an account, and signing in with one without typing a name
//! (docs/server.md, "Passkeys").
//!
//! Each ceremony is two requests: `…/start` answers the options for the browser's
//! `navigator.credentials` and keeps the challenge (in the database, for five minutes,
//! taken once: any server process may take the second request); `…/finish` checks what the
//! authenticator signed against it.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use axum_extra::extract::cookie::CookieJar;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use webauthn_rs::prelude::{
    Credential, CredentialID, DiscoverableAuthentication, Passkey, PasskeyRegistration,
    PublicKeyCredential, RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

use super::session::{account_of, SameOrigin};
use super::{check_name_free, name_keys, signed_in, Account};
use crate::app::App;
use crate::body::JsonBody;
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::names::clean_name;
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::{AccountRow, CeremonyRow, PasskeyRow};
use crate::time::now_ms;
use crate::tokens;

/// How long a ceremony's challenge may be answered.
const CEREMONY_MS: i64 = 5 * 60 * 1000;

const REGISTER: &str = "register";
const SIGN_IN: &str = "sign_in";

/// The relying party passkeys are made for: the site at `public_url`
/// (`tabletop serve --public-url`), else `localhost` on any port. `None` when that address
/// cannot have passkeys (an IP address: WebAuthn needs a domain).
pub fn relying_party(public_url: Option<&str>) -> Result<Option<Webauthn>, String> {
    let origin = Url::parse(public_url.unwrap_or("http://localhost"))
        .map_err(|e| format!("--public-url: {e}"))?;
    let Some(domain) = origin.domain() else {
        return Ok(None);
    };
    let builder = WebauthnBuilder::new(domain, &origin)
        .map_err(|e| format!("passkeys for {origin}: {e}"))?
        .rp_name("Tabletop")
        .allow_any_port(public_url.is_none());
    builder
        .build()
        .map(Some)
        .map_err(|e| format!("passkeys for {origin}: {e}"))
}

/// Starting to make a passkey.
#[derive(Debug, Default, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct PasskeyStart {
    /// The new account's name, to sign up (1 to 32 characters); left out when the
    /// signed-in person adds a passkey to their account.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
}

/// A ceremony's challenge: the options to hand to the browser's `navigator.credentials`.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct PasskeyChallenge {
    /// Names the ceremony in its `finish` request.
    pub ceremony: String,
    /// `{"publicKey": …}`: WebAuthn's creation options (to make a passkey) or request
    /// options (to sign in), in their JSON form (`PublicKeyCredential.parse…FromJSON`).
    #[ts(type = "{ publicKey: unknown }")]
    #[schema(value_type = Object)]
    pub options: Value,
}

/// What the authenticator answered.
#[derive(Debug, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct PasskeyFinish {
    pub ceremony: String,
    /// The `PublicKeyCredential`'s JSON form (`credential.toJSON()`).
    #[ts(type = "unknown")]
    #[schema(value_type = Object)]
    pub credential: Value,
}

fn webauthn(app: &App) -> Result<&Webauthn, ApiError> {
    app.accounts.passkeys.as_ref().ok_or_else(|| {
        ApiError::new(
            ErrorKind::Forbidden,
            "passkeys need the site opened at its public address (a domain name, over HTTPS \
             or at localhost)",
        )
    })
}

fn internal(what: impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorKind::Internal, format!("passkey: {what}"))
}

fn unverified() -> ApiError {
    ApiError::new(
        ErrorKind::BadCredentials,
        "the passkey could not be verified",
    )
}

/// The credential the browser sent, in the form `T` of its ceremony.
fn credential<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    serde_json::from_value(value)
        .map_err(|e| ApiError::new(ErrorKind::Malformed, format!("credential: {e}")))
}

/// Keeps a ceremony's state until its `finish`, and answers its options.
async fn begin(
    app: &App,
    mut ceremony: CeremonyRow,
    options: impl Serialize,
    state: impl Serialize,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    ceremony.state = serde_json::to_string(&state).map_err(internal)?;
    let options = serde_json::to_value(options).map_err(internal)?;
    app.hub.store().put_ceremony(&ceremony, now_ms()).await?;
    Ok(Json(PasskeyChallenge {
        ceremony: ceremony.id,
        options,
    }))
}

/// Takes ceremony `id` of kind `kind`; `stale` when it is unknown, expired or taken.
async fn take(app: &App, id: &str, kind: &str) -> Result<CeremonyRow, ApiError> {
    app.hub
        .store()
        .take_ceremony(id, now_ms())
        .await?
        .filter(|c| c.kind == kind)
        .ok_or_else(|| {
            ApiError::new(
                ErrorKind::Stale,
                "this passkey request expired or was used: start again",
            )
        })
}

#[utoipa::path(
    post,
    path = "/api/account/passkey/register/start",
    request_body = PasskeyStart,
    responses(
        (status = 200, body = PasskeyChallenge),
        (status = 400, body = ErrorBody, description = "malformed: no name to sign up with, or not a name"),
        (status = 403, body = ErrorBody, description = "cross_origin, or forbidden: passkeys are not available at this address"),
        (status = 409, body = ErrorBody, description = "name_taken"),
        (status = 429, body = ErrorBody)
    ),
    tag = "accounts"
)]
pub async fn register_start(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasskeyStart>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    let PasskeyStart { name } = request;
    let webauthn = webauthn(&app)?;
    let store = app.hub.store();
    let (account_id, name, handle, exclude) = match account_of(&app, &headers).await? {
        Some(account) => {
            let handle = store.user_handle(&account.id).await?;
            let exclude: Vec<CredentialID> = store
                .passkey_ids(&account.id)
                .await?
                .iter()
                .filter_map(|id| tokens::unhex(id))
                .collect();
            (Some(account.id), account.name, handle, exclude)
        }
        None => {
            let name = clean_name(name.as_deref().unwrap_or_default())?;
            app.accounts.limits.check(client.key(), None)?;
            check_name_free(&app, &name).await?;
            (None, name, None, Vec::new())
        }
    };
    let handle = match handle.as_deref().map(Uuid::parse_str) {
        Some(Ok(handle)) => handle,
        Some(Err(e)) => return Err(internal(e)),
        None => Uuid::new_v4(),
    };
    let (options, state) = webauthn
        .start_passkey_registration(handle, &name, &name, Some(exclude))
        .map_err(internal)?;
    // A discoverable credential: signing in names no account (nothing to enumerate).
    let mut options = serde_json::to_value(options).map_err(internal)?;
    if let Some(selection) = options
        .pointer_mut("/publicKey/authenticatorSelection")
        .and_then(Value::as_object_mut)
    {
        selection.insert("residentKey".into(), "required".into());
        selection.insert("requireResidentKey".into(), true.into());
    }
    let ceremony = CeremonyRow {
        id: tokens::new_token(),
        kind: REGISTER.into(),
        name: account_id.is_none().then_some(name),
        account_id,
        user_handle: Some(handle.to_string()),
        state: String::new(),
        expires: now_ms() + CEREMONY_MS,
    };
    begin(&app, ceremony, options, state).await
}

#[utoipa::path(
    post,
    path = "/api/account/passkey/register/finish",
    request_body = PasskeyFinish,
    responses(
        (status = 201, body = Account, description = "signed up with the passkey (the session cookie is set)"),
        (status = 200, body = Account, description = "the passkey was added to the signed-in account"),
        (status = 400, body = ErrorBody, description = "malformed credential"),
        (status = 401, body = ErrorBody, description = "bad_credentials: the passkey could not be verified; not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin, forbidden"),
        (status = 409, body = ErrorBody, description = "stale: the ceremony expired or was used; name_taken")
    ),
    tag = "accounts"
)]
pub async fn register_finish(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    jar: CookieJar,
    JsonBody(request): JsonBody<PasskeyFinish>,
) -> Result<(StatusCode, CookieJar, Json<Account>), ApiError> {
    let PasskeyFinish {
        ceremony,
        credential: answer,
    } = request;
    let webauthn = webauthn(&app)?;
    let answer: RegisterPublicKeyCredential = credential(answer)?;
    let ceremony = take(&app, &ceremony, REGISTER).await?;
    let state: PasskeyRegistration = serde_json::from_str(&ceremony.state).map_err(internal)?;
    let passkey = webauthn
        .finish_passkey_registration(&answer, &state)
        .map_err(|_| unverified())?;
    let store = app.hub.store();
    let now = now_ms();
    let mut row = PasskeyRow {
        credential_id: tokens::hex(passkey.cred_id().as_ref()),
        account_id: String::new(),
        user_handle: ceremony.user_handle.clone().unwrap_or_default(),
        passkey: serde_json::to_string(&passkey).map_err(internal)?,
        created: now,
    };
    if let Some(account_id) = ceremony.account_id {
        // Adding to an account: still signed in to it.
        let account = account_of(&app, &headers)
            .await?
            .filter(|account| account.id == account_id)
            .ok_or_else(|| {
                ApiError::new(
                    ErrorKind::NotSignedIn,
                    "not signed in to the account the passkey was started for",
                )
            })?;
        row.account_id = account.id.clone();
        store.add_passkey(&row).await?;
        return Ok((StatusCode::OK, jar, Json(Account::from(&account))));
    }
    let name = ceremony.name.unwrap_or_default();
    let account = AccountRow {
        id: tokens::new_account_id(),
        password_hash: None,
        created: now,
        name,
    };
    row.account_id = account.id.clone();
    if !store
        .create_account_with_passkey(&account, &name_keys(&account.name), &row)
        .await?
    {
        return Err(ApiError::new(
            ErrorKind::NameTaken,
            format!("the name {:?} was taken meanwhile", account.name),
        ));
    }
    let (jar, account) = signed_in(&app, jar, &account).await?;
    Ok((StatusCode::CREATED, jar, account))
}

#[utoipa::path(
    post,
    path = "/api/account/passkey/sign-in/start",
    responses(
        (status = 200, body = PasskeyChallenge),
        (status = 403, body = ErrorBody, description = "cross_origin, forbidden"),
        (status = 429, body = ErrorBody)
    ),
    tag = "accounts"
)]
pub async fn sign_in_start(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    client: ClientAddr,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    let webauthn = webauthn(&app)?;
    app.accounts.limits.check(client.key(), None)?;
    let (mut options, state) = webauthn
        .start_discoverable_authentication()
        .map_err(internal)?;
    // The browser shows its own passkey chooser (not the form field's autofill).
    options.mediation = None;
    let ceremony = CeremonyRow {
        id: tokens::new_token(),
        kind: SIGN_IN.into(),
        account_id: None,
        name: None,
        user_handle: None,
        state: String::new(),
        expires: now_ms() + CEREMONY_MS,
    };
    begin(&app, ceremony, options, state).await
}

#[utoipa::path(
    post,
    path = "/api/account/passkey/sign-in/finish",
    request_body = PasskeyFinish,
    responses(
        (status = 200, body = Account, description = "signed in: the session cookie is set"),
        (status = 400, body = ErrorBody, description = "malformed credential"),
        (status = 401, body = ErrorBody, description = "bad_credentials: no such passkey, or it could not be verified"),
        (status = 403, body = ErrorBody, description = "cross_origin, forbidden"),
        (status = 409, body = ErrorBody, description = "stale: the ceremony expired or was used")
    ),
    tag = "accounts"
)]
pub async fn sign_in_finish(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    jar: CookieJar,
    JsonBody(request): JsonBody<PasskeyFinish>,
) -> Result<(CookieJar, Json<Account>), ApiError> {
    let account = verified_account(&app, request).await?;
    signed_in(&app, jar, &account).await
}

/// The account whose passkey signed the challenge of sign-in ceremony `finish`: the
/// passkey's counter is stored. `bad_credentials` for an unknown or unverified passkey.
pub async fn verified_account(app: &App, finish: PasskeyFinish) -> Result<AccountRow, ApiError> {
    let PasskeyFinish {
        ceremony,
        credential: answer,
    } = finish;
    let webauthn = webauthn(app)?;
    let answer: PublicKeyCredential = credential(answer)?;
    let ceremony = take(app, &ceremony, SIGN_IN).await?;
    let state: DiscoverableAuthentication =
        serde_json::from_str(&ceremony.state).map_err(internal)?;
    let (handle, credential_id) = webauthn
        .identify_discoverable_authentication(&answer)
        .map_err(|_| unverified())?;
    let store = app.hub.store();
    let row = store
        .passkey(&tokens::hex(credential_id))
        .await?
        .filter(|row| row.user_handle == handle.to_string())
        .ok_or_else(unverified)?;
    let mut passkey: Passkey = serde_json::from_str(&row.passkey).map_err(internal)?;
    let result = webauthn
        .finish_discoverable_authentication_v2(&answer, state, Credential::from(passkey.clone()))
        .map_err(|_| unverified())?;
    if passkey.update_credential(&result) == Some(true) {
        let stored = serde_json::to_string(&passkey).map_err(internal)?;
        store
            .passkey_used(&row.credential_id, &stored, now_ms())
            .await?;
    }
    store.account(&row.account_id).await?.ok_or_else(unverified)
}
