//! Hex geometry (P-G1): axial coordinates on flat-top hexes, the six directions,
//! distance, and a fixed-size cell bitset.

use serde::{Deserialize, Serialize};

/// A board cell, indexed in (r, q) order (P-G1). Only cells in the map have an index.
pub type Cell = u8;

/// A direction d0..d5 (P-G1); d and d + 3 are opposite.
pub type Dir = u8;

/// The most cells a map may have; [`CellSet`] holds this many bits.
pub const MAX_CELLS: usize = 192;

/// "No cell": a neighbour outside the map (the mountain border, P-G2).
pub const NO_CELL: Cell = Cell::MAX;

/// Axial coordinates (q, r).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
pub struct Axial {
    pub q: i8,
    pub r: i8,
}

/// The direction vectors d0..d5: (+1,0), (+1,−1), (0,−1), (−1,0), (−1,+1), (0,+1).
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Axial {
    pub const fn new(q: i8, r: i8) -> Self {
        Self { q, r }
    }

    /// From the odd-q offset grid of the data file: q = col, r = row − (col − (col & 1)) / 2.
    pub fn from_offset(col: i8, row: i8) -> Self {
        Self {
            q: col,
            r: row - (col - (col & 1)) / 2,
        }
    }

    /// Back to the odd-q offset grid (col, row).
    pub fn to_offset(self) -> (i8, i8) {
        (self.q, self.r + (self.q - (self.q & 1)) / 2)
    }

    /// The neighbour in direction `dir` (taken mod 6).
    pub fn step(self, dir: Dir) -> Self {
        let (dq, dr) = DIRECTIONS[usize::from(dir % 6)];
        Self {
            q: self.q.saturating_add(dq),
            r: self.r.saturating_add(dr),
        }
    }

    /// Hex distance: (|Δq| + |Δr| + |Δq + Δr|) / 2.
    pub fn distance(self, other: Self) -> u8 {
        let dq = i16::from(self.q) - i16::from(other.q);
        let dr = i16::from(self.r) - i16::from(other.r);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u8
    }
}

/// The opposite direction.
pub const fn opposite(dir: Dir) -> Dir {
    (dir + 3) % 6
}

/// Words of a [`CellSet`]: enough for every `Cell` value, [`NO_CELL`] included, so that
/// `contains` needs neither a bounds check nor a branch (it is the innermost test of
/// placement generation). Bits at [`MAX_CELLS`] and above are never set.
const SET_WORDS: usize = (Cell::MAX as usize + 1) / 64;

/// A set of cells: a flat bitset, `Copy`, no allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; SET_WORDS]);

impl CellSet {
    pub const EMPTY: Self = Self([0; SET_WORDS]);

    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let c = usize::from(cell);
        // A cell past MAX_CELLS (NO_CELL, or a bad id in an action) is never in a set.
        self.0.get(c / 64).is_some_and(|w| w >> (c % 64) & 1 == 1)
    }

    /// Adds a cell; cells at or above [`MAX_CELLS`] are ignored (the board never has them).
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let c = usize::from(cell);
        if c < MAX_CELLS {
            self.0[c / 64] |= 1 << (c % 64);
        }
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let c = usize::from(cell);
        if let Some(w) = self.0.get_mut(c / 64) {
            *w &= !(1 << (c % 64));
        }
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub fn union(self, other: Self) -> Self {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }

    pub fn intersection(self, other: Self) -> Self {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        out
    }

    pub fn difference(self, other: Self) -> Self {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        out
    }

    /// The cells in increasing index order, that is in (r, q) order.
    #[inline]
    pub fn iter(&self) -> CellIter {
        CellIter {
            words: self.0,
            word: 0,
            bits: self.0[0],
        }
    }
}

/// The cells of a [`CellSet`], lowest index first.
#[derive(Debug, Clone)]
pub struct CellIter {
    words: [u64; SET_WORDS],
    word: usize,
    /// The cells of `words[word]` not yet returned; kept apart so the hot path stays in
    /// registers.
    bits: u64,
}

impl Iterator for CellIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let bit = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some((self.word as u32 * 64 + bit) as Cell)
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Serialized as the list of its cells.
impl Serialize for CellSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // rule P-G1: the odd-q conversion of components.toml, directions and distance.
    #[test]
    fn offset_conversion_matches_the_data_file() {
        // Entries copied from components.toml's hex_list.
        assert_eq!(Axial::from_offset(7, 0), Axial::new(7, -3));
        assert_eq!(Axial::from_offset(1, 1), Axial::new(1, 1));
        assert_eq!(Axial::from_offset(11, 9), Axial::new(11, 4));
        for col in 0..14 {
            for row in 0..10 {
                assert_eq!(Axial::from_offset(col, row).to_offset(), (col, row));
            }
        }
    }

    // rule P-G1
    #[test]
    fn directions_are_opposite_in_pairs_and_at_distance_one() {
        let o = Axial::new(3, 2);
        for d in 0..6 {
            assert_eq!(o.distance(o.step(d)), 1);
            assert_eq!(o.step(d).step(opposite(d)), o);
        }
        assert_eq!(o.distance(o), 0);
        assert_eq!(o.distance(o.step(0).step(1)), 2);
        assert_eq!(o.distance(o.step(0).step(3)), 0);
        assert_eq!(Axial::new(0, 0).distance(Axial::new(3, -1)), 3);
    }

    // rule P-G1: the offset neighbour rule written in components.toml agrees with the axial
    // directions.
    #[test]
    fn offset_neighbour_rule_of_the_data_file_agrees() {
        for col in 1..13i8 {
            for row in 1..9i8 {
                let even: [(i8, i8); 6] = [(1, -1), (1, 0), (-1, -1), (-1, 0), (0, -1), (0, 1)];
                let odd: [(i8, i8); 6] = [(1, 0), (1, 1), (-1, 0), (-1, 1), (0, -1), (0, 1)];
                let table = if col & 1 == 0 { even } else { odd };
                let mut from_table: Vec<Axial> = table
                    .iter()
                    .map(|&(dc, dr)| Axial::from_offset(col + dc, row + dr))
                    .collect();
                let here = Axial::from_offset(col, row);
                let mut from_dirs: Vec<Axial> = (0..6).map(|d| here.step(d)).collect();
                from_table.sort();
                from_dirs.sort();
                assert_eq!(from_table, from_dirs, "col {col} row {row}");
            }
        }
    }

    #[test]
    fn cell_set_basics() {
        let mut s = CellSet::EMPTY;
        assert!(s.is_empty());
        for c in [0, 5, 63, 64, 130, 191] {
            s.insert(c);
        }
        assert_eq!(s.len(), 6);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 130, 191]);
        s.remove(64);
        assert!(!s.contains(64));
        assert!(!s.contains(250), "out of range is simply absent");
        let t: CellSet = [5, 6].into_iter().collect();
        assert_eq!(s.intersection(t).iter().collect::<Vec<_>>(), vec![5]);
        assert_eq!(s.union(t).len(), 6);
        assert_eq!(s.difference(t).len(), 4);
    }
}
