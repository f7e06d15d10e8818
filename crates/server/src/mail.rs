//! "It is your turn" e-mail (docs/server.md, "Mail"): when a turn-based table's move makes
//! it a person's turn and they are not at the table, their address is sent a mail with a
//! link to the table and a one-click unsubscribe, at most once an hour per table. Sent
//! over SMTP (`tabletop serve --smtp-host …`); without SMTP settings no mail is sent.
//!
//! The texts are the browser client's (`web/src/locales`, section `mail`): one file per
//! language holds every word the product says.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::Html;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;

use crate::error::ApiError;
use crate::store::Store;

/// How long an SMTP conversation may take before the mail is given up.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

/// How the connection to the SMTP server is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// TLS from the first byte (port 465 by default).
    Tls,
    /// Plain text upgraded by STARTTLS, which is required (port 587 by default).
    StartTls,
    /// Plain text: a relay on this machine or a test server only (port 25 by default).
    None,
}

impl FromStr for SmtpSecurity {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "tls" => Ok(SmtpSecurity::Tls),
            "starttls" => Ok(SmtpSecurity::StartTls),
            "none" => Ok(SmtpSecurity::None),
            other => Err(format!("{other:?}: give tls, starttls or none")),
        }
    }
}

/// Where and as whom the server sends mail.
#[derive(Clone)]
pub struct MailConfig {
    pub host: String,
    /// `None`: the usual port of `security`.
    pub port: Option<u16>,
    pub security: SmtpSecurity,
    /// The SMTP account, if the server asks for one.
    pub username: Option<String>,
    pub password: Option<String>,
    /// The sender ("Tabletop <turns@example.org>").
    pub from: String,
    /// The address people reach the site at ("https://play.example.org"): the links.
    pub public_url: String,
}

/// Never shows the password (logs, panics).
impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("from", &self.from)
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

/// Sends the server's mail.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("from", &self.from)
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

/// A person to tell that it is their turn.
pub struct TurnNotice<'a> {
    pub to: &'a str,
    pub name: &'a str,
    /// The game's API name ("valley").
    pub game: &'a str,
    pub game_id: &'a str,
    /// The person's languages, the best first: the mail is in the first one there are
    /// texts for (English otherwise).
    pub languages: &'a [String],
    pub unsubscribe_key: &'a str,
}

impl Mailer {
    /// A mailer for `config`; refuses a sender or a site address that cannot be used.
    pub fn new(config: &MailConfig) -> Result<Self, String> {
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|e| format!("--smtp-from {:?}: {e}", config.from))?;
        let public_url = config.public_url.trim_end_matches('/').to_owned();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(format!(
                "--public-url {public_url:?}: give the address people open the site at, \
                 such as https://play.example.org"
            ));
        }
        let builder = match config.security {
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&config.host),
            SmtpSecurity::StartTls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&config.host)
            }
            SmtpSecurity::None => Ok(AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(
                &config.host,
            )),
        }
        .map_err(|e| format!("--smtp-host {:?}: {e}", config.host))?;
        let mut builder = builder.timeout(Some(SMTP_TIMEOUT));
        if let Some(port) = config.port {
            builder = builder.port(port);
        }
        if let (Some(user), Some(password)) = (&config.username, &config.password) {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Mailer {
            transport: builder.build(),
            from,
            public_url,
        })
    }

    /// The address of table `game_id` in the browser client: a signed-in person opens
    /// their seat there.
    pub fn table_url(&self, game_id: &str) -> String {
        format!("{}/#/game/{game_id}", self.public_url)
    }

    /// The one-click unsubscribe address of key `key`.
    pub fn unsubscribe_url(&self, key: &str) -> String {
        format!("{}/api/mail/unsubscribe?key={key}", self.public_url)
    }

    /// The mail telling `notice.name` it is their turn.
    pub fn turn_message(&self, notice: &TurnNotice<'_>) -> Result<Message, String> {
        let texts = Texts::for_languages(notice.languages);
        let game = texts.get(&["game", notice.game]).unwrap_or(notice.game);
        let table = self.table_url(notice.game_id);
        let unsubscribe = self.unsubscribe_url(notice.unsubscribe_key);
        let fill = |key: &str| {
            texts
                .get(&["mail", key])
                .unwrap_or_default()
                .replace("{{name}}", notice.name)
                .replace("{{game}}", game)
                .replace("{{table}}", &table)
                .replace("{{unsubscribe}}", &unsubscribe)
        };
        let to: Mailbox = notice
            .to
            .parse()
            .map_err(|e| format!("a stored address is not one: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(fill("turnSubject"))
            // RFC 2369 and RFC 8058: mail programs show an unsubscribe button that posts
            // to the link, without opening it.
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{unsubscribe}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".to_owned(),
            ))
            .header(ContentType::TEXT_PLAIN)
            .body(fill("turnBody"))
            .map_err(|e| format!("the mail could not be written: {e}"))
    }

    pub async fn send(&self, message: Message) -> Result<(), String> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// The product's texts in one language (`web/src/locales/LANG.json`).
struct Texts(&'static Value);

/// The locale files, by language, read once.
fn locales() -> &'static HashMap<&'static str, Value> {
    static LOCALES: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    LOCALES.get_or_init(|| {
        [
            ("en", include_str!("../../../web/src/locales/en.json")),
            ("es", include_str!("../../../web/src/locales/es.json")),
            ("it", include_str!("../../../web/src/locales/it.json")),
            ("ja", include_str!("../../../web/src/locales/ja.json")),
        ]
        .into_iter()
        .filter_map(|(language, text)| Some((language, serde_json::from_str(text).ok()?)))
        .collect()
    })
}

impl Texts {
    /// The texts of the first of `languages` there are texts for ("es-AR" takes "es"),
    /// else English.
    fn for_languages(languages: &[String]) -> Texts {
        let locales = locales();
        let chosen = languages
            .iter()
            .filter_map(|tag| tag.split('-').next())
            .find_map(|language| locales.get(language.to_ascii_lowercase().as_str()));
        Texts(chosen.or_else(|| locales.get("en")).unwrap_or(&Value::Null))
    }

    fn get(&self, path: &[&str]) -> Option<&'static str> {
        path.iter()
            .try_fold(self.0, |value, key| value.get(key))?
            .as_str()
    }
}

