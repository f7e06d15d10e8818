import { compare } from 'fast-json-patch'
import { describe, expect, it } from 'vitest'
import valley0 from '../../fixtures/valley-0.json'
import valley1 from '../../fixtures/valley-1.json'
import valley20 from '../../fixtures/valley-20.json'
import valley120 from '../../fixtures/valley-120.json'
import valleyEnd from '../../fixtures/valley-end.json'
import type { JsonValue } from '../generated/serde_json/JsonValue'
import { isRecord, isReplay, logUntil, nextTurn, previousTurn, recordPlayers, Timeline, turnStarts } from './replay'

/** A counter view moved one step per move: the view after k moves is { n: k, moves: [...] }. */
function counting(moves: number) {
  const views: JsonValue[] = [{ n: 0, moves: [] }]
  for (let k = 1; k <= moves; k++) views.push({ n: k, moves: Array.from({ length: k }, (_, i) => i + 1) })
  const patches = views.slice(1).map((view, k) => compare(views[k] as object, view as object) as unknown as JsonValue[])
  return { views, patches }
}

describe('Timeline', () => {
  it('gives the view after any number of moves, forwards and backwards', () => {
    const { views, patches } = counting(47)
    const timeline = new Timeline(views[0], patches, 10)
    expect(timeline.length).toBe(47)
    for (const position of [0, 1, 9, 10, 11, 47, 30, 3, 20, 0]) expect(timeline.viewAt(position)).toEqual(views[position])
    expect(timeline.viewAt(99)).toEqual(views[47])
    expect(timeline.viewAt(-4)).toEqual(views[0])
  })

  it('steps forward in place, and stepping again from a jump does not disturb later moves', () => {
    const { views, patches } = counting(12)
    const timeline = new Timeline(views[0], patches, 5)
    let view = timeline.viewAt(0)
    const first = view
    for (let k = 0; k < 12; k++) view = timeline.stepForward(view, k)
    expect(view).toBe(first)
    expect(view).toEqual(views[12])
    // Patches are not shared with the views they built: a second pass gives the same views.
    let again = timeline.viewAt(3)
    for (let k = 3; k < 12; k++) again = timeline.stepForward(again, k)
    expect(again).toEqual(views[12])
    expect(timeline.viewAt(7)).toEqual(views[7])
    expect(timeline.stepForward(views[12], 12)).toBe(views[12])
  })

  it('replays real views of Valley of the Kings', () => {
    const positions = [valley0, valley1, valley20, valley120, valleyEnd].map((f) => f.spectator_view as unknown as JsonValue)
    const patches = positions.slice(1).map((view, k) => compare(positions[k] as object, view as object) as unknown as JsonValue[])
    const timeline = new Timeline(positions[0], patches, 2)
    positions.forEach((view, k) => expect(timeline.viewAt(k)).toEqual(view))
  })

  it('says which move does not apply', () => {
    expect(() => new Timeline({ a: 1 }, [[], [{ op: 'remove', path: '/b' }]])).toThrow(/move 2/)
  })
})

describe('records and answers', () => {
  it('reads a record', () => {
    const record = { game: 'valley', config: { players: 3 }, seed: 1, actions: [] }
    expect(isRecord(record)).toBe(true)
    expect(recordPlayers(record)).toBe(3)
    expect(isRecord({ game: 'valley', seed: 1 })).toBe(false)
    expect(isRecord([1])).toBe(false)
    expect(recordPlayers({ game: 'x', config: null, seed: 1, actions: [] })).toBeNull()
  })

  it('checks the shape of an answer', () => {
    const answer = { game: 'valley', seat: null, view: {}, patches: [[]], to_move: [0, 1], log: [], outcome: null }
    expect(isReplay(answer)).toBe(true)
    expect(isReplay({ ...answer, patches: {} })).toBe(false)
    expect(isReplay({ ...answer, to_move: undefined })).toBe(false)
    expect(isReplay(null)).toBe(false)
  })

  it('cuts the log at the position', () => {
    const log = [1, 2, 3].map((seq) => ({ seq, seat: 0, events: [] }))
    expect(logUntil(log, 2).map((e) => e.seq)).toEqual([1, 2])
    expect(logUntil(log, 0)).toEqual([])
  })
})

describe('turn steps', () => {
  // Seat 0 decides three times, seat 1 once, seat 0 twice; the game ends (null).
  const toMove = [0, 0, 0, 1, 0, 0, null]
  const starts = turnStarts(toMove)

  it('start where the seat to move changes', () => {
    expect(starts).toEqual([0, 3, 4, 6])
  })

  it('go to the next and the previous turn, and stop at the ends', () => {
    expect(nextTurn(starts, 0, 6)).toBe(3)
    expect(nextTurn(starts, 4, 6)).toBe(6)
    expect(nextTurn(starts, 6, 6)).toBe(6)
    expect(previousTurn(starts, 5)).toBe(4)
    expect(previousTurn(starts, 4)).toBe(3)
    expect(previousTurn(starts, 0)).toBe(0)
  })
})
