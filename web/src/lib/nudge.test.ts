import { describe, expect, it } from 'vitest'
import { documentTitle, notifyOn, setNotify, setSound, shouldNudge, soundOn } from './nudge'

function memory() {
  const items = new Map<string, string>()
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) }
}

describe('turn nudges', () => {
  it('badge the title while a hidden tab waits for its turn', () => {
    const yourTurn = 'Your turn'
    expect(documentTitle('Valdora', { myTurn: true, nudged: true, yourTurn })).toBe('(●) Your turn — Valdora — tabletop')
    expect(documentTitle('Valdora', { myTurn: true, nudged: false, yourTurn })).toBe('● Valdora — tabletop')
    expect(documentTitle('Valdora', { myTurn: false, nudged: false, yourTurn })).toBe('Valdora — tabletop')
  })

  it('come only when the turn has just become mine while the tab is hidden', () => {
    expect(shouldNudge(false, true, true)).toBe(true)
    expect(shouldNudge(false, true, false)).toBe(false)
    expect(shouldNudge(true, true, true)).toBe(false)
    expect(shouldNudge(true, false, true)).toBe(false)
  })

  it('are silent until switched on, and remembered', () => {
    const store = memory()
    expect(soundOn(store)).toBe(false)
    expect(notifyOn(store)).toBe(false)
    setSound(true, store)
    setNotify(true, store)
    expect(soundOn(store)).toBe(true)
    expect(notifyOn(store)).toBe(true)
    setSound(false, store)
    expect(soundOn(store)).toBe(false)
  })
})
