// Every event and action reads as a sentence in all four languages, with no raw key and no
// unfilled placeholder; the four catalogues have the same keys; Italian and Japanese list the
// keys we translated ourselves; the end screen finds every scoring category of the engine.
import { afterAll, describe, expect, it } from 'vitest'
import type { Action } from '../../generated/pandoria/Action'
import type { Event } from '../../generated/pandoria/Event'
import type { View } from '../../generated/pandoria/View'
import { LANGUAGES, catalogues, hasMessage, i18n, t, type Catalogue } from '../../lib/i18n.svelte'
import { BUILDING_IDS, CARDS, SPELL_IDS } from './tables'
import { cardDescription, cellDescription } from './names'
import { promptText } from './prompt'
import { actionText, eventText } from './texts'
import { POSITIONS } from './testdata/positions'

const NAMES = ['Ana', 'Bruno', 'Chiara', 'Daiki']
const base = POSITIONS[0].view

/** A position in the middle of a spell step, for the actions whose words depend on it. */
function during(pending: View['pending'], phase: View['phase'] = 'spell'): View {
  return { ...base, phase, pending }
}

const EVENTS: Event[] = [
  { type: 'turn_began', seat: 1, turn: 12 },
  { type: 'tile_placed', seat: 0, tile: 5, at: 60, dir: 2 },
  { type: 'castle_placed', seat: 2, at: 61 },
  { type: 'placement_impossible', seat: 3 },
  { type: 'region_closed', root: 0 },
  { type: 'region_closed', root: 1 },
  { type: 'figure_returned', seat: 1, at: 62, leader: false },
  { type: 'figure_returned', seat: 1, at: 62, leader: true },
  { type: 'figure_placed', seat: 0, at: 63, leader: false },
  { type: 'figure_placed', seat: 0, at: 63, leader: true },
  { type: 'figure_moved', seat: 2, from: 63, to: 64 },
  { type: 'figure_removed', seat: 3, at: 65, leader: false },
  { type: 'figure_removed', seat: 3, at: 65, leader: true },
  { type: 'spell_cast', seat: 0, card: 3, cost: 1 },
  { type: 'spell_cast', seat: 0, card: 4, cost: 3 },
  { type: 'spell_adopted', seat: 1, from: 2, card: 9 },
  { type: 'card_taken', seat: 1, card: 20, market: 3 },
  { type: 'resource_set', seat: 2, resource: 'crystal', value: 8 },
  { type: 'rage_on', seat: 3, at: 66, weight: 3 },
  { type: 'terrain_drawn', seat: 0, single: true, tile: 4 },
  { type: 'terrain_drawn', seat: 0, single: false, tile: 40 },
  { type: 'building_built', seat: 1, card: 11, slot: 0, cost: 1 },
  { type: 'monument_built', seat: 2, slot: 4, value: 6, cost: 5 },
  { type: 'region_scored', seat: 3, crystal: 9, gold: 0, wood: 1, points: 2 },
  { type: 'region_scored', seat: 3, crystal: 0, gold: 4, wood: 0, points: 0 },
  { type: 'region_scored', seat: 3, crystal: 0, gold: 0, wood: 0, points: 0 },
  { type: 'resource_changed', seat: 0, resource: 'gold', value: 10 },
  { type: 'points_gained', seat: 1, points: 1, reason: 'city_regions' },
  { type: 'points_gained', seat: 1, points: 5, reason: 'overflow' },
  { type: 'points_gained', seat: 1, points: 6, reason: 'monuments' },
  { type: 'points_gained', seat: 1, points: 2, reason: 'shrine' },
  { type: 'points_gained', seat: 1, points: 2, reason: 'statue' },
  { type: 'points_gained', seat: 1, points: 1, reason: 'store' },
  { type: 'points_gained', seat: 1, points: 3, reason: 'end_cards' },
  { type: 'points_gained', seat: 1, points: 4, reason: 'end_resources' },
  { type: 'card_bought', seat: 2, card: 30, market: 0, cost: 2 },
  { type: 'market_refilled', market: 0, card: 31 },
  { type: 'tile_drawn', seat: 3 },
  { type: 'end_triggered', seat: 0 },
  { type: 'final_scored', seat: 0, points: 7, leftovers: 1 },
  { type: 'final_scored', seat: 1, points: 1, leftovers: 4 },
  { type: 'game_over' },
]

