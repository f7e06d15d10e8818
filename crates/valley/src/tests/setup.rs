//! Setup, config validation and card data (K-S*, K-SC*, K-A20).

use super::*;
use crate::data::{StarterType, STANDARD_DATA};
use engine::SetupError;

fn cfg(players: u8, pool: &str) -> ValleyConfig {
    ValleyConfig {
        players,
        pool: Some(pool.into()),
        ..ValleyConfig::default()
    }
}

#[test]
fn player_counts_and_versions() {
    // rule K-SC1, K-SC2, K-A18, K-S1
    for pool in ["base", "afterlife", "last_rites", "premium"] {
        for players in 2..=4 {
            assert!(
                Valley::new(&cfg(players, pool), 1).is_ok(),
                "{pool} {players}"
            );
        }
    }
    for players in [5, 6] {
        assert!(Valley::new(&cfg(players, "premium"), 1).is_ok());
        // 5–6 players need a mixed pool; by default they get the premium mix.
        assert!(
            matches!(Valley::new(&cfg(players, "base"), 1), Err(SetupError::Config(m)) if m.contains("K-SC2"))
        );
        let default = ValleyConfig {
            players,
            ..ValleyConfig::default()
        };
        assert_eq!(
            Valley::new(&default, 1).expect("valid").config.preset(),
            "premium"
        );
    }
    for players in [1, 7] {
        assert!(matches!(
            Valley::new(&cfg(players, "base"), 1),
            Err(SetupError::PlayerCount { .. })
        ));
    }
    assert!(matches!(
        Valley::new(&cfg(3, "deluxe"), 1),
        Err(SetupError::Config(_))
    ));
}

#[test]
fn starter_types() {
    // rule K-S3, K-SC3, K-S2
    let g = Valley::new(&cfg(3, "last_rites"), 1).expect("valid");
    let lr = ids(&g, &["Menial", "Embalmer", "Kite", "Medjay"]);
    let all: Vec<CardId> = g
        .zones(0)
        .hand
        .iter()
        .chain(g.zones(0).deck.iter())
        .copied()
        .collect();
    let counts: Vec<usize> = lr
        .iter()
        .map(|c| all.iter().filter(|x| *x == c).count())
        .collect();
    assert_eq!(counts, vec![4, 3, 2, 1]);
    // Either starter type with any pool; every seat gets the same type.
    let mixed = ValleyConfig {
        starters: Some(StarterType::LastRites),
        ..cfg(3, "afterlife")
    };
    let g = Valley::new(&mixed, 1).expect("valid");
    for s in 0..3 {
        assert!(g
            .zones(s)
            .hand
            .iter()
            .chain(g.zones(s).deck.iter())
            .all(|c| lr.contains(c)));
    }
    // Starters not dealt never reach the stock.
    assert!(g.stock.iter().all(|&c| g.rules().card(c).level > 1));
}

#[test]
fn explicit_pool_and_its_minimum() {
    // rule K-S1, K-S2
    let small = ValleyConfig {
        pool_cards: vec!["Boat".into(), "Censer".into()],
        ..cfg(2, "base")
    };
    assert!(matches!(Valley::new(&small, 1), Err(SetupError::Config(m)) if m.contains("K-S2")));
    let ok = ValleyConfig {
        pool_cards: vec![
            "Book of Gates".into(),
            "Book of the Dead".into(),
            "Statue of Thoth".into(),
        ],
        ..cfg(2, "base")
    };
    let g = Valley::new(&ok, 1).expect("9 cards are enough");
    assert_eq!(g.stock.len() + 7, 9);
    let bad = ValleyConfig {
        pool_cards: vec!["Shabti".into()],
        ..cfg(2, "base")
    };
    assert!(Valley::new(&bad, 1).is_err());
}

#[test]
fn start_seat_and_first_turn() {
    // rule K-S8, K-S11, K-T1
    let mut starts = [0; 4];
    for seed in 0..40 {
        let g = Valley::new(&cfg(4, "base"), seed).expect("valid");
        starts[usize::from(g.start_seat)] += 1;
        assert_eq!(g.to_move(), Some(g.start_seat));
        assert_eq!(g.phase, Phase::Play);
        assert!((0..4).all(|s| g.zones(s).turns == 0));
        assert_eq!(g.turn, TurnState::fresh());
    }
    assert!(starts.iter().all(|&n| n > 0), "{starts:?}");
}

