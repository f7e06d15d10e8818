import { describe, expect, it } from 'vitest'
import type { GameSummary } from '../generated/server/GameSummary'
import { isKeptForFriend, joinableSeat, lobbyPath, NO_FILTERS, nextPage, refreshedList, seekSpeaks, withNextPage } from './lobby'

const summary = (id: string, created: number): GameSummary => ({
  id,
  game: 'valdora',
  config: {},
  status: 'open',
  seats: [],
  seats_free: 1,
  created,
  seed_chosen: false,
  seq: null,
  to_move: null,
  outcome: null,
  data_digest: null,
  clock: { kind: 'none' },
  times: null,
  hints: false,
  casual: false,
})

describe('the lobby pages', () => {
  it('asks for a status, a game when one is chosen, and a page size', () => {
    expect(lobbyPath('open', NO_FILTERS, 30)).toBe('/api/games?status=open&limit=30')
    expect(lobbyPath('over', { ...NO_FILTERS, game: 'valley' }, 15)).toBe('/api/games?game=valley&status=over&limit=15')
  })

  it('asks for the clock kind, rated or casual and the players only when chosen', () => {
    expect(lobbyPath('open', { game: 'pandoria', clock: 'turn_based', rated: false, players: 2, language: 'es' }, 30)).toBe(
      '/api/games?game=pandoria&status=open&clock=turn_based&rated=false&players=2&language=es&limit=30',
    )
    expect(lobbyPath('running', { ...NO_FILTERS, rated: true }, 30)).toBe('/api/games?status=running&rated=true&limit=30')
  })

  it('keeps the seeks of a language: those naming it (or a form of it), and those naming none', () => {
    expect(seekSpeaks(['es', 'en'], 'es')).toBe(true)
    expect(seekSpeaks(['pt-BR'], 'pt')).toBe(true)
    expect(seekSpeaks([], 'ja')).toBe(true)
    expect(seekSpeaks(['it'], 'ja')).toBe(false)
    expect(seekSpeaks(['it'], null)).toBe(true)
  })

  it('follows the Link header to the next page, and only to this server', () => {
    const next = '/api/games?status=open&limit=30&before=1700000000000.abcdefabcdef'
    expect(nextPage(`<${next}>; rel="next"`)).toBe(next)
    expect(nextPage(`</api/games?x=1>; rel="prev", <${next}>; rel=next`)).toBe(next)
    expect(nextPage(`<${next}>; rel="prev"`)).toBeNull()
    expect(nextPage('<https://elsewhere.example/api/games?x>; rel="next"')).toBeNull()
    expect(nextPage(null)).toBeNull()
  })

  it('adds the next page once, and keeps older pages across a refresh', () => {
    const first = { games: [summary('c', 3), summary('b', 2)], next: '/api/games?before=2.b' }
    const shown = withNextPage(first, { games: [summary('b', 2), summary('a', 1)], next: null })
    expect(shown.games.map((g) => g.id)).toEqual(['c', 'b', 'a'])
    expect(shown.next).toBeNull()
    // A new game arrived: the first page moves on, the older page shown stays below it.
    const refreshed = refreshedList({ games: [summary('d', 4), summary('c', 3)], next: '/api/games?before=3.c' }, shown)
    expect(refreshed.games.map((g) => g.id)).toEqual(['d', 'c', 'b', 'a'])
    expect(refreshed.next).toBeNull()
    // Only the first page shown: a refresh is the new first page.
    expect(refreshedList(first, first)).toBe(first)
  })
})

describe('free seats in the lobby', () => {
  const info = (seat: number, name: string | null, open: boolean) =>
    ({ seat, kind: 'human', name, bot: null, open, presence: null, stand_in: null, left: false, former: false }) as const
  it('joins only a free seat open to anyone; a seat kept for a friend is not joinable', () => {
    expect(joinableSeat([info(0, 'Ana', false), info(1, null, false), info(2, null, true)])).toBe(2)
    expect(joinableSeat([info(0, 'Ana', false), info(1, null, false)])).toBeNull()
    expect(isKeptForFriend(info(1, null, false))).toBe(true)
    expect(isKeptForFriend(info(2, null, true))).toBe(false)
    expect(isKeptForFriend(info(0, 'Ana', false))).toBe(false)
  })
})