const ACTIONS: [Action, View][] = [
  [{ type: 'place_tile', tile: 12, at: 60, dir: 0 }, base],
  [{ type: 'place_castle', at: 61 }, base],
  [{ type: 'place_figure', at: 62, leader: false }, { ...base, phase: 'figure' }],
  [{ type: 'place_figure', at: 62, leader: true }, { ...base, phase: 'figure' }],
  [{ type: 'remove_figure', at: 63 }, { ...base, phase: 'figure' }],
  [{ type: 'cast_spell', card: 2, pay: null }, { ...base, phase: 'card' }],
  [{ type: 'cast_spell', card: 2, pay: 'gold' }, { ...base, phase: 'card' }],
  [{ type: 'build', card: 5, slot: 1, pay: null }, { ...base, phase: 'card' }],
  [{ type: 'build', card: 5, slot: 1, pay: 'crystal' }, { ...base, phase: 'card' }],
  [{ type: 'monument', slot: 0, pay: null }, { ...base, phase: 'card' }],
  [{ type: 'monument', slot: 0, pay: 'wood' }, { ...base, phase: 'card' }],
  [{ type: 'move_figure', from: 63, to: 64 }, { ...base, phase: 'elf_move' }],
  [{ type: 'take_card', market: 2 }, during({ step: 'acquire', left: 1, picked: 0 })],
  [{ type: 'adopt_from', seat: 1 }, during({ step: 'adopt' })],
  [{ type: 'set_resource', resource: 'crystal' }, during({ step: 'conjure', value: 8 })],
  [{ type: 'rage_on', at: 65 }, during({ step: 'rage', weight: 2 })],
  [{ type: 'draw_from', single: true }, during({ step: 'terrain' })],
  [{ type: 'draw_from', single: false }, during({ step: 'terrain' })],
  [{ type: 'place_drawn', at: 66, dir: 0 }, during({ step: 'terrain_place', single: true, tile: 3 })],
  [{ type: 'place_drawn', at: 66, dir: 4 }, during({ step: 'terrain_place', single: false, tile: 30 })],
  [{ type: 'buy', market: 1, pay: null }, { ...base, phase: 'buy' }],
  [{ type: 'buy', market: 1, pay: 'wood' }, { ...base, phase: 'buy' }],
  ...(['place', 'figure', 'card', 'follow_up', 'buy', 'elf_move'] as const).map(
    (phase): [Action, View] => [{ type: 'skip' }, { ...base, phase }],
  ),
  [{ type: 'skip' }, during({ step: 'master_builder_build' })],
  [{ type: 'skip' }, during({ step: 'master_builder_monument' })],
  [{ type: 'done' }, during({ step: 'acquire', left: 1, picked: 1 })],
  [{ type: 'done' }, during({ step: 'clone', left: 1, picked: 1 })],
  [{ type: 'done' }, during({ step: 'muster', left: 1, picked: 1 })],
  [{ type: 'done' }, during({ step: 'flee', picked: 1 })],
  [{ type: 'done' }, during({ step: 'teleport', left: 1, picked: 1, moved: [63] })],
  [{ type: 'done' }, during({ step: 'construct' })],
]

const PENDING: View['pending'][] = [
  { step: 'acquire', left: 2, picked: 0 },
  { step: 'acquire', left: 1, picked: 1 },
  { step: 'adopt' },
  { step: 'astral_ship' },
  { step: 'clone', left: 2, picked: 0 },
  { step: 'conjure', value: 10 },
  { step: 'construct' },
  { step: 'enchanted_castle' },
  { step: 'castle_figure', at: 60 },
  { step: 'flee', picked: 0 },
  { step: 'master_builder_build' },
  { step: 'master_builder_monument' },
  { step: 'muster', left: 1, picked: 0 },
  { step: 'rage', weight: 3 },
  { step: 'teleport', left: 2, picked: 0, moved: [] },
  { step: 'terrain' },
  { step: 'terrain_place', single: false, tile: 2 },
  { step: 'terrain_place', single: true, tile: 2 },
]

