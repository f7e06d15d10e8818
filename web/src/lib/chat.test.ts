import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../generated/server/ChatMessage'
import {
  KEEP_TABLES,
  MAX_CHAT_CHARS,
  NOTHING_READ,
  canMute,
  channelOf,
  chatLength,
  chatRuns,
  chatUpTo,
  cleanChatText,
  draftProblem,
  isChatRefusal,
  isEcho,
  loadChatPrefs,
  markRead,
  mergeChat,
  ownAuthor,
  saveChatPrefs,
  shownChat,
  unreadCount,
  withMuted,
  writerName,
  type Store,
} from './chat'

let nextAt = 1_700_000_000_000

/** A message of seat `seat` (null: an anonymous spectator, `guest-abcdefgh`). */
function said(id: number, seat: number | null, text = `message ${id}`, extra: Partial<ChatMessage> = {}): ChatMessage {
  nextAt += 1000
  return {
    id,
    channel: seat === null ? 'spectators' : 'players',
    seat,
    author: seat === null ? 'guest-abcdefgh' : `seat-${seat}`,
    name: seat === null ? null : ['Ada', 'Ben'][seat] ?? null,
    text,
    seq: 0,
    at: nextAt,
    ...extra,
  }
}

class MemoryStore implements Store {
  items = new Map<string, string>()
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value)
  }
}

describe('merging', () => {
  it('keeps each message once, by id, in the order of ids', () => {
    const a = said(3, 0)
    const b = said(7, 1)
    const c = said(12, null)
    expect(mergeChat([a, c], [b]).map((m) => m.id)).toEqual([3, 7, 12])
    // A message that comes twice (a reconnection sends everything again) stays one.
    expect(mergeChat([a, b], [a, b, c]).map((m) => m.id)).toEqual([3, 7, 12])
    expect(mergeChat([], [])).toEqual([])
  })

  it("takes the later copy of a message, and sorts what arrives out of order", () => {
    const first = said(5, 0, 'old')
    const again = { ...first, text: 'new' }
    expect(mergeChat([first], [again])).toEqual([again])
    expect(mergeChat([said(9, 1)], [said(2, 0), said(4, 1)]).map((m) => m.id)).toEqual([2, 4, 9])
  })
})

describe('the draft', () => {
  it('is cleaned as the server cleans it: trimmed, control characters gone, lines and tabs kept', () => {
    expect(cleanChatText('  hi\u0007\u001b[31m there\n  ')).toBe('hi[31m there')
    expect(cleanChatText('a\nb\tc')).toBe('a\nb\tc')
    expect(cleanChatText('<b>bold</b>')).toBe('<b>bold</b>')
    expect(cleanChatText('x\u0085y\r\nz')).toBe('xy\nz')
  })

  it('counts characters as the server does: an emoji is one', () => {
    expect(chatLength('abc')).toBe(3)
    expect(chatLength('🎲🎲')).toBe(2)
    expect('🎲🎲'.length).toBe(4)
  })

  it('cannot be sent empty or longer than 500 characters', () => {
    expect(draftProblem('')).toBe('empty')
    expect(draftProblem('  \n\t ')).toBe('empty')
    expect(draftProblem('\u0000')).toBe('empty')
    expect(draftProblem('é'.repeat(MAX_CHAT_CHARS))).toBeNull()
    expect(draftProblem('🎲'.repeat(MAX_CHAT_CHARS))).toBeNull()
    expect(draftProblem('x'.repeat(MAX_CHAT_CHARS + 1))).toBe('too_long')
    // Trimmed before it is counted, as on the server.
    expect(draftProblem(`  ${'x'.repeat(MAX_CHAT_CHARS)}  `)).toBeNull()
  })
})

