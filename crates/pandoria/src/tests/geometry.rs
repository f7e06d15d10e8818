//! Geometry, anchors, placements, regions and closing (P-G1–P-G11), checked on small
//! hand-made boards and against a brute-force flood fill on the proposal board.

use std::collections::HashSet;

use proptest::prelude::*;

use crate::board::{Board, CellKind};
use crate::components::Terrain::{self, *};
use crate::hex::{Axial, Cell, Dir, NO_CELL};
use crate::map::{Hex, Map};

/// The shipped board (the layout proposal of components.toml).
pub fn proposal_board() -> Board {
    crate::data::Rules::standard().board.clone()
}

/// A strip of cells along d0 at r = 0: neighbours are only left and right, so a test
/// can say exactly what bounds a region.
fn strip(kinds: &[CellKind]) -> Board {
    let cells: Vec<(Axial, CellKind)> = kinds
        .iter()
        .enumerate()
        .map(|(q, k)| (Axial::new(q as i8, 0), *k))
        .collect();
    Board::new(&cells, &[]).unwrap()
}

fn hex(terrain: Terrain, symbols: u8) -> Hex {
    Hex { terrain, symbols }
}

const FIELD: CellKind = CellKind::Field;

fn printed(terrain: Terrain) -> CellKind {
    CellKind::Printed {
        terrain,
        symbols: 1,
    }
}

// rule P-G2: cells of the map get indices in (r, q) order; outside cells get none.
#[test]
fn cells_are_indexed_in_r_q_order() {
    let board = proposal_board();
    assert_eq!(board.len(), 128);
    for c in 1..board.len() as Cell {
        let (a, b) = (board.coord(c - 1), board.coord(c));
        assert!((a.r, a.q) < (b.r, b.q));
    }
    assert_eq!(board.cell_at(Axial::from_offset(0, 0)), None, "outside");
    let exit = board.cell_at(Axial::from_offset(7, 0)).unwrap();
    assert_eq!(board.kind(exit), CellKind::Exit(Mountain));
    assert_eq!(board.start_pairs().len(), 2);
    assert_eq!(board.ships().len(), 3);
    assert_eq!(board.printed().len(), 4);
    // 111 empty field cells + 4 start cells.
    assert_eq!(board.field().len(), 115);
}

// rule P-G5: an untouched printed hex is no anchor; before the start tiles nothing is
// placeable.
// rule P-G7: a single piece goes on an empty field cell next to an anchor.
#[test]
fn anchors_come_from_tiles_castles_and_touched_printed_hexes() {
    // F . . . .
    let board = strip(&[printed(Forest), FIELD, FIELD, FIELD, FIELD]);
    let mut map = Map::new(&board);
    assert!(map.single_placements().is_empty());
    assert!(!map.any_double(&board));
    // A castle on cell 2 (placed as setup would, without a legality check).
    map.place_castle(&board, 2, 0);
    assert_eq!(
        map.single_placements().iter().collect::<Vec<_>>(),
        vec![1, 3]
    );
    assert!(
        !map.anchors().contains(0),
        "the printed hex is still untouched"
    );
    map.place_single(&board, 1, hex(Hill, 1));
    assert!(map.anchors().contains(0), "touched now");
    assert!(!map.single_legal(1), "occupied");
    assert!(!map.single_legal(0), "printed hexes are never covered");
}

// rule P-G6: (X, d) lists every placement exactly once when the halves differ; only
// d0..d2 when they are identical; both cells empty field cells, one next to an anchor.
#[test]
fn double_placements_have_no_duplicates() {
    let board = proposal_board();
    let mut map = Map::new(&board);
    for pair in board.start_pairs().to_vec() {
        let dir = (0..6)
            .find(|&d| board.neighbour(pair[0], d) == Some(pair[1]))
            .unwrap();
        map.place_double(&board, pair[0], dir, hex(Forest, 1), hex(Hill, 1));
    }
    let listed = listed_in_order_equal_to_brute_force(&board, &map);
    // Identical halves: one of each mirrored pair.
    let mut identical: Vec<(Cell, Dir)> = Vec::new();
    map.double_placements(&board, true, |c, d| identical.push((c, d)));
    assert_eq!(identical.len() * 2, listed.len());
    assert!(identical.iter().all(|&(_, d)| d < 3));
    // Out of range is refused, never a panic.
    assert!(!map.double_legal(&board, 250, 0));
    assert!(!map.double_legal(&board, 0, 6));
    assert!(!map.single_legal(250));
}

