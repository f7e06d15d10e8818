//! The browser client's TypeScript types (`web/src/generated/`) are generated from the Rust
//! types with ts-rs, never written by hand. This test fails when the committed files are
//! stale; `scripts/generate-types` (TABLETOP_WRITE_TYPES=1) rewrites them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engine::Game;
use ts_rs::{Config, TS};

/// Every type the client uses, with the types they contain.
fn export_all(config: &Config) -> Result<(), ts_rs::ExportError> {
    use server::protocol::*;
    ClientMessage::export_all(config)?;
    ServerMessage::export_all(config)?;
    ErrorBody::export_all(config)?;
    CreateGame::export_all(config)?;
    Created::export_all(config)?;
    JoinGame::export_all(config)?;
    Joined::export_all(config)?;
    GameSummary::export_all(config)?;
    ClockKind::export_all(config)?;
    LogEntry::export_all(config)?;
    server::Kinds::export_all(config)?;
    server::Credentials::export_all(config)?;
    server::Deletion::export_all(config)?;
    server::Account::export_all(config)?;
    server::SeatTokens::export_all(config)?;
    server::AccountSeat::export_all(config)?;
    server::Profile::export_all(config)?;
    server::Leaderboard::export_all(config)?;
    server::AccountSettings::export_all(config)?;
    server::PasskeyStart::export_all(config)?;
    server::PasskeyChallenge::export_all(config)?;
    server::AccountPasskey::export_all(config)?;
    server::PasskeyFinish::export_all(config)?;
    server::AccountSettingsView::export_all(config)?;
    server::PostSeek::export_all(config)?;
    server::SeekPosted::export_all(config)?;
    server::SeekList::export_all(config)?;
    server::SeekState::export_all(config)?;
    server::NotificationList::export_all(config)?;
    server::NotificationsUpdate::export_all(config)?;
    server::ReadNotifications::export_all(config)?;
    server::Unread::export_all(config)?;
    server::LiveMessage::export_all(config)?;
    server::BrowserSeats::export_all(config)?;
    server::HeldSeats::export_all(config)?;
    server::FriendList::export_all(config)?;
    server::BlockAccount::export_all(config)?;
    server::Ending::export_all(config)?;
    server::moderation::NewReport::export_all(config)?;
    server::moderation::ReportFiled::export_all(config)?;
    server::moderation::MyReport::export_all(config)?;
    server::moderation::Moderate::export_all(config)?;
    server::moderation::ModerationAction::export_all(config)?;
    server::moderation::QueuedReport::export_all(config)?;
    server::moderation::MyStanding::export_all(config)?;
    server::Blocked::export_all(config)?;
    server::AskFriend::export_all(config)?;
    server::FriendAsked::export_all(config)?;
    server::InviteByName::export_all(config)?;
    server::replay::ReplayRequest::export_all(config)?;
    server::replay::Replay::export_all(config)?;
    engine::Outcome::export_all(config)?;
    export_game::<valdora::Valdora>(config)?;
    export_game::<valley::Valley>(config)?;
    export_game::<pandoria::Pandoria>(config)?;
    // The component tables boards draw from (`GET /api/games/kinds/{game}/data`).
    valley::tables::Tables::export_all(config)?;
    pandoria::tables::Tables::export_all(config)?;
    Ok(())
}

/// The generated files that are not types: each game's component tables on the shipped data
/// (`tables/GAME.json`, what the client is built with), the same on a corrected data file
/// (`tables/GAME-corrected.json`, for the client's tests of a table on corrected data), and
/// the Rust constants the client needs (`constants.ts`).
fn generated_data() -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    // A corrected file each: Boat's cost read off a card; the lake of row 3 one column west.
    let corrected = [
        (
            "valley",
            ("name = \"Boat\"\n", "name = \"Boat\"\ncost = 9\n"),
        ),
        ("pandoria", ("\"...~..........\",", "\"..~...........\",")),
    ];
    for (game, (from, to)) in corrected {
        let shipped = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/{game}.toml")),
        )
        .expect("the shipped data file");
        let changed = shipped.replacen(from, to, 1);
        assert_ne!(changed, shipped, "{game}: the correction applies");
        for (name, text) in [
            (game.to_string(), shipped),
            (format!("{game}-corrected"), changed),
        ] {
            let tables = tabletop::games::with_game(game, Components(&text))
                .expect("a listed game")
                .expect("a game with component tables");
            out.insert(
                PathBuf::from(format!("tables/{name}.json")),
                serde_json::to_string_pretty(&tables).expect("json") + "\n",
            );
        }
    }
    out.insert(PathBuf::from("constants.ts"), constants());
    out
}

