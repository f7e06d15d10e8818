//! What a seat sees (V-I1, V-I2). Valdora has no private hands, and nobody knows the
//! unseen book cards. The one thing that differs by seat is what lies under each
//! adventurer card: a seat sees which commissions it completed and its own running score;
//! every other seat and spectator sees only how many each seat completed (V-I1), until the
//! game is over or the config opens scores (`open_scores`).
//!
//! So every member of a view is alike for all observers but `seat` and `own`, the one
//! member that holds what only this seat may know: the server records and patches the
//! rest once per move for every seat at the table.

use std::sync::Arc;

use serde::Serialize;

use crate::board::{Space, SpaceKind};
use crate::books::{BookKind, CardView};
use crate::components::{Color, CommissionFace, Gem, Gems, Item, Side};
use crate::state::{Committed, Ending, Phase, RulesRef, Valdora};
use engine::text::count;
use engine::{Game, Seat};

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct View {
    /// Whose view this is (`None`: a spectator).
    pub seat: Option<Seat>,
    pub players: u8,
    pub start_player: Seat,
    pub current: Seat,
    pub to_move: Option<Seat>,
    pub turn: u32,
    pub phase: PhaseView,
    pub end_triggered: bool,
    pub spaces: Vec<SpaceView>,
    pub discard: Gems,
    /// Every seat's public side, alike in every view.
    pub seats: Vec<PlayerView>,
    /// What lies under this seat's own adventurer card (V-I1); `None` for a spectator.
    pub own: Option<OwnView>,
    pub books: Vec<BookView>,
    /// Craftsman tiles left beside the board, by colour (grey, yellow, white, violet, red,
    /// blue, green).
    pub craftsmen: [u8; 7],
    pub clockwise: [Color; 7],
    pub workshops: Vec<WorkshopView>,
    pub bonus_tiles: u8,
    /// The printed name of each item type, in `Item` order (which tool picture loads which
    /// gem is data, V-C5).
    #[serde(serialize_with = "shared::strs")]
    pub item_names: Vec<Arc<str>>,
    /// The component data has provisional entries (see the README).
    pub provisional_data: bool,
}

/// Names and lists a view shares with the component data (an `Arc` each, so that building a
/// view copies none), written as the plain strings and lists they are.
mod shared {
    use std::sync::Arc;

    use serde::{Serialize, Serializer};

    use crate::board::Space;

    pub(super) fn str<S: Serializer>(name: &Arc<str>, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(name)
    }

    pub(super) fn strs<S: Serializer>(names: &[Arc<str>], out: S) -> Result<S::Ok, S::Error> {
        out.collect_seq(names.iter().map(|name| &**name))
    }