describe('who writes', () => {
  it('writes to the players as a seat and to the spectators as a spectator', () => {
    expect(channelOf(0)).toBe('players')
    expect(channelOf(3)).toBe('players')
    expect(channelOf(null)).toBe('spectators')
  })

  it('knows a seat by its number, a signed-in spectator by the account, an anonymous one once learned', () => {
    expect(ownAuthor(2, 'acc', null)).toBe('seat-2')
    expect(ownAuthor(null, 'acc', null)).toBe('account-acc')
    expect(ownAuthor(null, null, null)).toBeNull()
    expect(ownAuthor(null, null, 'guest-12345678')).toBe('guest-12345678')
  })

  it('tells the echo of a message said here from the others', () => {
    const mine = said(4, 0, 'good luck')
    expect(isEcho(mine, '  good luck\n', 0, 'seat-0')).toBe(true)
    expect(isEcho(mine, 'good luck!', 0, 'seat-0')).toBe(false)
    expect(isEcho(said(5, 1, 'good luck'), 'good luck', 0, 'seat-0')).toBe(false)
    // An anonymous spectator's first message teaches its key: any spectator's with that text.
    const guest = said(6, null, 'go Ada')
    expect(isEcho(guest, 'go Ada', null, null)).toBe(true)
    expect(isEcho(guest, 'go Ada', null, 'guest-other')).toBe(false)
    expect(isEcho(guest, 'go Ada', 0, 'seat-0')).toBe(false)
  })

  it("takes only the chat's refusals for a message's answer", () => {
    for (const kind of ['malformed', 'too_large', 'rate_limited', 'forbidden'] as const) expect(isChatRefusal(kind)).toBe(true)
    for (const kind of ['stale', 'illegal', 'not_your_turn', 'bad_token'] as const) expect(isChatRefusal(kind)).toBe(false)
  })

  it('names a seat by the seats list, a spectator by their account or as a spectator with a tag', () => {
    const names = ['Ada (now)', 'Ben']
    expect(writerName(said(1, 0), names, 'Spectator')).toBe('Ada (now)')
    expect(writerName(said(1, 1), [], 'Spectator')).toBe('Ben')
    expect(writerName(said(1, null), names, 'Spectator')).toBe('Spectator #abcd')
    expect(writerName(said(1, null, 'hi', { author: 'account-7', name: 'Cleo' }), names, 'Spectator')).toBe('Cleo')
    expect(writerName(said(1, null, 'hi', { author: 'odd' }), names, 'Spectator')).toBe('Spectator')
  })
})

describe('muting', () => {
  const ada1 = said(1, 0)
  const ben = said(2, 1)
  const ada2 = said(3, 0)
  const guest = said(4, null)

  it('hides the muted writers and says how many of whose messages are hidden', () => {
    const { shown, hidden } = shownChat([ada1, ben, ada2, guest], new Set(['seat-0']))
    expect(shown.map((m) => m.id)).toEqual([2, 4])
    expect(hidden).toEqual([{ author: 'seat-0', count: 2, last: ada2 }])
  })

  it('shows everything with nobody muted, and nothing of a writer muted twice over', () => {
    expect(shownChat([ada1, ben], new Set()).shown).toEqual([ada1, ben])
    expect(shownChat([ada1, ben], new Set()).hidden).toEqual([])
    const both = shownChat([ada1, ben, guest], new Set(['seat-0', 'guest-abcdefgh']))
    expect(both.shown).toEqual([ben])
    expect(both.hidden.map((h) => h.author)).toEqual(['seat-0', 'guest-abcdefgh'])
  })

  it('never mutes oneself', () => {
    expect(canMute(ada1, 'seat-0')).toBe(false)
    expect(canMute(ben, 'seat-0')).toBe(true)
    expect(canMute(guest, null)).toBe(true)
  })

  it('is remembered per table, and forgotten for the oldest tables', () => {
    const store = new MemoryStore()
    expect(loadChatPrefs('g1', store)).toEqual({ muted: [], read: NOTHING_READ, at: 0 })
    const muted = withMuted(loadChatPrefs('g1', store), 'seat-0', true, 10)
    saveChatPrefs('g1', muted, store)
    expect(loadChatPrefs('g1', store).muted).toEqual(['seat-0'])
    expect(loadChatPrefs('g2', store).muted).toEqual([])
    // Muting again changes nothing; unmuting forgets.
    expect(withMuted(muted, 'seat-0', true, 11).muted).toEqual(['seat-0'])
    saveChatPrefs('g1', withMuted(muted, 'seat-0', false, 12), store)
    expect(loadChatPrefs('g1', store).muted).toEqual([])

    for (let i = 0; i < KEEP_TABLES + 5; i++) saveChatPrefs(`t${i}`, { muted: ['seat-1'], read: NOTHING_READ, at: 100 + i }, store)
    expect(loadChatPrefs('t0', store).muted).toEqual([])
    expect(loadChatPrefs(`t${KEEP_TABLES + 4}`, store).muted).toEqual(['seat-1'])
    expect(Object.keys(JSON.parse(store.getItem('tabletop.chat') ?? '{}') as object)).toHaveLength(KEEP_TABLES)
  })

  it('reads what local storage holds with care: broken or foreign entries are nothing', () => {
    const store = new MemoryStore()
    store.setItem('tabletop.chat', 'not json')
    expect(loadChatPrefs('g1', store).muted).toEqual([])
    store.setItem('tabletop.chat', JSON.stringify({ g1: { muted: [3], read: NOTHING_READ, at: 1 }, g2: { muted: ['x'], read: { players: 1, spectators: 2 }, at: 1 } }))
    expect(loadChatPrefs('g1', store).muted).toEqual([])
    expect(loadChatPrefs('g2', store)).toEqual({ muted: ['x'], read: { players: 1, spectators: 2 }, at: 1 })
  })
})

