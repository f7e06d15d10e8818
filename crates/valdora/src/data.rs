//! Component data: the TOML schema of `data/valdora.toml`, its validation, and the
//! compiled [`Rules`] a game runs on. A corrected file can be loaded at run time.

use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use crate::board::{Board, SpaceKind};
use crate::components::{Color, CommissionFace, EquipmentFace, Gem, Gems, Item, Requirement};

/// The data file shipped with the game.
pub const STANDARD_DATA: &str = include_str!("../../../data/valdora.toml");

/// Faces per equipment book: 18 double-sided cards (confirmed).
pub const EQUIPMENT_CARDS: usize = 18;
/// Faces per commission book: 27 double-sided cards (confirmed).
pub const COMMISSION_CARDS: usize = 27;

/// An invalid data file. The message names the offending entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("valdora data: {0}")]
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
    #[serde(default)]
    provenance: Provenance,
    gems: Vec<GemEntry>,
    colors: Vec<ColorEntry>,
    workshops: Vec<WorkshopEntry>,
    bonus_tiles: BonusEntry,
    equipment_types: Vec<EquipmentTypeEntry>,
    equipment_faces: Vec<EquipmentFaceEntry>,
    commission_faces: Vec<CommissionFaceEntry>,
    board: BoardEntry,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Provenance {
    craftsman_order: Confidence,
    equipment_pairing: Confidence,
    commission_pairing: Confidence,
}

