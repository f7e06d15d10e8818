//! Component data (P-SC4): the TOML schema of `data/pandoria.toml`, its validation, and
//! the compiled [`Rules`] a game runs on. A corrected file can be loaded at run time.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use crate::board::{parse_ascii, Board, CellKind};
use crate::cards::{Building, Card, Param, Realm, Spell, RATES};
use crate::components::Terrain;
use crate::map::Hex;

/// The data file shipped with the game.
pub const STANDARD_DATA: &str = include_str!("../../../data/pandoria.toml");

/// Component counts fixed by the rules (P-SC4, confirmed).
pub const DOUBLE_TILES: usize = 48;
pub const STARTING_TILES: usize = 2;
pub const SINGLE_TILES: usize = 8;
pub const CARDS: usize = 54;
pub const COMMON_CARDS: usize = 44;
pub const MONUMENTS: usize = 13;
/// Monuments of values 4, 5 and 6 removed with 2 players (P-S11): at least this many of
/// each must exist.
pub const MONUMENTS_REMOVED_2P: usize = 2;

/// An invalid data file. The message names the offending entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pandoria data: {0}")]
pub struct DataError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError(msg.into()))
}

pub use engine::Confidence;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    schema_version: u32,
    game: String,
    board: BoardEntry,
    starting_tile: Vec<StartingTileEntry>,
    double_tiles: DoubleTilesEntry,
    single_tiles: SingleTilesEntry,
    monuments: MonumentsEntry,
    realm: Vec<RealmEntry>,
    card: Vec<CardEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardEntry {
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
    #[serde(default)]
    note: String,
    map: Vec<String>,
    printed: Vec<PrintedEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PrintedEntry {
    col: i8,
    row: i8,
    terrain: Terrain,
    terrain_confidence: Confidence,
    symbols: u8,
    symbols_confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct HexEntry {
    terrain: Terrain,
    symbols: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartingTileEntry {
    id: String,
    a: HexEntry,
    b: HexEntry,
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DoubleTilesEntry {
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
    #[serde(default)]
    note: String,
    tiles: Vec<DoubleTileEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DoubleTileEntry {
    id: String,
    a: HexEntry,
    b: HexEntry,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SingleTilesEntry {
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
    tiles: Vec<SingleTileEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SingleTileEntry {
    id: String,
    terrain: Terrain,
    symbols: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MonumentsEntry {
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
    #[serde(default)]
    note: String,
    values: Vec<MonumentValue>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MonumentValue {
    value: u8,
    count: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Resources {
    crystal: u8,
    gold: u8,
    wood: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RealmEntry {
    id: Realm,
    side_a: Resources,
    side_a_confidence: Confidence,
    side_b: Resources,
    side_b_confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardEntry {
    id: String,
    #[serde(default)]
    realm: Option<Realm>,
    #[serde(default)]
    marked_a: bool,
    spell: Spell,
    #[serde(default)]
    spell_value: Option<u8>,
    crystal_cost: u8,
    building: Building,
    #[serde(default)]
    building_value: Option<u8>,
    #[serde(default)]
    building_rate: Option<[u8; 2]>,
    wood_cost: u8,
    gold_price: u8,
    confidence: Confidence,
    #[serde(default)]
    placeholder: bool,
    #[serde(default)]
    note: String,
}

/// Start resources of a realm side: crystal, gold, wood (P-S4).
pub type StartResources = [u8; 3];

/// Validated component data, compiled into the flat tables the engine reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub board: Board,
    /// Printed/tile map text rows as given, for renderings.
    pub map_rows: Vec<String>,
    pub starting_tiles: [[Hex; 2]; STARTING_TILES],
    pub double_tiles: Vec<[Hex; 2]>,
    pub single_tiles: Vec<Hex>,
    /// Monument values, sorted ascending (the bottom of the stack first, P-S11).
    pub monuments: Vec<u8>,
    /// Per realm: side A and side B start resources.
    pub realms: [[StartResources; 2]; 5],
    pub cards: Vec<Card>,
    pub card_names: Vec<String>,
    pub double_tile_names: Vec<String>,
    pub single_tile_names: Vec<String>,
    /// Every entry that is not confirmed or holds invented values, for the notice shown
    /// to users.
    pub provisional: Vec<String>,
}

impl Rules {
    /// The shipped data, parsed once per process.
    pub fn standard() -> &'static Rules {
        <Rules as engine::ComponentData>::standard()
    }

    /// Parses and validates a data file.
    pub fn parse(text: &str) -> Result<Rules, DataError> {
        let file: File = toml::from_str(text).map_err(|e| DataError(e.to_string()))?;
        compile(file)
    }
}

fn note(provisional: &mut Vec<String>, confidence: Confidence, placeholder: bool, what: &str) {
    let level = match (confidence, placeholder) {
        (Confidence::Confirmed, false) => return,
        (_, true) => "placeholder values",
        (Confidence::Inferred, false) => "inferred",
        (Confidence::Unknown, false) => "unknown",
    };
    provisional.push(format!("{what}: {level}"));
}

/// Adds the entry's own note to the provisional line just written for it.
fn explain(provisional: &mut [String], detail: &str) {
    if let Some(last) = provisional.last_mut().filter(|_| !detail.is_empty()) {
        last.push_str(" (");
        last.push_str(detail);
        last.push(')');
    }
}

fn hex(entry: HexEntry, what: &str) -> Result<Hex, DataError> {
    if !(1..=2).contains(&entry.symbols) {
        return err(format!(
            "{what}: {} symbols; a hex has 1 or 2",
            entry.symbols
        ));
    }
    Ok(Hex {
        terrain: entry.terrain,
        symbols: entry.symbols,
    })
}

fn unique_id<'a>(seen: &mut HashSet<&'a str>, id: &'a str, what: &str) -> Result<(), DataError> {
    if !seen.insert(id) {
        return err(format!("{what}: id {id:?} is used twice"));
    }
    Ok(())
}

fn compile(file: File) -> Result<Rules, DataError> {
    if file.schema_version != 1 {
        return err(format!(
            "schema_version {} is not supported (expected 1)",
            file.schema_version
        ));
    }
    if file.game != "pandoria" {
        return err(format!("game = {:?}, expected \"pandoria\"", file.game));
    }
    let mut provisional = Vec::new();
    let mut ids: HashSet<&str> = HashSet::new();

    // Board (P-G2).
    let b = &file.board;
    note(&mut provisional, b.confidence, b.placeholder, "board map");
    explain(&mut provisional, &b.note);
    let mut symbols_at = std::collections::HashMap::new();
    for (i, p) in b.printed.iter().enumerate() {
        let what = format!("board.printed[{i}]");
        hex(
            HexEntry {
                terrain: p.terrain,
                symbols: p.symbols,
            },
            &what,
        )?;
        note(
            &mut provisional,
            p.terrain_confidence,
            false,
            &format!("{what} terrain"),
        );
        note(
            &mut provisional,
            p.symbols_confidence,
            p.placeholder,
            &format!("{what} symbols"),
        );
        symbols_at.insert((p.col, p.row), (p.terrain, p.symbols));
    }
    let layout = parse_ascii(&b.map, |c, r| {
        symbols_at.get(&(c, r)).map(|&(_, s)| s).unwrap_or(0)
    })
    .map_err(|e| DataError(format!("board.map: {e}")))?;
    for (at, kind) in &layout.cells {
        if let CellKind::Printed { terrain, symbols } = kind {
            let (col, row) = at.to_offset();
            match symbols_at.get(&(col, row)) {
                Some(&(t, _)) if t == *terrain => {}
                Some(_) => {
                    return err(format!(
                        "board.printed: the entry at col {col}, row {row} disagrees with the map's terrain"
                    ))
                }
                None if *symbols == 0 => {
                    return err(format!(
                        "board.map: printed hex at col {col}, row {row} has no board.printed entry"
                    ))
                }
                None => {}
            }
        }
    }
    if symbols_at.len()
        != layout
            .cells
            .iter()
            .filter(|(_, k)| matches!(k, CellKind::Printed { .. }))
            .count()
    {
        return err("board.printed: an entry names a cell that is not a printed hex on the map");
    }
    if layout.start_pairs.len() != STARTING_TILES {
        return err(format!(
            "board.map: {} start pairs; the 2 starting tiles need exactly 2",
            layout.start_pairs.len()
        ));
    }
    let board = Board::new(&layout.cells, &layout.start_pairs)
        .map_err(|e| DataError(format!("board.map: {e}")))?;

    // Starting tiles (P-S5).
    if file.starting_tile.len() != STARTING_TILES {
        return err(format!(
            "starting_tile: {} entries, expected {STARTING_TILES}",
            file.starting_tile.len()
        ));
    }
    let mut starting_tiles = [[Hex {
        terrain: Terrain::Forest,
        symbols: 1,
    }; 2]; STARTING_TILES];
    for (i, t) in file.starting_tile.iter().enumerate() {
        let what = format!("starting_tile[{i}] ({})", t.id);
        unique_id(&mut ids, &t.id, &what)?;
        starting_tiles[i] = two_halves(t.a, t.b, &what)?;
        note(&mut provisional, t.confidence, t.placeholder, &what);
    }

    // Double tiles.
    let d = &file.double_tiles;
    if d.tiles.len() != DOUBLE_TILES {
        return err(format!(
            "double_tiles: {} tiles, expected {DOUBLE_TILES}",
            d.tiles.len()
        ));
    }
    note(
        &mut provisional,
        d.confidence,
        d.placeholder,
        "double tiles",
    );
    explain(&mut provisional, &d.note);
    let mut double_tiles = Vec::with_capacity(DOUBLE_TILES);
    for (i, t) in d.tiles.iter().enumerate() {
        let what = format!("double_tiles[{i}] ({})", t.id);
        unique_id(&mut ids, &t.id, &what)?;
        double_tiles.push(two_halves(t.a, t.b, &what)?);
    }

    // Single tiles.
    let s = &file.single_tiles;
    if s.tiles.len() != SINGLE_TILES {
        return err(format!(
            "single_tiles: {} tiles, expected {SINGLE_TILES}",
            s.tiles.len()
        ));
    }
    note(
        &mut provisional,
        s.confidence,
        s.placeholder,
        "single tiles",
    );
    let mut single_tiles = Vec::with_capacity(SINGLE_TILES);
    for (i, t) in s.tiles.iter().enumerate() {
        let what = format!("single_tiles[{i}] ({})", t.id);
        unique_id(&mut ids, &t.id, &what)?;
        single_tiles.push(hex(
            HexEntry {
                terrain: t.terrain,
                symbols: t.symbols,
            },
            &what,
        )?);
    }

    // Monuments (P-S11, P-T6).
    let m = &file.monuments;
    note(
        &mut provisional,
        m.confidence,
        m.placeholder,
        "monument values",
    );
    explain(&mut provisional, &m.note);
    let mut monuments = Vec::new();
    for v in &m.values {
        if !(3..=6).contains(&v.value) {
            return err(format!("monuments: value {} is not in 3..=6", v.value));
        }
        monuments.extend(std::iter::repeat_n(v.value, usize::from(v.count)));
    }
    monuments.sort_unstable();
    if monuments.len() != MONUMENTS {
        return err(format!(
            "monuments: {} in all, expected {MONUMENTS}",
            monuments.len()
        ));
    }
    for value in 4..=6 {
        if monuments.iter().filter(|&&x| x == value).count() < MONUMENTS_REMOVED_2P {
            return err(format!(
                "monuments: fewer than {MONUMENTS_REMOVED_2P} of value {value}, which a 2-player setup removes"
            ));
        }
    }

    // Realms (P-S4).
    let mut realms = [[[0u8; 3]; 2]; 5];
    let mut seen_realm = [false; 5];
    for (i, r) in file.realm.iter().enumerate() {
        let what = format!("realm[{i}] ({:?})", r.id);
        if std::mem::replace(&mut seen_realm[r.id.index()], true) {
            return err(format!("{what}: listed twice"));
        }
        for (side, res, conf) in [
            (0, &r.side_a, r.side_a_confidence),
            (1, &r.side_b, r.side_b_confidence),
        ] {
            let values = [res.crystal, res.gold, res.wood];
            if values.iter().any(|&v| v > 10) {
                return err(format!("{what}: start resources above 10"));
            }
            realms[r.id.index()][side] = values;
            note(
                &mut provisional,
                conf,
                false,
                &format!("{what} side {}", if side == 0 { 'A' } else { 'B' }),
            );
        }
    }
    if let Some(missing) = Realm::ALL.iter().find(|r| !seen_realm[r.index()]) {
        return err(format!("realm: {missing:?} is missing"));
    }

    // Cards (P-D1, P-S8).
    if file.card.len() != CARDS {
        return err(format!("card: {} cards, expected {CARDS}", file.card.len()));
    }
    let mut cards = Vec::with_capacity(CARDS);
    let mut particular = [[0u8; 2]; 5];
    for (i, c) in file.card.iter().enumerate() {
        let what = format!("card[{i}] ({})", c.id);
        unique_id(&mut ids, &c.id, &what)?;
        note(&mut provisional, c.confidence, c.placeholder, &what);
        explain(&mut provisional, &c.note);
        cards.push(card(c, &what)?);
        if let Some(realm) = c.realm {
            particular[realm.index()][usize::from(c.marked_a)] += 1;
        } else if c.marked_a {
            return err(format!("{what}: only particular cards carry the A mark"));
        }
    }
    for realm in Realm::ALL {
        if particular[realm.index()] != [1, 1] {
            return err(format!(
                "card: {realm:?} needs one A-marked and one unmarked particular card"
            ));
        }
    }
    debug_assert_eq!(
        cards.iter().filter(|c| c.realm.is_none()).count(),
        COMMON_CARDS
    );

    Ok(Rules {
        board,
        map_rows: b.map.clone(),
        starting_tiles,
        double_tiles,
        single_tiles,
        monuments,
        realms,
        card_names: file.card.iter().map(|c| c.id.clone()).collect(),
        double_tile_names: d.tiles.iter().map(|t| t.id.clone()).collect(),
        single_tile_names: s.tiles.iter().map(|t| t.id.clone()).collect(),
        cards,
        provisional,
    })
}

fn two_halves(a: HexEntry, b: HexEntry, what: &str) -> Result<[Hex; 2], DataError> {
    let (a, b) = (hex(a, what)?, hex(b, what)?);
    if a.terrain == b.terrain {
        // Confirmed: the halves of a tile always differ in terrain (P-G6).
        return err(format!("{what}: both halves are {:?}", a.terrain));
    }
    Ok([a, b])
}

fn card(c: &CardEntry, what: &str) -> Result<Card, DataError> {
    let allowed = c.spell.allowed_values();
    let spell_value = match (c.spell_value, allowed.is_empty()) {
        (None, true) => 0,
        (Some(v), false) if allowed.contains(&v) => v,
        (Some(v), false) => {
            return err(format!(
                "{what}: spell_value {v} for {:?}; allowed {allowed:?}",
                c.spell
            ))
        }
        (None, false) => return err(format!("{what}: {:?} needs a spell_value", c.spell)),
        (Some(_), true) => return err(format!("{what}: {:?} takes no spell_value", c.spell)),
    };
    let mut building_value = 0;
    let mut building_rate = (3, 1);
    match (c.building.param(), c.building_value, c.building_rate) {
        (Param::None, None, None) => {}
        (Param::Value(allowed), Some(v), None) if allowed.contains(&v) => building_value = v,
        (Param::Rate, None, Some([n, p])) if RATES.contains(&(n, p)) => building_rate = (n, p),
        (param, _, _) => {
            return err(format!(
                "{what}: {:?} needs {}",
                c.building,
                match param {
                    Param::None => "neither building_value nor building_rate".to_string(),
                    Param::Value(allowed) => format!("building_value in {allowed:?}"),
                    Param::Rate => format!("building_rate in {RATES:?}"),
                }
            ))
        }
    }
    for (cost, name) in [
        (c.crystal_cost, "crystal_cost"),
        (c.wood_cost, "wood_cost"),
        (c.gold_price, "gold_price"),
    ] {
        if !(1..=10).contains(&cost) {
            return err(format!("{what}: {name} {cost} is not in 1..=10"));
        }
    }
    Ok(Card {
        spell: c.spell,
        spell_value,
        crystal_cost: c.crystal_cost,
        building: c.building,
        building_value,
        building_rate,
        wood_cost: c.wood_cost,
        gold_price: c.gold_price,
        realm: c.realm,
        marked_a: c.marked_a,
    })
}

impl engine::ComponentData for Rules {
    type Error = DataError;

    fn standard() -> &'static Arc<Rules> {
        static STANDARD: OnceLock<Arc<Rules>> = OnceLock::new();
        STANDARD.get_or_init(|| {
            Arc::new(Rules::parse(STANDARD_DATA).expect("the shipped data/pandoria.toml is valid"))
        })
    }

    fn parse(text: &str) -> Result<Rules, DataError> {
        Rules::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // rule P-SC4: the shipped file is complete, matches the confirmed counts, and says
    // what is provisional.
    #[test]
    fn standard_data_is_valid_and_complete() {
        let rules = Rules::standard();
        assert_eq!(rules.double_tiles.len(), DOUBLE_TILES);
        assert_eq!(rules.single_tiles.len(), SINGLE_TILES);
        assert_eq!(rules.cards.len(), CARDS);
        assert_eq!(
            rules.cards.iter().filter(|c| c.realm.is_none()).count(),
            COMMON_CARDS
        );
        assert_eq!(rules.monuments.len(), MONUMENTS);
        assert!(rules.monuments.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(rules.board.start_pairs().len(), 2);
        assert_eq!(rules.board.printed().len(), 4);
        // P-S4, confirmed values.
        assert_eq!(
            rules.realms[Realm::Dwarves.index()],
            [[2, 8, 5], [2, 10, 5]]
        );
        assert_eq!(rules.realms[Realm::Mages.index()], [[7, 2, 2], [9, 2, 2]]);
        assert!(rules.provisional.iter().any(|p| p.starts_with("board map")));
        assert!(rules
            .provisional
            .iter()
            .any(|p| p.starts_with("double tiles")));
        assert!(rules.provisional.iter().any(|p| p.starts_with("monument")));
        assert!(rules.provisional.iter().any(|p| p.contains("C01")));
        assert!(
            !rules.provisional.iter().any(|p| p.contains("side A")),
            "start resources are confirmed"
        );
    }

    // rule P-D1: particular cards pair as the rules say (P-S8).
    #[test]
    fn particular_cards_pair_as_printed() {
        let rules = Rules::standard();
        let find = |realm: Realm, a: bool| {
            rules
                .cards
                .iter()
                .find(|c| c.realm == Some(realm) && c.marked_a == a)
                .map(|c| (c.spell, c.building))
                .unwrap()
        };
        assert_eq!(
            find(Realm::Humans, true),
            (Spell::MasterBuilder, Building::Bank)
        );
        assert_eq!(
            find(Realm::Dwarves, false),
            (Spell::Terrain, Building::Lumberyard)
        );
        assert_eq!(
            find(Realm::Halflings, true),
            (Spell::Construct, Building::TreasurySmall)
        );
    }

    fn broken(from: &str, to: &str) -> String {
        assert!(STANDARD_DATA.contains(from), "{from}");
        let text = STANDARD_DATA.replacen(from, to, 1);
        Rules::parse(&text).unwrap_err().0
    }

    // Bad input: a malformed data file is a typed error naming the entry, never a panic.
    #[test]
    fn malformed_files_are_refused_with_clear_errors() {
        assert!(Rules::parse("not toml [").is_err());
        assert!(broken("game = \"pandoria\"", "game = \"valdora\"").contains("expected"));
        assert!(broken("symbols = 1 }, b", "symbols = 3 }, b").contains("1 or 2"));
        assert!(broken(
            "b = { terrain = \"hill\", symbols = 1 }",
            "b = { terrain = \"forest\", symbols = 1 }"
        )
        .contains("both halves"));
        assert!(broken("id = \"D02\"", "id = \"D01\"").contains("twice"));
        assert!(
            broken("{ value = 6, count = 3 }", "{ value = 6, count = 1 }").contains("monuments")
        );
        assert!(broken("{ value = 3, count = 4 }", "{ value = 7, count = 4 }").contains("3..=6"));
        assert!(broken("spell_value = 8", "spell_value = 7").contains("spell_value"));
        assert!(
            broken("building_rate = [2, 1]", "building_rate = [4, 1]").contains("building_rate")
        );
        assert!(broken("gold_price = 2", "gold_price = 0").contains("gold_price"));
        assert!(broken("marked_a = true", "marked_a = false").contains("A-marked"));
        assert!(broken("\"f....1..2.....\"", "\"f....1..3.....\"").contains("start pair"));
        assert!(
            broken("\"f....1..2.....\"", "\"f....1..2..X..\"").contains("unknown map character")
        );
        assert!(broken("\"..F..1..2....h\"", "\"..F..1..2....H\"").contains("printed"));
        assert!(broken("id = \"humans\"", "id = \"dwarves\"").contains("twice"));
        assert!(broken("crystal_cost = 4", "crystal_cost = 4\nfoo = 1").contains("foo"));
    }
}
