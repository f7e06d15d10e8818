// Following the game, per game: a Valdora pawn's road, the places each game's moves touch,
// and the short lines of the events the fixtures hold, in all four languages.
import { afterAll, describe, expect, it } from 'vitest'
import type { Event as ValdoraEvent } from '../../generated/valdora/Event'
import type { View as ValdoraView } from '../../generated/valdora/View'
import type { JsonValue } from '../../generated/serde_json/JsonValue'
import { i18n, LANGUAGES } from '../../lib/i18n.svelte'
import type { LinePart } from '../../lib/short'
import { showMove as pandoriaShow } from '../pandoria/follow'
import { shortLine as pandoriaShort } from '../pandoria/short'
import { road, showMove as valdoraShow, walkOf } from '../valdora/follow'
import { shortLine as valdoraShort } from '../valdora/short'
import { fixtures as valdoraFixtures } from '../valdora/testdata'
import { showMove as valleyShow } from '../valley/follow'
import { shortLine as valleyShort } from '../valley/short'

const files = import.meta.glob<{ game: string; view: unknown; last_events: unknown[] }>('../../../fixtures/*.json', {
  eager: true,
  import: 'default',
})
const NAMES = ['Ana', 'Bruno', 'Chiara', 'Daiki', 'Eva']
const view: ValdoraView = valdoraFixtures.find((f) => f.name === 'valdora-150')?.view ?? valdoraFixtures[0].view

const original = i18n.lang
afterAll(() => {
  i18n.lang = original
})

describe('a Valdora pawn walks its road', () => {
  it('space by space along roads, from where it stood to where it stops', () => {
    const from = view.seats[0].space
    const far = view.spaces.find((s) => s.id !== from && !view.spaces[from].neighbours.includes(s.id))
    expect(far).toBeDefined()
    const walked = road(view, from, far?.id ?? 0)
    expect(walked[0]).toBe(from)
    expect(walked.at(-1)).toBe(far?.id)
    expect(walked.length).toBeGreaterThan(2)
    for (let i = 1; i < walked.length; i++) expect(view.spaces[walked[i - 1]].neighbours).toContain(walked[i])
  })

  it('is the move that arrived, for the seat it moved', () => {
    const moved: ValdoraEvent = { type: 'moved', seat: 1, from: 4, to: 10, provisions_spent: false }
    expect(walkOf({ seat: 1, seq: 7, events: [moved] }, view)?.seat).toBe(1)
    expect(walkOf({ seat: 1, seq: 7, events: [{ type: 'passed', seat: 1 }] }, view)).toBeNull()
  })
})

describe('the places a move touches', () => {
  it('in Valdora: the pawn first, then what it bought, loaded or paid, and what travelled', () => {
    const shown = valdoraShow(
      {
        seat: 1,
        seq: 9,
        events: [
          { type: 'moved', seat: 1, from: 4, to: view.seats[1].space, provisions_spent: false },
          { type: 'loaded', seat: 1, gem: 'ruby', onto: 'ruby_tool', cost: 0 },
        ],
      },
      view,
    )
    expect(shown.spots[0]).toBe(`space:${view.seats[1].space}`)
    expect(shown.spots).toContain('seat:1')
    expect(shown.flights).toEqual([{ from: `space:${view.seats[1].space}`, to: 'seat:1', what: { kind: 'gem', gem: 'ruby' } }])
  })

  it('in Valley of the Kings: a bought card from its slot to the discard pile', () => {
    const shown = valleyShow({ seat: 2, seq: 3, events: [{ type: 'bought', seat: 2, card: 40, slot: 1, paid: 3, lost: 0 }] })
    expect(shown.spots).toEqual(['slot:1', 'discard:2'])
    expect(shown.flights).toEqual([{ from: 'slot:1', to: 'discard:2', what: { card: 40 } }])
  })

  it('in Pandoria: the cells a tile and a figure went to, a card from the market to the hand', () => {
    const shown = pandoriaShow({
      seat: 0,
      seq: 5,
      events: [
        { type: 'tile_placed', seat: 0, tile: 3, at: 40, dir: 1 },
        { type: 'figure_placed', seat: 0, at: 40, leader: false },
        { type: 'card_taken', seat: 0, card: 12, market: 2 },
      ],
    })
    expect(shown.spots).toEqual(['cell:40', 'seat:0'])
    expect(shown.flights).toEqual([{ from: 'market:2', to: 'seat:0', what: { card: 12 } }])
  })
})

type Short = (event: never, names: string[], view: never) => LinePart<unknown>[] | null
const SHORT: Record<string, Short> = { valdora: valdoraShort, valley: valleyShort, pandoria: pandoriaShort }

describe('short lines', () => {
  const positions = Object.values(files).filter((f) => f.last_events.length > 0)

  it.each(LANGUAGES.map((l) => [l]))('read as text and pictures in %s, never as a raw key or placeholder', (lang) => {
    i18n.lang = lang
    let lines = 0
    for (const position of positions) {
      const short = SHORT[position.game]
      for (const event of position.last_events as JsonValue[]) {
        const parts = short(event as never, NAMES, position.view as never)
        if (!parts) continue
        lines++
        const text = parts.map((p) => ('text' in p ? p.text : '')).join('')
        expect(text, JSON.stringify(event)).not.toMatch(/\{\{|short\.|\u{E000}/u)
        expect(parts.length).toBeGreaterThan(0)
      }
    }
    expect(lines).toBeGreaterThan(5)
  })
})
