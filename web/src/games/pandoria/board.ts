// The static board (P-G1, P-G2) as the engine lays it out from the data file (tables.ts: the
// shipped data's or a game's corrected data's): the view names cells by index only, so lakes,
// ships, exits and every cell's place and neighbours come from the engine's tables
// (crates/pandoria/src/tables.rs). What is here is drawing: labels and hex outlines.
import { TABLES, type BoardCell } from './tables'

export type { BoardCell }

/** d0..d5 as axial steps (P-G1): south-east, north-east, north, north-west, south-west, south. */
export let DIRECTIONS: readonly (readonly [number, number])[] = TABLES.directions

/** Every cell of the map, by the engine's index (laid out by `layOutBoard`, below). */
export let BOARD: readonly BoardCell[] = []

/** The neighbour of `cell` in direction `dir`, or undefined where the map ends. */
export function neighbour(cell: number, dir: number): number | undefined {
  return BOARD[cell]?.neighbours[((dir % 6) + 6) % 6] ?? undefined
}

/** Hex distance (P-G1). */
export function distance(a: number, b: number): number {
  const dq = BOARD[a].q - BOARD[b].q
  const dr = BOARD[a].r - BOARD[b].r
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2
}

const COLUMN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** A column's label on the drawn map: A, B, … */
export function columnLabel(col: number): string {
  return COLUMN_LETTERS[col] ?? String(col)
}

/** A cell's label on the drawn map: its column letter and row number ("E6" is col 4 row 5). */
export function cellLabel(cell: number): string {
  const here = BOARD[cell]
  return here ? `${columnLabel(here.col)}${here.row + 1}` : `#${cell}`
}

/** The six corners of a flat-top hex of radius `size` around (cx, cy). */
export function hexCorners(cx: number, cy: number, size: number): [number, number][] {
  return [0, 1, 2, 3, 4, 5].map((k) => {
    const angle = (Math.PI / 3) * k
    return [cx + size * Math.cos(angle), cy + size * Math.sin(angle)]
  })
}

/** An SVG `points` attribute for a hex. */
export function hexPoints(cx: number, cy: number, size: number): string {
  return hexCorners(cx, cy, size)
    .map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`)
    .join(' ')
}

/** The corners of the side of `cell` that faces direction `dir` (radius 1 units). */
export function sideCorners(cell: number, dir: number): [[number, number], [number, number]] {
  const here = BOARD[cell]
  const [dq, dr] = DIRECTIONS[dir]
  // The side facing a neighbour is the pair of corners nearest to the neighbour's centre.
  const nx = here.x + 1.5 * dq
  const ny = here.y + Math.sqrt(3) * (dr + dq / 2)
  const corners = hexCorners(here.x, here.y, 1)
  const sorted = [...corners].sort(
    (a, b) => Math.hypot(a[0] - nx, a[1] - ny) - Math.hypot(b[0] - nx, b[1] - ny),
  )
  return [sorted[0], sorted[1]]
}

/** The map's extent in radius-1 units. */
export let EXTENT = TABLES.extent
/** The data file's grid: columns and rows. */
export let COLUMNS = 0
export let ROWS = 0

let laidOut: typeof TABLES | null = null

/** Takes the board from the tables drawn from now, anew when they have changed (`useTables`: a game's data). */
export function layOutBoard(): void {
  if (laidOut === TABLES) return
  laidOut = TABLES
  BOARD = TABLES.cells
  DIRECTIONS = TABLES.directions
  EXTENT = TABLES.extent
  COLUMNS = Math.max(...TABLES.mapRows.map((row) => row.length))
  ROWS = TABLES.mapRows.length
}

layOutBoard()
