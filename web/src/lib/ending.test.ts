import { describe, expect, it } from 'vitest'
import type { Ending } from '../generated/server/Ending'
import type { SeatEnding } from '../generated/server/SeatEnding'
import { ratedNote, seatNotes } from './ending'
import { i18n } from './i18n.svelte'

const seat = (n: number, rest: Partial<SeatEnding>): SeatEnding => ({ seat: n, bot: false, left: false, timed_out: 0, decisions: 800, by_bot: 0, ...rest })
const names = ['Ada', 'Ben', 'Easy bot']
const nameOf = (n: number) => names[n] ?? '?'

describe('how a game went', () => {
  const timedOut: Ending = {
    seats: [seat(0, {}), seat(1, { timed_out: 3, by_bot: 740 }), seat(2, { bot: true, by_bot: 0 })],
    rated: false,
    unrated: { why: 'stand_in', seat: 1 },
  }

  it('says for whom a bot played, in English and Spanish', () => {
    i18n.lang = 'en'
    expect(seatNotes(timedOut, nameOf).map((n) => n.text)).toEqual(["Ben's clock ran out 3 times", "A bot played 740 of Ben's 800 decisions"])
    expect(ratedNote(timedOut, nameOf)).toBe("Not rated: a bot played more than a third of Ben's decisions.")
    i18n.lang = 'es'
    expect(seatNotes(timedOut, nameOf).map((n) => n.text)).toEqual(['El reloj de Ben se agotó 3 veces', 'Un bot jugó 740 de las 800 decisiones de Ben'])
    expect(ratedNote(timedOut, nameOf)).toBe('Sin puntuar: un bot jugó más de un tercio de las decisiones de Ben.')
    i18n.lang = 'en'
  })

  it('says a leaver left, and a game played by its people counts', () => {
    i18n.lang = 'en'
    const left: Ending = { seats: [seat(0, {}), seat(1, { left: true, by_bot: 20, decisions: 30 })], rated: true }
    expect(seatNotes(left, nameOf).map((n) => n.text)).toEqual(['Ben left the game', "A bot played 20 of Ben's 30 decisions"])
    expect(ratedNote(left, nameOf)).toBe('This game counts for the ratings.')
    expect(seatNotes({ seats: [seat(0, {}), seat(1, { timed_out: 1 })], rated: true }, nameOf)[0]?.text).toBe("Ben's clock ran out once")
  })

  it('says why a game is not rated, in every language', () => {
    for (const lang of ['en', 'es', 'it', 'ja'] as const) {
      i18n.lang = lang
      const texts = (['casual', 'hints', 'few_people', 'truncated'] as const).map((why) => ratedNote({ seats: [], rated: false, unrated: { why } }, nameOf))
      expect(new Set(texts).size).toBe(4)
      for (const text of texts) expect(text).not.toMatch(/ending\.|_/)
    }
    i18n.lang = 'en'
  })
})
