//! Card data: the TOML schema of `data/valley.toml`, its validation, and the compiled
//! [`Rules`] a game runs on (K-SC4, K-A20). Card actions are data: lists of [`Part`]s
//! built from the effect primitives of spec §6, interpreted by `effects.rs`.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

/// A card kind (K-SC5). Kinds are indices into [`Rules::cards`].
pub type CardId = u8;

/// The data file shipped with the game.
pub const STANDARD_DATA: &str = include_str!("../../../data/valley.toml");

/// At most this many kinds, so that an in-play entry can carry its use in the high bit.
pub const MAX_KINDS: usize = 127;
/// The most sets a data file may list: a tomb's kinds per set are counted in a fixed
/// array (`scoring::TombCounts`), so that the bots' evaluation allocates nothing.
pub const MAX_SETS: usize = 32;
/// At most this many physical cards in one game, so that every pile fits its capacity.
pub const MAX_CARDS: usize = 255;

/// An invalid data file. The message names the offending entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("valley data: {0}")]
pub struct DataError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError(msg.into()))
}

/// Where a part takes its card from (K-E0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Hand,
    Discard,
    Pyramid,
    Revealed,
    StockTop,
    BoneyardTop,
    BoneyardAny,
}

/// Where an acquired card goes (K-E0, K-E6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valley/", rename = "Destination")]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    Discard,
    Hand,
    Tomb,
    Boneyard,
    DeckTop,
}

/// A number in a filter: a constant, a multiple of a bound card's cost, or the highest
/// cost bought this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expr {
    Const(i16),
    BoundCost { bind: u8, times: i16 },
    MaxPurchases,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(rename_all = "snake_case")]
pub enum Cmp {
    Le,
    Lt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
#[serde(rename_all = "snake_case")]
pub enum Extreme {
    Lowest,
    Highest,
}

/// Which cards of a source are eligible (K-E0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Filter {
    pub cost: Option<(Cmp, Expr)>,
    pub extreme: Option<Extreme>,
    pub category: Option<Category>,
    pub level: Option<u8>,
}

/// Gates of K-E12.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pred {
    DiscardSizeGe(u8),
    BoughtThisTurn,
    HandSizeGe(u8),
    PyramidNonempty,
}

/// The effect primitives (K-E1..K-E15).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    Draw {
        n: u8,
    },
    /// K-E16: privately look at the top `n` cards of one's deck, optionally discard any of
    /// them, and put the rest back in a chosen order.
    LookTop {
        n: u8,
        discard: bool,
    },
    Reveal,
    Execute,
    Discard {
        from: Zone,
    },
    Entomb {
        from: Zone,
        extra: bool,
    },
    Take {
        from: Zone,
        to: Dest,
    },
    Sacrifice {
        from: Zone,
    },
    Give,
    GoldModifier {
        set: bool,
        value: i8,
    },
    RepeatAction,
    Condition(Pred),
    GrantEntomb {
        n: u8,
    },
    PurchaseScope,
    Reserve,
}

/// One part of an action (K-E0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub prim: Prim,
    pub may: bool,
    pub bind: Option<u8>,
    /// Pyramid slots the part may use (bit i = slot i).
    pub slots: u8,
    pub filter: Filter,
    /// K-E8: every opponent, in turn order, resolves the part as its chooser.
    pub each_opponent: bool,
    /// K-E8 exemption: hand + deck + discard ≤ this.
    pub exempt_total_le: Option<u8>,
    /// K-T7e: how many cards a choice part picks, and the minimum before `Done`.
    pub count: u8,
    pub min: u8,
}

/// A card's scoring category (K-G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Starter,
    Unique,
    Set(u8),
}

/// Starter deck type (K-S3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StarterType {
    #[default]
    Base,
    LastRites,
}

