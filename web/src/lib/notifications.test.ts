import { describe, expect, it } from 'vitest'
import type { Notification } from '../generated/server/Notification'
import { i18n } from './i18n.svelte'
import { markedRead, merged, notificationLink, notificationText } from './notifications.svelte'

function notification(id: number, extra: Partial<Notification> = {}): Notification {
  return { id, kind: 'your_turn', at: 1_000 * id, read: false, game_id: `g${id}`, game: 'valley', seat: 1, from: null, ...extra }
}

describe('the bell', () => {
  it('puts the new ones on top, newest first, none twice', () => {
    const items = [notification(3), notification(1)]
    const update = { unread: 3, new: [notification(3), notification(4), notification(5)] }
    expect(merged(items, update).map((n) => n.id)).toEqual([5, 4, 3, 1])
    expect(merged([], { unread: 0, new: [] })).toEqual([])
  })

  it('marks some or all read', () => {
    const items = [notification(2), notification(1)]
    expect(markedRead(items, [1]).map((n) => n.read)).toEqual([false, true])
    expect(markedRead(items, 'all').map((n) => n.read)).toEqual([true, true])
    expect(items.map((n) => n.read), 'the list given is left as it was').toEqual([false, false])
  })

  it('says what happened in the reader language, with the game by its name', () => {
    i18n.lang = 'en'
    expect(notificationText(notification(1))).toBe('Your turn in Valley of the Kings')
    expect(notificationText(notification(1, { kind: 'seek_matched', game: 'pandoria' }))).toBe('Quick play found your Pandoria table')
    expect(notificationText(notification(1, { kind: 'clock_low', game: 'valdora' }))).toContain('Valdora')
    expect(notificationText(notification(1, { kind: 'invitation', from: 'Ada' }))).toBe(
      'Ada invited you to a Valley of the Kings table: one click takes your seat',
    )
    expect(notificationText(notification(1, { kind: 'friend_request', from: 'Ada', game: null, game_id: null }))).toBe('Ada asks to be your friend')
    i18n.lang = 'es'
    expect(notificationText(notification(1))).toBe('Te toca en El Valle de los Reyes')
    i18n.lang = 'ja'
    expect(notificationText(notification(1, { kind: 'clock_low' }))).not.toContain('{{')
    i18n.lang = 'en'
  })

  it('links to the table it is about', () => {
    expect(notificationLink(notification(7))).toBe('#/game/g7')
    expect(notificationLink(notification(7, { game_id: null }))).toBe('#/')
    expect(notificationLink(notification(7, { kind: 'friend_request', game_id: null }))).toBe('#/friends')
  })
})

describe('the live link', () => {
  it('is a WebSocket of the same host: signed in, told what came after the newest; a guest, by its browser', async () => {
    const { liveUrl } = await import('./live.svelte')
    expect(liveUrl({ protocol: 'https:', host: 'games.example' }, 'a1', 42, 'b'.repeat(16))).toBe('wss://games.example/api/live?after=42')
    expect(liveUrl({ protocol: 'http:', host: '127.0.0.1:8080' }, null, 0, 'browser-0123456789')).toBe('ws://127.0.0.1:8080/api/live?browser=browser-0123456789&after=0')
  })
})
