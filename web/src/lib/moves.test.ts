import { describe, expect, it } from 'vitest'
import type { LogEntry } from '../generated/server/LogEntry'
import { seatEventEntry } from './log'
import { lastDecisionOf, lastMoves, sinceLastTurn } from './moves'

/** A move of `seat` whose events are the names given (the game's JSON does not matter here). */
const move = (seq: number, seat: number, ...events: string[]): LogEntry => ({
  seq,
  seat,
  events: events.map((event) => ({ event, text: event })),
})
const undo = (seq: number, seat: number, undid: number): LogEntry => ({ seq, seat, events: [], undid })

// Seats 0 (me), 1 and 2 around the table; seat 1 takes two decisions a turn.
const log: LogEntry[] = [
  move(1, 0, 'a1'),
  move(2, 1, 'b1'),
  move(3, 1, 'b2'),
  move(4, 2, 'c1'),
  move(5, 0, 'a2'),
  move(6, 1, 'b3'),
  move(7, 1, 'b4'),
  seatEventEntry({ what: 'handed_over', seat: 2, by: 1, seq: 7, at: 10 }),
  move(8, 2, 'c2'),
]

describe('the last move of every other seat', () => {
  it('is each seat’s last run of decisions after mine, in seat order', () => {
    expect(lastMoves(log, 0)).toEqual([
      { seat: 1, seq: 7, events: ['b3', 'b4'] },
      { seat: 2, seq: 8, events: ['c2'] },
    ])
  })

  it('is gone once I decide again', () => {
    expect(lastMoves([...log, move(9, 0, 'a3')], 0)).toEqual([])
  })

  it('is only the later run of a seat that moved twice since my decision', () => {
    const more = [...log, move(9, 1, 'b5')]
    expect(lastMoves(more, 0).find((m) => m.seat === 1)).toEqual({ seat: 1, seq: 9, events: ['b5'] })
  })

  it('shows a spectator the last run of every seat', () => {
    expect(lastMoves(log, null).map((m) => [m.seat, m.seq])).toEqual([
      [0, 5],
      [1, 7],
      [2, 8],
    ])
  })

  it('leaves undos and seat events out', () => {
    const undone = [move(1, 0, 'a1'), move(2, 1, 'b1'), undo(3, 1, 2)]
    expect(lastMoves(undone, 0)).toEqual([{ seat: 1, seq: 2, events: ['b1'] }])
    expect(lastDecisionOf(undone, 1)).toBe(2)
  })
})

describe('since your last turn', () => {
  it('is what each other seat did after my previous decision, one summary a seat', () => {
    expect(sinceLastTurn(log, 0)).toEqual([
      { seat: 1, events: ['b3', 'b4'] },
      { seat: 2, events: ['c2'] },
    ])
  })

  it('is nothing before my first decision, and nothing right after mine', () => {
    expect(sinceLastTurn([move(1, 1, 'b1')], 0)).toEqual([])
    expect(sinceLastTurn([...log, move(9, 0, 'a3')], 0)).toEqual([])
  })

  it('leaves out a seat whose moves had no events', () => {
    expect(sinceLastTurn([move(1, 0, 'a1'), move(2, 1)], 0)).toEqual([])
  })
})
