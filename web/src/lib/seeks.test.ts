import { describe, expect, it } from 'vitest'
import { answering, browserId, lastSettings, playersText, rememberSettings, seekRequest, type SeekSettings } from './seeks'

function memory(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>()
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) }
}

const settings: SeekSettings = {
  game: 'pandoria',
  players: { min: 2, max: 2 },
  clock: { kind: 'realtime', initial_secs: 300, increment_secs: 5 },
  rated: true,
  botsAfterSecs: null,
  languages: [],
}

describe('quick play settings', () => {
  it('keeps the last seek for Play now, and refuses what is not one', () => {
    const store = memory()
    expect(lastSettings(store)).toBeNull()
    rememberSettings(settings, store)
    expect(lastSettings(store)).toEqual(settings)
    store.setItem('tabletop.seek', '{"game": 3}')
    expect(lastSettings(store)).toBeNull()
    store.setItem('tabletop.seek', 'not json')
    expect(lastSettings(store)).toBeNull()
  })

  it('makes a guest id once and keeps it', () => {
    const store = memory()
    const id = browserId(store, (bytes) => bytes.fill(171))
    expect(id).toBe('ab'.repeat(16))
    expect(browserId(store, (bytes) => bytes.fill(1))).toBe(id)
    store.setItem('tabletop.browser', 'short')
    expect(browserId(store, (bytes) => bytes.fill(1))).toBe('01'.repeat(16))
  })

  it('asks rated only for a signed-in person, with what was chosen', () => {
    expect(seekRequest(settings, null)).toEqual({ game: 'pandoria', players: { min: 2, max: 2 }, clock: settings.clock, rated: true })
    const guest = seekRequest({ ...settings, botsAfterSecs: 30, languages: ['es'] }, { name: 'Ada', browser: 'b'.repeat(32) })
    expect(guest).toEqual({
      game: 'pandoria',
      players: { min: 2, max: 2 },
      clock: settings.clock,
      rated: false,
      bots_after_secs: 30,
      languages: ['es'],
      name: 'Ada',
      browser: 'b'.repeat(32),
    })
  })

  it('answers a listed seek with its own game, players, clock and rating', () => {
    const open = { id: 's', game: 'valdora', players: { min: 3, max: 4 }, clock: settings.clock, rated: false, languages: ['it'], name: 'Ben', created: 1 }
    expect(answering(open)).toEqual({ game: 'valdora', players: { min: 3, max: 4 }, clock: settings.clock, rated: false, botsAfterSecs: null, languages: ['it'] })
    expect(playersText(open.players)).toBe('3–4')
    expect(playersText({ min: 2, max: 2 })).toBe('2')
  })
})
