// Every event and action reads as a sentence in all four languages: those of every known
// position, and a hand-made example of every variant (typed against the generated types,
// so a new variant fails to compile until it is added here).
import { afterAll, describe, expect, test } from 'vitest'
import { i18n, LANGUAGES } from '../../lib/i18n.svelte'
import type { Action } from '../../generated/valley/Action'
import type { Event } from '../../generated/valley/Event'
import type { View } from '../../generated/valley/View'
import { CARDS, PHARAOHS, SETS } from './tables'
import { actionText as cardText, cardName, categoryName, pharaohName, partText } from './cards'
import type { PartData } from '../../generated/valley/PartData'
import { promptText } from './prompt'
import { actionText, eventText } from './text'
import { allPositions, looksRaw } from './testing'

const names = ['Ana', 'Bruno', 'Chiara', 'Daiki']
const positions = allPositions()
const view: View = positions[0].view

const EVENTS: { [K in Event['type']]: Extract<Event, { type: K }> } = {
  turn_started: { type: 'turn_started', seat: 0 },
  drew: { type: 'drew', seat: 1, count: 5 },
  reshuffled: { type: 'reshuffled', seat: 2, count: 1 },
  purchase_begun: { type: 'purchase_begun', seat: 0, card: 14, slot: 1 },
  paid: { type: 'paid', seat: 0, card: 12, gold: 3 },
  bought: { type: 'bought', seat: 0, card: 15, slot: 1, paid: 5, lost: 1 },
  action_played: { type: 'action_played', seat: 3, card: 11 },
  pharaoh_used: { type: 'pharaoh_used', seat: 1 },
  entombed: { type: 'entombed', seat: 1, card: 19 },
  crumbled: { type: 'crumbled', from: 3, to: 1 },
  sacrificed: { type: 'sacrificed', seat: 2, card: 0 },
  taken: { type: 'taken', seat: 2, card: 8 },
  revealed: { type: 'revealed', seat: 0, card: 13 },
  looked: { type: 'looked', seat: 0, count: 3 },
  discarded: { type: 'discarded', seat: 0, card: 13 },
  arranged: { type: 'arranged', seat: 0 },
  given: { type: 'given', from: 1, to: 0, card: 2 },
  reserved: { type: 'reserved', seat: 0, slot: 5 },
  executed: { type: 'executed', seat: 0, card: 12 },
  part_skipped: { type: 'part_skipped', seat: 3 },
  reacted: { type: 'reacted', seat: 1, card: 8 },
  declined: { type: 'declined', seat: 2 },
  refilled: { type: 'refilled', slot: 4, card: 40 },
  play_ended: { type: 'play_ended', seat: 3 },
  turn_ended: { type: 'turn_ended', seat: 3 },
  game_over: { type: 'game_over' },
}

const ACTIONS: { [K in Action['type']]: Extract<Action, { type: K }> } = {
  begin_purchase: { type: 'begin_purchase', slot: 0 },
  pay: { type: 'pay', card: 0 },
  play_action: { type: 'play_action', card: 11 },
  entomb: { type: 'entomb', card: 3 },
  use_pharaoh: { type: 'use_pharaoh' },
  end_play: { type: 'end_play' },
  sacrifice: { type: 'sacrifice', slot: 5 },
  crumble_from: { type: 'crumble_from', slot: 3 },
  react: { type: 'react', card: 8 },
  decline: { type: 'decline' },
  choose: { type: 'choose', card: 1 },
  choose_slot: { type: 'choose_slot', slot: 2 },
  accept: { type: 'accept' },
  skip: { type: 'skip' },
  done: { type: 'done' },
}

