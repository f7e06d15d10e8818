//! The browser's rules panel (web/src/games/GAME/rules/LANG.json, written by us from the
//! game's spec) lists exactly the rule ids the game's engine cites (`Game::RULES`), in the
//! spec's order, in each of the four languages: every rule a refusal or an offered action
//! links to is there to be read.

use std::path::Path;

use engine::Game;
use serde_json::Value;
use tabletop::games::{names, with_game, GameVisitor};

const LANGUAGES: [&str; 4] = ["en", "es", "it", "ja"];

struct Rules;

impl GameVisitor for Rules {
    type Output = &'static [&'static str];
    fn visit<G: Game>(self) -> Self::Output {
        G::RULES
    }
}

fn panel_ids(game: &str, lang: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("web/src/games")
        .join(game)
        .join("rules")
        .join(format!("{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("the rules file is JSON");
    let sections = doc["sections"].as_array().expect("sections");
    sections
        .iter()
        .flat_map(|s| s["rules"].as_array().expect("rules").iter())
        .map(|rule| {
            let text = rule["text"].as_str().unwrap_or_default();
            assert!(!text.trim().is_empty(), "{game} {lang}: {rule} has no text");
            rule["id"].as_str().expect("an id").to_owned()
        })
        .collect()
}

#[test]
fn every_rule_of_every_game_is_in_the_rules_panel_in_four_languages() {
    for game in names() {
        let rules = with_game(game, Rules).expect("a listed game");
        for lang in LANGUAGES {
            assert_eq!(panel_ids(game, lang), rules, "{game}, {lang}");
        }
    }
}
