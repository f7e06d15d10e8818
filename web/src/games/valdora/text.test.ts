// Every event and every action reads as a sentence in all four languages: for the fixtures'
// events and legal actions, and for a hand-made example of every variant.
import { afterAll, describe, expect, it } from 'vitest'
import type { Action } from '../../generated/valdora/Action'
import type { CommissionFace } from '../../generated/valdora/CommissionFace'
import type { EquipmentFace } from '../../generated/valdora/EquipmentFace'
import type { Event } from '../../generated/valdora/Event'
import type { View } from '../../generated/valdora/View'
import { catalogues, i18n, LANGUAGES, t, type Catalogue } from '../../lib/i18n.svelte'
import { fixtures, situations } from './testdata'
import { actionText, eventText, spaceName } from './text'

const NAMES = ['Ana', 'Bruno', 'Chiara', 'Daiki']
const view: View = fixtures.find((f) => f.name === 'valdora-150')?.view ?? fixtures[0].view

const equipment: EquipmentFace = { item: 'cart', load_cost: 2 }
const commission: CommissionFace = { color: 'white', wants: { gems: [0, 1, 1, 1, 0], coins: 0 }, points: 9 }

/** One example of every event; the Record makes the compiler demand each variant. */
const EVENTS: Record<Event['type'], Event[]> = {
  turn_began: [{ type: 'turn_began', seat: 1, turn: 12 }],
  stuck: [{ type: 'stuck', seat: 2 }],
  moved: [
    { type: 'moved', seat: 0, from: 4, to: 10, provisions_spent: false },
    { type: 'moved', seat: 0, from: 5, to: 3, provisions_spent: true },
  ],
  meeting_fee: [
    { type: 'meeting_fee', seat: 0, to: 1, banked: false },
    { type: 'meeting_fee', seat: 0, to: 3, banked: true },
  ],
  passed: [{ type: 'passed', seat: 3 }],
  provisions_taken: [{ type: 'provisions_taken', seat: 1 }],
  silver_refilled: [{ type: 'silver_refilled', seat: 2 }],
  page_turned: [
    { type: 'page_turned', seat: 0, book: 0, from: 'right', cost: 0, left: { kind: 'equipment', ...equipment }, right: null },
    { type: 'page_turned', seat: 0, book: 2, from: 'left', cost: 1, left: null, right: { kind: 'commission', ...commission } },
  ],
  equipment_bought: [
    {
      type: 'equipment_bought',
      seat: 1,
      book: 1,
      side: 'left',
      face: { item: 'amethyst_tool', load_cost: 0 },
      other_face: { kind: 'equipment', ...equipment },
      gold_from: 'gold_pan',
    },
  ],
  commission_bought: [
    { type: 'commission_bought', seat: 2, book: 3, side: 'right', face: commission, other_face: { kind: 'commission', ...commission } },
  ],
  commission_returned: [
    { type: 'commission_returned', seat: 0, book: 2, side: 'left', shows: { kind: 'commission', ...commission } },
  ],
  book_tops: [{ type: 'book_tops', book: 3, left: null, right: { kind: 'equipment', item: 'horse', load_cost: 3 } }],
  loaded: [
    { type: 'loaded', seat: 0, gem: 'emerald', onto: 'emerald_tool', cost: 0 },
    { type: 'loaded', seat: 0, gem: 'amethyst', onto: 'cart', cost: 2 },
    { type: 'loaded', seat: 0, gem: 'gold', onto: 'horse', cost: 1 },
  ],
  unloaded: [{ type: 'unloaded', seat: 3, gem: 'sapphire', from: 'horse' }],
  commission_completed: [
    { type: 'commission_completed', seat: 1, face: commission },
    { type: 'commission_completed', seat: 1, face: { color: 'grey', wants: { gems: [0, 0, 0, 0, 0], coins: 1 }, points: 2 } },
  ],
  commission_completed_hidden: [{ type: 'commission_completed_hidden', seat: 1 }],
  bonus_tile: [{ type: 'bonus_tile', seat: 2 }],
  craftsman_hired: [{ type: 'craftsman_hired', seat: 2, color: 'violet' }],
  workshop_taken: [{ type: 'workshop_taken', seat: 2, color: 'blue' }],
  end_triggered: [{ type: 'end_triggered', seat: 0 }],
  action_ended: [{ type: 'action_ended', seat: 0 }],
  game_over: [{ type: 'game_over' }],
  turn_cap_reached: [
    { type: 'turn_cap_reached', turns: 1 },
    { type: 'turn_cap_reached', turns: 400 },
  ],
  stalled: [{ type: 'stalled' }],
}

