// The static board (P-G1, P-G2) as the engine builds it from the data file (data/pandoria.toml
// or a game's corrected data, tables.ts): the view names cells by index only, so lakes,
// ships, exits and every cell's place come from the map rows of the data file, read here
// exactly as crates/pandoria/src/board.rs reads them.
import type { Terrain } from '../../generated/pandoria/Terrain'
import { MAP_ROWS, PRINTED_SYMBOLS } from './tables'

export type CellKind = 'field' | 'start' | 'printed' | 'lake' | 'ship' | 'exit'

export interface BoardCell {
  /** The engine's cell index: cells sorted by (r, q) (P-G1). */
  index: number
  /** The data file's odd-q grid: the column and row the engine's texts name. */
  col: number
  row: number
  /** Axial coordinates (P-G1). */
  q: number
  r: number
  kind: CellKind
  /** The printed terrain of a printed hex, or the terrain of an exit path. */
  terrain: Terrain | null
  /** Symbols printed on a printed hex; 0 otherwise. */
  symbols: number
  /** Centre in hex-radius units: flat-top hexes, north up. */
  x: number
  y: number
}

/** d0..d5 as axial steps (P-G1): south-east, north-east, north, north-west, south-west, south. */
export const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
]

const TERRAIN_LETTERS: Record<string, Terrain> = { f: 'forest', h: 'hill', m: 'mountain', c: 'city' }

function kindOf(ch: string): { kind: CellKind; terrain: Terrain | null } | null {
  if (ch === '#') return null
  if (ch === '.') return { kind: 'field', terrain: null }
  if (ch === '~') return { kind: 'lake', terrain: null }
  if (ch === 'S') return { kind: 'ship', terrain: null }
  if (/[1-9]/.test(ch)) return { kind: 'start', terrain: null }
  const lower = ch.toLowerCase()
  const terrain = TERRAIN_LETTERS[lower]
  if (!terrain) throw new Error(`unknown map character ${ch}`)
  return { kind: ch === lower ? 'exit' : 'printed', terrain }
}

function readBoard(): BoardCell[] {
  const cells: Omit<BoardCell, 'index'>[] = []
  MAP_ROWS.forEach((line, row) => {
    ;[...line].forEach((ch, col) => {
      const kind = kindOf(ch)
      if (!kind) return
      // Odd-q offset to axial, as components.toml and hex.rs define it.
      const q = col
      const r = row - (col - (col & 1)) / 2
      const printed = PRINTED_SYMBOLS.find((p) => p.col === col && p.row === row)
      cells.push({
        col,
        row,
        q,
        r,
        ...kind,
        symbols: kind.kind === 'printed' ? (printed?.symbols ?? 0) : 0,
        x: 1.5 * q,
        y: Math.sqrt(3) * (r + q / 2),
      })
    })
  })
  cells.sort((a, b) => a.r - b.r || a.q - b.q)
  return cells.map((cell, index) => ({ ...cell, index }))
}

/** Every cell of the map, by the engine's index (laid out by `layOutBoard`, below). */
export let BOARD: readonly BoardCell[] = []

let byAxial = new Map<string, number>()

/** The neighbour of `cell` in direction `dir`, or undefined where the map ends. */
export function neighbour(cell: number, dir: number): number | undefined {
  const here = BOARD[cell]
  if (!here) return undefined
  const [dq, dr] = DIRECTIONS[((dir % 6) + 6) % 6]
  return byAxial.get(`${here.q + dq},${here.r + dr}`)
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
export let EXTENT = { minX: 0, maxX: 0, minY: 0, maxY: 0 }
/** The data file's grid: columns and rows. */
export let COLUMNS = 0
export let ROWS = 0

let laidOut: readonly string[] | null = null

/** Lays the board out from the map rows, anew when they have changed (`useTables`: a game's data). */
export function layOutBoard(): void {
  if (laidOut === MAP_ROWS) return
  laidOut = MAP_ROWS
  BOARD = readBoard()
  byAxial = new Map(BOARD.map((cell) => [`${cell.q},${cell.r}`, cell.index]))
  EXTENT = {
    minX: Math.min(...BOARD.map((c) => c.x)) - 1,
    maxX: Math.max(...BOARD.map((c) => c.x)) + 1,
    minY: Math.min(...BOARD.map((c) => c.y)) - Math.sqrt(3) / 2,
    maxY: Math.max(...BOARD.map((c) => c.y)) + Math.sqrt(3) / 2,
  }
  COLUMNS = Math.max(...MAP_ROWS.map((row) => row.length))
  ROWS = MAP_ROWS.length
}

layOutBoard()
