import { beforeEach, describe, expect, it } from 'vitest'
import type { Clock } from '../generated/server/Clock'
import type { ClockChoices } from '../generated/server/ClockChoices'
import type { SeatInfo } from '../generated/server/SeatInfo'
import {
  amountText,
  clockLabel,
  clockRuns,
  customClock,
  isLow,
  ranOutForGood,
  remainingMs,
  seatClock,
  timeLeftText,
  unitBounds,
  type ClockReading,
} from './clock'
import { i18n } from './i18n.svelte'
import { seatEventText } from './presence'

const AT = 1_000_000
const reading = (left_ms: number[], running: number | null): ClockReading => ({
  times: { left_ms, running, deadline: running === null ? null : 99 },
  receivedAt: AT,
})
const seat = (n: number, extra: Partial<SeatInfo> = {}): SeatInfo => ({
  seat: n,
  kind: 'human',
  name: ['Ana', 'Ben'][n] ?? null,
  bot: null,
  open: false,
  presence: null,
  stand_in: null,
  left: false,
  former: false,
  ...extra,
})
const REALTIME: Clock = { kind: 'realtime', initial_secs: 600, increment_secs: 10 }
const TURN_BASED: Clock = { kind: 'turn_based', per_move_secs: 86_400, bank_secs: 3 * 86_400 }

beforeEach(() => {
  i18n.lang = 'en'
})

describe('time left', () => {
  it('counts the running seat down from when the message arrived, never below 0', () => {
    const r = reading([60_000, 45_000], 1)
    expect(remainingMs(r, 1, AT)).toBe(45_000)
    expect(remainingMs(r, 1, AT + 2_500)).toBe(42_500)
    expect(remainingMs(r, 1, AT + 60_000)).toBe(0)
    // The other seat waits; a clock earlier than the message's arrival takes nothing off.
    expect(remainingMs(r, 0, AT + 10_000)).toBe(60_000)
    expect(remainingMs(r, 1, AT - 5_000)).toBe(45_000)
    expect(remainingMs(r, 2, AT)).toBeNull()
  })

  it('ticks only while a clock runs', () => {
    expect(clockRuns(null)).toBe(false)
    expect(clockRuns(reading([1, 2], null))).toBe(false)
    expect(clockRuns(reading([1, 2], 0))).toBe(true)
  })

  it('reads as a clock: m:ss, h:mm:ss, then days and hours', () => {
    expect(timeLeftText(0)).toBe('0:00')
    expect(timeLeftText(-5)).toBe('0:00')
    // Rounded up: "0:00" only once the time is out.
    expect(timeLeftText(1)).toBe('0:01')
    expect(timeLeftText(272_000)).toBe('4:32')
    expect(timeLeftText(599_001)).toBe('10:00')
    expect(timeLeftText(3_909_000)).toBe('1:05:09')
    expect(timeLeftText(86_399_000)).toBe('23:59:59')
    expect(timeLeftText((2 * 86_400 + 3 * 3600 + 59) * 1000)).toBe('2d 3h')
    expect(timeLeftText(3 * 86_400_000)).toBe('3d')
    // Other languages write the units their way (ICU's data, which differs between engines).
    i18n.lang = 'es'
    expect(timeLeftText(3 * 86_400_000)).toMatch(/^3\s?d/)
  })

  it('is low under 30 seconds of real time, or the last hour of a turn-based clock', () => {
    expect(isLow(REALTIME, 29_999)).toBe(true)
    expect(isLow(REALTIME, 30_000)).toBe(false)
    expect(isLow(TURN_BASED, 30_000)).toBe(true)
    expect(isLow(TURN_BASED, 3_600_000)).toBe(false)
    expect(isLow({ kind: 'none' }, 0)).toBe(false)
  })
})

