// The table's log: the stored moves and, between them, the seat events (a seat handed to a
// bot, taken back, left) after the move they followed. Several entries may share a `seq`
// (a move and the seat events after it), so an entry is known by `logKey`, not by its seq.
import type { LogEntry } from '../generated/server/LogEntry'
import type { SeatEvent } from '../generated/server/SeatEvent'

/**
 * One entry's identity: a move is one per seq; an undo is its seq and the decision it took
 * back (a replay's undo follows the move of the same seq); a seat event is its seq, seat,
 * change and time.
 */
export function logKey(entry: LogEntry): string {
  const event = entry.seat_event
  if (event) return `s${event.seq}:${event.seat}:${event.what}:${event.at}`
  return entry.undid === undefined ? `m${entry.seq}` : `u${entry.seq}:${entry.undid}`
}

/** Whether `entry` is a stored move (not a seat event). */
export function isMove(entry: LogEntry): boolean {
  return entry.seat_event === undefined
}

/** A seat event as a log entry: it follows move `event.seq`. */
export function seatEventEntry(event: SeatEvent): LogEntry {
  return { seq: event.seq, seat: event.seat, events: [], seat_event: event }
}

/** The log's order: by seq; within one seq the move first, then its seat events by time. */
function before(a: LogEntry, b: LogEntry): number {
  if (a.seq !== b.seq) return a.seq - b.seq
  const am = isMove(a) ? 0 : 1
  const bm = isMove(b) ? 0 : 1
  if (am !== bm) return am - bm
  return (a.seat_event?.at ?? 0) - (b.seat_event?.at ?? 0)
}

/**
 * Log entries, each once, in order; of two copies of an entry, the later list's wins. A
 * move an undo took back (`undid`) is left out, whichever list still held it.
 */
export function mergeLog(earlier: LogEntry[], later: LogEntry[]): LogEntry[] {
  const byKey = new Map<string, LogEntry>()
  for (const entry of [...earlier, ...later]) byKey.set(logKey(entry), entry)
  const undone = new Set<number>()
  for (const entry of byKey.values()) if (entry.undid !== undefined) undone.add(entry.undid)
  return [...byKey.values()].filter((entry) => !isMove(entry) || !undone.has(entry.seq)).sort(before)
}

/** The seq of the last stored move in the log (0: none). */
export function lastMoveSeq(log: LogEntry[]): number {
  for (let i = log.length - 1; i >= 0; i--) if (isMove(log[i])) return log[i].seq
  return 0
}

/**
 * How many moves stand after step `seq`, as the table's header counts them: `seq` counts
 * steps, and an undo is a step of its own that also takes a move back, so after one undo
 * the step count is two ahead of the moves a player sees. Counted from the log (a move
 * taken back is no longer in it, the undo's own entry is no move); null while the log
 * does not reach `seq` yet (it is fetched after the state), when it cannot say.
 */
export function movesStanding(log: LogEntry[], seq: number): number | null {
  if (lastMoveSeq(log) !== seq) return null
  return log.filter((entry) => isMove(entry) && entry.undid === undefined).length
}

/**
 * Whether `seat`'s clock ran out on the decision now to be made (its last seat event, hints
 * aside, is `timed_out` at the position `seq`): the stand-in bot makes that decision before
 * the seat may be taken back (the server refuses it until then: docs/server.md, "A run-out
 * clock binds").
 */
export function ranOutOnThisDecision(log: readonly LogEntry[], seat: number, seq: number): boolean {
  const last = log.findLast((e) => e.seat_event !== undefined && e.seat_event.seat === seat && e.seat_event.what !== 'hinted')
  return last?.seat_event?.what === 'timed_out' && last.seat_event.seq === seq
}
