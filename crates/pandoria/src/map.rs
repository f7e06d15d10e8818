//! The dynamic map: what lies on each cell, anchors and placements (P-G5–P-G7), and
//! regions with incremental closing (P-G8–P-G10).
//!
//! Regions are a union-find over land hexes. Each root keeps its terrain, symbol total,
//! hex count and its *liberties*: the number of (hex, empty field neighbour) pairs, plus
//! a flag for a same-terrain exit. Filling a cell decrements the liberties of the land
//! around it and merges the new hex into its same-terrain neighbours, so a region is
//! closed exactly when its liberties reach 0 without an exit (P-G9). A placement touches
//! at most two cells and their twelve neighbours: closing costs O(1) per placement.
//! A closed region never changes again: it has no empty neighbour, so nothing can be
//! placed next to it and it can never merge.

use tinyvec::ArrayVec;

use crate::board::{Board, CellKind};
use crate::components::Terrain;
use crate::fault::{Fault, Key};
use crate::hex::{opposite, Cell, CellSet, Dir, MAX_CELLS, NO_CELL};

const NO_TERRAIN: u8 = u8::MAX;
const FLAG_EXIT: u8 = 1;
const FLAG_CLOSED: u8 = 2;

/// Regions closed by one placement. One placement fills at most two cells, so at most
/// their own two regions and the regions of their ten other neighbours can close.
pub type Closed = ArrayVec<[Cell; 16]>;

/// The legal double placements of one position (P-G6): the first cells, and for each one
/// bit per direction in which the tile's second half may lie.
#[derive(Debug, Clone)]
pub struct DoublePlacements {
    starts: CellSet,
    /// Indexed by any `Cell` (NO_CELL included), so that finding them needs no bounds.
    dirs: [u8; Cell::MAX as usize + 1],
}

impl DoublePlacements {
    fn allowed(identical_halves: bool) -> u8 {
        if identical_halves {
            0b000_111
        } else {
            0b111_111
        }
    }

    /// Calls `out(at, dir)` for each placement, in (r, q) order of `at`, then direction;
    /// with `identical_halves` only d0..d2 (see [`Map::double_placements`]).
    pub fn each(&self, identical_halves: bool, mut out: impl FnMut(Cell, Dir)) {
        let allowed = Self::allowed(identical_halves);
        for at in self.starts.iter() {
            let mut dirs = self.dirs[usize::from(at)] & allowed;
            while dirs != 0 {
                out(at, dirs.trailing_zeros() as Dir);
                dirs &= dirs - 1;
            }
        }
    }

    /// Appends `make(at, dir)` for each placement to `out`, in the order of
    /// [`DoublePlacements::each`], without a branch per placement: every direction of
    /// every first cell is written, and the end of the list advances past the legal
    /// ones only. A placement phase lists about 150 of them, and guessing where the
    /// legal directions lie was a good part of its time (issue 52).
    pub fn push_each<A: Copy>(
        &self,
        identical_halves: bool,
        out: &mut Vec<A>,
        make: impl Fn(Cell, Dir) -> A,
    ) {
        let allowed = Self::allowed(identical_halves);
        let start = out.len();
        out.resize(start + 6 * self.starts.len(), make(NO_CELL, 0));
        let mut end = start;
        for at in self.starts.iter() {
            let dirs = self.dirs[usize::from(at)] & allowed;
            for dir in 0..6 {
                out[end] = make(at, dir);
                end += usize::from(dirs >> dir & 1);
            }
        }
        out.truncate(end);
    }
}

/// A land hex as placed: terrain and symbol count (P-G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hex {
    pub terrain: Terrain,
    pub symbols: u8,
}

/// A region as scoring sees it (P-R3, P-R4). `root` names it for as long as it exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub root: Cell,
    pub terrain: Terrain,
    pub symbols: u16,
    pub hexes: u8,
    pub closed: bool,
}

