//! The static board (P-G2): which cells exist, their kinds, the neighbour table, the
//! start pairs. Built once from data; game states refer to it, never copy it.

use std::collections::HashMap;

use crate::components::Terrain;
use crate::hex::{Axial, Cell, CellSet, Dir, MAX_CELLS, NO_CELL};

/// The static kind of a cell (P-G2). A cell not in the map is outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// Playable; empty at the start.
    Field,
    /// A field cell of a start pair, filled at setup (P-S5).
    Start,
    /// A printed terrain hex, never covered.
    Printed {
        terrain: Terrain,
        symbols: u8,
    },
    Lake,
    /// A lake cell carrying a ship: holds a figure, never in a region.
    Ship,
    /// An exit path of a terrain (P-X14).
    Exit(Terrain),
}

/// Why a list of cells does not make a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("the map has {0} cells; at most {MAX_CELLS} are supported")]
    TooManyCells(usize),
    #[error("cell (q {q}, r {r}) is listed twice")]
    Duplicate { q: i8, r: i8 },
    #[error("start pair {0} is not two neighbouring start cells")]
    BadStartPair(usize),
    #[error("printed hex (q {q}, r {r}) has {symbols} symbols; 1 or 2 expected")]
    BadSymbols { q: i8, r: i8, symbols: u8 },
}

/// The board: cells in (r, q) order with their kinds and neighbours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    coords: Vec<Axial>,
    kinds: Vec<CellKind>,
    neighbours: Vec<[Cell; 6]>,
    /// The neighbours of each cell as a set.
    neighbour_sets: Vec<CellSet>,
    start_pairs: Vec<[Cell; 2]>,
    /// Field and start cells: where tiles and castles go.
    field: CellSet,
    ships: CellSet,
    printed: CellSet,
}

impl Board {
    /// Builds a board from its cells and start pairs (given as coordinates).
    pub fn new(
        cells: &[(Axial, CellKind)],
        start_pairs: &[[Axial; 2]],
    ) -> Result<Board, BoardError> {
        if cells.len() > MAX_CELLS {
            return Err(BoardError::TooManyCells(cells.len()));
        }
        let mut sorted: Vec<(Axial, CellKind)> = cells.to_vec();
        sorted.sort_by_key(|(a, _)| (a.r, a.q));
        let mut index: HashMap<Axial, Cell> = HashMap::new();
        for (i, (a, kind)) in sorted.iter().enumerate() {
            if index.insert(*a, i as Cell).is_some() {
                return Err(BoardError::Duplicate { q: a.q, r: a.r });
            }
            if let CellKind::Printed { symbols, .. } = kind {
                if !(1..=2).contains(symbols) {
                    return Err(BoardError::BadSymbols {
                        q: a.q,
                        r: a.r,
                        symbols: *symbols,
                    });
                }
            }
        }
        let neighbours: Vec<[Cell; 6]> = sorted
            .iter()
            .map(|(a, _)| {
                let mut n = [NO_CELL; 6];
                for (d, slot) in n.iter_mut().enumerate() {
                    *slot = index.get(&a.step(d as Dir)).copied().unwrap_or(NO_CELL);
                }
                n
            })
            .collect();
        let neighbour_sets = neighbours
            .iter()
            .map(|n: &[Cell; 6]| n.iter().copied().filter(|&c| c != NO_CELL).collect())
            .collect();
        let mut board = Board {
            coords: sorted.iter().map(|(a, _)| *a).collect(),
            kinds: sorted.iter().map(|(_, k)| *k).collect(),
            neighbours,
            neighbour_sets,
            start_pairs: Vec::new(),
            field: CellSet::EMPTY,
            ships: CellSet::EMPTY,
            printed: CellSet::EMPTY,
        };
        for (i, kind) in board.kinds.iter().enumerate() {
            let c = i as Cell;
            match kind {
                CellKind::Field | CellKind::Start => board.field.insert(c),
                CellKind::Ship => board.ships.insert(c),
                CellKind::Printed { .. } => board.printed.insert(c),
                _ => {}
            }
        }
        for (i, pair) in start_pairs.iter().enumerate() {
            let a = board.cell_at(pair[0]);
            let b = board.cell_at(pair[1]);
            match (a, b) {
                (Some(a), Some(b))
                    if board.kind(a) == CellKind::Start
                        && board.kind(b) == CellKind::Start
                        && board.neighbours(a).contains(&b) =>
                {
                    board.start_pairs.push([a, b])
                }
                _ => return Err(BoardError::BadStartPair(i)),
            }
        }
        Ok(board)
    }

