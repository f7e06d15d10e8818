//! A person's settings: the languages they speak (shown on their page) and the address
//! told when it is their turn at a turn-based table (docs/server.md, "Mail").

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::session::{SameOrigin, SignedIn};
use crate::app::App;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::protocol::{ErrorBody, ErrorKind};
use crate::store::SettingsRow;
use crate::tokens;

/// Languages a person may list.
pub const MAX_LANGUAGES: usize = 8;
/// The longest address (RFC 5321's path limit).
const MAX_EMAIL: usize = 254;

/// What a signed-in person chose for their account.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(deny_unknown_fields)]
pub struct AccountSettings {
    /// Language tags (BCP 47: "es", "pt-BR"), the one spoken best first; at most 8.
    /// Shown on the person's page; turn mail is in the first one the site speaks.
    pub languages: Vec<String>,
    /// Where turn mail goes; `null` for none. Never shown to anyone else.
    pub email: Option<String>,
    /// Mail `email` when it becomes the person's turn at a turn-based table they are not
    /// at (at most once an hour per table).
    pub turn_mail: bool,
}

/// [`AccountSettings`], and whether this server sends mail at all.
#[derive(Debug, Serialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct AccountSettingsView {
    #[serde(flatten)]
    #[ts(flatten)]
    pub settings: AccountSettings,
    /// The server was given SMTP settings: turn mail can be sent.
    pub mail_available: bool,
}

fn view(app: &App, row: SettingsRow) -> AccountSettingsView {
    AccountSettingsView {
        settings: AccountSettings {
            languages: row.languages,
            email: row.email,
            turn_mail: row.turn_mail,
        },
        mail_available: app.hub.mails(),
    }
}

#[utoipa::path(
    get,
    path = "/api/account/settings",
    responses(
        (status = 200, body = AccountSettingsView),
        (status = 401, body = ErrorBody, description = "not_signed_in")
    ),
    tag = "accounts"
)]
pub async fn get(
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
) -> Result<Json<AccountSettingsView>, ApiError> {
    let row = app.hub.store().settings(&account.id).await?;
    Ok(Json(view(&app, row)))
}

#[utoipa::path(
    put,
    path = "/api/account/settings",
    request_body = AccountSettings,
    responses(
        (status = 200, body = AccountSettingsView, description = "the settings as stored"),
        (status = 400, body = ErrorBody, description = "malformed: a language tag or the address is not one, or turn mail without an address"),
        (status = 401, body = ErrorBody, description = "not_signed_in"),
        (status = 403, body = ErrorBody, description = "cross_origin")
    ),
    tag = "accounts"
)]
pub async fn put(
    _: SameOrigin,
    State(app): State<Arc<App>>,
    SignedIn { account }: SignedIn,
    JsonBody(request): JsonBody<AccountSettings>,
) -> Result<Json<AccountSettingsView>, ApiError> {
    let wanted = request;
    let languages = clean_languages(&wanted.languages)?;
    let email = match wanted.email.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(email) => Some(clean_email(email)?),
    };
    if wanted.turn_mail && email.is_none() {
        return Err(malformed("turn mail needs an e-mail address"));
    }
    let row = SettingsRow {
        languages,
        email,
        turn_mail: wanted.turn_mail,
        // Taken only by the account's first settings: the store keeps the key it has.
        unsubscribe_key: tokens::new_token(),
    };
    app.hub.store().put_settings(&account.id, &row).await?;
    Ok(Json(view(&app, row)))
}

fn malformed(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::Malformed, message)
}

/// Language tags as compared and shown: a primary language of 2 or 3 letters, then
/// subtags of letters and digits ("pt-BR"), each tag once.
fn clean_languages(tags: &[String]) -> Result<Vec<String>, ApiError> {
    if tags.len() > MAX_LANGUAGES {
        return Err(malformed(format!("at most {MAX_LANGUAGES} languages")));
    }
    let mut clean: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        let mut parts = tag.trim().split('-');
        let primary = parts.next().unwrap_or_default();
        let primary_ok =
            (2..=3).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
        let rest: Vec<&str> = parts.collect();
        let rest_ok = rest.len() <= 2
            && rest.iter().all(|part| {
                (2..=8).contains(&part.len()) && part.chars().all(|c| c.is_ascii_alphanumeric())
            });
        if !primary_ok || !rest_ok {
            return Err(malformed(format!(
                "{tag:?} is not a language tag (such as \"es\" or \"pt-BR\")"
            )));
        }
        let tag = std::iter::once(primary.to_ascii_lowercase())
            .chain(rest.iter().map(|part| part.to_ascii_uppercase()))
            .collect::<Vec<_>>()
            .join("-");
        if !clean.contains(&tag) {
            clean.push(tag);
        }
    }
    Ok(clean)
}

/// An address mail can be sent to.
fn clean_email(email: &str) -> Result<String, ApiError> {
    if email.len() > MAX_EMAIL {
        return Err(malformed(format!(
            "an e-mail address has at most {MAX_EMAIL} characters"
        )));
    }
    email
        .parse::<lettre::Address>()
        .map(|address| address.to_string())
        .map_err(|_| malformed(format!("{email:?} is not an e-mail address")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn language_tags_are_cleaned_and_bad_ones_refused() {
        assert_eq!(
            clean_languages(&tags(&["ES", " pt-br ", "es", "ja"])).ok(),
            Some(tags(&["es", "pt-BR", "ja"]))
        );
        for bad in ["", "e", "english", "es_AR", "es-", "<b>", "es-a-b-c"] {
            assert!(clean_languages(&tags(&[bad])).is_err(), "{bad:?}");
        }
        assert!(clean_languages(&tags(&["es"; MAX_LANGUAGES + 1])).is_err());
    }

    #[test]
    fn addresses_are_checked() {
        assert_eq!(
            clean_email("ana@example.org").ok().as_deref(),
            Some("ana@example.org")
        );
        for bad in ["ana", "ana@", "@example.org", "a b@example.org"] {
            assert!(clean_email(bad).is_err(), "{bad:?}");
        }
        assert!(clean_email(&format!("{}@example.org", "a".repeat(250))).is_err());
    }
}