#[test]
fn rng_order_is_normative() {
    // rule K-S10: deck shuffles in seat order, then level III, level II, start seat.
    use rand::seq::SliceRandom;
    use rand::Rng as _;
    let g = Valley::new(&cfg(3, "base"), 77).expect("valid");
    let mut rng = engine::rng_from_seed(77);
    let rules = g.rules();
    for s in 0..3 {
        let mut deck: Vec<CardId> = Vec::new();
        for &(id, n) in &rules.starters[0] {
            deck.extend(std::iter::repeat_n(id, usize::from(n)));
        }
        deck.shuffle(&mut rng);
        let mut hand = deck.split_off(5);
        hand.sort_unstable();
        assert_eq!(g.zones(s).deck.to_vec(), deck);
        assert_eq!(g.zones(s).hand.to_vec(), hand);
    }
    let pool = Valley::pool_kinds(rules, &g.config).expect("pool");
    let mut stock = Vec::new();
    for level in [3, 2] {
        let mut part: Vec<CardId> = Vec::new();
        for &id in &pool {
            if rules.card(id).level == level {
                part.extend(std::iter::repeat_n(id, usize::from(rules.card(id).copies)));
            }
        }
        part.shuffle(&mut rng);
        stock.extend(part);
    }
    let boneyard = stock.len() - 7;
    assert_eq!(g.stock.to_vec(), stock[..boneyard].to_vec());
    assert_eq!(g.boneyard.to_vec(), vec![stock[boneyard]]);
    // K-S6: T, M0, M1, B0, B1, B2 from the top.
    let order = [5usize, 3, 4, 0, 1, 2];
    for (k, slot) in order.iter().enumerate() {
        assert_eq!(g.pyramid[*slot].card, stock[stock.len() - 1 - k]);
    }
    assert_eq!(g.start_seat, rng.gen_range(0..3));
}

#[test]
fn pharaohs_dealt_one_per_seat() {
    // rule K-S9, K-Z6
    let c = ValleyConfig {
        pharaohs: true,
        ..cfg(4, "premium")
    };
    let g = Valley::new(&c, 3).expect("valid");
    let ph: Vec<u8> = (0..4).map(|s| g.zones(s).pharaoh).collect();
    let mut sorted = ph.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 4);
    assert!(ph.iter().all(|&p| p != NONE));
    let off = Valley::new(&cfg(4, "premium"), 3).expect("valid");
    assert!((0..4).all(|s| off.zones(s).pharaoh == NONE));
}

#[test]
fn data_counts_and_presets() {
    // rule K-SC4, K-A20
    let rules = Rules::standard();
    for (version, ii, iii) in [
        ("base", 29, 27),
        ("afterlife", 29, 27),
        ("last_rites", 28, 28),
    ] {
        let v = rules
            .versions
            .iter()
            .position(|x| x == version)
            .expect("version") as u8;
        let count = |level| -> u32 {
            rules
                .cards
                .iter()
                .filter(|c| c.version == v && c.level == level)
                .map(|c| u32::from(c.copies))
                .sum()
        };
        assert_eq!((count(2), count(3)), (ii, iii), "{version}");
    }
    assert_eq!(rules.pharaohs.len(), 10);
    let books = rules
        .sets
        .iter()
        .find(|s| s.name == "Books")
        .expect("books");
    assert_eq!(books.size, 6);
    // Unknown actions mean no action, and are flagged.
    let bastet = rules.card(rules.card_named("Statue of Bastet").expect("bastet"));
    assert!(bastet.action.is_none());
    assert!(bastet.provisional.contains(&"action".to_string()));
}

fn edited(from: &str, to: &str) -> String {
    assert!(STANDARD_DATA.contains(from), "{from}");
    STANDARD_DATA.replacen(from, to, 1)
}

#[test]
fn malformed_or_inconsistent_card_files_are_refused() {
    // rule K-SC4, K-A20 (bad input: typed errors, never a panic)
    let cases = [
        ("schema_version = 1", "schema_version = 2", "schema_version"),
        (
            "name = \"Statue of Bastet\"\nversion = \"base\"\nlevel = \"II\"",
            "name = \"Statue of Bastet\"\nversion = \"base\"\nlevel = \"III\"",
            "level II cards",
        ),
        (
            "[[set]]\nid = \"Books\"\nsize = 6",
            "[[set]]\nid = \"Books\"\nsize = 7",
            "has size 7",
        ),
        (
            "base = [[\"Shabti\", 4]",
            "base = [[\"Shabti\", 5]",
            "expected 10",
        ),
        (
            "{ op = \"repeat_action\" }",
            "{ op = \"teleport\" }",
            "unknown op",
        ),
        (
            "cost_le = \"2*$s.cost\"",
            "cost_le = \"2*$t.cost\"",
            "before a part binds",
        ),
        (
            "provisional = [\"level\", \"gold\", \"copies\", \"action\"]",
            "provisional = [\"level\", \"copies\", \"action\"]",
            "gold is missing",
        ),
        (
            "game = \"valley\"",
            "game = \"valley\"\nsurprise = 1",
            "unknown field",
        ),
    ];
    for (from, to, message) in cases {
        let text = edited(from, to);
        let err = Rules::parse(&text).expect_err(message);
        assert!(
            err.to_string().contains(message),
            "{err} does not say {message:?}"
        );
        let mut config = ValleyConfig::default();
        assert!(matches!(
            <Valley as Game>::load_data(&mut config, &text),
            Err(SetupError::Data(_))
        ));
    }
    assert!(Rules::parse("not toml [").is_err());
}

