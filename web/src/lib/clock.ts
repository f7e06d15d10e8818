// A table's clock in the browser: the lobby's labels of the clock choices, each seat's time
// left as the server last told it, and how a time left reads. The running clock is counted
// down from the moment its message arrived here, not towards the server's `deadline`: that
// is the server's wall clock, which this computer's may not match.
import { MAX_RUN_OUTS } from '../generated/constants'
import type { Clock } from '../generated/server/Clock'
import type { ClockChoices } from '../generated/server/ClockChoices'
import type { ClockTimes } from '../generated/server/ClockTimes'
import type { SeatInfo } from '../generated/server/SeatInfo'
import type { SecondsRange } from '../generated/server/SecondsRange'
import { i18n, t } from './i18n.svelte'

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Real-time clocks are marked low under this; turn-based ones under `LOW_TURN_BASED_MS`. */
export const LOW_REALTIME_MS = 30_000
/** A day-long turn has no "last 30 seconds": its last hour is when a reminder matters. */
export const LOW_TURN_BASED_MS = HOUR * 1000

/** The server's clock times, with when (`Date.now()` here) the message carrying them arrived. */
export interface ClockReading {
  times: ClockTimes
  receivedAt: number
}

/** Whether the seat's clock ran out so often that the bot plays it to the end (a person who left aside). */
export function ranOutForGood(info: SeatInfo): boolean {
  return !info.left && (info.run_outs ?? 0) >= MAX_RUN_OUTS
}

/** Whether some seat's clock runs down in `reading`: the screen then redraws every second. */
export function clockRuns(reading: ClockReading | null): boolean {
  return reading !== null && reading.times.running !== null
}

/**
 * Seat `seat`'s time left at `now` (ms, never below 0): its time in the message, less the
 * time since the message arrived if its clock is the running one. Null when the message has
 * no time for the seat.
 */
export function remainingMs(reading: ClockReading, seat: number, now = Date.now()): number | null {
  const left = reading.times.left_ms[seat]
  if (left === undefined) return null
  const elapsed = reading.times.running === seat ? Math.max(0, now - reading.receivedAt) : 0
  return Math.max(0, left - elapsed)
}

/** Whether `ms` left is little enough to call out, for this kind of clock. */
export function isLow(clock: Clock, ms: number): boolean {
  if (clock.kind === 'realtime') return ms < LOW_REALTIME_MS
  if (clock.kind === 'turn_based') return ms < LOW_TURN_BASED_MS
  return false
}

/** One seat's clock as the seats panel shows it. */
export interface SeatClock {
  ms: number
  running: boolean
  low: boolean
}

/**
 * The clock seat `info` shows at `now`; null when it shows none: the table has no clock,
 * the times are unknown yet, or nobody's clock is there to run (a bot's own seat, a free
 * seat, a person who left for good).
 */
export function seatClock(info: SeatInfo, clock: Clock, reading: ClockReading | null, now = Date.now()): SeatClock | null {
  if (clock.kind === 'none' || reading === null) return null
  if (info.kind !== 'human' || info.name === null || info.left) return null
  const ms = remainingMs(reading, info.seat, now)
  if (ms === null) return null
  return { ms, running: reading.times.running === info.seat, low: isLow(clock, ms) }
}

function unitText(value: number, unit: 'day' | 'hour' | 'minute' | 'second', display: 'long' | 'short' | 'narrow'): string {
  return new Intl.NumberFormat(i18n.lang, { style: 'unit', unit, unitDisplay: display }).format(value)
}

const two = (n: number) => String(n).padStart(2, '0')

/**
 * A time left as a clock reads it: "4:32", "1:05:09" under a day, "2d 3h" (in the current
 * language) from a day on. Whole seconds rounded up, so "0:00" means the time is out.
 */
export function timeLeftText(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000)
  if (total >= DAY) {
    const days = Math.floor(total / DAY)
    const hours = Math.floor((total % DAY) / HOUR)
    const parts = [unitText(days, 'day', 'narrow')]
    if (hours > 0) parts.push(unitText(hours, 'hour', 'narrow'))
    return parts.join(' ')
  }
  const hours = Math.floor(total / HOUR)
  const minutes = Math.floor((total % HOUR) / MINUTE)
  const seconds = total % MINUTE
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`
}

/** A setting in seconds as words: "10 min", "5 sec", "1 day", "1 hr 30 min" (current language). */
export function amountText(secs: number): string {
  const parts: string[] = []
  let rest = Math.max(0, Math.round(secs))
  for (const [unit, size] of [
    ['day', DAY],
    ['hour', HOUR],
    ['minute', MINUTE],
    ['second', 1],
  ] as const) {
    const count = Math.floor(rest / size)
    rest -= count * size
    // Days read better in full ("3 days"); the short forms of the others are the usual ones.
    if (count > 0) parts.push(unitText(count, unit, unit === 'day' ? 'long' : 'short'))
  }
  return parts.length > 0 ? parts.join(' ') : unitText(0, 'second', 'short')
}

/** A clock choice as the new-game form lists it: "Real time 10 min + 10 sec". */
export function clockLabel(clock: Clock): string {
  switch (clock.kind) {
    case 'none':
      return t('clock.none')
    case 'realtime':
      return clock.increment_secs === 0
        ? t('clock.realtimeFlat', { initial: amountText(clock.initial_secs) })
        : t('clock.realtime', { initial: amountText(clock.initial_secs), increment: amountText(clock.increment_secs) })
    case 'turn_based':
      return t('clock.turnBased', { perMove: amountText(clock.per_move_secs), bank: amountText(clock.bank_secs) })
  }
}

/** The custom clock's settings in the units the form asks them in (the server's are seconds). */
export interface CustomSettings {
  initialMinutes: number
  incrementSeconds: number
  perMoveHours: number
  bankHours: number
}

/** How many seconds one unit of each custom setting is. */
export const CUSTOM_UNIT_SECS: Record<keyof CustomSettings, number> = {
  initialMinutes: MINUTE,
  incrementSeconds: 1,
  perMoveHours: HOUR,
  bankHours: HOUR,
}

/** A server range in seconds as whole units of `unitSecs`, every one of them inside it. */
export function unitBounds(range: SecondsRange, unitSecs: number): { min: number; max: number } {
  return { min: Math.ceil(range.min / unitSecs), max: Math.floor(range.max / unitSecs) }
}

function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, Math.round(Number.isFinite(value) ? value : bounds.min)))
}

/**
 * The clock of a custom setting, each value pulled into the server's bounds (the inputs
 * say the bounds too, but a typed value may stray) and a bank never below the time per move
 * (the server refuses it).
 */
export function customClock(kind: 'realtime' | 'turn_based', settings: CustomSettings, choices: ClockChoices): Clock {
  const setting = (key: keyof CustomSettings, range: SecondsRange) =>
    clamp(settings[key], unitBounds(range, CUSTOM_UNIT_SECS[key])) * CUSTOM_UNIT_SECS[key]
  if (kind === 'realtime') {
    return {
      kind,
      initial_secs: setting('initialMinutes', choices.realtime_initial_secs),
      increment_secs: setting('incrementSeconds', choices.realtime_increment_secs),
    }
  }
  const per_move_secs = setting('perMoveHours', choices.turn_based_per_move_secs)
  const bank_secs = Math.max(per_move_secs, setting('bankHours', choices.turn_based_bank_secs))
  return { kind, per_move_secs, bank_secs: Math.min(bank_secs, choices.turn_based_bank_secs.max) }
}