describe('a seat clock', () => {
  const r = reading([20_000, 300_000, 300_000], 0)
  it("shows for a person's seat, running or not, low or not", () => {
    expect(seatClock(seat(0), REALTIME, r, AT + 1_000)).toEqual({ ms: 19_000, running: true, low: true })
    expect(seatClock(seat(1), REALTIME, r, AT + 1_000)).toEqual({ ms: 300_000, running: false, low: false })
    // A seat whose time ran out still shows it while the bot plays for its person.
    expect(seatClock(seat(1, { stand_in: 'medium' }), REALTIME, reading([1, 0], null), AT)).toEqual({
      ms: 0,
      running: false,
      low: true,
    })
  })

  it("is hidden without a clock, for a bot's own seat, a free seat and a person who left", () => {
    expect(seatClock(seat(0), { kind: 'none' }, r, AT)).toBeNull()
    expect(seatClock(seat(0), REALTIME, null, AT)).toBeNull()
    expect(seatClock(seat(1, { kind: 'bot', bot: 'easy', name: 'Bot' }), REALTIME, r, AT)).toBeNull()
    expect(seatClock(seat(1, { name: null }), REALTIME, r, AT)).toBeNull()
    expect(seatClock(seat(1, { left: true }), REALTIME, r, AT)).toBeNull()
  })
})

describe('clock labels', () => {
  it('names each ready-made clock readably', () => {
    expect(clockLabel({ kind: 'none' })).toBe('No clock')
    expect(clockLabel(REALTIME)).toBe('Real time 10 min + 10 sec a move')
    expect(clockLabel({ kind: 'realtime', initial_secs: 300, increment_secs: 0 })).toBe('Real time 5 min')
    expect(clockLabel(TURN_BASED)).toBe('Turn-based: 1 day a move (bank 3 days)')
    expect(amountText(5400)).toBe('1 hr 30 min')
    expect(amountText(0)).toBe('0 sec')
    i18n.lang = 'es'
    expect(clockLabel({ kind: 'turn_based', per_move_secs: 3 * 86_400, bank_secs: 7 * 86_400 })).toBe(
      'Por turnos: 3 días por jugada (reserva de 7 días)',
    )
  })

  it('says a time ran out in the log, in every language', () => {
    const event = { what: 'timed_out' as const, seat: 1, by: null, seq: 4, at: 0 }
    expect(seatEventText(event, ['Ana', 'Ben'])).toBe("Ben's time ran out: a bot plays for them until they take their seat back")
    for (const lang of ['es', 'it', 'ja'] as const) {
      i18n.lang = lang
      expect(seatEventText(event, ['Ana', 'Ben'])).toContain('Ben')
      expect(seatEventText(event, ['Ana', 'Ben'])).not.toContain('seatEvent')
    }
  })
})

describe('a custom clock', () => {
  const choices: ClockChoices = {
    presets: [{ kind: 'none' }],
    realtime_initial_secs: { min: 60, max: 7200 },
    realtime_increment_secs: { min: 0, max: 120 },
    turn_based_per_move_secs: { min: 3600, max: 14 * 86_400 },
    turn_based_bank_secs: { min: 3600, max: 30 * 86_400 },
  }

  it('bounds each input by whole units inside the server range', () => {
    expect(unitBounds(choices.realtime_initial_secs, 60)).toEqual({ min: 1, max: 120 })
    expect(unitBounds({ min: 90, max: 150 }, 60)).toEqual({ min: 2, max: 2 })
  })

  it('is built in seconds and pulled into the ranges, the bank never below a move', () => {
    const settings = { initialMinutes: 15, incrementSeconds: 5, perMoveHours: 48, bankHours: 12 }
    expect(customClock('realtime', settings, choices)).toEqual({ kind: 'realtime', initial_secs: 900, increment_secs: 5 })
    expect(customClock('turn_based', settings, choices)).toEqual({
      kind: 'turn_based',
      per_move_secs: 48 * 3600,
      bank_secs: 48 * 3600,
    })
    const wild = { initialMinutes: 999, incrementSeconds: -3, perMoveHours: Number.NaN, bankHours: 10_000 }
    expect(customClock('realtime', wild, choices)).toEqual({ kind: 'realtime', initial_secs: 7200, increment_secs: 0 })
    expect(customClock('turn_based', wild, choices)).toEqual({
      kind: 'turn_based',
      per_move_secs: 3600,
      bank_secs: 30 * 86_400,
    })
  })
})

describe('run-outs', () => {
  it('leave the seat to the bot at the third, unless its person left', () => {
    expect(ranOutForGood(seat(0))).toBe(false)
    expect(ranOutForGood(seat(0, { run_outs: 2 }))).toBe(false)
    expect(ranOutForGood(seat(0, { run_outs: 3 }))).toBe(true)
    expect(ranOutForGood(seat(0, { run_outs: 3, left: true }))).toBe(false)
  })
})
