// The lobby's lists, a page at a time (docs/server.md, `GET /api/games`): the first page's
// address from the filters, the next page's from the `Link` header the server sends while
// more games may follow, and a refreshed first page joined to the older pages already shown.
import type { ClockKind } from '../generated/server/ClockKind'
import type { GameSummary } from '../generated/server/GameSummary'
import type { Kinds } from '../generated/server/Kinds'
import type { SeatInfo } from '../generated/server/SeatInfo'
import type { Status } from '../generated/server/Status'

/** The games of one list: newest first, and the address of the page after them (null: no more). */
export interface LobbyPage {
  games: GameSummary[]
  next: string | null
}

/** The player counts game `game` offers (its `players` option), or every game's when null; ascending. */
export function playerCounts(kinds: Kinds | null, game: string | null): number[] {
  const counts = new Set<number>()
  for (const info of kinds?.games ?? []) {
    if (game !== null && info.game !== game) continue
    for (const choice of info.options.find((o) => o.key === 'players')?.choices ?? []) {
      if (typeof choice === 'number') counts.add(choice)
    }
  }
  return [...counts].sort((a, b) => a - b)
}

/** The lobby's filters; `null`: any. */
export interface LobbyFilters {
  game: string | null
  clock: ClockKind | null
  /** `true`: tables that may be rated; `false`: casual ones (hints, or a casual seek). */
  rated: boolean | null
  players: number | null
  /** A language a seated person speaks (its primary code: "es"). */
  language: string | null
}

export const NO_FILTERS: LobbyFilters = { game: null, clock: null, rated: null, players: null, language: null }

/** Whether a seek is one for a person speaking `language`: it names it, or names no language. */
export function seekSpeaks(languages: readonly string[], language: string | null): boolean {
  return language === null || languages.length === 0 || languages.some((tag) => tag.split('-')[0] === language)
}

/** The address of a list's first page: games of `status` that pass `filters`. */
export function lobbyPath(status: Status, filters: LobbyFilters, limit: number): string {
  const query = new URLSearchParams()
  if (filters.game !== null) query.set('game', filters.game)
  query.set('status', status)
  if (filters.clock !== null) query.set('clock', filters.clock)
  if (filters.rated !== null) query.set('rated', String(filters.rated))
  if (filters.players !== null) query.set('players', String(filters.players))
  if (filters.language !== null) query.set('language', filters.language)
  query.set('limit', String(limit))
  return `/api/games?${query.toString()}`
}

/**
 * The next page's address in a `Link` header (RFC 8288): the target of `rel="next"`, if the
 * server named one. Only a path on this server is taken.
 */
export function nextPage(link: string | null): string | null {
  if (link === null) return null
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part)
    if (!match) continue
    const [, target, params] = match
    const rels = /(?:^|;)\s*rel\s*=\s*"?([^";]*)"?/i.exec(params)?.[1]?.split(/\s+/) ?? []
    if (rels.includes('next') && target.startsWith('/api/games?')) return target
  }
  return null
}

/** Whether `a` comes after `b` in the lobby's order (newest first, then by id, descending). */
function listedAfter(a: GameSummary, b: GameSummary): boolean {
  return a.created < b.created || (a.created === b.created && a.id < b.id)
}

/**
 * A list refreshed: its first page as the server has it now, then the games of the older
 * pages already shown (those listed after the first page's last game), each game once.
 */
export function refreshedList(first: LobbyPage, shown: LobbyPage): LobbyPage {
  const last = first.games.at(-1)
  const older = shown.games.length > first.games.length && last ? shown.games.filter((g) => listedAfter(g, last)) : []
  if (older.length === 0) return first
  return { games: [...first.games, ...older], next: shown.next }
}

/** A list with its next page added at its end. */
export function withNextPage(shown: LobbyPage, page: LobbyPage): LobbyPage {
  const seen = new Set(shown.games.map((g) => g.id))
  return { games: [...shown.games, ...page.games.filter((g) => !seen.has(g.id))], next: page.next }
}

/** A free seat: a person's seat nobody has taken yet. */
export function isFree(info: SeatInfo): boolean {
  return info.kind === 'human' && info.name === null
}

/** A free seat kept for the friend its creator sent the invitation link to (not joinable from the lobby). */
export function isKeptForFriend(info: SeatInfo): boolean {
  return isFree(info) && !info.open
}

/** The seat the lobby's Join takes: the first free seat open to anyone; null when every free seat is kept for a friend. */
export function joinableSeat(seats: SeatInfo[]): number | null {
  return seats.find((s) => isFree(s) && s.open)?.seat ?? null
}
