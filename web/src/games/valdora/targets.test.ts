// Every legal action can be reached by clicking its target on the drawn board (and, where
// several share a target, by picking it in the choice), and nothing else is clickable.
import { render } from 'svelte/server'
import { describe, expect, it } from 'vitest'
import type { Action } from '../../generated/valdora/Action'
import type { View } from '../../generated/valdora/View'
import type { Legal } from '../types'
import Board from './Board.svelte'
import { groupByTarget } from '../kit/targets'
import { barKey, faceKey, gemKey, heldKey, itemKey, pileKey, spaceKey, targetOf } from './targets'
import { fixtures, situations } from './testdata'
import { actionText } from './text'

const NAMES = ['Ana', 'Bruno', 'Chiara', 'Daiki', 'Eva']

/** The drawn board's clickable targets: key → the attributes of each element carrying it. */
function drawnTargets(view: View, legal: Legal<Action>[] | null, busy = false): Map<string, string[]> {
  const { body } = render(Board, {
    props: { view, legal, seat: view.seat, names: NAMES, busy, act: () => {} },
  })
  const found = new Map<string, string[]>()
  for (const [tag] of body.matchAll(/<[a-z]+\b[^>]*\bdata-legal="true"[^>]*>/g)) {
    const key = /\bdata-target="([^"]*)"/.exec(tag)?.[1] ?? ''
    found.set(key, [...(found.get(key) ?? []), tag])
  }
  return found
}

const positions = [
  ...fixtures.filter((f) => f.legal).map((f) => ({ name: f.name, view: f.view, legal: f.legal ?? [] })),
  ...situations,
]

describe.each(positions)('$name', ({ view, legal }) => {
  const groups = groupByTarget(legal, (entry) => targetOf(entry.action, view))

  it('gives every legal action a target of a thing on the table', () => {
    for (const { action } of legal) {
      expect(targetOf(action, view)).toMatch(/^(space|pile|face|held|gem|item|bar):[a-z0-9_]+(:[a-z_]+)?$/)
      expect(targetOf(action, view)).not.toContain('-1')
    }
  })

  it('groups each legal action once, under its target', () => {
    const grouped = [...groups.values()].flat()
    expect(grouped).toHaveLength(legal.length)
    expect(new Set(grouped)).toEqual(new Set(legal))
    for (const [key, options] of groups) for (const o of options) expect(targetOf(o.action, view)).toBe(key)
  })

  it('draws exactly the legal targets as focusable buttons', () => {
    const drawn = drawnTargets(view, legal)
    expect(new Set(drawn.keys())).toEqual(new Set(groups.keys()))
    for (const tags of drawn.values()) {
      for (const tag of tags) {
        expect(tag).toMatch(/\brole="button"/)
        expect(tag).toMatch(/\btabindex="0"/)
        expect(tag).toMatch(/\baria-label="[^"]+"/)
      }
    }
  })

  it('tells the choices of a shared target apart', () => {
    for (const options of groups.values()) {
      const labels = options.map((o) => actionText(o.action, view))
      expect(new Set(labels).size).toBe(labels.length)
    }
  })

  it('draws nothing clickable while busy or for someone else', () => {
    expect(drawnTargets(view, legal, true).size).toBe(0)
    expect(drawnTargets(view, null).size).toBe(0)
  })
})

describe('targetOf', () => {
  const view = situations[1].view // seat 0 at commission city C, whose book is book 2
  const book = view.books.find((b) => b.city === view.seats[0].space)?.book ?? -1

  it('names each kind of thing', () => {
    expect(targetOf({ type: 'move', to: 7 }, view)).toBe(spaceKey(7))
    expect(targetOf({ type: 'turn', from: 'left' }, view)).toBe(pileKey(book, 'left'))
    expect(targetOf({ type: 'buy_commission', side: 'right' }, view)).toBe(faceKey(book, 'right'))
    expect(targetOf({ type: 'buy_equipment', side: 'right', gold_from: 'cart' }, view)).toBe(faceKey(book, 'right'))
    expect(targetOf({ type: 'return', commission: 2, side: 'left' }, view)).toBe(heldKey(2))
    expect(targetOf({ type: 'complete', commission: 1, pay_from: [] }, view)).toBe(heldKey(1))
    expect(targetOf({ type: 'unload', from: 'horse' }, view)).toBe(itemKey('horse'))
    for (const type of ['pass', 'take_provisions', 'refill_silver', 'end'] as const)
      expect(targetOf({ type }, view)).toBe(barKey(type))
  })

  it('loads from the road space the seat stands on, or from the discard area at a harbour', () => {
    const road = situations[3].view
    expect(targetOf({ type: 'load', gem: 'ruby', onto: 'horse' }, road)).toBe(gemKey(road.seats[0].space, 'ruby'))
    const harbour = situations[4].view
    expect(targetOf({ type: 'load', gem: 'gold', onto: 'gold_pan' }, harbour)).toBe(gemKey('discard', 'gold'))
  })

  it('puts several actions on one target in the server order', () => {
    const groups = groupByTarget(situations[0].legal, (entry) => targetOf(entry.action, situations[0].view))
    expect([...groups.keys()]).toEqual([heldKey(0), heldKey(1), barKey('end')])
    expect(groups.get(heldKey(0))?.map((o) => o.action)).toEqual([
      { type: 'complete', commission: 0, pay_from: ['gold_pan'] },
      { type: 'complete', commission: 0, pay_from: ['cart'] },
    ])
  })
})
