import { beforeEach, describe, expect, it } from 'vitest'
import type { SeatInfo } from '../generated/server/SeatInfo'
import { i18n } from './i18n.svelte'
import { canHandOver, durationText, nextHandOverDue, presenceText, seatEventText } from './presence'

const NOW = 1_000_000_000
const seat = (n: number, extra: Partial<SeatInfo> = {}): SeatInfo => ({
  seat: n,
  kind: 'human',
  name: ['Ana', 'Ben', 'Cleo'][n] ?? null,
  bot: null,
  open: false,
  presence: { state: 'online', since: NOW - 5000 },
  stand_in: null,
  left: false,
  former: false,
  ...extra,
})
const offlineFor = (seconds: number) => ({ state: 'offline' as const, since: NOW - seconds * 1000 })

beforeEach(() => {
  i18n.lang = 'en'
})

describe('presence texts', () => {
  it('says online, away or offline for how long, in words', () => {
    expect(presenceText(seat(1), NOW)).toEqual({ state: 'online', text: 'Online' })
    expect(presenceText(seat(1, { presence: { state: 'away', since: NOW - 42_000 } }), NOW)?.text).toBe('Away for 42 seconds')
    expect(presenceText(seat(1, { presence: offlineFor(3 * 60 + 10) }), NOW)?.text).toBe('Offline for 3 minutes')
    expect(presenceText(seat(1, { presence: offlineFor(7200) }), NOW)?.text).toBe('Offline for 2 hours')
  })

  it('has none for bots, free seats and people who left', () => {
    expect(presenceText(seat(1, { kind: 'bot', bot: 'easy', presence: null }), NOW)).toBeNull()
    expect(presenceText(seat(1, { name: null, presence: null }), NOW)).toBeNull()
    expect(presenceText(seat(1, { left: true, stand_in: 'medium' }), NOW)).toBeNull()
  })

  it('counts the time as it passes, in every language', () => {
    expect(durationText(NOW - 1000, NOW)).toBe('1 second')
    expect(durationText(NOW - 61_000, NOW)).toBe('1 minute')
    i18n.lang = 'ja'
    expect(presenceText(seat(1, { presence: offlineFor(120) }), NOW)?.text).toBe('オフライン（2 分）')
    i18n.lang = 'es'
    expect(presenceText(seat(1, { presence: offlineFor(120) }), NOW)?.text).toBe('Sin conexión desde hace 2 minutos')
  })
})

describe('handing a seat to a bot', () => {
  const seats = [seat(0), seat(1, { presence: offlineFor(30) }), seat(2, { presence: offlineFor(200) })]

  it("is offered on another person's seat once offline for the hand-over time", () => {
    expect(canHandOver(seats[1], 0, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seats[2], 0, 'running', 120, NOW)).toBe(true)
    expect(canHandOver(seats[1], 0, 'running', 30, NOW)).toBe(true)
  })

  it('is not offered on my own seat, to spectators, before or after play, away or on a seat a bot plays', () => {
    expect(canHandOver(seats[2], 2, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seats[2], null, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seats[2], 0, 'open', 120, NOW)).toBe(false)
    expect(canHandOver(seats[2], 0, 'over', 120, NOW)).toBe(false)
    expect(canHandOver(seat(2, { presence: { state: 'away', since: 0 } }), 0, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seat(2, { presence: offlineFor(500), stand_in: 'easy' }), 0, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seat(2, { presence: offlineFor(500), left: true }), 0, 'running', 120, NOW)).toBe(false)
    expect(canHandOver(seat(2, { kind: 'bot', bot: 'easy', presence: null }), 0, 'running', 120, NOW)).toBe(false)
  })

  it('knows when the next button appears, to redraw then', () => {
    expect(nextHandOverDue(seats, 0, 'running', 120, NOW)).toBe(NOW - 30_000 + 120_000)
    expect(nextHandOverDue(seats, 0, 'running', 10, NOW)).toBeNull()
    expect(nextHandOverDue(seats, null, 'running', 120, NOW)).toBeNull()
  })
})

describe('seat events in the log', () => {
  const names = ['Ana', 'Ben']
  it('are short sentences in the reader language', () => {
    expect(seatEventText({ what: 'handed_over', seat: 1, by: 0, seq: 3, at: 0 }, names)).toBe(
      'Ben is gone: Ana handed the seat to a bot',
    )
    expect(seatEventText({ what: 'took_back', seat: 1, by: null, seq: 3, at: 0 }, names)).toBe('Ben took the seat back')
    expect(seatEventText({ what: 'left', seat: 1, by: null, seq: 3, at: 0 }, names)).toBe('Ben left the game; a bot finishes the seat')
    i18n.lang = 'it'
    expect(seatEventText({ what: 'took_back', seat: 1, by: null, seq: 3, at: 0 }, names)).toBe('Ben ha ripreso il suo posto')
  })
})