/** A sentence the shell may show: non-empty, no key left raw, no placeholder left unfilled. */
function expectSentence(text: string, what: string) {
  expect(text.trim(), what).not.toBe('')
  expect(text, what).not.toMatch(/\{\{|\}\}|pandoria:|undefined|NaN|\[object/)
  // A raw key reads like `event.turnBegan` or `ui.seat`.
  expect(text, what).not.toMatch(/\b[a-z]+[A-Z_]?\w*\.[a-z]\w*/)
}

const original = i18n.lang
afterAll(() => {
  i18n.lang = original
})

describe.each(LANGUAGES.map((lang) => [lang]))('in %s', (lang) => {
  it('tells every event variant, and every event of the positions', () => {
    i18n.lang = lang
    const variants = new Set(EVENTS.map((e) => e.type))
    expect(variants.size).toBe(26)
    for (const event of EVENTS) expectSentence(eventText(event, NAMES, base), JSON.stringify(event))
    for (const position of POSITIONS) {
      for (const event of position.events) {
        expectSentence(eventText(event, NAMES, position.view), `${position.name} ${JSON.stringify(event)}`)
      }
    }
  })

  it('tells every action variant, and every legal action of the positions', () => {
    i18n.lang = lang
    expect(new Set(ACTIONS.map(([a]) => a.type)).size).toBe(17)
    for (const [action, view] of ACTIONS) expectSentence(actionText(action, view), JSON.stringify(action))
    for (const position of POSITIONS) {
      for (const action of position.legal) {
        expectSentence(actionText(action, position.view), `${position.name} ${JSON.stringify(action)}`)
      }
    }
  })

  it('gives distinct words to the distinct actions of a position', () => {
    i18n.lang = lang
    for (const position of POSITIONS) {
      const texts = position.legal.map((a) => actionText(a, position.view))
      // Identical cards (contract §5.9) are the one expected repetition.
      const cards = new Set(position.legal.filter((a) => 'card' in a).map((a) => JSON.stringify(a)))
      if (cards.size === 0) expect(new Set(texts).size, position.name).toBe(texts.length)
    }
  })

  it('prompts every phase and spell step', () => {
    i18n.lang = lang
    for (const phase of ['place', 'figure', 'card', 'follow_up', 'buy', 'elf_move', 'over'] as const) {
      expectSentence(promptText({ ...base, phase }), phase)
    }
    for (const pending of PENDING) expectSentence(promptText(during(pending)), pending.step)
  })

  it('names every card, spell, building, cell and scoring category', () => {
    i18n.lang = lang
    for (const id of CARDS.keys()) expectSentence(cardDescription(id), `card ${id}`)
    for (const spell of SPELL_IDS) expect(hasMessage(`pandoria:spell.${spell}`), spell).toBe(true)
    for (const building of BUILDING_IDS) expect(hasMessage(`pandoria:building.${building}`), building).toBe(true)
    for (const cell of base.cells.keys()) expectSentence(cellDescription(cell, base, NAMES), `cell ${cell}`)
    // crates/pandoria/src/scoring.rs: `Reason::name` of each P-R11 category, and "partner".
    const categories = [
      'city regions',
      'overflow',
      'monuments',
      'Shrine',
      'Statue',
      'Store',
      'end-game cards',
      'end-game resources',
      'partner',
    ]
    for (const category of categories) {
      expect(hasMessage(`pandoria:category.${category}`), category).toBe(true)
      expectSentence(t(`pandoria:category.${category}`), category)
    }
  })
})

/** The message keys of a catalogue, plural suffixes folded. */
function keys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  )
}

describe('catalogues', () => {
  const folded = (lang: (typeof LANGUAGES)[number]) =>
    new Set(
      keys(catalogues[lang].pandoria)
        .filter((k) => !k.startsWith('_meta.'))
        .map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')),
    )

  it('have the same messages in every language', () => {
    for (const lang of LANGUAGES) expect(folded(lang), lang).toEqual(folded('en'))
  })

  it('have the plural forms each language needs', () => {
    for (const lang of LANGUAGES) {
      const all = keys(catalogues[lang].pandoria)
      for (const key of all.filter((k) => k.endsWith('_other'))) {
        const one = key.replace(/_other$/, '_one')
        if (lang === 'ja') expect(all, key).not.toContain(one)
        else expect(all, key).toContain(one)
      }
    }
  })

  it('list in _meta.translated exactly the Italian and Japanese messages we translated', () => {
    for (const lang of ['it', 'ja'] as const) {
      const catalogue = catalogues[lang].pandoria
      const meta = catalogue._meta
      const listed = typeof meta === 'object' && Array.isArray(meta.translated) ? meta.translated : []
      const messages = keys(catalogue).filter((k) => !k.startsWith('_meta.'))
      expect(new Set(listed), lang).toEqual(new Set(messages))
    }
  })
})

describe('why', () => {
  afterAll(() => {
    i18n.lang = 'en'
  })

  // docs/contract.md, "Why not?": the reasons the engine gives, filled with their values.
  it.each(LANGUAGES)('%s says every reason, names of resources, steps and spells included', (lang) => {
    i18n.lang = lang
    const args = {
      ...{ resource: 'wood', step: 'place', spell: 'rage' },
      ...{ need: 3, have: 1, value: 4, figures: 2, distance: 3 },
    }
    const why = catalogues.en.pandoria.why
    for (const code of Object.keys(typeof why === 'object' ? why : {})) {
      const text = t(`pandoria:why.${code}`, args)
      expect(text, `${lang} ${code}`).not.toMatch(/\$t\(|\{\{|pandoria:|\b(why|resource|spell|phase)\.[a-z_]+/)
    }
    expect(t('pandoria:why.not_enough', args)).toContain(t('pandoria:resource.wood'))
    expect(t('pandoria:why.not_enough', args)).toContain('3')
    expect(t('pandoria:why.wrong_step', args)).toContain(t('pandoria:phase.place'))
  })
})