/// An unsubscribe link's secret.
#[derive(Deserialize, IntoParams)]
pub struct UnsubscribeKey {
    /// The key the mail's link names.
    pub key: String,
}

/// The page an unsubscribe link with `key` opens: one button that stops the mail
/// (`GET /api/mail/unsubscribe`, [`crate::accounts::unsubscribe`]).
pub async fn unsubscribe_page(
    store: &dyn Store,
    key: &str,
) -> Result<(StatusCode, Html<String>), ApiError> {
    let Some(languages) = store.key_languages(key).await? else {
        return Ok(unknown_key());
    };
    // Stored keys are letters and digits only: it goes back into the page as it came.
    Ok(mail_page(StatusCode::OK, &languages, |text| {
        format!(
            "<p>{}</p><form method=\"post\" action=\"/api/mail/unsubscribe?key={key}\">\
             <button type=\"submit\">{}</button></form>",
            text("unsubscribeAsk"),
            text("unsubscribeButton"),
        )
    }))
}

/// The page of a key that names no account.
fn unknown_key() -> (StatusCode, Html<String>) {
    mail_page(StatusCode::NOT_FOUND, &[], |text| {
        format!("<p>{}</p>", text("unsubscribeUnknown"))
    })
}

/// A page about turn mail in the first of `languages` the site speaks: its body is what
/// `body` writes with the texts of the `mail` section.
fn mail_page(
    status: StatusCode,
    languages: &[String],
    body: impl FnOnce(&dyn Fn(&str) -> &'static str) -> String,
) -> (StatusCode, Html<String>) {
    let texts = Texts::for_languages(languages);
    let text = |key: &str| texts.get(&["mail", key]).unwrap_or_default();
    (status, Html(page(text("unsubscribeTitle"), &body(&text))))
}

/// Stops the turn mail of `key`'s account, and the page that says so
/// (`POST /api/mail/unsubscribe`, [`crate::accounts::unsubscribe`]).
pub async fn unsubscribe(
    store: &dyn Store,
    key: &str,
) -> Result<(StatusCode, Html<String>), ApiError> {
    let Some(languages) = store.unsubscribe(key).await? else {
        return Ok(unknown_key());
    };
    Ok(mail_page(StatusCode::OK, &languages, |text| {
        format!(
            "<p>{}</p><p><a href=\"/\">{}</a></p>",
            text("unsubscribed"),
            text("openSite")
        )
    }))
}

/// A small page of the server's own (the texts are ours, never a person's).
fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>body{{font-family:system-ui,sans-serif;max-width:32rem;\
         margin:3rem auto;padding:0 1rem;line-height:1.5}}button{{font:inherit;padding:.5rem 1rem}}\
         </style></head><body><h1>{title}</h1>{body}</body></html>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mailer() -> Mailer {
        Mailer::new(&MailConfig {
            host: "127.0.0.1".into(),
            port: Some(2525),
            security: SmtpSecurity::None,
            username: None,
            password: None,
            from: "Tabletop <turns@example.org>".into(),
            public_url: "https://play.example.org/".into(),
        })
        .expect("a mailer")
    }

    fn message(languages: &[String]) -> String {
        let notice = TurnNotice {
            to: "ana@example.org",
            name: "Ana",
            game: "valley",
            game_id: "g123",
            languages,
            unsubscribe_key: "k456",
        };
        String::from_utf8(mailer().turn_message(&notice).expect("a mail").formatted())
            .expect("text")
    }

    // The transport's pool needs the runtime it is dropped on.
    #[tokio::test]
    async fn a_turn_mail_links_the_table_and_the_unsubscribe() {
        let mail = message(&[]);
        assert!(
            mail.contains("https://play.example.org/#/game/g123"),
            "{mail}"
        );
        assert!(
            mail.contains(
                "List-Unsubscribe: <https://play.example.org/api/mail/unsubscribe?key=k456>"
            ),
            "{mail}"
        );
        assert!(
            mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
            "{mail}"
        );
        assert!(mail.contains("Valley of the Kings"), "{mail}");
        assert!(mail.contains("To: ana@example.org"), "{mail}");
    }

    #[tokio::test]
    async fn a_turn_mail_speaks_the_first_language_it_can() {
        let spanish = message(&["pt".into(), "es-AR".into(), "en".into()]);
        assert!(spanish.contains("El Valle de los Reyes"), "{spanish}");
        let english = message(&["pt".into()]);
        assert!(english.contains("Valley of the Kings"), "{english}");
    }

    #[test]
    fn settings_that_cannot_be_used_are_refused() {
        let mut config = MailConfig {
            host: "127.0.0.1".into(),
            port: None,
            security: SmtpSecurity::None,
            username: None,
            password: None,
            from: "not an address".into(),
            public_url: "https://play.example.org".into(),
        };
        assert!(Mailer::new(&config).is_err());
        config.from = "turns@example.org".into();
        config.public_url = "play.example.org".into();
        assert!(Mailer::new(&config).is_err());
        assert!("ssl".parse::<SmtpSecurity>().is_err());
    }
}