/// rule P-G6: the listed double placements are, without duplicates and in (r, q) order of
/// the first cell then direction, exactly those a brute force over every cell and
/// direction finds, and `double_legal` agrees on every one. Returns the listing.
fn listed_in_order_equal_to_brute_force(board: &Board, map: &Map) -> Vec<(Cell, Dir)> {
    let mut listed: Vec<(Cell, Dir)> = Vec::new();
    map.double_placements(board, false, |c, d| listed.push((c, d)));
    let mut brute = Vec::new();
    for at in 0..board.len() as Cell {
        for d in 0..6 {
            let Some(other) = board.neighbour(at, d) else {
                continue;
            };
            let ok = map.is_empty_field(at)
                && map.is_empty_field(other)
                && [at, other].iter().any(|&c| {
                    board
                        .neighbours(c)
                        .iter()
                        .any(|&n| n != NO_CELL && map.anchors().contains(n))
                });
            if ok {
                brute.push((at, d));
                assert!(map.double_legal(board, at, d));
            } else {
                assert!(!map.double_legal(board, at, d));
            }
        }
    }
    assert_eq!(listed, brute, "listing against brute force, in order");
    listed
}

// rule P-G8: a region is a side-connected set of one terrain; printed hexes join it;
// castles separate.
#[test]
fn regions_join_same_terrain_and_castles_separate() {
    // F . . . . (q = 0..4)
    let board = strip(&[printed(Forest), FIELD, FIELD, FIELD, FIELD]);
    let mut map = Map::new(&board);
    map.place_castle(&board, 3, 1);
    map.place_double(&board, 1, 0, hex(Forest, 2), hex(Hill, 1));
    let forest = map.region(0).unwrap();
    assert_eq!(map.region(1).unwrap().root, forest.root);
    assert_eq!(forest.terrain, Forest);
    assert_eq!((forest.hexes, forest.symbols), (2, 3));
    assert_ne!(map.region(2).unwrap().root, forest.root);
    assert_eq!(map.region(3), None, "a castle is no region");
    map.place_single(&board, 4, hex(Hill, 2));
    assert_ne!(
        map.region(4).unwrap().root,
        map.region(2).unwrap().root,
        "the castle separates the two hills"
    );
}

// rule P-G9: a hole keeps a region open; filling it (with a castle) closes it (P-C7).
#[test]
fn a_hole_keeps_a_region_open() {
    // C . . (castle anchor at 2 first)
    let board = strip(&[FIELD, FIELD, FIELD, FIELD]);
    let mut map = Map::new(&board);
    map.place_castle(&board, 3, 0);
    let closed = map.place_single(&board, 1, hex(City, 2));
    assert!(closed.is_empty(), "cells 0 and 2 are holes");
    assert!(!map.region(1).unwrap().closed);
    let closed = map.place_castle(&board, 2, 1);
    assert!(closed.is_empty(), "cell 0 is still a hole");
    let closed = map.place_castle(&board, 0, 1);
    assert_eq!(closed.as_slice(), &[map.region(1).unwrap().root]);
    assert!(map.region(1).unwrap().closed);
    assert!(map.in_closed_region(1));
}

// rule P-G9: a same-terrain exit keeps a region open for good; another terrain's exit
// bounds it like the border (P-C8, P-X14).
#[test]
fn exits_of_the_same_terrain_keep_regions_open() {
    use CellKind::Exit;
    let board = strip(&[Exit(Forest), FIELD, FIELD, Exit(Hill)]);
    let mut map = Map::new(&board);
    map.place_castle(&board, 2, 0);
    let closed = map.place_single(&board, 1, hex(Forest, 1));
    assert!(closed.is_empty());
    assert!(!map.region(1).unwrap().closed, "forest exit: never closes");
    let board = strip(&[Exit(Hill), FIELD, FIELD, Exit(Hill)]);
    let mut map = Map::new(&board);
    map.place_castle(&board, 2, 0);
    let closed = map.place_single(&board, 1, hex(Forest, 1));
    assert_eq!(closed.len(), 1, "a hill exit is a border for forest");
}

// rule P-G10: only regions that contain or touch the filled cells can close, and
// closing is permanent.
// rule P-G9: lakes, ships, castles, other terrains and the map's edge all bound.
#[test]
fn one_placement_closes_the_regions_around_it() {
    // H . . M then a lake: the double on 1-2 closes H (0), both halves and M (3).
    let board = strip(&[
        printed(Hill),
        FIELD,
        FIELD,
        printed(Mountain),
        CellKind::Lake,
    ]);
    let mut map = Map::new(&board);
    let closed = map.place_double(&board, 1, 0, hex(City, 1), hex(Forest, 1));
    let mut roots: Vec<Cell> = closed.to_vec();
    roots.sort();
    let mut expected: Vec<Cell> = (0..4).map(|c| map.region(c).unwrap().root).collect();
    expected.sort();
    assert_eq!(roots, expected);
    // A region already closed is never reported again.
    let board2 = strip(&[FIELD, FIELD, FIELD]);
    let mut map2 = Map::new(&board2);
    map2.place_castle(&board2, 0, 0);
    assert_eq!(map2.place_single(&board2, 1, hex(Forest, 1)).len(), 0);
    assert_eq!(map2.place_castle(&board2, 2, 0).len(), 1);
}

