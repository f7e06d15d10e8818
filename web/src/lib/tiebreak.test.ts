import { describe, expect, it } from 'vitest'
import type { Outcome } from '../generated/engine/Outcome'
import { tieNotes } from './tiebreak'

const result = (seat: number, score: number, rank: number, tiebreaks: number[]) => ({
  seat,
  score,
  rank,
  breakdown: [],
  tiebreaks,
})

const outcome = (seats: ReturnType<typeof result>[]): Outcome => ({ seats, truncated: false }) as Outcome

describe('tieNotes', () => {
  const game = outcome([result(0, 30, 1, [4]), result(1, 30, 2, [2]), result(2, 30, 2, [2]), result(3, 12, 4, [6])])

  it('says which tie-break put a seat ahead of the seats with its score', () => {
    expect(tieNotes(game, 0)).toEqual([
      { kind: 'decided', tiebreak: 0, ahead: true, others: [1, 2], mine: 4, theirs: [2, 2] },
    ])
  })

  it('says a seat behind on the tie-break and one it stayed tied with', () => {
    expect(tieNotes(game, 1)).toEqual([
      { kind: 'decided', tiebreak: 0, ahead: false, others: [0], mine: 2, theirs: [4] },
      { kind: 'tied', others: [2] },
    ])
  })

  it('says nothing for a score nobody else had', () => {
    expect(tieNotes(game, 3)).toEqual([])
  })
})
