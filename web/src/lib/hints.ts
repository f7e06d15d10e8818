// Hints (tables that allow them): the seat to move asks what the hard bot would do, and
// everyone gets the answer as a `hinted` seat event in the log. The board marks the hinted
// actions' targets with their values while the position is the one hinted.
import type { HintedAction } from '../generated/server/HintedAction'
import type { LogEntry } from '../generated/server/LogEntry'
import type { SeatEvent } from '../generated/server/SeatEvent'
import { i18n } from './i18n.svelte'

/** The hint given at the position of `seq` (the last one asked there), or null. */
export function currentHint(log: readonly LogEntry[], seq: number): SeatEvent | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const event = log[i].seat_event
    if (event?.what === 'hinted' && event.seq === seq) return event
    if (log[i].seq < seq) break
  }
  return null
}

/** A hint's value (an estimated chance of winning, 0 to 1) as a whole percentage: "62%". */
export function percent(value: number): string {
  const clamped = Math.min(1, Math.max(0, value))
  return new Intl.NumberFormat(i18n.lang, { style: 'percent', maximumFractionDigits: 0 }).format(clamped)
}

/** One board object a hint marks: its hinted actions' ranks (1 = the bot's choice) and the best value. */
export interface HintMark {
  key: string
  rank: number
  label: string
}

/**
 * The board objects `actions` concern, by `targetOf` (null or a throw: none), one mark each:
 * several actions on one object show its best rank and value.
 */
export function hintMarks(actions: readonly HintedAction[], targetOf: (action: HintedAction) => string | null): HintMark[] {
  const marks = new Map<string, HintMark>()
  actions.forEach((hinted, index) => {
    let key: string | null
    try {
      key = targetOf(hinted)
    } catch {
      key = null
    }
    if (key === null || key === '' || marks.has(key)) return
    marks.set(key, { key, rank: index + 1, label: percent(hinted.value) })
  })
  return [...marks.values()]
}

/** The hinted actions as one line: "Take the gem (62%), Pass (40%)". */
export function hintLine(actions: readonly HintedAction[], labelOf: (action: HintedAction) => string): string {
  return actions.map((a) => `${labelOf(a)} (${percent(a.value)})`).join(', ')
}
