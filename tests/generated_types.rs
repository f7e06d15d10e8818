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
    server::PasskeyFinish::export_all(config)?;
    server::AccountSettingsView::export_all(config)?;
    server::replay::ReplayRequest::export_all(config)?;
    server::replay::Replay::export_all(config)?;
    engine::Outcome::export_all(config)?;
    export_game::<valdora::Valdora>(config)?;
    export_game::<valley::Valley>(config)?;
    export_game::<pandoria::Pandoria>(config)?;
    // The client's card tables name spells and buildings (web/src/games/pandoria/tables.ts).
    pandoria::cards::Spell::export_all(config)?;
    pandoria::cards::Building::export_all(config)?;
    Ok(())
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
            } else if path.extension().is_some_and(|e| e == "ts") {
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
        return;
    }
    let fresh = tempfile::tempdir().expect("temporary directory");
    export_all(&Config::new().with_out_dir(fresh.path())).expect("types generated");
    let (want, have) = (files(fresh.path()), files(&committed));
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