/** A part of every primitive of spec §6, with the variants the texts distinguish. */
const PARTS: PartData[] = (() => {
  const base = { slots: 63, may: false, eachOpponent: false, count: 1, min: 1 }
  return [
    { ...base, op: 'draw', n: 2 },
    { ...base, op: 'draw', n: 1, eachOpponent: true },
    { ...base, op: 'look_top', n: 3, mayDiscard: false },
    { ...base, op: 'look_top', n: 2, mayDiscard: true },
    { ...base, op: 'reveal' },
    { ...base, op: 'execute' },
    { ...base, op: 'discard', from: 'hand', count: 2, min: 0 },
    { ...base, op: 'discard', from: 'revealed' },
    { ...base, op: 'entomb', from: 'discard', extra: true },
    { ...base, op: 'entomb', from: 'pyramid', extreme: 'lowest', extra: true },
    { ...base, op: 'entomb', from: 'revealed', extra: false },
    { ...base, op: 'take', from: 'pyramid', to: 'discard', slots: 7 },
    { ...base, op: 'take', from: 'pyramid', to: 'hand', slots: 0b101000, level: 3, category: 0 },
    { ...base, op: 'take', from: 'stock_top', to: 'discard' },
    { ...base, op: 'take', from: 'boneyard_top', to: 'tomb' },
    { ...base, op: 'take', from: 'boneyard_any', to: 'deck_top', cost: { cmp: 'lt', value: { maxPurchases: true } } },
    { ...base, op: 'take', from: 'revealed', to: 'boneyard' },
    { ...base, op: 'sacrifice', from: 'hand', bind: 0 },
    { ...base, op: 'sacrifice', from: 'hand', eachOpponent: true },
    { ...base, op: 'take', from: 'pyramid', to: 'discard', cost: { cmp: 'le', value: { boundCost: 0, times: 2 } } },
    { ...base, op: 'take', from: 'pyramid', to: 'discard', cost: { cmp: 'ge', value: { const: 4 } }, category: 'unique' },
    { ...base, op: 'give', eachOpponent: true, exemptTotalLe: 5 },
    { ...base, op: 'gold_modifier', gold: { set: 4 } },
    { ...base, op: 'gold_modifier', gold: { add: 1 } },
    { ...base, op: 'gold_modifier', gold: { add: -2 } },
    { ...base, op: 'repeat_action' },
    { ...base, op: 'condition', pred: { kind: 'discard_size_ge', n: 5 } },
    { ...base, op: 'condition', pred: { kind: 'hand_size_ge', n: 1 } },
    { ...base, op: 'condition', pred: { kind: 'bought_this_turn' } },
    { ...base, op: 'condition', pred: { kind: 'pyramid_nonempty' } },
    { ...base, op: 'grant_entomb', n: 1 },
    { ...base, op: 'purchase_scope' },
    { ...base, op: 'reserve', from: undefined },
    { ...base, op: 'draw', n: 1, may: true },
  ]
})()

afterAll(() => {
  i18n.lang = 'en'
})

describe.each([...LANGUAGES])('%s', (lang) => {
  test('every event variant and every event of the positions', () => {
    i18n.lang = lang
    const events = [...Object.values(EVENTS), ...positions.flatMap((p) => p.last_events)]
    for (const event of events) {
      const text = eventText(event, names, view)
      expect(looksRaw(text), `${JSON.stringify(event)} → ${text}`).toBe(false)
    }
  })

  test('every action variant and every legal action of the positions', () => {
    i18n.lang = lang
    for (const action of Object.values(ACTIONS)) {
      const text = actionText(action, view)
      expect(looksRaw(text), `${JSON.stringify(action)} → ${text}`).toBe(false)
    }
    for (const p of positions) {
      for (const { action } of p.legal ?? []) {
        const text = actionText(action, p.view)
        expect(looksRaw(text), `${p.name}: ${JSON.stringify(action)} → ${text}`).toBe(false)
      }
      for (const seat of [p.seat, null]) {
        const prompt = promptText(p.view, seat, names, p.legal?.map((l) => l.action) ?? [])
        expect(looksRaw(prompt), `${p.name} prompt → ${prompt}`).toBe(false)
      }
    }
  })

  test('every card, set, pharaoh and part has a name or a sentence', () => {
    i18n.lang = lang
    CARDS.forEach((c, id) => {
      expect(looksRaw(cardName(id)), c.name).toBe(false)
      if (c.action !== 'none') expect(looksRaw(cardText(c.action)), `${c.name}: ${cardText(c.action)}`).toBe(false)
      if (c.reaction) expect(looksRaw(cardText(c.reaction)), c.name).toBe(false)
    })
    SETS.forEach((s, i) => expect(looksRaw(categoryName(i)), s.name).toBe(false))
    expect(looksRaw(categoryName('starter'))).toBe(false)
    expect(looksRaw(categoryName('unique'))).toBe(false)
    PHARAOHS.forEach((p, i) => expect(looksRaw(pharaohName(i)), p.name).toBe(false))
    PARTS.forEach((part, i) => {
      const text = partText(part, PARTS.slice(0, i))
      expect(looksRaw(text), `${JSON.stringify(part)} → ${text}`).toBe(false)
    })
  })
})

test('English names are the data file names (the view names cards by kind id)', () => {
  i18n.lang = 'en'
  CARDS.forEach((c, id) => expect(cardName(id)).toBe(c.name))
})

test('texts say what the cards do', () => {
  i18n.lang = 'en'
  const id = CARDS.findIndex((c) => c.key === 'book_of_the_earth')
  expect(cardText(CARDS[id].action)).toBe(
    "Sacrifice a card from your hand to the boneyard. Take a card costing at most 2 × the sacrificed card's cost from the pyramid onto your discard pile.",
  )
  expect(eventText(EVENTS.bought, names, view)).toBe(
    `Ana buys ${cardName(15)} from the bottom centre slot for 5 gold (1 gold lost).`,
  )
  i18n.lang = 'es'
  expect(cardName(CARDS.findIndex((c) => c.key === 'statue_of_bastet'))).toBe('Estatua de Bastet')
})
