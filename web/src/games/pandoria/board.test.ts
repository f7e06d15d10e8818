// The static map the engine lays out from data/pandoria.toml (board.ts) matches its views: the
// same number of cells, in the same (r, q) order, with printed hexes where the views show them
// (P-G1, P-G2).
import { describe, expect, it } from 'vitest'
import corrected from '../../generated/tables/pandoria-corrected.json'
import { BOARD, DIRECTIONS, cellLabel, distance, neighbour } from './board'
import pandoria from './index'
import { borderHexes, regionOutline } from './mapGeometry'
import { POSITIONS } from './testdata/positions'

describe('the board', () => {
  it('has as many cells as every view', () => {
    for (const position of POSITIONS) expect(position.view.cells, position.name).toHaveLength(BOARD.length)
  })

  it('orders cells by (r, q) like the engine (P-G1)', () => {
    for (let i = 1; i < BOARD.length; i++) {
      const [a, b] = [BOARD[i - 1], BOARD[i]]
      expect(a.r < b.r || (a.r === b.r && a.q < b.q)).toBe(true)
    }
  })

  it('has printed hexes where the views show them, and land nowhere views do not', () => {
    const view = POSITIONS[0].view
    for (const cell of BOARD) {
      const seen = view.cells[cell.index]
      if (cell.kind === 'printed') {
        expect(seen.terrain).toBe(cell.terrain)
        expect(seen.symbols).toBe(cell.symbols)
      }
      if (['lake', 'ship', 'exit'].includes(cell.kind)) expect(seen.terrain).toBeNull()
    }
  })

  it('has symmetric neighbours at distance 1, opposite directions paired (P-G1)', () => {
    expect(DIRECTIONS).toHaveLength(6)
    for (const cell of BOARD) {
      for (let dir = 0; dir < 6; dir++) {
        const other = neighbour(cell.index, dir)
        if (other === undefined) continue
        expect(neighbour(other, (dir + 3) % 6)).toBe(cell.index)
        expect(distance(cell.index, other)).toBe(1)
      }
    }
  })

  it('labels cells by the column and row the engine names (col 4 row 5 is E6)', () => {
    const cell = BOARD.find((c) => c.col === 4 && c.row === 5)
    expect(cell && cellLabel(cell.index)).toBe('E6')
    expect(new Set(BOARD.map((c) => cellLabel(c.index))).size).toBe(BOARD.length)
  })

  it('draws the mountain border around the map and outlines its regions', () => {
    expect(borderHexes().length).toBeGreaterThan(0)
    const outline = regionOutline(POSITIONS[POSITIONS.length - 1].view.cells)
    expect(outline).toMatch(/^M/)
  })
})

describe("a game's corrected data", () => {
  const lakes = () => BOARD.filter((cell) => cell.kind === 'lake').map((cell) => cellLabel(cell.index))

  it('lays the map out from it while its table is open, and from the shipped data after', () => {
    const before = lakes()
    expect(before).toContain('D3')
    // The engine's tables of a corrected map (tests/generated_types.rs): the lake of row 3 one
    // column further west.
    pandoria.useData?.(corrected)
    expect(lakes()).toContain('C3')
    expect(lakes()).not.toContain('D3')
    expect(neighbour(BOARD.findIndex((c) => cellLabel(c.index) === 'C3'), 0)).toBeDefined()
    pandoria.useData?.(null)
    expect(lakes()).toEqual(before)
  })
})
