// Derived drawing data of the map that does not depend on Svelte: region outlines, exit
// directions, the mountain border and the grid labels.
import type { CellView } from '../../generated/pandoria/CellView'
import { BOARD, DIRECTIONS, neighbour, sideCorners } from './board'
import { MAP_ROWS } from './tables'

/** Hex radius in SVG units. */
export const R = 10

/**
 * The outline of every region (P-G8) as one SVG path: the sides where a land hex meets
 * another terrain, a non-land cell or the map's end. Sides between two land hexes are drawn
 * once (from the lower index).
 */
export function regionOutline(cells: readonly CellView[]): string {
  const parts: string[] = []
  for (const here of BOARD) {
    const terrain = cells[here.index]?.terrain
    if (!terrain) continue
    for (let dir = 0; dir < DIRECTIONS.length; dir++) {
      const other = neighbour(here.index, dir)
      const otherTerrain = other === undefined ? null : cells[other]?.terrain
      if (otherTerrain === terrain) continue
      if (other !== undefined && otherTerrain && other < here.index) continue
      const [[x1, y1], [x2, y2]] = sideCorners(here.index, dir)
      parts.push(`M${(x1 * R).toFixed(2)} ${(y1 * R).toFixed(2)}L${(x2 * R).toFixed(2)} ${(y2 * R).toFixed(2)}`)
    }
  }
  return parts.join('')
}

/** The direction an exit path leads out of the map: its first side without a neighbour. */
export function exitDirection(cell: number): number {
  for (let dir = 0; dir < 6; dir++) if (neighbour(cell, dir) === undefined) return dir
  return 2
}

/** Cells of the data file's grid outside the map: the mountain border (P-G2). */
export function borderHexes(): { x: number; y: number }[] {
  return MAP_ROWS.flatMap((line, row) => [...line].flatMap((ch, col) => (ch === '#' ? [gridCentre(col, row)] : [])))
}

/** The centre of an odd-q grid position in radius-1 units. */
export function gridCentre(col: number, row: number): { x: number; y: number } {
  return { x: 1.5 * col, y: Math.sqrt(3) * (row + (col & 1) / 2) }
}
