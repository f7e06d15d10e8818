import { describe, expect, it } from 'vitest'
import type { LogEntry } from '../generated/server/LogEntry'
import type { SeatEvent } from '../generated/server/SeatEvent'
import { lastMoveSeq, logKey, mergeLog, movesStanding, ranOutOnThisDecision, seatEventEntry } from './log'

const move = (seq: number, text = `move ${seq}`): LogEntry => ({ seq, seat: 0, events: [{ event: null, text }] })
const seatEvent = (seq: number, what: SeatEvent['what'], at: number, seat = 1): LogEntry =>
  seatEventEntry({ what, seat, by: what === 'handed_over' ? 0 : null, seq, at })
const keys = (log: LogEntry[]) => log.map(logKey)

describe('the log with seat events', () => {
  it('keeps a move and the seat events after it, all sharing its seq, once each in order', () => {
    const stored = [move(1), seatEvent(1, 'handed_over', 100), seatEvent(1, 'took_back', 200), move(2)]
    // The live copy: the same entries, arrived in another order, some twice.
    const live = [seatEvent(1, 'took_back', 200), move(2), seatEvent(1, 'handed_over', 100), move(3)]
    const merged = mergeLog(stored, live)
    expect(keys(merged)).toEqual(['m1', 's1:1:handed_over:100', 's1:1:took_back:200', 'm2', 'm3'])
  })

  it('puts seat events before the first move after seq 0, and the later copy of a move wins', () => {
    const merged = mergeLog([move(1, 'old')], [seatEvent(0, 'left', 5), move(1, 'new')])
    expect(keys(merged)).toEqual(['s0:1:left:5', 'm1'])
    expect(merged[1].events[0].text).toBe('new')
  })

  it('tells two changes of one seat at one seq apart by their time', () => {
    const merged = mergeLog([seatEvent(4, 'handed_over', 10)], [seatEvent(4, 'handed_over', 20)])
    expect(merged).toHaveLength(2)
  })

  it('knows the last stored move behind trailing seat events', () => {
    expect(lastMoveSeq([move(1), move(2), seatEvent(2, 'left', 3)])).toBe(2)
    expect(lastMoveSeq([seatEvent(0, 'left', 3)])).toBe(0)
  })
})

describe('the log with undos', () => {
  const undo = (seq: number, undid: number): LogEntry => ({ seq, seat: 0, events: [], undid })

  it('drops the move an undo took back, whichever list still holds it', () => {
    // The stored log fetched before the undo still has move 2; the live one has the undo.
    const merged = mergeLog([move(1), move(2)], [undo(3, 2)])
    expect(keys(merged)).toEqual(['m1', 'u3:2'])
    expect(merged[1].undid).toBe(2)
    // A decision made again after the undo stays.
    expect(keys(mergeLog(merged, [move(4)]))).toEqual(['m1', 'u3:2', 'm4'])
  })

  it("keeps a replay's undo apart from the move it follows, which shares its seq", () => {
    // In a replay, a decision taken back after move 5 is an undo entry of seq 5.
    expect(new Set(keys([move(5), undo(5, 6)])).size).toBe(2)
  })
})

describe('the moves that stand', () => {
  const undo = (seq: number, undid: number): LogEntry => ({ seq, seat: 0, events: [], undid })

  it('counts moves, not steps: an undo takes one back and is none itself', () => {
    expect(movesStanding([], 0)).toBe(0)
    const three = [move(1), move(2), seatEvent(2, 'handed_over', 5), move(3)]
    expect(movesStanding(three, 3)).toBe(3)
    // Step 4 takes move 3 back: two moves stand, where the step count says 4.
    const undone = mergeLog(three, [undo(4, 3)])
    expect(movesStanding(undone, 4)).toBe(2)
    // The next move is the third again, at step 5.
    expect(movesStanding(mergeLog(undone, [move(5)]), 5)).toBe(3)
    // A stored log that still holds the undone move (fetched before the undo) is merged first.
    expect(movesStanding(mergeLog([move(1), move(2)], [undo(3, 2)]), 3)).toBe(1)
  })

  it('says nothing while the log lags behind the state', () => {
    expect(movesStanding([], 4)).toBeNull()
    expect(movesStanding([move(1), move(2)], 3)).toBeNull()
  })
})

describe('a run-out clock binds', () => {
  const at = (what: SeatEvent['what'], seat: number, seq: number, when: number): LogEntry =>
    seatEventEntry({ what, seat, by: null, seq, at: when })
  const step = (seq: number, seat: number): LogEntry => ({ seq, seat, events: [] })

  it('holds the take back until the bot made the decision that ran out', () => {
    const log = [step(1, 0), at('timed_out', 1, 1, 10), at('hinted', 1, 1, 11)]
    expect(ranOutOnThisDecision(log, 1, 1)).toBe(true)
    expect(ranOutOnThisDecision([...log, step(2, 1)], 1, 2)).toBe(false)
    expect(ranOutOnThisDecision(log, 0, 1)).toBe(false)
    expect(ranOutOnThisDecision([...log, at('took_back', 1, 1, 12)], 1, 1)).toBe(false)
  })
})
