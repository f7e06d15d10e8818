// Every legal action is reachable on the table: it has a target, the board draws that target
// as a clickable element with the test hooks, and the target's click (plus the choice) yields
// exactly the target's actions. Placement previews are exactly the legal placements.
import { render } from 'svelte/server'
import { describe, expect, it } from 'vitest'
import type { Action } from '../../generated/pandoria/Action'
import type { Legal } from '../types'
import { groupByTarget } from '../kit/targets'
import Board from './Board.svelte'
import { BOARD, neighbour } from './board'
import {
  cellKey,
  doublePlacements,
  isDoublePlacement,
  secondCell,
  sendsAtOnce,
  targetOf,
} from './targets'
import { FIXTURES, POSITIONS, type Position } from './testdata/positions'

const NAMES = ['Ana', 'Bruno', 'Chiara', 'Daiki']

function renderBoard(position: Position, busy = false): string {
  const legal: Legal<Action>[] = position.legal.map((action) => ({ action, description: '' }))
  const { body } = render(Board, {
    props: {
      view: position.view,
      legal: position.view.to_move === null ? null : legal,
      seat: position.seat,
      names: NAMES,
      busy,
      act: () => {},
    },
  })
  return body
}

/** The `data-target` of every element marked `data-legal="true"` in some HTML. */
function legalTargets(html: string): string[] {
  const found: string[] = []
  for (const tag of html.match(/<[a-z]+\b[^>]*\bdata-legal="true"[^>]*>/g) ?? []) {
    const key = /\bdata-target="([^"]*)"/.exec(tag)?.[1]
    expect(key, tag).toBeDefined()
    expect(tag).toMatch(/\btabindex="0"/)
    expect(tag).toMatch(/\brole="button"/)
    expect(tag).toMatch(/\baria-label="[^"]+"/)
    if (key) found.push(key)
  }
  return found
}

describe('targetOf', () => {
  const view = FIXTURES[0].view
  it('names the object of every action variant', () => {
    const cases: [Action, string][] = [
      [{ type: 'place_tile', tile: 3, at: 40, dir: 2 }, 'cell:40'],
      [{ type: 'place_castle', at: 41 }, 'cell:41'],
      [{ type: 'place_figure', at: 42, leader: true }, 'cell:42'],
      [{ type: 'remove_figure', at: 43 }, 'cell:43'],
      [{ type: 'cast_spell', card: 7, pay: null }, 'card:7'],
      [{ type: 'build', card: 7, slot: 2, pay: 'gold' }, 'card:7'],
      [{ type: 'monument', slot: 4, pay: null }, 'slot:4'],
      [{ type: 'move_figure', from: 44, to: 60 }, 'cell:44'],
      [{ type: 'take_card', market: 1 }, 'market:1'],
      [{ type: 'adopt_from', seat: 3 }, 'spell:3'],
      [{ type: 'set_resource', resource: 'wood' }, 'resource:wood'],
      [{ type: 'rage_on', at: 45 }, 'cell:45'],
      [{ type: 'draw_from', single: true }, 'stack:single'],
      [{ type: 'draw_from', single: false }, 'stack:double'],
      [{ type: 'place_drawn', at: 46, dir: 0 }, 'cell:46'],
      [{ type: 'buy', market: 2, pay: null }, 'market:2'],
      [{ type: 'skip' }, 'bar:skip'],
      [{ type: 'done' }, 'bar:done'],
    ]
    for (const [action, key] of cases) expect(targetOf(action, view)).toBe(key)
  })
})

describe.each(POSITIONS.map((p) => [p.name, p] as const))('position %s', (_, position) => {
  const groups = groupByTarget(position.legal, (action) => targetOf(action, position.view))

  it('groups every legal action exactly once', () => {
    const grouped = [...groups.values()].flat()
    expect(grouped).toHaveLength(position.legal.length)
    expect(new Set(grouped)).toEqual(new Set(position.legal))
  })

  it('draws every target, and only those, as a clickable element', () => {
    const drawn = legalTargets(renderBoard(position))
    expect(new Set(drawn)).toEqual(new Set(groups.keys()))
    // One element per target: a click is never ambiguous.
    expect(drawn).toHaveLength(new Set(drawn).size)
  })

  it('offers nothing while an action is on its way', () => {
    expect(legalTargets(renderBoard(position, true))).toEqual([])
  })

  it('offers nothing to a spectator', () => {
    const view = position.spectatorView
    if (!view) return
    const { body } = render(Board, {
      props: { view, legal: null, seat: null, names: NAMES, busy: false, act: () => {} },
    })
    expect(legalTargets(body)).toEqual([])
    expect(body.match(/data-testid="seat-panel"/g)).toHaveLength(view.players.length)
  })

  it('sends a lone action at once, and offers a choice of the others', () => {
    for (const [key, group] of groups) {
      if (sendsAtOnce(group, position.view)) {
        expect(group).toHaveLength(1)
        expect(isDoublePlacement(group[0], position.view)).toBe(false)
      } else {
        // The popover lists the whole group, one `data-choice` per action (ChoicePopover).
        expect(group.length > 1 || isDoublePlacement(group[0], position.view), key).toBe(true)
      }
    }
  })

  it('previews exactly the legal double placements', () => {
    const legalPlacements = doublePlacements(position.legal, position.view)
    const previewed = [...groups.entries()]
      .filter(([key]) => key.startsWith('cell:'))
      .flatMap(([key, group]) => {
        const placements = doublePlacements(group, position.view)
        for (const p of placements) expect(cellKey(p.at)).toBe(key)
        return placements
      })
    expect(new Set(previewed)).toEqual(new Set(legalPlacements))
    // Every ghost covers two empty field cells next to each other (P-G6).
    for (const p of legalPlacements) {
      const second = secondCell(p)
      expect(second).toBeDefined()
      if (second === undefined) continue
      expect(neighbour(second, (p.dir + 3) % 6)).toBe(p.at)
      for (const cell of [p.at, second]) {
        expect(['field', 'start']).toContain(BOARD[cell].kind)
        expect(position.view.cells[cell].terrain).toBeNull()
        expect(position.view.cells[cell].castle).toBeNull()
      }
    }
  })

  it('exposes no preview before a cell is chosen', () => {
    expect(renderBoard(position)).toContain('data-placements="[]"')
  })
})