impl Default for Provenance {
    fn default() -> Self {
        Self {
            craftsman_order: Confidence::Confirmed,
            equipment_pairing: Confidence::Confirmed,
            commission_pairing: Confidence::Confirmed,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GemEntry {
    id: Gem,
    count: u8,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ColorEntry {
    id: Color,
    craftsman_tiles: u8,
    craftsman_tiles_3p: u8,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkshopEntry {
    color: Color,
    craftsmen_needed: u8,
    #[serde(default)]
    craftsmen_needed_confidence: Option<Confidence>,
    points: u8,
    #[serde(default)]
    points_confidence: Option<Confidence>,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BonusEntry {
    count: u8,
    points_each: u8,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentTypeEntry {
    id: String,
    loads: String,
    in_books: bool,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentFaceEntry {
    item: String,
    load_cost: u8,
    count_per_book: u8,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CommissionFaceEntry {
    color: Color,
    wants: Vec<String>,
    points: u8,
    count_per_book: u8,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardEntry {
    #[serde(default)]
    graph_confidence: Option<Confidence>,
    nodes: Vec<NodeEntry>,
    roads: RoadsEntry,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeEntry {
    id: String,
    kind: String,
    #[serde(default)]
    patron_color: Option<Color>,
    #[serde(default)]
    patron_color_confidence: Option<Confidence>,
    #[serde(default)]
    ships: Option<u8>,
    x: f32,
    y: f32,
    confidence: Confidence,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoadsEntry {
    confidence: Confidence,
    edges: Vec<[String; 2]>,
}

/// Validated component data, compiled into the flat tables the engine reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub gems: Gems,
    /// Craftsman tiles per colour, for 4–5 and for 3 players.
    pub craftsmen: [u8; 7],
    pub craftsmen_3p: [u8; 7],
    /// Colours in clockwise order around the craftsman board.
    pub clockwise: [Color; 7],
    pub workshop_needed: [u8; 7],
    pub workshop_points: [u8; 7],
    pub bonus_tiles: u8,
    pub bonus_points: u8,
    /// Printed tool name per item ("hammer"), for display.
    pub item_names: [Arc<str>; 7],
    /// Card k of an equipment set: (recto, verso).
    pub equipment_cards: [[EquipmentFace; 2]; EQUIPMENT_CARDS],
    pub commission_cards: [[CommissionFace; 2]; COMMISSION_CARDS],
    pub board: Board,
    /// Every entry that is not confirmed, for the notice shown to users.
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

fn note(provisional: &mut Vec<String>, confidence: Confidence, what: impl FnOnce() -> String) {
    if confidence != Confidence::Confirmed {
        let level = match confidence {
            Confidence::Inferred => "inferred",
            _ => "unknown (placeholder)",
        };
        provisional.push(format!("{}: {level}", what()));
    }
}

fn compile(file: File) -> Result<Rules, DataError> {
    if file.schema_version != 1 {
        return err(format!(
            "schema_version {} is not supported (expected 1)",
            file.schema_version
        ));
    }
    if file.game != "valdora" {
        return err(format!("game = {:?}, expected \"valdora\"", file.game));
    }
    let mut provisional = Vec::new();
    let p = &file.provenance;
    note(&mut provisional, p.craftsman_order, || {
        "craftsman board clockwise order".into()
    });
    note(&mut provisional, p.equipment_pairing, || {
        "which equipment faces share a card".into()
    });
    note(&mut provisional, p.commission_pairing, || {
        "which commission faces share a card".into()
    });

    // Gems (V-C2).
    let mut gems = [0u8; 5];
    let mut seen = [false; 5];
    for (i, g) in file.gems.iter().enumerate() {
        if std::mem::replace(&mut seen[g.id.index()], true) {
            return err(format!("gems[{i}]: {} is listed twice", g.id.name()));
        }
        gems[g.id.index()] = g.count;
        note(&mut provisional, g.confidence, || {
            format!("gems[{i}] ({})", g.id.name())
        });
    }
    if let Some(missing) = Gem::ALL.iter().find(|g| !seen[g.index()]) {
        return err(format!("gems: {} is missing", missing.name()));
    }
    let total: u32 = gems.iter().map(|&c| u32::from(c)).sum();
    if total != 78 {
        return err(format!(
            "gems: the counts add up to {total}, the game has 78"
        ));
    }

    // Colours, craftsmen and the clockwise order (V-C8).
    if file.colors.len() != 7 {
        return err(format!("colors: {} entries, expected 7", file.colors.len()));
    }
    let mut craftsmen = [0u8; 7];
    let mut craftsmen_3p = [0u8; 7];
    let mut clockwise = [Color::Grey; 7];
    let mut seen = [false; 7];
    for (i, c) in file.colors.iter().enumerate() {
        if std::mem::replace(&mut seen[c.id.index()], true) {
            return err(format!("colors[{i}]: {} is listed twice", c.id.name()));
        }
        if c.craftsman_tiles == 0 || c.craftsman_tiles_3p > c.craftsman_tiles {
            return err(format!(
                "colors[{i}] ({}): needs 1..=craftsman_tiles tiles, 3-player count at most that",
                c.id.name()
            ));
        }
        craftsmen[c.id.index()] = c.craftsman_tiles;
        craftsmen_3p[c.id.index()] = c.craftsman_tiles_3p;
        clockwise[i] = c.id;
        note(&mut provisional, c.confidence, || {
            format!("colors[{i}] ({})", c.id.name())
        });
    }
    let total: u32 = craftsmen.iter().map(|&c| u32::from(c)).sum();
    if total != 39 {
        return err(format!(
            "colors: craftsman tiles add up to {total}, the game has 39"
        ));
    }

    // Workshops and bonus tiles (V-C9).
    let mut workshop_needed = [0u8; 7];
    let mut workshop_points = [0u8; 7];
    let mut seen = [false; 7];
    for (i, w) in file.workshops.iter().enumerate() {
        let c = w.color.index();
        if std::mem::replace(&mut seen[c], true) {
            return err(format!(
                "workshops[{i}]: {} is listed twice",
                w.color.name()
            ));
        }
        if w.craftsmen_needed == 0 || w.craftsmen_needed > craftsmen_3p[c] {
            return err(format!(
                "workshops[{i}] ({}): craftsmen_needed must be 1..={} (the 3-player stack)",
                w.color.name(),
                craftsmen_3p[c]
            ));
        }
        workshop_needed[c] = w.craftsmen_needed;
        workshop_points[c] = w.points;
        let worst = [
            Some(w.confidence),
            w.craftsmen_needed_confidence,
            w.points_confidence,
        ]
        .into_iter()
        .flatten()
        .max_by_key(|c| *c as u8)
        .unwrap_or(Confidence::Confirmed);
        note(&mut provisional, worst, || {
            format!("workshops[{i}] ({})", w.color.name())
        });
    }
    if let Some(missing) = Color::ALL.iter().find(|c| !seen[c.index()]) {
        return err(format!("workshops: {} is missing", missing.name()));
    }
    if file.bonus_tiles.count != 13 {
        return err(format!(
            "bonus_tiles: count {} , the game has 13",
            file.bonus_tiles.count
        ));
    }
    note(&mut provisional, file.bonus_tiles.confidence, || {
        "bonus_tiles".into()
    });

    // Equipment types (V-C5): the pan loads gold, each tool one other gem, horse and cart any.
    let mut item_of_type = Vec::new();
    let mut item_names: [Arc<str>; 7] = std::array::from_fn(|_| Arc::from(""));
    for (i, t) in file.equipment_types.iter().enumerate() {
        let item = match t.loads.as_str() {
            "any" => match t.id.as_str() {
                "horse" => Item::Horse,
                "cart" => Item::Cart,
                other => {
                    return err(format!(
                        "equipment_types[{i}] ({other}): only horse and cart load any gem"
                    ))
                }
            },
            gem => {
                let gem = parse_gem(gem).ok_or_else(|| {
                    DataError(format!(
                        "equipment_types[{i}] ({}): loads {gem:?} is not a gem or \"any\"",
                        t.id
                    ))
                })?;
                Item::for_gem(gem)
            }
        };
        if !item_names[item.index()].is_empty() {
            return err(format!(
                "equipment_types[{i}] ({}): {:?} is already loaded by {}",
                t.id,
                t.loads,
                item_names[item.index()]
            ));
        }
        if t.in_books == (item == Item::GoldPan) {
            return err(format!(
                "equipment_types[{i}] ({}): the gold pan is the start card, every other item is in the books",
                t.id
            ));
        }
        item_names[item.index()] = Arc::from(t.id.as_str());
        item_of_type.push((t.id.clone(), item));
        note(&mut provisional, t.confidence, || {
            format!("equipment_types[{i}] ({})", t.id)
        });
    }
    if let Some(missing) = Item::ALL.iter().find(|i| item_names[i.index()].is_empty()) {
        return err(format!("equipment_types: nothing loads as {missing:?}"));
    }

    // Equipment faces: 36 per book, paired in order.
    let mut equipment_faces = Vec::new();
    for (i, f) in file.equipment_faces.iter().enumerate() {
        let item = item_of_type
            .iter()
            .find(|(id, _)| *id == f.item)
            .map(|(_, item)| *item)
            .ok_or_else(|| DataError(format!("equipment_faces[{i}]: unknown item {:?}", f.item)))?;
        if item == Item::GoldPan {
            return err(format!(
                "equipment_faces[{i}]: the gold pan is not in the books"
            ));
        }
        if item.loads_any() != (f.load_cost > 0) {
            return err(format!(
                "equipment_faces[{i}] ({}): horse and cart cost 1 or more coins to load, tools 0",
                f.item
            ));
        }
        for _ in 0..f.count_per_book {
            equipment_faces.push(EquipmentFace {
                item,
                load_cost: f.load_cost,
            });
        }
        note(&mut provisional, f.confidence, || {
            format!("equipment_faces[{i}] ({})", f.item)
        });
    }
    if equipment_faces.len() != 2 * EQUIPMENT_CARDS {
        return err(format!(
            "equipment_faces: count_per_book adds up to {}, a book has {} faces",
            equipment_faces.len(),
            2 * EQUIPMENT_CARDS
        ));
    }
    let equipment_cards =
        std::array::from_fn(|k| [equipment_faces[2 * k], equipment_faces[2 * k + 1]]);

    // Commission faces: 54 per book (V-C7).
    let mut commission_faces = Vec::new();
    for (i, f) in file.commission_faces.iter().enumerate() {
        let mut wants = Requirement {
            gems: [0; 5],
            coins: 0,
        };
        for w in &f.wants {
            if w == "silver_coin" {
                wants.coins += 1;
            } else {
                let gem = parse_gem(w).ok_or_else(|| {
                    DataError(format!(
                        "commission_faces[{i}]: wants {w:?} is neither a gem nor \"silver_coin\""
                    ))
                })?;
                wants.gems[gem.index()] += 1;
            }
        }
        let gem_count: u8 = wants.gems.iter().sum();
        if !matches!((gem_count, wants.coins), (1, 0) | (3, 0) | (0, 1)) {
            return err(format!(
                "commission_faces[{i}]: wants {:?}; a commission asks for one gem, three gems or one silver coin",
                f.wants
            ));
        }
        if wants.gems.iter().any(|&n| n > 3) {
            return err(format!(
                "commission_faces[{i}]: no player can carry 4 gems of one kind"
            ));
        }
        for _ in 0..f.count_per_book {
            commission_faces.push(CommissionFace {
                color: f.color,
                wants,
                points: f.points,
            });
        }
        note(&mut provisional, f.confidence, || {
            format!("commission_faces[{i}] ({} {:?})", f.color.name(), f.wants)
        });
    }
    if commission_faces.len() != 2 * COMMISSION_CARDS {
        return err(format!(
            "commission_faces: count_per_book adds up to {}, a book has {} faces",
            commission_faces.len(),
            2 * COMMISSION_CARDS
        ));
    }
    let commission_cards =
        std::array::from_fn(|k| [commission_faces[2 * k], commission_faces[2 * k + 1]]);

    // Board (V-C4).
    let mut spaces = Vec::new();
    for (i, n) in file.board.nodes.iter().enumerate() {
        let ships = || {
            n.ships.filter(|s| (1..=2).contains(s)).ok_or_else(|| {
                DataError(format!("board.nodes[{i}] ({}): ships must be 1 or 2", n.id))
            })
        };
        let kind = match n.kind.as_str() {
            "city_equipment" => SpaceKind::EquipmentCity,
            "city_commission" => SpaceKind::CommissionCity,
            "city_harbour" => SpaceKind::HarbourCity { ships: ships()? },
            "road_gems" => SpaceKind::Road,
            "silver_mine" => SpaceKind::SilverMine,
            "harbour" => SpaceKind::Harbour { ships: ships()? },
            "patron_house" => SpaceKind::PatronHouse {
                color: n.patron_color.ok_or_else(|| {
                    DataError(format!(
                        "board.nodes[{i}] ({}): a patron house needs patron_color",
                        n.id
                    ))
                })?,
            },
            other => {
                return err(format!(
                    "board.nodes[{i}] ({}): unknown kind {other:?}",
                    n.id
                ))
            }
        };
        let worst = [Some(n.confidence), n.patron_color_confidence]
            .into_iter()
            .flatten()
            .max_by_key(|c| *c as u8)
            .unwrap_or(Confidence::Confirmed);
        note(&mut provisional, worst, || {
            format!("board.nodes[{i}] ({})", n.id)
        });
        spaces.push((n.id.clone(), kind, n.x, n.y));
    }
    if let Some(c) = file.board.graph_confidence {
        note(&mut provisional, c, || "board graph".into());
    }
    note(&mut provisional, file.board.roads.confidence, || {
        "board roads".into()
    });
    let board = Board::new(spaces, &file.board.roads.edges).map_err(DataError)?;
    let road_spaces = board.road_count();
    if u32::from(road_spaces as u8) * 6 != 78 {
        return err(format!(
            "board: {road_spaces} road spaces cannot hold 6 of the 78 gems each"
        ));
    }

    Ok(Rules {
        gems,
        craftsmen,
        craftsmen_3p,
        clockwise,
        workshop_needed,
        workshop_points,
        bonus_tiles: file.bonus_tiles.count,
        bonus_points: file.bonus_tiles.points_each,
        item_names,
        equipment_cards,
        commission_cards,
        board,
        provisional,
    })
}

fn parse_gem(name: &str) -> Option<Gem> {
    Gem::ALL.into_iter().find(|g| g.name() == name)
}

impl engine::ComponentData for Rules {
    type Error = DataError;

    fn standard() -> &'static Arc<Rules> {
        static STANDARD: OnceLock<Arc<Rules>> = OnceLock::new();
        STANDARD.get_or_init(|| {
            Arc::new(Rules::parse(STANDARD_DATA).expect("the shipped data/valdora.toml is valid"))
        })
    }

    fn parse(text: &str) -> Result<Rules, DataError> {
        Rules::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_data_is_valid_and_complete() {
        let rules = Rules::standard();
        // V-C2: 78 gems; V-C8: 39 craftsmen; V-C9: 13 bonus tiles.
        assert_eq!(rules.gems, [22, 13, 13, 15, 15]);
        assert_eq!(rules.craftsmen, [9, 9, 5, 4, 4, 4, 4]);
        assert_eq!(rules.craftsmen_3p, [9, 9, 5, 3, 3, 3, 3]);
        assert_eq!(rules.bonus_tiles, 13);
        assert_eq!(rules.board.road_count(), 13);
        assert!(
            !rules.provisional.is_empty(),
            "the shipped data has placeholders"
        );
    }

    fn broken(from: &str, to: &str) -> String {
        let text = STANDARD_DATA.replacen(from, to, 1);
        assert_ne!(text, STANDARD_DATA, "test edit {from:?} did not apply");
        Rules::parse(&text)
            .expect_err("must be refused")
            .to_string()
    }

    #[test]
    fn invalid_data_names_the_offending_entry() {
        assert!(broken("count = 22", "count = 21").contains("add up to 77"));
        assert!(broken("craftsman_tiles = 9\n", "craftsman_tiles = 10\n").contains("add up to 40"));
        assert!(broken("count_per_book = 6", "count_per_book = 5").contains("equipment_faces"));
        assert!(broken("count_per_book = 10", "count_per_book = 9").contains("commission_faces"));
        assert!(broken("kind = \"silver_mine\"", "kind = \"volcano\"").contains("volcano"));
        assert!(broken("wants = [\"gold\"]", "wants = [\"gold\", \"gold\"]")
            .contains("commission_faces[1]"));
        assert!(broken("[\"A\", \"g01\"]", "[\"A\", \"nowhere\"]").contains("nowhere"));
        assert!(broken("schema_version = 1", "schema_version = 7").contains("schema_version"));
        assert!(Rules::parse("not toml [").is_err());
    }
}