/// What lies on the cells of a board.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Map {
    terrain: [u8; MAX_CELLS],
    symbols: [u8; MAX_CELLS],
    /// Owner + 1 of a castle, 0 for none.
    castle: [u8; MAX_CELLS],
    parent: [u8; MAX_CELLS],
    region_symbols: [u16; MAX_CELLS],
    region_hexes: [u8; MAX_CELLS],
    liberties: [u16; MAX_CELLS],
    flags: [u8; MAX_CELLS],
    /// Empty field cells.
    empty: CellSet,
    /// P-G5 anchors.
    anchors: CellSet,
    /// Empty field cells next to an anchor: where a single piece may go (P-G7).
    placeable: CellSet,
    /// Land hexes outside closed regions.
    open_land: CellSet,
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Map")
            .field("empty", &self.empty)
            .field("open_land", &self.open_land)
            .field("placeable", &self.placeable)
            .finish_non_exhaustive()
    }
}

fn terrain_from(code: u8) -> Option<Terrain> {
    Terrain::ALL.get(usize::from(code)).copied()
}

impl Map {
    /// The map before the start tiles: printed hexes form their regions, every field
    /// cell is empty. Printed hexes are not anchors yet (P-G5).
    pub fn new(board: &Board) -> Map {
        let mut map = Map {
            terrain: [NO_TERRAIN; MAX_CELLS],
            symbols: [0; MAX_CELLS],
            castle: [0; MAX_CELLS],
            parent: [0; MAX_CELLS],
            region_symbols: [0; MAX_CELLS],
            region_hexes: [0; MAX_CELLS],
            liberties: [0; MAX_CELLS],
            flags: [0; MAX_CELLS],
            empty: board.field(),
            anchors: CellSet::EMPTY,
            placeable: CellSet::EMPTY,
            open_land: CellSet::EMPTY,
        };
        for c in 0..board.len() {
            map.parent[c] = c as Cell;
        }
        for c in board.printed().iter() {
            if let CellKind::Printed { terrain, symbols } = board.kind(c) {
                map.add_land(board, c, Hex { terrain, symbols });
            }
        }
        // Printed hexes closed at setup are closed, but never scored (P-X19).
        for c in board.printed().iter() {
            let root = map.find(c);
            map.close_if_done(board, root, &mut Closed::new());
        }
        map
    }

    /// The land hex on a cell (tile or printed), if any.
    #[inline]
    pub fn land(&self, cell: Cell) -> Option<Hex> {
        let t = terrain_from(*self.terrain.get(usize::from(cell))?)?;
        Some(Hex {
            terrain: t,
            symbols: self.symbols[usize::from(cell)],
        })
    }

    /// The owner of the castle on a cell.
    #[inline]
    pub fn castle(&self, cell: Cell) -> Option<u8> {
        match self.castle.get(usize::from(cell)) {
            Some(&o) if o > 0 => Some(o - 1),
            _ => None,
        }
    }

    #[inline]
    pub fn is_empty_field(&self, cell: Cell) -> bool {
        self.empty.contains(cell)
    }

    /// Empty field cells.
    pub fn empty_cells(&self) -> CellSet {
        self.empty
    }

    pub fn anchors(&self) -> CellSet {
        self.anchors
    }

    /// Land hexes outside closed regions (spell targets before occupancy, P-G13).
    pub fn open_land(&self) -> CellSet {
        self.open_land
    }

    /// P-G7: a single piece (castle or single tile) may go on `cell`.
    #[inline]
    pub fn single_legal(&self, cell: Cell) -> bool {
        self.placeable.contains(cell)
    }

    /// P-G7, explained: why a single piece may not go on `cell`.
    pub(crate) fn single_check(&self, board: &Board, cell: Cell) -> Result<(), Fault> {
        if self.single_legal(cell) {
            return Ok(());
        }
        self.empty_field_check(board, cell)?;
        Err(Fault::new("P-G7", "not_next_to_anchor").with(Key::Cell, cell))
    }