    pub(super) fn spaces<S: Serializer>(spaces: &Arc<[Space]>, out: S) -> Result<S::Ok, S::Error> {
        spaces[..].serialize(out)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    Move,
    Act {
        /// "buy", "load" or "complete" once begun.
        #[ts(type = "\"buy\" | \"load\" | \"complete\" | null")]
        begun: Option<&'static str>,
        pages_turned: u8,
    },
    Over {
        /// "rules", "turn_cap" or "stalled".
        #[ts(type = "\"rules\" | \"turn_cap\" | \"stalled\"")]
        ending: &'static str,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct SpaceView {
    pub id: Space,
    #[serde(serialize_with = "shared::str")]
    pub name: Arc<str>,
    #[serde(flatten)]
    pub kind: SpaceKind,
    pub x: f32,
    pub y: f32,
    #[serde(serialize_with = "shared::spaces")]
    pub neighbours: Arc<[Space]>,
    /// Gems on a road space.
    pub gems: Option<Gems>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct EquipmentView {
    pub item: Item,
    /// Printed name ("hammer").
    #[serde(serialize_with = "shared::str")]
    pub name: Arc<str>,
    pub load_cost: u8,
    pub gem: Option<Gem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct PlayerView {
    pub seat: Seat,
    pub space: Space,
    pub coins: u8,
    pub provisions: bool,
    pub equipment: Vec<EquipmentView>,
    pub incomplete: Vec<CommissionFace>,
    /// How many commissions the seat completed: public (V-I1).
    pub completed_count: u8,
    /// Which ones: `None` while they lie hidden under the seat's adventurer card (V-I1),
    /// unless the game is over or the config has `open_scores`. The seat itself finds its
    /// own in [`View::own`].
    pub completed: Option<Vec<CommissionFace>>,
    pub craftsmen: [u8; 7],
    pub bonus_tiles: u8,
    /// Points if the game ended now; hidden (`None`) exactly when `completed` is, since
    /// the commissions' points are in it (V-I1).
    pub score: Option<i32>,
}

/// What only the observing seat sees of itself (V-I1): the commissions under its own
/// adventurer card and its points if the game ended now.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct OwnView {
    pub completed: Vec<CommissionFace>,
    pub score: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct BookView {
    pub book: u8,
    pub kind: BookKind,
    pub city: Space,
    /// Cards bottom to top; the unseen ones have no faces.
    pub left: Vec<CardView>,
    pub right: Vec<CardView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
pub struct WorkshopView {
    pub color: Color,
    pub craftsmen_needed: u8,
    pub points: u8,
    pub owner: Option<Seat>,
}

/// Which of the members every seat sees alike and that take building a view builds; the
/// others are left empty (`Game::own_view`, `Game::spectator_view_after`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Built {
    spaces: bool,
    seats: bool,
    books: bool,
    workshops: bool,
    item_names: bool,
}

impl Built {
    pub(crate) const ALL: Built = Built {
        spaces: true,
        seats: true,
        books: true,
        workshops: true,
        item_names: true,
    };
    pub(crate) const NONE: Built = Built {
        spaces: false,
        seats: false,
        books: false,
        workshops: false,
        item_names: false,
    };

    /// The members whose state changed between `before` and `after` (the rules data too,
    /// so that a member is never taken over across games).
    pub(crate) fn changed(before: &Valdora, after: &Valdora) -> Built {
        let same_rules = RulesRef::ptr_eq(&before.config.rules, &after.config.rules);
        Built {
            spaces: !same_rules || before.road_gems != after.road_gems,
            // Nearly every action changes some seat's side: not worth comparing.
            seats: true,
            books: !same_rules || before.books != after.books,
            workshops: !same_rules || before.workshop_owner != after.workshop_owner,
            item_names: !same_rules,
        }
    }

    /// The names of the members not built.
    pub(crate) fn push_left_out(self, out: &mut Vec<&'static str>) {
        let members = [
            ("spaces", self.spaces),
            ("seats", self.seats),
            ("books", self.books),
            ("workshops", self.workshops),
            ("item_names", self.item_names),
        ];
        out.extend(
            members
                .into_iter()
                .filter(|(_, built)| !built)
                .map(|(key, _)| key),
        );
    }
}

impl Valdora {
    /// `seat`'s view, with only the members in `built` of those every seat sees alike
    /// that take building (the valley, the seats, the books, the workshops, the item
    /// names).
    pub(crate) fn build_view(&self, seat: Option<Seat>, built: Built) -> View {
        let rules = self.rules();
        let board = &rules.board;
        let phase = match self.phase() {
            Phase::Move => PhaseView::Move,
            Phase::Act { committed } => PhaseView::Act {
                begun: committed.map(|c| match c {
                    Committed::Buy => "buy",
                    Committed::Load => "load",
                    Committed::Complete => "complete",
                }),
                pages_turned: self.pages_turned,
            },
            Phase::Over => PhaseView::Over {
                ending: match self.ending() {
                    Some(Ending::TurnCap) => "turn_cap",
                    Some(Ending::Stalled) => "stalled",
                    _ => "rules",
                },
            },
        };
        View {
            seat,
            players: self.seats,
            start_player: self.start_player(),
            current: self.current(),
            to_move: self.to_move(),
            turn: self.turn_number(),
            phase,
            end_triggered: self.end_triggered(),
            spaces: if built.spaces {
                (0..board.len() as Space)
                    .map(|s| SpaceView {
                        id: s,
                        name: board.names[usize::from(s)].clone(),
                        kind: board.kind(s),
                        x: board.positions[usize::from(s)].0,
                        y: board.positions[usize::from(s)].1,
                        neighbours: board.neighbour_lists[usize::from(s)].clone(),
                        gems: self.gems_at(s),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            discard: self.discard(),
            seats: if built.seats {
                self.player_views()
            } else {
                Vec::new()
            },
            own: seat.map(|s| OwnView {
                completed: self.completed_by(s).collect(),
                score: self.score(s).total(),
            }),
            books: if built.books {
                (0..4u8)
                    .map(|b| {
                        let kind = BookKind::of_book(b);
                        let book = self.book(b);
                        BookView {
                            book: b,
                            kind,
                            city: board.book_city[usize::from(b)],
                            left: book.view(rules, kind, Side::Left),
                            right: book.view(rules, kind, Side::Right),
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            },
            craftsmen: self.craftsmen_supply(),
            clockwise: rules.clockwise,
            workshops: if built.workshops {
                Color::ALL
                    .into_iter()
                    .map(|c| WorkshopView {
                        color: c,
                        craftsmen_needed: rules.workshop_needed[c.index()],
                        points: rules.workshop_points[c.index()],
                        owner: self.workshop_owner(c),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            bonus_tiles: self.bonus_supply(),
            item_names: if built.item_names {
                Item::ALL
                    .into_iter()
                    .map(|i| rules.item_names[i.index()].clone())
                    .collect()
            } else {
                Vec::new()
            },
            provisional_data: !rules.provisional.is_empty(),
        }
    }

    /// Whether every seat's completed commissions and points are shown to all (V-I1): once
    /// the game is over, or throughout when the config opens scores.
    pub(crate) fn scores_shown(&self) -> bool {
        self.config.open_scores || matches!(self.phase(), Phase::Over)
    }

    /// Every seat's public side (V-I1): completed commissions and points show only once
    /// the game is over (the outcome shows everything) or when scores are open.
    fn player_views(&self) -> Vec<PlayerView> {
        let rules = self.rules();
        let shown = self.scores_shown();
        (0..self.seats)
            .map(|s| {
                let p = self.player(s);
                let completed: Vec<CommissionFace> = self.completed_by(s).collect();
                PlayerView {
                    seat: s,
                    space: p.space,
                    coins: p.coins,
                    provisions: p.provisions,
                    equipment: Item::ALL
                        .into_iter()
                        .filter(|i| p.owns(*i))
                        .map(|i| EquipmentView {
                            item: i,
                            name: rules.item_names[i.index()].clone(),
                            load_cost: p.cost_to_load(i),
                            gem: p.gems[i.index()],
                        })
                        .collect(),
                    incomplete: p.incomplete.iter().map(|h| h.face(rules)).collect(),
                    completed_count: completed.len() as u8,
                    completed: shown.then_some(completed),
                    craftsmen: p.craftsmen,
                    bonus_tiles: p.bonus_tiles,
                    score: shown.then(|| self.score(s).total()),
                }
            })
            .collect()
    }
}

impl Valdora {
    /// The position as text for a terminal player: what `view(seat)` holds, laid out.
    pub(crate) fn render(&self, seat: Option<Seat>) -> String {
        use std::fmt::Write as _;
        let v = self.build_view(seat, Built::ALL);
        let rules = self.rules();
        let gems = |g: &Gems| -> String {
            let parts: Vec<String> = Gem::ALL
                .into_iter()
                .filter(|k| g[k.index()] > 0)
                .map(|k| format!("{}×{}", g[k.index()], k.name()))
                .collect();
            if parts.is_empty() {
                "none".into()
            } else {
                parts.join(" ")
            }
        };
        let face = |f: &CommissionFace| {
            crate::describe_face(rules, &crate::components::Face::Commission(*f))
        };
        let mut o = String::new();
        let phase = match v.phase {
            PhaseView::Move => "move".to_string(),
            PhaseView::Act { begun, .. } => format!("act ({})", begun.unwrap_or("not begun")),
            PhaseView::Over { ending } => format!("over ({ending})"),
        };
        let _ = writeln!(
            o,
            "Turn {} — seat {} to play, phase: {phase}{}",
            v.turn,
            v.current,
            if v.end_triggered {
                " — LAST ROUND"
            } else {
                ""
            }
        );
        for p in &v.seats {
            let here = &v.spaces[usize::from(p.space)].name;
            // What each item takes and what it carries: a tool or the pan one gem kind
            // for free, horse and cart any gem for their load cost (V-C5).
            let equipment: Vec<String> = p
                .equipment
                .iter()
                .map(|e| {
                    let takes = if e.item.loads_any() {
                        format!("any gem for {}", count(e.load_cost, "coin", "coins"))
                    } else {
                        Gem::ALL
                            .into_iter()
                            .find(|&g| e.item.accepts(g))
                            .map_or_else(String::new, |g| g.name().to_string())
                    };
                    let carries = e.gem.map_or("empty", |g| g.name());
                    format!("{} (takes {takes}): {carries}", e.name)
                })
                .collect();
            let held: Vec<String> = p.incomplete.iter().map(face).collect();
            let crafts: Vec<String> = Color::ALL
                .into_iter()
                .filter(|c| p.craftsmen[c.index()] > 0)
                .map(|c| format!("{}×{}", p.craftsmen[c.index()], c.name()))
                .collect();
            // V-I1: another seat's points lie under its adventurer card.
            let own = v.own.as_ref().filter(|_| Some(p.seat) == seat);
            let points = match p.score.or(own.map(|o| o.score)) {
                Some(points) => count(points, "point", "points"),
                None => "points hidden".to_string(),
            };
            let _ = writeln!(
                o,
                "{} seat {}{}: {points}, {}{}, at {here}",
                if Some(p.seat) == v.to_move { ">" } else { " " },
                p.seat,
                if Some(p.seat) == seat { " (you)" } else { "" },
                count(p.coins, "coin", "coins"),
                if p.provisions { ", provisions" } else { "" },
            );
            let _ = writeln!(o, "    equipment: {}", equipment.join("; "));
            if !held.is_empty() {
                let _ = writeln!(o, "    commissions held: {}", held.join(" "));
            }
            if !crafts.is_empty() || p.bonus_tiles > 0 {
                let _ = writeln!(
                    o,
                    "    craftsmen: {}; completed {}; bonus tiles {}",
                    crafts.join(" "),
                    p.completed_count,
                    p.bonus_tiles
                );
            }
            let completed = p.completed.as_ref().or(own.map(|o| &o.completed));
            if let Some(done) = completed.filter(|d| !d.is_empty()) {
                let done: Vec<String> = done.iter().map(face).collect();
                let _ = writeln!(o, "    commissions completed: {}", done.join(" "));
            }
        }
        let roads: Vec<String> = v
            .spaces
            .iter()
            .filter_map(|s| s.gems.map(|g| format!("{}: {}", s.name, gems(&g))))
            .collect();
        let _ = writeln!(o, "  road gems: {}", roads.join(" | "));
        let _ = writeln!(o, "  discard (harbours): {}", gems(&v.discard));
        for b in &v.books {
            let top = |pile: &Vec<crate::books::CardView>, side: Side| {
                let face = pile.last().and_then(|c| match side {
                    Side::Left => c.verso,
                    Side::Right => c.recto,
                });
                crate::top_name(rules, face)
            };
            let _ = writeln!(
                o,
                "  book at {}: left {} ({} cards), right {} ({} cards)",
                v.spaces[usize::from(b.city)].name,
                top(&b.left, Side::Left),
                b.left.len(),
                top(&b.right, Side::Right),
                b.right.len()
            );
        }
        let supply: Vec<String> = Color::ALL
            .into_iter()
            .map(|c| format!("{} {}", c.name(), v.craftsmen[c.index()]))
            .collect();
        let _ = writeln!(o, "  craftsmen left: {}", supply.join(", "));
        let workshops: Vec<String> = v
            .workshops
            .iter()
            .map(|w| {
                format!(
                    "{} ({} craftsmen, {}): {}",
                    w.color.name(),
                    w.craftsmen_needed,
                    count(w.points, "point", "points"),
                    w.owner
                        .map_or_else(|| "in the supply".to_string(), |s| format!("seat {s}"))
                )
            })
            .collect();
        let _ = writeln!(o, "  workshops: {}", workshops.join("; "));
        let _ = writeln!(o, "  bonus tiles left: {} (10 points each)", v.bonus_tiles);
        // The road network: where each space leads, for planning moves (V-T1).
        let _ = writeln!(o, "  roads (each space and the spaces it joins):");
        for space in &v.spaces {
            let joined: Vec<&str> = space
                .neighbours
                .iter()
                .filter_map(|&n| v.spaces.get(usize::from(n)).map(|s| &*s.name))
                .collect();
            let _ = writeln!(
                o,
                "    {} ({}): {}",
                space.name,
                crate::kind_name(space.kind),
                joined.join(", ")
            );
        }
        o
    }
}
