//! The one place that names every game, and the generic helpers every subcommand uses
//! to build a game's config from the command line or from JSON.
//!
//! Adding a game is one line in the `games!` invocation below.

use std::fmt;
use std::path::Path;

use engine::{has_config_field, Game, GameError, GameErrorKind};
use serde_json::{Map, Value};

/// Work that needs the concrete game type: `with_game` calls `visit::<G>()` for the game
/// picked by name at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// A game name that is not in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGame {
    pub name: String,
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game {:?}; known games: {}",
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

macro_rules! games {
    ($($game:ty),+ $(,)?) => {
        /// The names of every game, in the order they are listed.
        pub fn names() -> Vec<&'static str> {
            vec![$(<$game as Game>::NAME),+]
        }

        /// Every game as the server hosts it.
        #[cfg(feature = "cli")]
        pub fn catalog() -> server::Catalog {
            server::Catalog::new(vec![$(server::kind::<$game>()),+])
        }

        /// Runs `visitor` with the game called `name` (case-insensitive).
        pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(
                if name.eq_ignore_ascii_case(<$game as Game>::NAME) {
                    return Ok(visitor.visit::<$game>());
                }
            )+
            Err(UnknownGame { name: name.to_string(), known: names() })
        }
    };
}

games! {
    valdora::Valdora,
    valley::Valley,
    pandoria::Pandoria,
}