describe('unread', () => {
  it("counts the others' messages newer than what was read, never one's own or a muted writer's", () => {
    const messages = [said(1, 0), said(2, 1), said(3, null), said(4, 1)]
    expect(unreadCount(messages, NOTHING_READ, new Set(), 'seat-0')).toBe(3)
    expect(unreadCount(messages, NOTHING_READ, new Set(['seat-1']), 'seat-0')).toBe(1)
    const read = markRead(NOTHING_READ, messages.slice(0, 2))
    expect(read).toEqual({ players: 2, spectators: 0 })
    expect(unreadCount(messages, read, new Set(), 'seat-0')).toBe(2)
    expect(unreadCount(messages, markRead(read, messages), new Set(), 'seat-0')).toBe(0)
  })

  it("counts the spectators' messages a seat gets at the end as new, though older than the players' it read", () => {
    const players = [said(10, 0), said(14, 1)]
    const read = markRead(NOTHING_READ, players)
    const revealed = [said(11, null), said(12, null)]
    expect(unreadCount(mergeChat(players, revealed), read, new Set(), 'seat-0')).toBe(2)
  })
})

describe('a replay step', () => {
  it('shows the messages said up to the move shown', () => {
    const messages = [said(1, 0, 'hi', { seq: 0 }), said(2, 1, 'gl', { seq: 0 }), said(3, 0, 'nice', { seq: 4 }), said(4, null, 'wow', { seq: 9 })]
    expect(chatUpTo(messages, 0).map((m) => m.id)).toEqual([1, 2])
    expect(chatUpTo(messages, 3).map((m) => m.id)).toEqual([1, 2])
    expect(chatUpTo(messages, 4).map((m) => m.id)).toEqual([1, 2, 3])
    expect(chatUpTo(messages, 100).map((m) => m.id)).toEqual([1, 2, 3, 4])
    expect(chatUpTo([], 5)).toEqual([])
  })
})

describe('runs', () => {
  it("draws one writer's messages in a row under one name, and starts anew at another writer, channel or a pause", () => {
    const start = 1_000_000
    const m = (id: number, seat: number | null, at: number) => said(id, seat, `m${id}`, { at: start + at })
    const runs = chatRuns([m(1, 0, 0), m(2, 0, 30_000), m(3, 1, 40_000), m(4, 1, 50_000 + 10 * 60_000), m(5, null, 50_000 + 10 * 60_000 + 1)])
    expect(runs.map((r) => r.messages.map((x) => x.id))).toEqual([[1, 2], [3], [4], [5]])
    expect(runs.map((r) => r.key)).toEqual([1, 3, 4, 5])
    expect(runs[3].channel).toBe('spectators')
    expect(chatRuns([])).toEqual([])
  })
})
