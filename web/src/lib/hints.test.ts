import { beforeEach, describe, expect, it } from 'vitest'
import type { HintedAction } from '../generated/server/HintedAction'
import type { LogEntry } from '../generated/server/LogEntry'
import type { SeatEvent } from '../generated/server/SeatEvent'
import { currentHint, hintLine, hintMarks, percent } from './hints'
import { i18n } from './i18n.svelte'
import { seatEventText } from './presence'

const hinted = (description: string, value: number, target: string): HintedAction => ({
  action: { type: 'go', to: target },
  description,
  value,
  visits: 10,
})

const event = (seq: number, hint: HintedAction[]): SeatEvent => ({ what: 'hinted', seat: 1, by: null, seq, at: 0, hint })

const entry = (seq: number, seat_event?: SeatEvent): LogEntry => ({ seq, seat: 0, events: [], seat_event })

describe('hints', () => {
  beforeEach(() => {
    i18n.lang = 'en'
  })

  it('are current only at the position they were given at', () => {
    const first = event(2, [hinted('Go to 3', 0.5, 'space:3')])
    const log = [entry(1), entry(2), entry(2, first)]
    expect(currentHint(log, 2)).toBe(first)
    expect(currentHint([...log, entry(3)], 3)).toBeNull()
    const again = event(2, [hinted('Go to 4', 0.4, 'space:4')])
    expect(currentHint([...log, entry(2, again)], 2)).toBe(again)
    const other = { ...first, what: 'took_back' as const }
    expect(currentHint([entry(2, other)], 2)).toBeNull()
  })

  it('mark each board object once, at its best rank and value', () => {
    const actions = [hinted('a', 0.623, 'space:3'), hinted('b', 0.4, 'space:5'), hinted('c', 0.3, 'space:3')]
    const marks = hintMarks(actions, (h) => (h.action as { to: string }).to)
    expect(marks).toEqual([
      { key: 'space:3', rank: 1, label: '62%' },
      { key: 'space:5', rank: 2, label: '40%' },
    ])
    // A target the board cannot name (or a game's code that throws) is left to the list.
    expect(hintMarks(actions, () => null)).toEqual([])
    expect(
      hintMarks(actions, () => {
        throw new Error('broken')
      }),
    ).toEqual([])
  })

  it('read as percentages in the reader language, and as a line in the log', () => {
    expect(percent(0.623)).toBe('62%')
    expect(percent(1.2)).toBe('100%')
    const actions = [hinted('Go to 3', 0.62, 'space:3'), hinted('Pass', 0.4, 'bar:pass')]
    expect(hintLine(actions, (a) => a.description)).toBe('Go to 3 (62%), Pass (40%)')
    expect(seatEventText(event(2, actions), ['Ana', 'Ben'])).toBe('Ben asked for a hint: Go to 3 (62%), Pass (40%)')
    i18n.lang = 'es'
    expect(seatEventText(event(2, actions), ['Ana', 'Ben'])).toContain('Ben pidió una pista')
  })
})
