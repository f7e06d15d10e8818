// Following the game (docs/web.md): which moves the board marks as the others' last ones,
// and what the "since your last turn" summary says. Both read the log the table already
// holds; a game's board and texts say what the events look like.
import type { LogEntry } from '../generated/server/LogEntry'
import type { JsonValue } from '../generated/serde_json/JsonValue'
import { isMove } from './log'

/** One seat's last move to mark on the board: its run of decisions, with their events. */
export interface SeatMove<Event = JsonValue> {
  seat: number
  /** The seq of the run's last decision. */
  seq: number
  /** The events of the run, oldest first. */
  events: Event[]
}

/** A move of the log that a seat made (neither a seat event nor an undo). */
function decision(entry: LogEntry): boolean {
  return isMove(entry) && entry.undid === undefined
}

/** The seq of `seat`'s last decision in `log` (0: none yet). */
export function lastDecisionOf(log: LogEntry[], seat: number): number {
  for (let i = log.length - 1; i >= 0; i--) if (decision(log[i]) && log[i].seat === seat) return log[i].seq
  return 0
}

/**
 * The last move of every other seat, to stay marked until `me` decides again: for each
 * seat, its last run of consecutive decisions (a turn of several decisions is one move to
 * the eye), if that run came after `me`'s last decision. A spectator (`me` null) sees the
 * last run of every seat. In seat order.
 */
export function lastMoves(log: LogEntry[], me: number | null): SeatMove[] {
  const since = me === null ? 0 : lastDecisionOf(log, me)
  const runs = new Map<number, SeatMove>()
  let previous: number | null = null
  for (const entry of log) {
    if (!decision(entry)) continue
    const seat = entry.seat
    if (seat === me || entry.seq <= since) {
      previous = seat
      continue
    }
    const run = runs.get(seat)
    if (run && previous === seat) {
      run.seq = entry.seq
      run.events.push(...entry.events.map((e) => e.event))
    } else {
      runs.set(seat, { seat, seq: entry.seq, events: entry.events.map((e) => e.event) })
    }
    previous = seat
  }
  return [...runs.values()].sort((a, b) => a.seat - b.seat)
}

/** What one other seat did since my previous decision: its events, oldest first. */
export interface SeatSummary<Event = JsonValue> {
  seat: number
  events: Event[]
}

/**
 * "Since your last turn": every other seat's events after `me`'s previous decision, one
 * summary per seat in the order the seats first moved. Empty when `me` has not decided yet
 * (the game just began: there is nothing to catch up on) or nobody else moved.
 */
export function sinceLastTurn(log: LogEntry[], me: number): SeatSummary[] {
  const since = lastDecisionOf(log, me)
  if (since === 0) return []
  const bySeat = new Map<number, SeatSummary>()
  for (const entry of log) {
    if (!decision(entry) || entry.seq <= since || entry.seat === me) continue
    const summary = bySeat.get(entry.seat) ?? { seat: entry.seat, events: [] }
    summary.events.push(...entry.events.map((e) => e.event))
    bySeat.set(entry.seat, summary)
  }
  return [...bySeat.values()].filter((s) => s.events.length > 0)
}