#[test]
fn strict_data_refuses_provisional_fields() {
    // rule K-A20, K-S1
    let strict = ValleyConfig {
        strict_data: true,
        ..cfg(3, "base")
    };
    match Valley::new(&strict, 1) {
        Err(SetupError::Data(m)) => assert!(m.contains("Shabti"), "{m}"),
        other => panic!("expected a data error, got {other:?}"),
    }
    assert!(ValleyConfig::default()
        .provisional_data()
        .iter()
        .any(|p| p.starts_with("Shabti: ")));
    assert!(
        Valley::new(&cfg(3, "base"), 1)
            .expect("valid")
            .view(None)
            .provisional_data
    );
    // A verified file with no provisional field is accepted.
    let mut config = cfg(3, "t");
    config.strict_data = true;
    <Valley as Game>::load_data(&mut config, VERIFIED).expect("the verified file loads");
    assert!(config.provisional_data().is_empty());
    let g = Valley::new(&config, 1).expect("nothing provisional is left");
    assert_eq!(g.to_move(), Some(g.start_seat));
}

const VERIFIED: &str = r#"
schema_version = 1
game = "valley"
unique_default_vp = 3
[level_defaults.I]
cost = 0
gold = 1
vp = 1
copies = 1
[level_defaults.II]
cost = 3
gold = 1
vp = 0
copies = 3
[level_defaults.III]
cost = 5
gold = 2
vp = 0
copies = 3
[[version]]
id = "t"
level_ii = 4
level_iii = 4
[presets]
t = ["t"]
[starters]
base = [["A", 10]]
last_rites = [["A", 10]]
[[set]]
id = "S"
size = 2
[[card]]
name = "A"
version = "t"
level = "I"
category = "starter"
cost = 0
gold = 1
vp = 1
action = "none"
confidence = "confirmed"
[[card]]
name = "B"
version = "t"
level = "II"
category = "S"
cost = 3
gold = 1
copies = 4
action = [{ op = "take", from = "stock_top" }]
confidence = "confirmed"
[[card]]
name = "C"
version = "t"
level = "III"
category = "S"
cost = 5
gold = 2
copies = 4
action = "none"
confidence = "confirmed"
"#;

#[test]
fn a_game_shares_its_config_with_its_clones_only() {
    // The state points to its config (a clone copies no heap values), and nothing else
    // does: there is no process-wide table of configs to look a new game's up in.
    let a = Valley::new(&cfg(3, "afterlife"), 1).expect("valid");
    let b = Valley::new(&cfg(3, "afterlife"), 2).expect("valid");
    assert_eq!(a.config(), b.config());
    assert!(!std::ptr::eq(a.config(), b.config()), "one copy per game");
    assert_eq!(Arc::strong_count(&a.config), 1);
    let copy = a.clone();
    assert!(Arc::ptr_eq(&copy.config, &a.config));
    assert_eq!(Arc::strong_count(&a.config), 2);
}

#[test]
fn games_on_many_distinct_configs_leave_nothing_behind() {
    let mut configs = Vec::new();
    for cost in 0..=200u8 {
        let mut rules = Rules::standard().clone();
        rules.cards[0].cost = cost;
        let config = ValleyConfig {
            rules: engine::DataRef::new(rules),
            ..cfg(2 + cost % 3, "base")
        };
        let game = Valley::new(&config, u64::from(cost)).expect("valid");
        let replica = game.clone();
        configs.push((
            Arc::downgrade(&game.config),
            Arc::downgrade(config.rules.shared()),
        ));
        drop((game, replica, config));
    }
    // Each game, its clone and the config it was made from are gone: so are their
    // configs and data, kept by nothing else.
    for (config, rules) in configs {
        assert!(config.upgrade().is_none() && rules.upgrade().is_none());
    }
}