/// The component tables of a game on a data file's text.
struct Components<'a>(&'a str);

impl tabletop::games::GameVisitor for Components<'_> {
    type Output = Option<serde_json::Value>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut config = G::Config::default();
        G::load_data(&mut config, self.0).expect("a valid data file");
        G::components(&config)
    }
}

/// The Rust constants the client uses, as TypeScript.
fn constants() -> String {
    use valdora::components::{Color, Gem, Item};
    let items: Vec<String> = Item::ALL
        .iter()
        .map(|&item| {
            let gem = (!item.loads_any()).then(|| Gem::ALL[item.index()]);
            format!("  {}: {},", ts(&item).trim_matches('\''), ts(&gem))
        })
        .collect();
    format!(
        "// Generated from the Rust constants by tests/generated_types.rs (scripts/generate-types): do not edit.\n\
         import type {{ Color }} from './valdora/Color'\n\
         import type {{ Gem }} from './valdora/Gem'\n\
         import type {{ Item }} from './valdora/Item'\n\
         \n\
         /** The longest chat message, in characters (Unicode code points): `server::chat::MAX_CHAT_CHARS`. */\n\
         export const MAX_CHAT_CHARS = {}\n\
         \n\
         /** The most seats one request hands to an account or names for a browser: `server::MAX_CLAIMED`. */\n\
         export const MAX_CLAIMED = {}\n\
         \n\
         /** The run-outs of a seat's clock after which a bot plays it to the end: `server::store::MAX_RUN_OUTS`. */\n\
         export const MAX_RUN_OUTS = {}\n\
         \n\
         /** Valdora: the order of every gem-count array in the view (V-C2, `Gem::ALL`). */\n\
         export const VALDORA_GEMS: readonly Gem[] = {}\n\
         \n\
         /** Valdora: the order of every colour-count array in the view (V-C8, `Color::ALL`). */\n\
         export const VALDORA_COLORS: readonly Color[] = {}\n\
         \n\
         /** Valdora: the gem each pan and tool loads; null for horse and cart, which load any (V-C5). */\n\
         export const VALDORA_ITEM_GEMS: Readonly<Record<Item, Gem | null>> = {{\n{}\n}}\n",
        server::chat::MAX_CHAT_CHARS,
        server::MAX_CLAIMED,
        server::store::MAX_RUN_OUTS,
        ts(&Gem::ALL),
        ts(&Color::ALL),
        items.join("\n"),
    )
}

/// A value as a TypeScript literal in the client's style: single quotes, a space after commas.
fn ts(value: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(value).expect("json");
    json.replace("\",\"", "\", \"").replace('"', "'")
}

fn export_game<G: Game>(config: &Config) -> Result<(), ts_rs::ExportError>
where
    G::View: TS,
    G::Action: TS,
    G::Event: TS,
{
    G::View::export_all(config)?;
    G::Action::export_all(config)?;
    G::Event::export_all(config)
}

fn files(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "ts" || e == "json") {
                let text = std::fs::read_to_string(&path).expect("readable generated file");
                found.insert(
                    path.strip_prefix(root).expect("below root").to_path_buf(),
                    text,
                );
            }
        }
    }
    found
}

#[test]
fn the_clients_generated_types_are_up_to_date() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/generated");
    if std::env::var_os("TABLETOP_WRITE_TYPES").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        export_all(&Config::new().with_out_dir(&committed)).expect("types written");
        for (path, text) in generated_data() {
            let path = committed.join(path);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder made");
            std::fs::write(path, text).expect("file written");
        }
        return;
    }
    let fresh = tempfile::tempdir().expect("temporary directory");
    export_all(&Config::new().with_out_dir(fresh.path())).expect("types generated");
    let mut want = files(fresh.path());
    want.extend(generated_data());
    let have = files(&committed);
    let stale: Vec<String> = want
        .iter()
        .filter(|(path, text)| have.get(*path) != Some(text))
        .map(|(path, _)| path.display().to_string())
        .chain(
            have.keys()
                .filter(|p| !want.contains_key(*p))
                .map(|p| format!("{} (no longer generated)", p.display())),
        )
        .collect();
    assert!(
        stale.is_empty(),
        "web/src/generated is stale ({}); run scripts/generate-types",
        stale.join(", ")
    );
}