/** One example of every action (drawn against the situations' views where it matters). */
const ACTIONS: Record<Action['type'], Action[]> = {
  move: [{ type: 'move', to: 7 }, { type: 'move', to: 0 }, { type: 'move', to: 3 }],
  pass: [{ type: 'pass' }],
  take_provisions: [{ type: 'take_provisions' }],
  refill_silver: [{ type: 'refill_silver' }],
  turn: [{ type: 'turn', from: 'left' }, { type: 'turn', from: 'right' }],
  buy_equipment: [{ type: 'buy_equipment', side: 'left', gold_from: 'gold_pan' }],
  buy_commission: [{ type: 'buy_commission', side: 'right' }],
  return: [{ type: 'return', commission: 0, side: 'left' }],
  load: [{ type: 'load', gem: 'ruby', onto: 'ruby_tool' }, { type: 'load', gem: 'gold', onto: 'cart' }],
  unload: [{ type: 'unload', from: 'gold_pan' }],
  complete: [{ type: 'complete', commission: 0, pay_from: ['gold_pan'] }],
  end: [{ type: 'end' }],
}

/** A readable name: no raw key (i18next answers a missing key with the key itself), no
 * unfilled placeholder, no missing value. */
function expectName(text: string): void {
  expect(text.trim()).not.toBe('')
  expect(text).not.toMatch(/valdora:|\{\{|\}\}|undefined|null|NaN|\[object/)
  expect(text).not.toMatch(/\b[a-z]+[A-Za-z_]*\.[a-z][A-Za-z_.]*\b/)
  expect(text).not.toMatch(/(^|[\s(])\?([\s),]|$)/)
}

/** A readable sentence: a name that is more than a word. */
function expectSentence(text: string): void {
  expectName(text)
  expect(text.trim().length).toBeGreaterThan(3)
}

const original = i18n.lang
afterAll(() => {
  i18n.lang = original
})

describe.each(LANGUAGES)('in %s', (lang) => {
  it('describes every event of the fixtures', () => {
    i18n.lang = lang
    for (const f of fixtures) for (const e of f.last_events) expectSentence(eventText(e, NAMES, f.view))
  })

  it('describes every legal action of the fixtures and situations', () => {
    i18n.lang = lang
    for (const f of fixtures) for (const l of f.legal ?? []) expectSentence(actionText(l.action, f.view))
    for (const s of situations) for (const l of s.legal) expectSentence(actionText(l.action, s.view))
  })

  it('describes an example of every event variant', () => {
    i18n.lang = lang
    for (const events of Object.values(EVENTS)) for (const e of events) expectSentence(eventText(e, NAMES, view))
    // A seat without a name still reads.
    expectSentence(eventText({ type: 'passed', seat: 4 }, NAMES, view))
  })

  it('describes an example of every action variant', () => {
    i18n.lang = lang
    const held = situations[0].view
    for (const actions of Object.values(ACTIONS)) {
      for (const a of actions) expectSentence(actionText(a, a.type === 'complete' || a.type === 'return' ? held : view))
    }
  })

  it('names every space and every final scoring category', () => {
    i18n.lang = lang
    for (const space of view.spaces) expectName(spaceName(view, space.id))
    for (const category of ['commissions', 'craftsmen', 'workshops', 'bonus_tiles', 'gems'])
      expectName(t(`valdora:category.${category}`))
  })
})

describe('the catalogues', () => {
  const flat = (c: Catalogue, prefix = ''): [string, string][] =>
    Object.entries(c).flatMap(([k, v]) => (typeof v === 'string' ? [[prefix + k, v]] : flat(v, `${prefix}${k}.`)))
  const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort().join()
  const english = new Map(flat(catalogues.en.valdora).map(([k, v]) => [k.replace(/_(one|other|f)$/, ''), v]))

  it.each(LANGUAGES)('%s fills the same placeholders as English', (lang) => {
    const different = flat(catalogues[lang].valdora)
      .filter(([k]) => !k.startsWith('_meta'))
      .filter(([k, v]) => {
        const reference = english.get(k.replace(/_(one|other|f)$/, ''))
        // `count` may go unsaid where the language's grammar does not need the number.
        const strip = (s: string) => s.split(',').filter((p) => p !== 'count').join()
        return reference === undefined || strip(placeholders(reference)) !== strip(placeholders(v))
      })
      .map(([k]) => k)
    expect(different).toEqual([])
  })

  it.each(LANGUAGES)('%s lists what it translated without a printed rulebook', (lang) => {
    const meta = catalogues[lang].valdora._meta
    expect(typeof meta === 'object' && Array.isArray((meta as Record<string, unknown>).translated)).toBe(true)
  })
})
