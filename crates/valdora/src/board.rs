//! The board graph (V-C4) and its movement tables (V-T1), computed once at load.

use std::sync::Arc;

use serde::Serialize;

use crate::components::Color;

/// Spaces are indexed by `u8`; a set of spaces is a `u32` bitset.
pub type Space = u8;
pub type SpaceSet = u32;

pub const MAX_SPACES: usize = 32;

/// What stands on a space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export_to = "valdora/")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpaceKind {
    /// A or B: holds an equipment book.
    EquipmentCity,
    /// C or D: holds a commission book.
    CommissionCity,
    /// The central city: start space, loads from the discard area.
    HarbourCity {
        ships: u8,
    },
    /// Holds gems (6 at setup).
    Road,
    SilverMine,
    PatronHouse {
        color: Color,
    },
    /// Loads from the discard area.
    Harbour {
        ships: u8,
    },
}

impl SpaceKind {
    pub fn is_city(self) -> bool {
        matches!(
            self,
            SpaceKind::EquipmentCity | SpaceKind::CommissionCity | SpaceKind::HarbourCity { .. }
        )
    }

    /// Ships of a harbour space or the harbour city: gems loadable per action (V-A2).
    pub fn ships(self) -> Option<u8> {
        match self {
            SpaceKind::HarbourCity { ships } | SpaceKind::Harbour { ships } => Some(ships),
            _ => None,
        }
    }
}

/// The validated board with precomputed reachability.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// Shared with the views that show them (`Arc`: a view outlives no data it names).
    pub names: Vec<Arc<str>>,
    pub kinds: Vec<SpaceKind>,
    /// Drawing positions (0..100).
    pub positions: Vec<(f32, f32)>,
    pub neighbours: Vec<SpaceSet>,
    /// `neighbours` as lists, in space order (what views show).
    pub neighbour_lists: Vec<Arc<[Space]>>,
    pub start: Space,
    /// Book index (0, 1 equipment; 2, 3 commissions) by space, if any.
    book_at: [Option<u8>; MAX_SPACES],
    /// The city of each book.
    pub book_city: [Space; 4],
    /// Index among road spaces (0..13), by space.
    road_index: [Option<u8>; MAX_SPACES],
    /// Destinations by simple paths with no city strictly inside.
    reach_plain: [SpaceSet; MAX_SPACES],
    /// Destinations that need exactly one city strictly inside (not in `reach_plain`).
    reach_provisions: [SpaceSet; MAX_SPACES],
}