    /// The number of cells; valid cells are `0..len()`.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn contains(&self, cell: Cell) -> bool {
        usize::from(cell) < self.kinds.len()
    }

    /// The kind of a cell; `cell` must be on the board.
    #[inline]
    pub fn kind(&self, cell: Cell) -> CellKind {
        self.kinds[usize::from(cell)]
    }

    #[inline]
    pub fn coord(&self, cell: Cell) -> Axial {
        self.coords[usize::from(cell)]
    }

    /// The neighbours of a cell by direction, [`NO_CELL`] where the map ends.
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell; 6] {
        &self.neighbours[usize::from(cell)]
    }

    /// The neighbours of a cell as a set.
    #[inline]
    pub fn neighbour_set(&self, cell: Cell) -> CellSet {
        self.neighbour_sets[usize::from(cell)]
    }

    /// The neighbour in direction `dir`, or `None` outside the map.
    #[inline]
    pub fn neighbour(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let n = *self
            .neighbours
            .get(usize::from(cell))?
            .get(usize::from(dir))?;
        (n != NO_CELL).then_some(n)
    }

    pub fn cell_at(&self, at: Axial) -> Option<Cell> {
        self.coords
            .binary_search_by_key(&(at.r, at.q), |a| (a.r, a.q))
            .ok()
            .map(|i| i as Cell)
    }

    pub fn distance(&self, a: Cell, b: Cell) -> u8 {
        self.coord(a).distance(self.coord(b))
    }

    pub fn start_pairs(&self) -> &[[Cell; 2]] {
        &self.start_pairs
    }

    /// Field and start cells.
    pub fn field(&self) -> CellSet {
        self.field
    }

    pub fn ships(&self) -> CellSet {
        self.ships
    }

    pub fn printed(&self) -> CellSet {
        self.printed
    }
}

/// Reads the ASCII map of the data file: one string per row of the odd-q offset grid,
/// column 0 first (P-G1). Legend: `#` outside, `.` field, `1`–`9` start cells (equal
/// digits form a pair), `~` lake, `S` ship, `F H M C` printed forest/hill/mountain/city,
/// `f h m c` exits. Printed hexes get `printed_symbols(col, row)` symbols.
pub fn parse_ascii(
    rows: &[String],
    mut printed_symbols: impl FnMut(i8, i8) -> u8,
) -> Result<Layout, String> {
    let mut cells = Vec::new();
    let mut pairs: Vec<(char, Vec<Axial>)> = Vec::new();
    if rows.len() > 100 {
        return Err(format!("{} rows is too many", rows.len()));
    }
    for (row, line) in rows.iter().enumerate() {
        if line.chars().count() > 100 {
            return Err(format!("row {row} is too long"));
        }
        for (col, ch) in line.chars().enumerate() {
            let (c, r) = (col as i8, row as i8);
            let at = Axial::from_offset(c, r);
            let terrain = |ch: char| match ch.to_ascii_uppercase() {
                'F' => Some(Terrain::Forest),
                'H' => Some(Terrain::Hill),
                'M' => Some(Terrain::Mountain),
                'C' => Some(Terrain::City),
                _ => None,
            };
            let kind = match ch {
                '#' => continue,
                '.' => CellKind::Field,
                '~' => CellKind::Lake,
                'S' => CellKind::Ship,
                '1'..='9' => {
                    match pairs.iter_mut().find(|(d, _)| *d == ch) {
                        Some((_, v)) => v.push(at),
                        None => pairs.push((ch, vec![at])),
                    }
                    CellKind::Start
                }
                'F' | 'H' | 'M' | 'C' => CellKind::Printed {
                    terrain: terrain(ch).unwrap_or(Terrain::Forest),
                    symbols: printed_symbols(c, r),
                },
                'f' | 'h' | 'm' | 'c' => CellKind::Exit(terrain(ch).unwrap_or(Terrain::Forest)),
                other => {
                    return Err(format!(
                        "unknown map character {other:?} at col {col}, row {row}"
                    ))
                }
            };
            cells.push((at, kind));
        }
    }
    pairs.sort_by_key(|(d, _)| *d);
    let mut start_pairs = Vec::new();
    for (digit, v) in pairs {
        match v.as_slice() {
            [a, b] => start_pairs.push([*a, *b]),
            _ => {
                return Err(format!(
                    "start pair {digit} has {} cells, 2 expected",
                    v.len()
                ))
            }
        }
    }
    Ok(Layout { cells, start_pairs })
}

/// A board as listed: cells with kinds, and start pairs, by coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub cells: Vec<(Axial, CellKind)>,
    pub start_pairs: Vec<[Axial; 2]>,
}