    /// P-G6/P-G7: `cell` is an empty field cell; the fault cites P-G7, a double
    /// placement re-cites it.
    fn empty_field_check(&self, board: &Board, cell: Cell) -> Result<(), Fault> {
        if !board.contains(cell) {
            return Err(Fault::new("P-G7", "cell_off_map").with(Key::Cell, cell));
        }
        if self.empty.contains(cell) {
            return Ok(());
        }
        let code = match board.kind(cell) {
            CellKind::Field | CellKind::Start => "cell_occupied",
            _ => "not_a_field_cell",
        };
        Err(Fault::new("P-G7", code).with(Key::Cell, cell))
    }

    /// Every legal single placement, in (r, q) order.
    pub fn single_placements(&self) -> CellSet {
        self.placeable
    }

    /// P-G6: a double tile may go on `at` and its neighbour in direction `dir`.
    #[inline]
    pub fn double_legal(&self, board: &Board, at: Cell, dir: Dir) -> bool {
        if dir >= 6 || !self.empty.contains(at) {
            return false;
        }
        match board.neighbour(at, dir) {
            Some(other) => {
                self.empty.contains(other)
                    && (self.placeable.contains(at) || self.placeable.contains(other))
            }
            None => false,
        }
    }

    /// P-G6, explained: why a double tile may not go on `at` and its neighbour `dir`.
    pub(crate) fn double_check(&self, board: &Board, at: Cell, dir: Dir) -> Result<(), Fault> {
        if self.double_legal(board, at, dir) {
            return Ok(());
        }
        if dir >= 6 {
            return Err(Fault::new("P-G6", "no_such_direction").with(Key::Dir, dir));
        }
        let g6 = |f: Fault| f.citing("P-G6");
        self.empty_field_check(board, at).map_err(g6)?;
        let Some(other) = board.neighbour(at, dir) else {
            return Err(Fault::new("P-G6", "second_half_off_map")
                .with(Key::Cell, at)
                .with(Key::Dir, dir));
        };
        self.empty_field_check(board, other).map_err(g6)?;
        Err(Fault::new("P-G6", "not_next_to_anchor").with(Key::Cell, at))
    }

    /// Calls `out(at, dir)` for every legal double placement, in (r, q) order of `at`,
    /// then direction. With `identical_halves` only d0..d2 are listed, because (X, d) and
    /// (X + d, d + 3) then lay the same tile the same way (P-G6).
    pub fn double_placements(
        &self,
        board: &Board,
        identical_halves: bool,
        out: impl FnMut(Cell, Dir),
    ) {
        self.double_placement_dirs(board)
            .each(identical_halves, out);
    }

    /// Every legal double placement, found once for every tile a seat may place (the
    /// listing of a seat with two tiles found them twice; issue 52).
    ///
    /// A placement covers two empty cells, one of them placeable (P-G6). Both kinds of
    /// first cell are found from the placeable cells alone, which are few: a placeable
    /// `c` starts a placement towards each empty neighbour, and an empty, not placeable
    /// neighbour `x` of `c` (in direction `d` from it) starts one back towards `c`, in
    /// direction `opposite(d)`. This visits the placeable cells' neighbours once, where
    /// asking each candidate start about its six neighbours visited three times as many.
    /// Branch-free, as the cells' contents are what a branch would have to guess.
    pub fn double_placement_dirs(&self, board: &Board) -> DoublePlacements {
        let mut found = DoublePlacements {
            starts: CellSet::EMPTY,
            dirs: [0; Cell::MAX as usize + 1],
        };
        let placeable = self.placeable.intersection(self.empty);
        let mut near = placeable;
        for c in placeable.iter() {
            near = near.union(board.neighbour_set(c));
            for (d, &x) in (0..).zip(board.neighbours(c)) {
                // Off-map neighbours (NO_CELL) are never empty: they add nothing.
                let empty = u8::from(self.empty.contains(x));
                let free_start = empty & u8::from(!self.placeable.contains(x));
                found.dirs[usize::from(c)] |= empty << d;
                found.dirs[usize::from(x)] |= free_start << opposite(d);
            }
        }
        found.starts = near.intersection(self.empty);
        found
    }

