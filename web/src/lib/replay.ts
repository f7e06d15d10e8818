// The replay viewer's data and its stepping. `POST /api/replay {record, seat}` answers with
// the seat's first view and one JSON Patch per move (docs/server.md); stepping forward applies the next patch
// in place, and any other jump starts from the nearest snapshot (one every `every` moves),
// so going back in a long game is as quick as going forward.
import { applyPatch, type Operation } from 'fast-json-patch'
import type { LogEntry } from '../generated/server/LogEntry'
import type { Record as GameRecord } from '../generated/server/Record'
import type { Replay } from '../generated/server/Replay'
import type { JsonValue } from '../generated/serde_json/JsonValue'

/** Checks an answer of `POST /api/replay` before trusting its shape. */
export function isReplay(value: unknown): value is Replay {
  const v = value as Replay
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.game === 'string' &&
    Array.isArray(v.patches) &&
    v.patches.every(Array.isArray) &&
    Array.isArray(v.to_move) &&
    Array.isArray(v.log) &&
    'view' in v
  )
}

/** Whether a file's JSON is a game record (the server checks the rest when replaying it). */
export function isRecord(value: unknown): value is GameRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const { game, seed, actions } = value as { game?: unknown; seed?: unknown; actions?: unknown }
  return typeof game === 'string' && typeof seed === 'number' && Array.isArray(actions) && 'config' in value
}

/** The record's player count, when its config says it. */
export function recordPlayers(record: GameRecord): number | null {
  const config = record.config
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return null
  return typeof config.players === 'number' ? config.players : null
}

const clone = <T>(value: T): T => structuredClone(value)

function apply(view: JsonValue, patch: JsonValue[]): JsonValue {
  // The patch is cloned: applied values become part of the view, which later patches change,
  // and the same patch is applied again on every pass over that move.
  const operations = clone(patch) as unknown as Operation[]
  return applyPatch(view, operations, true, true).newDocument
}

export class Timeline {
  /** The number of moves. */
  readonly length: number
  private readonly patches: JsonValue[][]
  private readonly every: number
  /** `snapshots[i]`: the view after `i * every` moves. */
  private readonly snapshots: JsonValue[]

  constructor(initial: JsonValue, patches: JsonValue[][], every = 20) {
    this.patches = patches
    this.every = Math.max(1, every)
    this.length = patches.length
    this.snapshots = [clone(initial)]
    let view = clone(initial)
    patches.forEach((patch, k) => {
      try {
        view = apply(view, patch)
      } catch (error) {
        throw new Error(`move ${k + 1} does not apply: ${error instanceof Error ? error.message : String(error)}`)
      }
      if ((k + 1) % this.every === 0) this.snapshots.push(clone(view))
    })
  }

  clamp(position: number): number {
    return Math.min(this.length, Math.max(0, Math.trunc(position)))
  }

  /** A fresh copy of the view after `position` moves. */
  viewAt(position: number): JsonValue {
    const at = this.clamp(position)
    const snapshot = Math.floor(at / this.every)
    let view = clone(this.snapshots[snapshot])
    for (let k = snapshot * this.every; k < at; k++) view = apply(view, this.patches[k])
    return view
  }

  /**
   * One move forward, in place: `view` is the view after `position` moves and becomes the
   * view after `position + 1` (the result; a new object only if the patch replaces the root).
   */
  stepForward(view: JsonValue, position: number): JsonValue {
    if (position < 0 || position >= this.length) return view
    return apply(view, this.patches[position])
  }
}

/** The log as far as the position: the moves played so far. */
export function logUntil(log: LogEntry[], position: number): LogEntry[] {
  return log.filter((entry) => entry.seq <= position)
}

/**
 * The positions where a turn begins: the start, and each position whose seat to move differs
 * from the one before it (`toMove[p]`: the seat to move after `p` moves). The replay steps
 * from one to the next, so a Valdora turn of many decisions is one step.
 */
export function turnStarts(toMove: (number | null)[]): number[] {
  const starts = [0]
  for (let p = 1; p < toMove.length; p++) if (toMove[p] !== toMove[p - 1]) starts.push(p)
  return starts
}

/** The first turn start after `position`, or `length` when none is left. */
export function nextTurn(starts: number[], position: number, length: number): number {
  return starts.find((p) => p > position) ?? length
}

/** The last turn start before `position`, or 0. */
export function previousTurn(starts: number[], position: number): number {
  return starts.findLast((p) => p < position) ?? 0
}
