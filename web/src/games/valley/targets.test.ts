// targetOf maps each action to the board object it concerns; clickOutcome says what a
// click there does. Both are pure: the client never decides legality.
import { describe, expect, test } from 'vitest'
import type { Action } from '../../generated/valley/Action'
import type { Frame } from '../../generated/valley/Frame'
import type { View } from '../../generated/valley/View'
import { CARDS } from './tables'
import { groupByTarget } from '../kit/targets'
import { choiceZone, clickOutcome, isLegalTarget, targetOf } from './targets'
import { allPositions, fixturePositions } from './testing'

const base: View = fixturePositions()[0].view
const kind = (key: string) => CARDS.findIndex((c) => c.key === key)

/** The view with a frame of `card` (by key) at part `part` in `stage`. */
function resolving(key: string, part: number, stage: Frame['stage'] = 'Choosing'): View {
  const frame: Frame = {
    program: { Card: kind(key) },
    actor: 0,
    part,
    stage,
    opponent: 0,
    bound: [255, 255],
    revealed: 255,
    picks: 0,
    look: 0,
    placed: 0,
  }
  return { ...base, frames: [frame] }
}

describe('targetOf', () => {
  test('pyramid decisions name their slot', () => {
    for (const type of ['begin_purchase', 'sacrifice', 'crumble_from', 'choose_slot'] as const) {
      expect(targetOf({ type, slot: 4 }, base)).toBe('slot:4')
    }
  })

  test('hand decisions name the card kind; entombing names the tomb (K-T8)', () => {
    expect(targetOf({ type: 'pay', card: 2 }, base)).toBe('hand:2')
    expect(targetOf({ type: 'play_action', card: 11 }, base)).toBe('hand:11')
    expect(targetOf({ type: 'react', card: 8 }, base)).toBe('hand:8')
    expect(targetOf({ type: 'entomb', card: 3 }, base)).toBe('tomb')
    expect(targetOf({ type: 'use_pharaoh' }, base)).toBe('pharaoh')
  })

  test('a choice names the zone the current part picks from (K-E0)', () => {
    const choose: Action = { type: 'choose', card: 1 }
    expect(targetOf(choose, resolving('book_of_the_earth', 0))).toBe('hand:1') // sacrifice from hand
    expect(targetOf(choose, resolving('book_of_the_heavens', 1))).toBe('discard:1') // entomb from discard
    expect(targetOf(choose, resolving('tyet_amulet', 0))).toBe('played:1') // repeat an action (K-E11)
    expect(targetOf(choose, resolving('statue_unnamed_1', 0))).toBe('hand:1') // give (K-E9)
    expect(targetOf(choose, resolving('qebehsenuef_canopic_jar', 0))).toBe('hand:1')
    expect(targetOf(choose, resolving('book_of_gates', 0, 'LookDiscard'))).toBe('look:1') // K-E16
    expect(targetOf(choose, base)).toBe('pick:1')
    expect(choiceZone(resolving('book_of_the_netherworld', 0))).toBe('pick')
  })

  test('decisions without an object are action-bar buttons', () => {
    for (const type of ['end_play', 'decline', 'accept', 'skip', 'done'] as const) {
      expect(targetOf({ type }, base)).toBe(`bar:${type}`)
    }
  })

  test('every legal action of every known position has a target', () => {
    for (const p of allPositions()) {
      for (const { action } of p.legal ?? []) expect(targetOf(action, p.view)).toMatch(/^[a-z]+(:[a-z_0-9]+)?$/)
    }
  })
})

describe('clickOutcome', () => {
  const legal: Action[] = [
    { type: 'begin_purchase', slot: 0 },
    { type: 'play_action', card: 11 },
    { type: 'entomb', card: 11 },
    { type: 'entomb', card: 0 },
    { type: 'pay', card: 2 },
    { type: 'end_play' },
  ]
  const groups = groupByTarget(legal, (action) => targetOf(action, base))

  test('one legal action is sent on click', () => {
    expect(clickOutcome('slot:0', groups, null)).toEqual({ kind: 'send', action: legal[0] })
    expect(clickOutcome('hand:2', groups, null)).toEqual({ kind: 'send', action: legal[4] })
    expect(clickOutcome('bar:end_play', groups, null)).toEqual({ kind: 'send', action: legal[5] })
  })

  test('a card that may be played or entombed asks which', () => {
    expect(clickOutcome('hand:11', groups, null)).toEqual({ kind: 'choose', actions: [legal[1], legal[2]] })
  })

  test('a card that may only be entombed is held, then entombed on the tomb', () => {
    expect(clickOutcome('hand:0', groups, null)).toEqual({ kind: 'select', card: 0 })
    expect(clickOutcome('tomb', groups, 0)).toEqual({ kind: 'send', action: legal[3] })
    expect(clickOutcome('tomb', groups, null)).toEqual({ kind: 'choose', actions: [legal[2], legal[3]] })
    expect(isLegalTarget(groups, 'hand:0')).toBe(true)
  })

  test('anything else does nothing', () => {
    expect(clickOutcome('slot:3', groups, null)).toEqual({ kind: 'none' })
    expect(clickOutcome('hand:5', groups, null)).toEqual({ kind: 'none' })
    expect(isLegalTarget(groups, 'hand:5')).toBe(false)
  })
})