impl Board {
    /// Validates the counts of V-C4 and the roads, and computes the movement tables.
    pub fn new(
        spaces: Vec<(String, SpaceKind, f32, f32)>,
        edges: &[[String; 2]],
    ) -> Result<Board, String> {
        let n = spaces.len();
        if n > MAX_SPACES {
            return Err(format!(
                "board: {n} spaces, at most {MAX_SPACES} are supported"
            ));
        }
        for (i, (name, ..)) in spaces.iter().enumerate() {
            if spaces[..i].iter().any(|(other, ..)| other == name) {
                return Err(format!("board.nodes[{i}]: id {name:?} is used twice"));
            }
        }
        let count = |f: &dyn Fn(SpaceKind) -> bool| spaces.iter().filter(|s| f(s.1)).count();
        let expected: [(&str, usize, usize); 7] = [
            (
                "equipment cities",
                count(&|k| k == SpaceKind::EquipmentCity),
                2,
            ),
            (
                "commission cities",
                count(&|k| k == SpaceKind::CommissionCity),
                2,
            ),
            (
                "harbour cities",
                count(&|k| matches!(k, SpaceKind::HarbourCity { .. })),
                1,
            ),
            ("road spaces", count(&|k| k == SpaceKind::Road), 13),
            ("silver mines", count(&|k| k == SpaceKind::SilverMine), 3),
            (
                "patron houses",
                count(&|k| matches!(k, SpaceKind::PatronHouse { .. })),
                7,
            ),
            (
                "harbour spaces",
                count(&|k| matches!(k, SpaceKind::Harbour { .. })),
                2,
            ),
        ];
        for (what, got, want) in expected {
            if got != want {
                return Err(format!("board: {got} {what}, the game has {want}"));
            }
        }
        for c in Color::ALL {
            if count(&|k| k == SpaceKind::PatronHouse { color: c }) != 1 {
                return Err(format!(
                    "board: the {} patron must have exactly one house",
                    c.name()
                ));
            }
        }
        let index = |name: &str| spaces.iter().position(|s| s.0 == name);
        let mut neighbours = vec![0 as SpaceSet; n];
        for (i, [a, b]) in edges.iter().enumerate() {
            let (Some(x), Some(y)) = (index(a), index(b)) else {
                let unknown = if index(a).is_none() { a } else { b };
                return Err(format!("board.roads.edges[{i}]: no space {unknown:?}"));
            };
            if x == y {
                return Err(format!("board.roads.edges[{i}]: {a:?} joined to itself"));
            }
            neighbours[x] |= 1 << y;
            neighbours[y] |= 1 << x;
        }
        let kinds: Vec<SpaceKind> = spaces.iter().map(|s| s.1).collect();
        let start = kinds
            .iter()
            .position(|k| matches!(k, SpaceKind::HarbourCity { .. }))
            .expect("counted above") as Space;
        let neighbour_lists = neighbours
            .iter()
            .map(|&set| (0..n as Space).filter(|&t| set & 1 << t != 0).collect())
            .collect();
        let mut board = Board {
            names: spaces.iter().map(|s| Arc::from(s.0.as_str())).collect(),
            positions: spaces.iter().map(|s| (s.2, s.3)).collect(),
            kinds,
            neighbours,
            neighbour_lists,
            start,
            book_at: [None; MAX_SPACES],
            book_city: [0; 4],
            road_index: [None; MAX_SPACES],
            reach_plain: [0; MAX_SPACES],
            reach_provisions: [0; MAX_SPACES],
        };
        let (mut equipment, mut commission, mut road) = (0u8, 2u8, 0u8);
        for s in 0..n {
            let next = match board.kinds[s] {
                SpaceKind::EquipmentCity => Some(&mut equipment),
                SpaceKind::CommissionCity => Some(&mut commission),
                _ => None,
            };
            let book = next.map(|n| {
                *n += 1;
                *n - 1
            });
            if let Some(b) = book {
                board.book_at[s] = Some(b);
                board.book_city[usize::from(b)] = s as Space;
            }
            if board.kinds[s] == SpaceKind::Road {
                board.road_index[s] = Some(road);
                road += 1;
            }
        }
        board.compute_reach();
        let everywhere: SpaceSet = if n == 32 { u32::MAX } else { (1 << n) - 1 };
        let connected = board.closure(start, everywhere) | 1 << start;
        if connected != everywhere {
            let lost = (0..n).find(|&s| connected & 1 << s == 0).unwrap_or(0);
            return Err(format!(
                "board: space {:?} cannot be reached from the start",
                board.names[lost]
            ));
        }
        Ok(board)
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn kind(&self, s: Space) -> SpaceKind {
        self.kinds[usize::from(s)]
    }

    pub fn book_at(&self, s: Space) -> Option<u8> {
        self.book_at[usize::from(s)]
    }

    pub fn road_index(&self, s: Space) -> Option<u8> {
        self.road_index[usize::from(s)]
    }

    pub fn road_count(&self) -> usize {
        self.road_index.iter().flatten().count()
    }

    pub fn space_named(&self, name: &str) -> Option<Space> {
        self.names
            .iter()
            .position(|n| **n == *name)
            .map(|i| i as Space)
    }

    /// Destinations reachable without passing a city.
    #[inline]
    pub fn reach_plain(&self, from: Space) -> SpaceSet {
        self.reach_plain[usize::from(from)]
    }

    /// Destinations that are reachable only by passing exactly one city.
    #[inline]
    pub fn reach_provisions(&self, from: Space) -> SpaceSet {
        self.reach_provisions[usize::from(from)]
    }

    /// Spaces reachable from `from` by walks whose inner spaces all lie in `passable`.
    /// A walk with given inner spaces can be shortened to a simple path whose inner spaces
    /// are a subset of them, so this decides V-T1 without enumerating paths.
    fn closure(&self, from: Space, passable: SpaceSet) -> SpaceSet {
        let mut reached: SpaceSet = 0;
        let mut frontier: SpaceSet = 1 << from;
        let mut expanded: SpaceSet = 0;
        while frontier != 0 {
            let s = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            expanded |= 1 << s;
            let next = self.neighbours[s];
            reached |= next;
            frontier |= next & passable & !expanded;
        }
        reached & !(1 << from)
    }

    // rule V-T1: a path has at least one step and no city strictly inside, or exactly one
    // with provisions; the destination itself may be a city.
    fn compute_reach(&mut self) {
        let n = self.len();
        let cities: SpaceSet = (0..n)
            .filter(|&s| self.kinds[s].is_city())
            .fold(0, |m, s| m | 1 << s);
        let open = !cities;
        for s in 0..n {
            let plain = self.closure(s as Space, open);
            let mut via_city = 0;
            for c in 0..n {
                if cities & 1 << c != 0 && c != s {
                    via_city |= self.closure(s as Space, open | 1 << c);
                }
            }
            self.reach_plain[s] = plain;
            self.reach_provisions[s] = via_city & !plain;
        }
    }
}
