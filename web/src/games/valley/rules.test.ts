// The table's own arithmetic follows the rules: tomb scoring (K-G3, the rulebook example
// K-C4), effective gold (K-T5, K-E10), crumbling read from two pyramids (K-T17, K-C1,
// K-C2, K-C7), and the card table matches the engine's data (kind ids, names).
import { describe, expect, test } from 'vitest'
import corrected from '../../generated/tables/valley-corrected.json'
import type { SlotCard } from '../../generated/valley/SlotCard'
import { CARDS, SETS, useData } from './tables'
import { card, effectiveGold, inActionLog } from './cards'
import { pyramidChange } from './crumble'
import { scoreTomb, setPoints } from './score'
import { allPositions, fixturePositions } from './testing'

const kind = (key: string) => {
  const id = CARDS.findIndex((c) => c.key === key)
  if (id < 0) throw new Error(key)
  return id
}

describe('scoring (K-G3)', () => {
  test('the rulebook example K-C4 scores 8', () => {
    const menial = kind('menial')
    const tomb = [menial, menial, menial, kind('carpenter'), kind('priest_of_thoth'), kind('priest_of_thoth'), kind('priest_of_sobek')]
    const score = scoreTomb(tomb)
    expect(score.total).toBe(8)
    expect(score.size).toBe(7)
    expect(score.groups.map((g) => [g.category, g.points])).toEqual([
      ['starter', 3],
      [SETS.findIndex((s) => s.key === 'priests'), 4],
      [SETS.findIndex((s) => s.key === 'builders'), 1],
    ])
  })

  test('the set table is d²', () => {
    expect([1, 2, 3, 4, 5, 6].map(setPoints)).toEqual([1, 4, 9, 16, 25, 36])
  })

  test('the end of a game scores what the engine scored', () => {
    const end = fixturePositions().find((p) => p.name === 'valley-end.json')
    const outcome = (end as unknown as { outcome: { seats: { score: number }[] } }).outcome
    end?.view.seats.forEach((seat, i) => expect(scoreTomb(seat.tomb).total).toBe(outcome.seats[i].score))
  })
})

describe('gold (K-T5)', () => {
  const view = fixturePositions()[0].view
  test('printed gold, then the turn modifiers of the active seat', () => {
    const tyet = kind('tyet_amulet')
    expect(effectiveGold(view, tyet, view.active)).toBe(card(tyet).gold)
    const thoth = { ...view, turn: { ...view.turn, gold_set: 4, gold_add: 0 } }
    expect(effectiveGold(thoth, tyet, view.active)).toBe(4)
    expect(effectiveGold(thoth, tyet, (view.active + 1) % 4)).toBe(card(tyet).gold)
    const minus = { ...view, turn: { ...view.turn, gold_set: null, gold_add: -5 } }
    expect(effectiveGold(minus, tyet, view.active)).toBe(0)
  })

  test('the action log is a bit per kind', () => {
    const view120 = fixturePositions().find((p) => p.name === 'valley-120.json')?.view
    expect(view120 && inActionLog(view120, 11)).toBe(true)
    expect(view120 && inActionLog(view120, 12)).toBe(false)
  })
})

describe('crumbling read from two pyramids (K-T17)', () => {
  const at = (...cards: (number | null)[]) =>
    cards.map((c): SlotCard | null => (c === null ? null : { card: c, reserved_by: 255 }))

  test('K-C1: B1 bought, M0 falls, then T falls into M0', () => {
    // [P, Sarcophagus, Q | Bastet, Y | Heart Scarab] → [P, Bastet, Q | Heart Scarab, Y | _]
    expect(pyramidChange(at(1, 2, 3, 4, 5, 6), at(1, 4, 3, 6, 5, null))).toEqual({
      falls: [
        { from: 3, to: 1 },
        { from: 5, to: 3 },
      ],
      refilled: [],
      emptied: [5],
    })
  })

  test('K-C2: a single candidate falls; removing T only empties it', () => {
    expect(pyramidChange(at(1, 2, 3, null, 5, null), at(1, 5, 3, null, null, null)).falls).toEqual([{ from: 4, to: 1 }])
    expect(pyramidChange(at(1, 2, 3, 4, 5, 6), at(1, 2, 3, 4, 5, null))).toEqual({ falls: [], refilled: [], emptied: [5] })
  })

  test('K-C7: a refill deals new cards from the base upward', () => {
    expect(pyramidChange(at(1, null, 3, null, null, null), at(1, 7, 3, 8, 9, 10))).toEqual({
      falls: [],
      refilled: [1, 3, 4, 5],
      emptied: [],
    })
  })
})

describe('the card table', () => {
  test("is a game's corrected data while its table is open, and the shipped data after", () => {
    const boat = kind('boat')
    expect(CARDS[boat].cost).not.toBe(9)
    // The engine's tables of a corrected file (tests/generated_types.rs): Boat's cost read off a card.
    useData(corrected)
    expect(CARDS[boat].cost).toBe(9)
    expect(card(boat).cost).toBe(9)
    useData(null)
    expect(CARDS[boat].cost).not.toBe(9)
  })

  test("kind ids name the cards the engine's descriptions name", () => {
    for (const p of allPositions()) {
      for (const { action, description } of p.legal ?? []) {
        if ('card' in action) expect(description, JSON.stringify(action)).toContain(card(action.card).name)
        if (action.type === 'begin_purchase') {
          const here = p.view.pyramid[action.slot]
          expect(here && description.includes(card(here.card).name)).toBe(true)
        }
      }
    }
  })
})