// rule P-G11: a figure on Y is adjacent to R iff Y is outside R and touches it: a land
// hex of another terrain, a castle or a ship.
#[test]
fn adjacency_from_land_castles_and_ships() {
    let board = strip(&[CellKind::Ship, FIELD, FIELD, FIELD, FIELD]);
    let mut map = Map::new(&board);
    map.place_castle(&board, 4, 0);
    map.place_double(&board, 2, 0, hex(Forest, 1), hex(City, 1));
    map.place_single(&board, 1, hex(Forest, 1));
    let forest = map.region_of(1).unwrap();
    assert_eq!(map.region_of(2), Some(forest));
    assert!(
        map.adjacent_to_region(&board, 0, forest),
        "ship next to cell 1"
    );
    assert!(
        map.adjacent_to_region(&board, 3, forest),
        "city hex next to cell 2"
    );
    assert!(
        !map.adjacent_to_region(&board, 4, forest),
        "castle touches only the city"
    );
    assert!(map.adjacent_to_region(&board, 4, map.region_of(3).unwrap()));
    assert!(
        !map.adjacent_to_region(&board, 1, forest),
        "inside is not adjacent"
    );
}

/// The reference: a flood fill from scratch (P-G8) and the closing test (P-G9).
fn brute_regions(board: &Board, map: &Map) -> Vec<(Vec<Cell>, bool)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for start in 0..board.len() as Cell {
        let Some(h) = map.land(start) else { continue };
        if !seen.insert(start) {
            continue;
        }
        let mut stack = vec![start];
        let mut cells = vec![];
        let mut open = false;
        while let Some(c) = stack.pop() {
            cells.push(c);
            for &n in board.neighbours(c) {
                if n == NO_CELL {
                    continue;
                }
                if map.is_empty_field(n) || board.kind(n) == CellKind::Exit(h.terrain) {
                    open = true;
                }
                if map.land(n).map(|x| x.terrain) == Some(h.terrain) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        cells.sort();
        out.push((cells, !open));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    // rule P-G8 / P-G9 / P-G10: the incremental bookkeeping agrees with a flood fill
    // after every placement of random games on the proposal board, and the regions it
    // reports closed are exactly the ones that closed.
    #[test]
    fn incremental_regions_agree_with_flood_fill(choices in proptest::collection::vec((any::<u16>(), 0u8..8, 1u8..3, 1u8..3), 1..70)) {
        let board = proposal_board();
        let mut map = Map::new(&board);
        for pair in board.start_pairs().to_vec() {
            let dir = (0..6).find(|&d| board.neighbour(pair[0], d) == Some(pair[1])).unwrap();
            map.place_double(&board, pair[0], dir, hex(Forest, 1), hex(Mountain, 1));
        }
        for (pick, kind, s1, s2) in choices {
            let before: HashSet<Vec<Cell>> = brute_regions(&board, &map)
                .into_iter().filter(|r| r.1).map(|r| r.0).collect();
            let closed = if kind < 6 {
                let options = listed_in_order_equal_to_brute_force(&board, &map);
                if options.is_empty() { break; }
                let (at, dir) = options[usize::from(pick) % options.len()];
                let a = Terrain::ALL[usize::from(kind % 4)];
                let b = Terrain::ALL[usize::from((kind + 1) % 4)];
                map.place_double(&board, at, dir, hex(a, s1), hex(b, s2))
            } else {
                let options: Vec<Cell> = map.single_placements().iter().collect();
                if options.is_empty() { break; }
                let at = options[usize::from(pick) % options.len()];
                if kind == 6 {
                    map.place_castle(&board, at, 0)
                } else {
                    map.place_single(&board, at, hex(Terrain::ALL[usize::from(pick % 4)], s1))
                }
            };
            let regions = brute_regions(&board, &map);
            for (cells, closed_now) in &regions {
                let r = map.region(cells[0]).unwrap();
                prop_assert_eq!(r.closed, *closed_now);
                prop_assert_eq!(usize::from(r.hexes), cells.len());
                let symbols: u16 = cells.iter().map(|&c| u16::from(map.land(c).unwrap().symbols)).sum();
                prop_assert_eq!(r.symbols, symbols);
                for &c in cells {
                    prop_assert_eq!(map.region_of(c), Some(r.root));
                    prop_assert_eq!(map.in_closed_region(c), *closed_now);
                }
            }
            let newly: HashSet<Vec<Cell>> = regions.into_iter()
                .filter(|r| r.1 && !before.contains(&r.0)).map(|r| r.0).collect();
            let reported: HashSet<Vec<Cell>> = closed.iter()
                .map(|&root| map.region_cells(&board, root).iter().collect()).collect();
            prop_assert_eq!(reported, newly);
        }
    }
}