/// Merges `overrides` into `base`: objects merge key by key (recursively), anything else
/// replaces.
pub fn merge_json(base: &mut Value, overrides: &Value) {
    match (base, overrides) {
        (Value::Object(base), Value::Object(over)) => {
            for (k, v) in over {
                match base.get_mut(k) {
                    Some(slot) => merge_json(slot, v),
                    None => {
                        base.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (base, over) => *base = over.clone(),
    }
}

/// The games whose config has a `turn_cap`.
pub fn with_turn_cap() -> Vec<&'static str> {
    struct HasTurnCap;
    impl GameVisitor for HasTurnCap {
        type Output = Option<&'static str>;
        fn visit<G: Game>(self) -> Self::Output {
            has_config_field::<G>("turn_cap").then_some(G::NAME)
        }
    }
    names()
        .into_iter()
        .filter_map(|name| with_game(name, HasTurnCap).ok().flatten())
        .collect()
}

/// What shapes a config besides the game's defaults.
#[derive(Debug, Default, Clone)]
pub struct ConfigSpec<'a> {
    /// A JSON object merged into the default config.
    pub overrides: Option<&'a Value>,
    /// Sets the config's `players` field.
    pub players: Option<u64>,
    /// Sets the config's `turn_cap` field.
    pub turn_cap: Option<u64>,
    /// A component data file given to `Game::load_data`.
    pub data: Option<&'a Path>,
    /// Or the text of one: a record of the server's (`data_toml`).
    pub data_toml: Option<&'a str>,
}

/// Builds `G::Config` generically: the default config as JSON, with the overrides, the
/// player count and the turn cap written in, deserialized back, then the data file loaded.
///
/// Errors are `malformed` (the JSON does not fit the config) or `setup` (the data file
/// cannot be read or is invalid).
pub fn build_config<G: Game>(spec: &ConfigSpec<'_>) -> Result<G::Config, GameError> {
    let malformed = |msg: String| GameError::new(GameErrorKind::Malformed, msg);
    let mut json = serde_json::to_value(G::Config::default()).map_err(|e| {
        malformed(format!(
            "{}: the default config does not serialize: {e}",
            G::NAME
        ))
    })?;
    if let Some(over) = spec.overrides {
        if !over.is_object() {
            return Err(malformed(format!(
                "the config must be a JSON object, not {over}"
            )));
        }
        merge_json(&mut json, over);
    }
    let obj: &mut Map<String, Value> = json.as_object_mut().ok_or_else(|| {
        malformed(format!(
            "{}: the config is not a JSON object; --players and --turn-cap cannot be set",
            G::NAME
        ))
    })?;
    for (field, value) in [("players", spec.players), ("turn_cap", spec.turn_cap)] {
        if let Some(v) = value {
            if !obj.contains_key(field) {
                return Err(malformed(format!(
                    "{} has no {field:?} setting in its config",
                    G::NAME
                )));
            }
            obj.insert(field.to_string(), Value::from(v));
        }
    }
    let mut config: G::Config = match serde_json::from_value(json.clone()) {
        Ok(config) => config,
        Err(e) => {
            // A player count that does not even fit the config's field (`players: 300`)
            // gets the game's own player-count message, like any other unsupported count;
            // but only when it is the player count that does not fit (the same config with
            // the default count reads), not any other field.
            if let Some(err) = spec
                .players
                .filter(|_| reads_with_default_players::<G>(json))
                .and_then(player_count_error::<G>)
            {
                return Err(err);
            }
            return Err(malformed(format!("bad {} config: {e}", G::NAME)));
        }
    };
    match (spec.data, spec.data_toml) {
        (Some(_), Some(_)) => {
            return Err(GameError::new(
                GameErrorKind::Setup,
                "both a data file and data text given: give one",
            ))
        }
        (Some(path), None) => {
            let text = read_data_file(path)?;
            G::load_data(&mut config, &text).map_err(|e| {
                GameError::new(
                    GameErrorKind::Setup,
                    format!(
                        "data file {}: {}",
                        clip_path(path),
                        redact_file_text(&e.to_string())
                    ),
                )
            })?;
        }
        (None, Some(text)) => G::load_data(&mut config, text)
            .map_err(|e| GameError::new(GameErrorKind::Setup, format!("data_toml: {e}")))?,
        (None, None) => {}
    }
    Ok(config)
}

/// Whether `json` reads as a config once its `players` is the default config's.
fn reads_with_default_players<G: Game>(mut json: Value) -> bool {
    let default_players = serde_json::to_value(G::Config::default())
        .ok()
        .and_then(|d| d.get("players").cloned());
    match (json.as_object_mut(), default_players) {
        (Some(obj), Some(players)) => {
            obj.insert("players".into(), players);
            serde_json::from_value::<G::Config>(json).is_ok()
        }
        _ => false,
    }
}

/// The game's player-count error for `players`, found by asking the game to set up with
/// no players at all (every game refuses that with `SetupError::PlayerCount`, which
/// carries its range). `None` if the game answers otherwise.
fn player_count_error<G: Game>(players: u64) -> Option<GameError> {
    let mut json = serde_json::to_value(G::Config::default()).ok()?;
    json.as_object_mut()?
        .insert("players".into(), Value::from(0));
    let config: G::Config = serde_json::from_value(json).ok()?;
    match G::new(&config, 0) {
        Err(engine::SetupError::PlayerCount { game, min, max, .. }) => Some(GameError::new(
            GameErrorKind::Setup,
            format!("unsupported player count {players}: {game} plays with {min} to {max}"),
        )),
        _ => None,
    }
}

/// The largest component data file read, in bytes (the shipped ones are about 20 KB).
pub const MAX_DATA_FILE_BYTES: u64 = 1024 * 1024;

/// Reads a component data file: a regular file (symbolic links are followed) of at most
/// [`MAX_DATA_FILE_BYTES`] of UTF-8 text. Devices, pipes and directories are refused, so
/// that a path like `/dev/zero` can neither block nor exhaust memory. Errors name the
/// path and the reason, never the file's contents.
pub fn read_data_file(path: &Path) -> Result<String, GameError> {
    use std::io::Read as _;
    let setup = |why: String| {
        GameError::new(
            GameErrorKind::Setup,
            format!("cannot read data file {}: {why}", clip_path(path)),
        )
    };
    let too_large = || setup(format!("it is larger than {MAX_DATA_FILE_BYTES} bytes"));
    let meta = std::fs::metadata(path).map_err(|e| setup(e.to_string()))?;
    if !meta.is_file() {
        return Err(setup("not a regular file".into()));
    }
    if meta.len() > MAX_DATA_FILE_BYTES {
        return Err(too_large());
    }
    // The size may have changed since (or be reported as 0, as in /proc): the read is
    // capped as well.
    let file = std::fs::File::open(path).map_err(|e| setup(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_DATA_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| setup(e.to_string()))?;
    if bytes.len() as u64 > MAX_DATA_FILE_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        setup(format!(
            "it is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A path for a message, cut short: it may come from a client.
fn clip_path(path: &Path) -> String {
    clip(&path.display().to_string(), 120)
}

/// `s` cut to at most `max` characters, marked with `…` when cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() > max {
        let cut: String = s.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        s.to_string()
    }
}

/// A data file's error message without anything quoted from the file: the TOML parser
/// shows the offending line (`12 | text`), and both it and serde quote values and keys
/// ("invalid type: string \"…\"", "unknown field `…`"). Such lines are dropped and quoted
/// parts blanked, keeping the position and the kind of the error.
pub fn redact_file_text(message: &str) -> String {
    let kept: Vec<String> = message
        .lines()
        .filter(|line| {
            // The snippet lines: "   |", "12 | text", "   |     ^".
            let t = line.trim_start();
            let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
            !t.trim_start().starts_with('|') && !t.trim().is_empty()
        })
        .map(blank_quoted)
        .collect();
    kept.join(" ")
}

/// Replaces what stands between `"…"` or `` `…` `` quotes with `…`, except the TOML
/// parser's own grammar tokens (`` `=` ``, `` `.` ``: at most 3 punctuation characters),
/// which say what was expected without quoting the file.
fn blank_quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut open: Option<(char, String)> = None;
    for c in line.chars() {
        match open.as_mut() {
            Some((q, inside)) if c == *q => {
                let token = inside.chars().count() <= 3
                    && !inside.is_empty()
                    && inside.chars().all(|ch| ch.is_ascii_punctuation());
                out.push_str(if token { inside.as_str() } else { "…" });
                out.push(c);
                open = None;
            }
            Some((_, inside)) => inside.push(c),
            None => {
                out.push(c);
                if c == '"' || c == '`' {
                    open = Some((c, String::new()));
                }
            }
        }
    }
    if open.is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn dispatch_by_name() {
        assert_eq!(with_game("valdora", Name), Ok("valdora"));
        assert_eq!(with_game("Valdora", Name), Ok("valdora"));
        let err = with_game("chess", Name).unwrap_err();
        assert!(err.to_string().contains("known games: valdora"), "{err}");
    }

    #[test]
    fn merge_is_deep() {
        let mut base = serde_json::json!({"a": 1, "b": {"c": 2, "d": 3}});
        merge_json(&mut base, &serde_json::json!({"b": {"c": 5}, "e": true}));
        assert_eq!(
            base,
            serde_json::json!({"a": 1, "b": {"c": 5, "d": 3}, "e": true})
        );
    }

    #[test]
    fn data_files_are_regular_capped_and_never_echoed() {
        let dir = std::env::temp_dir().join(format!("tabletop-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A directory, a device: not regular files.
        for path in [dir.as_path(), Path::new("/dev/null")] {
            let err = read_data_file(path).unwrap_err();
            assert!(
                err.message.contains("not a regular file"),
                "{}",
                err.message
            );
        }
        // Too large.
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_DATA_FILE_BYTES as usize + 1]).unwrap();
        let err = read_data_file(&big).unwrap_err();
        assert!(err.message.contains("larger than"), "{}", err.message);
        // A file that is not data: its text never shows in the error.
        let secret = dir.join("secret.toml");
        std::fs::write(&secret, "root:x:0:0:SECRET-LINE\nname = \"SECRET-VALUE\"\n").unwrap();
        let spec = ConfigSpec {
            data: Some(&secret),
            data_toml: None,
            ..Default::default()
        };
        for err in [
            build_config::<valdora::Valdora>(&spec).unwrap_err(),
            build_config::<valley::Valley>(&spec).unwrap_err(),
            build_config::<pandoria::Pandoria>(&spec).unwrap_err(),
        ] {
            assert_eq!(err.kind, GameErrorKind::Setup);
            assert!(!err.message.contains("SECRET"), "{}", err.message);
            assert!(err.message.contains("line 1"), "{}", err.message);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn redaction_keeps_the_position_and_grammar_tokens_only() {
        let toml = "TOML parse error at line 1, column 5\n  |\n1 | root:x:0:0\n  |     ^\n\
                    expected `.`, `=`\n";
        assert_eq!(
            redact_file_text(toml),
            "TOML parse error at line 1, column 5 expected `.`, `=`"
        );
        assert_eq!(
            redact_file_text("invalid type: string \"hunter2\", unknown field `passwd`"),
            "invalid type: string \"…\", unknown field `…`"
        );
    }

    #[test]
    fn a_player_count_beyond_the_field_gets_the_player_count_message() {
        let spec = ConfigSpec {
            players: Some(300),
            ..Default::default()
        };
        let err = build_config::<valdora::Valdora>(&spec).unwrap_err();
        assert_eq!(err.kind, GameErrorKind::Setup);
        assert_eq!(
            err.message,
            "unsupported player count 300: valdora plays with 3 to 5"
        );
        let err = build_config::<pandoria::Pandoria>(&spec).unwrap_err();
        assert!(err.message.starts_with("unsupported player count 300"));
    }

    #[test]
    fn config_fields() {
        let spec = ConfigSpec {
            players: Some(3),
            turn_cap: Some(40),
            ..Default::default()
        };
        let c = build_config::<valdora::Valdora>(&spec).unwrap();
        assert_eq!((c.players, c.turn_cap), (3, Some(40)));
        let bad = serde_json::json!({"colour": 1});
        let spec = ConfigSpec {
            overrides: Some(&bad),
            ..Default::default()
        };
        let err = build_config::<valdora::Valdora>(&spec).unwrap_err();
        assert_eq!(err.kind, GameErrorKind::Malformed);
        // With a player count as well, the message still names the field at fault.
        let spec = ConfigSpec {
            overrides: Some(&bad),
            players: Some(4),
            ..Default::default()
        };
        let err = build_config::<valdora::Valdora>(&spec).unwrap_err();
        assert_eq!(err.kind, GameErrorKind::Malformed);
        assert!(err.message.contains("unknown field"), "{}", err.message);
    }
}