/// One card kind, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub name: String,
    pub version: u8,
    /// 1, 2 or 3.
    pub level: u8,
    pub category: Category,
    pub cost: u8,
    pub gold: u8,
    pub vp: u8,
    pub copies: u8,
    pub action: Option<Vec<Part>>,
    pub reaction: Option<Vec<Part>>,
    pub not_repeatable: bool,
    /// The action contains `RepeatAction` (K-E11 never repeats such a card).
    pub repeats: bool,
    /// Fields that are engine placeholders, not read from a card (K-A20).
    pub provisional: Vec<String>,
}

impl Card {
    pub fn is_provisional(&self) -> bool {
        !self.provisional.is_empty()
    }

    /// Whether the card's action entombs beyond the turn's allowance (K-T8): directly, with
    /// `extra` (K-E5), or by raising the allowance (K-E13).
    pub fn entombs_extra(&self) -> bool {
        self.action.iter().flatten().any(|part| {
            matches!(
                part.prim,
                Prim::Entomb { extra: true, .. } | Prim::GrantEntomb { .. }
            )
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SetInfo {
    pub name: String,
    pub size: u8,
    pub provisional: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pharaoh {
    pub name: String,
    pub ability: Option<Vec<Part>>,
    pub provisional: Vec<String>,
}

/// Everything the engine reads from the data file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub cards: Vec<Card>,
    pub sets: Vec<SetInfo>,
    pub versions: Vec<String>,
    /// Per starter type (Base, LastRites): (kind, copies per seat).
    pub starters: [Vec<(CardId, u8)>; 2],
    /// Preset name → versions.
    pub presets: Vec<(String, Vec<u8>)>,
    pub pharaohs: Vec<Pharaoh>,
    /// Every provisional entry of the file, "name: fields" (K-A20); empty when all is verified.
    pub provisional: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    schema_version: u32,
    game: String,
    level_defaults: BTreeMap<String, LevelDefaults>,
    unique_default_vp: u8,
    version: Vec<VersionEntry>,
    presets: BTreeMap<String, Vec<String>>,
    starters: BTreeMap<String, Vec<(String, u8)>>,
    #[serde(rename = "set")]
    sets: Vec<SetEntry>,
    #[serde(rename = "pharaoh", default)]
    pharaohs: Vec<PharaohEntry>,
    #[serde(rename = "card")]
    cards: Vec<CardEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelDefaults {
    cost: u8,
    gold: u8,
    vp: u8,
    copies: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionEntry {
    id: String,
    level_ii: u16,
    level_iii: u16,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetEntry {
    id: String,
    size: u8,
    #[serde(default)]
    provisional: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PharaohEntry {
    name: String,
    ability: ActionEntry,
    #[serde(default)]
    provisional: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ActionEntry {
    Word(String),
    Parts(Vec<PartEntry>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardEntry {
    name: String,
    version: String,
    level: String,
    category: String,
    cost: Option<u8>,
    gold: Option<u8>,
    vp: Option<u8>,
    copies: Option<u8>,
    #[serde(default)]
    not_repeatable: bool,
    action: ActionEntry,
    reaction: Option<Vec<PartEntry>>,
    #[serde(default)]
    provisional: Vec<String>,
    confidence: String,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartEntry {
    op: String,
    from: Option<String>,
    to: Option<String>,
    slots: Option<toml::Value>,
    cost_le: Option<toml::Value>,
    cost_lt: Option<toml::Value>,
    cost_ge: Option<toml::Value>,
    extreme: Option<String>,
    category: Option<String>,
    level: Option<String>,
    n: Option<u8>,
    set: Option<i8>,
    add: Option<i8>,
    pred: Option<String>,
    #[serde(default)]
    extra: bool,
    #[serde(default)]
    may: bool,
    bind: Option<String>,
    #[serde(default)]
    each_opponent: bool,
    exempt_total_le: Option<u8>,
    /// `look_top`: the looked-at cards may be discarded.
    #[serde(default)]
    may_discard: bool,
    /// Choice parts: pick `count` cards (default 1); with `up_to`, any number up to it.
    count: Option<u8>,
    #[serde(default)]
    up_to: bool,
}

fn parse_level(s: &str) -> Option<u8> {
    match s {
        "I" => Some(1),
        "II" => Some(2),
        "III" => Some(3),
        _ => None,
    }
}

const ALL_SLOTS: u8 = 0b11_1111;
const BASE_SLOTS: u8 = 0b111;

struct PartContext<'a> {
    card: &'a str,
    sets: &'a [SetInfo],
    binds: Vec<String>,
}

impl PartContext<'_> {
    fn fail<T>(&self, msg: impl std::fmt::Display) -> Result<T, DataError> {
        err(format!("card {:?}: {msg}", self.card))
    }

    fn zone(&self, from: Option<&str>, default: Zone) -> Result<Zone, DataError> {
        Ok(match from {
            None => default,
            Some("hand") => Zone::Hand,
            Some("discard") => Zone::Discard,
            Some("pyramid") => Zone::Pyramid,
            Some("revealed") => Zone::Revealed,
            Some("stock_top") => Zone::StockTop,
            Some("boneyard_top") => Zone::BoneyardTop,
            Some("boneyard_any") => Zone::BoneyardAny,
            Some(other) => return self.fail(format!("unknown source {other:?}")),
        })
    }

    fn expr(&self, v: &toml::Value) -> Result<Expr, DataError> {
        match v {
            toml::Value::Integer(i) => i16::try_from(*i)
                .map(Expr::Const)
                .or_else(|_| self.fail(format!("number {i} out of range"))),
            toml::Value::String(s) => {
                let s = s.replace(' ', "");
                if s == "max(purchases)" {
                    return Ok(Expr::MaxPurchases);
                }
                if let Ok(i) = s.parse::<i16>() {
                    return Ok(Expr::Const(i));
                }
                let (times, rest) = match s.split_once('*') {
                    Some((k, rest)) => match k.parse::<i16>() {
                        Ok(k) => (k, rest.to_string()),
                        Err(_) => return self.fail(format!("bad expression {s:?}")),
                    },
                    None => (1, s.clone()),
                };
                let Some(name) = rest.strip_prefix('$').and_then(|r| r.strip_suffix(".cost"))
                else {
                    return self.fail(format!("bad expression {s:?}"));
                };
                match self.binds.iter().position(|b| b == name) {
                    Some(i) => Ok(Expr::BoundCost {
                        bind: i as u8,
                        times,
                    }),
                    None => self.fail(format!("${name} is used before a part binds it")),
                }
            }
            other => self.fail(format!("bad expression {other}")),
        }
    }

    fn part(&mut self, e: &PartEntry) -> Result<Part, DataError> {
        let from = e.from.as_deref();
        let prim = match e.op.as_str() {
            "draw" => Prim::Draw {
                n: e.n.unwrap_or(1),
            },
            "look_top" => Prim::LookTop {
                n: e.n.unwrap_or(1),
                discard: e.may_discard,
            },
            "reveal" => Prim::Reveal,
            "execute" => Prim::Execute,
            "discard" => Prim::Discard {
                from: self.zone(from, Zone::Hand)?,
            },
            "entomb" => Prim::Entomb {
                from: self.zone(from, Zone::Hand)?,
                extra: e.extra,
            },
            "take" => Prim::Take {
                from: self.zone(from, Zone::Pyramid)?,
                to: match e.to.as_deref() {
                    None | Some("discard") => Dest::Discard,
                    Some("hand") => Dest::Hand,
                    Some("tomb") => Dest::Tomb,
                    Some("boneyard") => Dest::Boneyard,
                    Some("deck_top") => Dest::DeckTop,
                    Some(other) => return self.fail(format!("unknown destination {other:?}")),
                },
            },
            "sacrifice" => Prim::Sacrifice {
                from: self.zone(from, Zone::Hand)?,
            },
            "give" => Prim::Give,
            "gold_modifier" => match (e.set, e.add) {
                (Some(v), None) => Prim::GoldModifier {
                    set: true,
                    value: v,
                },
                (None, Some(v)) => Prim::GoldModifier {
                    set: false,
                    value: v,
                },
                _ => return self.fail("gold_modifier needs exactly one of `set` and `add`"),
            },
            "repeat_action" => Prim::RepeatAction,
            "condition" => Prim::Condition(self.pred(e.pred.as_deref())?),
            "grant_entomb" => Prim::GrantEntomb {
                n: e.n.unwrap_or(1),
            },
            "purchase_scope" => Prim::PurchaseScope,
            "reserve" => Prim::Reserve,
            other => return self.fail(format!("unknown op {other:?}")),
        };
        let slots = match &e.slots {
            None => ALL_SLOTS,
            Some(toml::Value::String(s)) if s == "any" => ALL_SLOTS,
            Some(toml::Value::String(s)) if s == "base" => BASE_SLOTS,
            Some(toml::Value::Array(list)) => {
                let mut mask = 0u8;
                for v in list {
                    match v.as_integer() {
                        Some(i @ 0..=5) => mask |= 1 << i,
                        _ => return self.fail(format!("bad slot {v}")),
                    }
                }
                mask
            }
            Some(other) => return self.fail(format!("bad slots {other}")),
        };
        let mut filter = Filter::default();
        for (cmp, v) in [
            (Cmp::Le, &e.cost_le),
            (Cmp::Lt, &e.cost_lt),
            (Cmp::Ge, &e.cost_ge),
        ] {
            if let Some(v) = v {
                if filter.cost.is_some() {
                    return self.fail("at most one cost comparison per part");
                }
                filter.cost = Some((cmp, self.expr(v)?));
            }
        }
        filter.extreme = match e.extreme.as_deref() {
            None => None,
            Some("lowest") => Some(Extreme::Lowest),
            Some("highest") => Some(Extreme::Highest),
            Some(other) => return self.fail(format!("unknown extreme {other:?}")),
        };
        if let Some(c) = &e.category {
            filter.category = Some(category_of(c, self.sets).ok_or_else(|| {
                DataError(format!("card {:?}: unknown category {c:?}", self.card))
            })?);
        }
        if let Some(l) = &e.level {
            filter.level = Some(
                parse_level(l)
                    .ok_or_else(|| DataError(format!("card {:?}: bad level {l:?}", self.card)))?,
            );
        }
        let bind = match &e.bind {
            Some(name) => {
                self.binds.push(name.clone());
                if self.binds.len() > crate::state::MAX_BINDS {
                    return self.fail("too many bound cards");
                }
                Some((self.binds.len() - 1) as u8)
            }
            None => None,
        };
        if e.exempt_total_le.is_some() && !e.each_opponent {
            return self.fail("exempt_total_le needs each_opponent");
        }
        if matches!(prim, Prim::Give) && !e.each_opponent {
            return self.fail("give is only used inside each_opponent (K-E9)");
        }
        let count = e.count.unwrap_or(1);
        if count == 0 {
            return self.fail("count must be at least 1");
        }
        Ok(Part {
            count,
            min: if e.up_to { 0 } else { count },
            prim,
            may: e.may,
            bind,
            slots,
            filter,
            each_opponent: e.each_opponent,
            exempt_total_le: e.exempt_total_le,
        })
    }

    fn pred(&self, p: Option<&str>) -> Result<Pred, DataError> {
        let Some(p) = p else {
            return self.fail("condition needs `pred`");
        };
        let arg = |prefix: &str| {
            p.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix(')'))
                .and_then(|n| n.parse::<u8>().ok())
        };
        if let Some(k) = arg("discard_size_ge(") {
            Ok(Pred::DiscardSizeGe(k))
        } else if let Some(k) = arg("hand_size_ge(") {
            Ok(Pred::HandSizeGe(k))
        } else if p == "bought_this_turn" {
            Ok(Pred::BoughtThisTurn)
        } else if p == "pyramid_nonempty" {
            Ok(Pred::PyramidNonempty)
        } else {
            self.fail(format!("unknown predicate {p:?}"))
        }
    }
}

fn category_of(name: &str, sets: &[SetInfo]) -> Option<Category> {
    match name {
        "starter" => Some(Category::Starter),
        "unique" => Some(Category::Unique),
        _ => sets
            .iter()
            .position(|s| s.name == name)
            .map(|i| Category::Set(i as u8)),
    }
}

const NUMERIC_FIELDS: [&str; 4] = ["cost", "gold", "vp", "copies"];
const KNOWN_FLAGS: [&str; 9] = [
    "name", "level", "category", "cost", "gold", "vp", "copies", "action", "size",
];

impl Rules {
    /// The rules of the shipped data file, parsed once.
    pub fn standard() -> &'static Rules {
        <Rules as engine::ComponentData>::standard()
    }

    pub fn parse(text: &str) -> Result<Rules, DataError> {
        let file: File = toml::from_str(text).map_err(|e| DataError(e.to_string()))?;
        if file.schema_version != 1 || file.game != "valley" {
            return err("expected schema_version = 1 and game = \"valley\"");
        }
        let defaults = |level: u8| -> Result<&LevelDefaults, DataError> {
            let key = ["I", "II", "III"][usize::from(level - 1)];
            file.level_defaults
                .get(key)
                .ok_or_else(|| DataError(format!("level_defaults.{key} is missing")))
        };
        let versions: Vec<String> = file.version.iter().map(|v| v.id.clone()).collect();
        let version_of = |v: &str| versions.iter().position(|x| x == v).map(|i| i as u8);
        let mut sets = Vec::new();
        for s in &file.sets {
            check_flags(&format!("set {:?}", s.id), &s.provisional)?;
            if sets.iter().any(|x: &SetInfo| x.name == s.id) {
                return err(format!("set {:?} is listed twice", s.id));
            }
            sets.push(SetInfo {
                name: s.id.clone(),
                size: s.size,
                provisional: !s.provisional.is_empty(),
            });
        }
        if sets.len() > MAX_SETS {
            return err(format!("at most {MAX_SETS} sets"));
        }
        if file.cards.len() > MAX_KINDS {
            return err(format!("at most {MAX_KINDS} card kinds"));
        }
        let mut cards: Vec<Card> = Vec::new();
        for c in &file.cards {
            let here = |msg: String| DataError(format!("card {:?}: {msg}", c.name));
            if cards.iter().any(|x| x.name == c.name) {
                return Err(here("listed twice".into()));
            }
            check_flags(&format!("card {:?}", c.name), &c.provisional)?;
            let _ = (&c.confidence, &c.note);
            let version = version_of(&c.version)
                .ok_or_else(|| here(format!("unknown version {:?}", c.version)))?;
            let level =
                parse_level(&c.level).ok_or_else(|| here(format!("bad level {:?}", c.level)))?;
            let category = category_of(&c.category, &sets)
                .ok_or_else(|| here(format!("unknown category {:?}", c.category)))?;
            if (level == 1) != (category == Category::Starter) {
                return Err(here("level I cards are exactly the starters".into()));
            }
            let d = defaults(level)?;
            let mut numbers = [0u8; 4];
            for (i, (field, given, default)) in [
                ("cost", c.cost, d.cost),
                ("gold", c.gold, d.gold),
                ("vp", c.vp, d.vp),
                ("copies", c.copies, d.copies),
            ]
            .into_iter()
            .enumerate()
            {
                // A set card's VP is not printed (sets score d², K-G3), and a starter's copies
                // come from the starter table (K-S3): neither needs a flag.
                let unused = (field == "vp" && matches!(category, Category::Set(_)))
                    || (field == "copies" && category == Category::Starter);
                numbers[i] = match given {
                    Some(v) => v,
                    None if unused => 1,
                    None if c.provisional.iter().any(|p| p == field) => {
                        if field == "vp" && category == Category::Unique {
                            file.unique_default_vp
                        } else {
                            default
                        }
                    }
                    None => {
                        return Err(here(format!(
                            "{field} is missing and not flagged provisional (K-A20)"
                        )))
                    }
                };
            }
            let _ = NUMERIC_FIELDS;
            let mut ctx = PartContext {
                card: &c.name,
                sets: &sets,
                binds: Vec::new(),
            };
            let action = match &c.action {
                ActionEntry::Word(w) if w == "none" => None,
                ActionEntry::Word(w) if w == "unknown" => {
                    if !c.provisional.iter().any(|p| p == "action") {
                        return Err(here(
                            "action = \"unknown\" must be flagged provisional (K-A20)".into(),
                        ));
                    }
                    None
                }
                ActionEntry::Word(w) => {
                    return Err(here(format!(
                        "action must be a list of parts, \"none\" or \"unknown\", not {w:?}"
                    )))
                }
                ActionEntry::Parts(parts) => Some(
                    parts
                        .iter()
                        .map(|p| ctx.part(p))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            if action.as_ref().is_some_and(|a| a.is_empty()) {
                return Err(here("an action needs at least one part".into()));
            }
            let mut rctx = PartContext {
                card: &c.name,
                sets: &sets,
                binds: Vec::new(),
            };
            let reaction = match &c.reaction {
                None => None,
                Some(parts) => Some(
                    parts
                        .iter()
                        .map(|p| rctx.part(p))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            let repeats = action
                .iter()
                .flatten()
                .any(|p| p.prim == Prim::RepeatAction);
            if numbers[3] == 0 {
                return Err(here("copies must be at least 1".into()));
            }
            cards.push(Card {
                name: c.name.clone(),
                version,
                level,
                category,
                cost: numbers[0],
                gold: numbers[1],
                vp: numbers[2],
                copies: numbers[3],
                action,
                reaction,
                not_repeatable: c.not_repeatable,
                repeats,
                provisional: c.provisional.clone(),
            });
        }
        // Set sizes (K-SC4): a set lists exactly `size` kinds.
        for (i, s) in sets.iter().enumerate() {
            let kinds = cards
                .iter()
                .filter(|c| c.category == Category::Set(i as u8))
                .count();
            if kinds != usize::from(s.size) {
                return err(format!(
                    "set {:?} has size {} but {kinds} cards",
                    s.name, s.size
                ));
            }
        }
        // Level counts per version (K-SC4: 40/29/27 base and Afterlife, 40/28/28 Last Rites).
        for (vi, v) in file.version.iter().enumerate() {
            for (level, want) in [(2u8, v.level_ii), (3, v.level_iii)] {
                let have: u16 = cards
                    .iter()
                    .filter(|c| usize::from(c.version) == vi && c.level == level)
                    .map(|c| u16::from(c.copies))
                    .sum();
                if have != want {
                    return err(format!(
                        "version {:?} has {have} level {} cards, expected {want}",
                        v.id,
                        ["I", "II", "III"][usize::from(level - 1)]
                    ));
                }
            }
        }
        let mut starters: [Vec<(CardId, u8)>; 2] = [Vec::new(), Vec::new()];
        for (i, key) in ["base", "last_rites"].into_iter().enumerate() {
            let Some(list) = file.starters.get(key) else {
                return err(format!("starters.{key} is missing"));
            };
            let mut total = 0u32;
            for (name, n) in list {
                let id = cards
                    .iter()
                    .position(|c| &c.name == name)
                    .ok_or_else(|| DataError(format!("starters.{key}: unknown card {name:?}")))?;
                if cards[id].category != Category::Starter {
                    return err(format!("starters.{key}: {name:?} is not a starter card"));
                }
                total += u32::from(*n);
                starters[i].push((id as CardId, *n));
            }
            if total != 10 {
                return err(format!(
                    "starters.{key} has {total} cards per seat, expected 10 (K-S3)"
                ));
            }
        }
        let mut presets = Vec::new();
        for (name, list) in &file.presets {
            let vs = list
                .iter()
                .map(|v| {
                    version_of(v)
                        .ok_or_else(|| DataError(format!("preset {name:?}: unknown version {v:?}")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            presets.push((name.clone(), vs));
        }
        let mut pharaohs = Vec::new();
        for p in &file.pharaohs {
            check_flags(&format!("pharaoh {:?}", p.name), &p.provisional)?;
            let mut ctx = PartContext {
                card: &p.name,
                sets: &sets,
                binds: Vec::new(),
            };
            let ability = match &p.ability {
                ActionEntry::Word(w) if w == "unknown" || w == "none" => None,
                ActionEntry::Word(w) => {
                    return err(format!("pharaoh {:?}: bad ability {w:?}", p.name))
                }
                ActionEntry::Parts(parts) => Some(
                    parts
                        .iter()
                        .map(|e| ctx.part(e))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            pharaohs.push(Pharaoh {
                name: p.name.clone(),
                ability,
                provisional: p.provisional.clone(),
            });
        }
        let mut provisional: Vec<String> = cards
            .iter()
            .filter(|c| c.is_provisional())
            .map(|c| format!("{}: {}", c.name, c.provisional.join(", ")))
            .collect();
        provisional.extend(
            sets.iter()
                .filter(|s| s.provisional)
                .map(|s| format!("set {}: size", s.name)),
        );
        provisional.extend(
            pharaohs
                .iter()
                .filter(|p| !p.provisional.is_empty())
                .map(|p| format!("{}: {}", p.name, p.provisional.join(", "))),
        );
        Ok(Rules {
            cards,
            sets,
            versions,
            starters,
            presets,
            pharaohs,
            provisional,
        })
    }

    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[usize::from(id)]
    }

    pub fn card_named(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as CardId)
    }

    /// Names of every provisional thing a game with this pool would use (for `strict_data`).
    pub fn provisional_in_use(
        &self,
        pool: &[CardId],
        starter: StarterType,
        pharaohs: bool,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let starters = self.starters[starter as usize].iter().map(|(id, _)| *id);
        for id in pool.iter().copied().chain(starters) {
            let c = self.card(id);
            if c.is_provisional() {
                out.push(format!("{} ({})", c.name, c.provisional.join(", ")));
            }
            if let Category::Set(s) = c.category {
                if self.sets[usize::from(s)].provisional {
                    out.push(format!("set {} (size)", self.sets[usize::from(s)].name));
                }
            }
        }
        if pharaohs {
            for p in &self.pharaohs {
                if !p.provisional.is_empty() {
                    out.push(format!("{} ({})", p.name, p.provisional.join(", ")));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

fn check_flags(what: &str, flags: &[String]) -> Result<(), DataError> {
    for f in flags {
        if !KNOWN_FLAGS.contains(&f.as_str()) && f != "ability" {
            return err(format!("{what}: unknown provisional field {f:?}"));
        }
    }
    Ok(())
}

impl engine::ComponentData for Rules {
    type Error = DataError;

    fn standard() -> &'static Arc<Rules> {
        static STANDARD: OnceLock<Arc<Rules>> = OnceLock::new();
        STANDARD.get_or_init(|| {
            Arc::new(Rules::parse(STANDARD_DATA).expect("the shipped data file is valid"))
        })
    }

    fn parse(text: &str) -> Result<Rules, DataError> {
        Rules::parse(text)
    }
}