    /// Whether any double placement is legal (P-T1).
    pub fn any_double(&self, board: &Board) -> bool {
        self.placeable
            .iter()
            .any(|at| board.neighbours(at).iter().any(|&n| self.empty.contains(n)))
    }

    /// Lays a double tile: half `a` on `at`, half `b` on its neighbour in `dir`. The
    /// placement must be legal. Returns the regions it closed (P-G10).
    pub fn place_double(&mut self, board: &Board, at: Cell, dir: Dir, a: Hex, b: Hex) -> Closed {
        let other = board.neighbour(at, dir).unwrap_or(NO_CELL);
        self.fill_land(board, at, a);
        self.fill_land(board, other, b);
        self.newly_closed(board, &[at, other])
    }

    /// Lays a single tile on a legal cell.
    pub fn place_single(&mut self, board: &Board, at: Cell, hex: Hex) -> Closed {
        self.fill_land(board, at, hex);
        self.newly_closed(board, &[at])
    }

    /// Puts a castle of `owner` on a legal cell.
    pub fn place_castle(&mut self, board: &Board, at: Cell, owner: u8) -> Closed {
        self.fill(board, at);
        self.castle[usize::from(at)] = owner + 1;
        self.newly_closed(board, &[at])
    }

    /// The root of the region holding `cell`, if it is land.
    #[inline]
    pub fn region_of(&self, cell: Cell) -> Option<Cell> {
        self.land(cell).map(|_| self.find(cell))
    }

    /// A region by any of its cells.
    pub fn region(&self, cell: Cell) -> Option<Region> {
        let hex = self.land(cell)?;
        let root = usize::from(self.find(cell));
        Some(Region {
            root: root as Cell,
            terrain: hex.terrain,
            symbols: self.region_symbols[root],
            hexes: self.region_hexes[root],
            closed: self.flags[root] & FLAG_CLOSED != 0,
        })
    }

    /// Whether `cell` is a land hex of a closed region.
    #[inline]
    pub fn in_closed_region(&self, cell: Cell) -> bool {
        self.land(cell).is_some() && !self.open_land.contains(cell)
    }

    /// The hexes of the region with root `root`.
    pub fn region_cells(&self, board: &Board, root: Cell) -> CellSet {
        let candidates = if self.flags[usize::from(root)] & FLAG_CLOSED == 0 {
            self.open_land
        } else {
            (0..board.len() as Cell).collect()
        };
        candidates
            .iter()
            .filter(|&c| self.land(c).is_some() && self.find(c) == root)
            .collect()
    }

    /// P-G11: a figure on `cell` is adjacent to the region `root` iff `cell` is not in it
    /// and neighbours one of its hexes.
    pub fn adjacent_to_region(&self, board: &Board, cell: Cell, root: Cell) -> bool {
        if self.region_of(cell) == Some(root) {
            return false;
        }
        board
            .neighbours(cell)
            .iter()
            .any(|&n| n != NO_CELL && self.region_of(n) == Some(root))
    }

    #[inline]
    fn find(&self, cell: Cell) -> Cell {
        let mut c = cell;
        while self.parent[usize::from(c)] != c {
            c = self.parent[usize::from(c)];
        }
        c
    }

    fn add_land(&mut self, board: &Board, cell: Cell, hex: Hex) {
        let c = usize::from(cell);
        self.terrain[c] = hex.terrain as u8;
        self.symbols[c] = hex.symbols;
        self.parent[c] = cell;
        self.region_symbols[c] = u16::from(hex.symbols);
        self.region_hexes[c] = 1;
        self.liberties[c] = 0;
        self.flags[c] = 0;
        self.open_land.insert(cell);
        for &n in board.neighbours(cell) {
            if n == NO_CELL {
                continue;
            }
            if self.empty.contains(n) {
                self.liberties[c] += 1;
            } else if board.kind(n) == CellKind::Exit(hex.terrain) {
                self.flags[c] |= FLAG_EXIT;
            }
        }
        for &n in board.neighbours(cell) {
            if n != NO_CELL && self.terrain[usize::from(n)] == hex.terrain as u8 {
                self.union(cell, n);
            }
        }
    }

    fn union(&mut self, a: Cell, b: Cell) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let (big, small) =
            if self.region_hexes[usize::from(ra)] >= self.region_hexes[usize::from(rb)] {
                (usize::from(ra), usize::from(rb))
            } else {
                (usize::from(rb), usize::from(ra))
            };
        self.parent[small] = big as Cell;
        self.region_symbols[big] += self.region_symbols[small];
        self.region_hexes[big] = self.region_hexes[big].saturating_add(self.region_hexes[small]);
        self.liberties[big] += self.liberties[small];
        self.flags[big] |= self.flags[small] & FLAG_EXIT;
    }

    /// Marks an empty field cell filled: its land neighbours lose a liberty, and it
    /// becomes an anchor, which may wake a printed neighbour (P-G5).
    fn fill(&mut self, board: &Board, cell: Cell) {
        self.empty.remove(cell);
        self.placeable.remove(cell);
        for &n in board.neighbours(cell) {
            if n != NO_CELL && self.land(n).is_some() {
                let root = usize::from(self.find(n));
                self.liberties[root] -= 1;
            }
        }
        self.make_anchor(board, cell);
        for &n in board.neighbours(cell) {
            if n != NO_CELL && board.printed().contains(n) {
                self.make_anchor(board, n);
            }
        }
    }

    fn fill_land(&mut self, board: &Board, cell: Cell, hex: Hex) {
        self.fill(board, cell);
        self.add_land(board, cell, hex);
    }

    fn make_anchor(&mut self, board: &Board, cell: Cell) {
        if self.anchors.contains(cell) {
            return;
        }
        self.anchors.insert(cell);
        for &n in board.neighbours(cell) {
            if self.empty.contains(n) {
                self.placeable.insert(n);
            }
        }
    }

    /// P-G10: the regions that contain or neighbour a filled cell and are now closed.
    fn newly_closed(&mut self, board: &Board, filled: &[Cell]) -> Closed {
        let mut closed = Closed::new();
        for &cell in filled {
            if self.land(cell).is_some() {
                let root = self.find(cell);
                self.close_if_done(board, root, &mut closed);
            }
            for &n in board.neighbours(cell) {
                if n != NO_CELL && self.land(n).is_some() {
                    let root = self.find(n);
                    self.close_if_done(board, root, &mut closed);
                }
            }
        }
        closed
    }

    fn close_if_done(&mut self, board: &Board, root: Cell, closed: &mut Closed) {
        let r = usize::from(root);
        if self.flags[r] & (FLAG_CLOSED | FLAG_EXIT) != 0 || self.liberties[r] != 0 {
            return;
        }
        let cells = self.region_cells(board, root);
        self.flags[r] |= FLAG_CLOSED;
        self.open_land = self.open_land.difference(cells);
        closed.push(root);
    }
}

/// Both ends of a double placement.
pub fn double_cells(board: &Board, at: Cell, dir: Dir) -> Option<(Cell, Cell)> {
    Some((at, board.neighbour(at, dir)?))
}

/// The same placement seen from the other half: (X + d, d + 3).
pub fn mirrored(board: &Board, at: Cell, dir: Dir) -> Option<(Cell, Dir)> {
    Some((board.neighbour(at, dir)?, opposite(dir)))
}
