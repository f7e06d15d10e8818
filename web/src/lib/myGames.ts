// "My games": the seats this browser holds. A seat is its secret token, so the tokens live
// here (local storage). Signed in, the account's seats taken elsewhere are listed here too,
// without a token (lib/account.svelte.ts): the server seats a signed-in hello by its session.
import type { GameSummary } from '../generated/server/GameSummary'
import { isLow, remainingMs } from './clock'

/** A seat token the creator keeps for a friend: shown as an invitation link while free. */
export interface Invitation {
  seat: number
  token: string
}

export interface MyGame {
  id: string
  game: string
  /** Null until the server has said which seat an invitation token is. */
  seat: number | null
  /** Null when only invitations are kept (a game of bots and friends). */
  token: string | null
  invites: Invitation[]
  /** Unix milliseconds. */
  added: number
  /** The name to claim a free seat with (a followed invitation link). */
  joinName?: string
  /**
   * The invitation token the seat was taken with. The server spends an invitation when its
   * seat is taken (the seat gets a new token, `token`): kept only so that the same link
   * opened again here leads back to the table.
   */
  invitation?: string
  /**
   * The creator's secret, when this browser created the table: it cancels the table while it
   * waits for players (`POST /api/games/{id}/cancel`). The server shows it only once.
   */
  creatorToken?: string
  /** Listed here because the signed-in account holds the seat (no token here): forgotten at sign-out. */
  viaAccount?: boolean
}

const GAMES_KEY = 'tabletop.games'
const NAME_KEY = 'tabletop.name'
/** Old entries beyond this are forgotten: the lobby asks the server about each one. */
const KEEP = 40

type Store = Pick<Storage, 'getItem' | 'setItem'>

function storage(): Store | undefined {
  return globalThis.localStorage
}

function isInvitation(value: unknown): value is Invitation {
  const v = value as Invitation
  return typeof v === 'object' && v !== null && typeof v.seat === 'number' && typeof v.token === 'string'
}

// Local storage is outside the program's control (old versions, hand edits): check each entry.
function isMyGame(value: unknown): value is MyGame {
  const v = value as MyGame
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.game === 'string' &&
    (v.seat === null || typeof v.seat === 'number') &&
    (v.token === null || typeof v.token === 'string') &&
    Array.isArray(v.invites) &&
    v.invites.every(isInvitation) &&
    typeof v.added === 'number' &&
    (v.invitation === undefined || typeof v.invitation === 'string') &&
    (v.creatorToken === undefined || (typeof v.creatorToken === 'string' && v.creatorToken !== '')) &&
    (v.viaAccount === undefined || typeof v.viaAccount === 'boolean')
  )
}

/** Whether `token` (from a link) is this browser's way to its seat in `game`: its token, or the spent invitation it took the seat with. */
export function holdsSeatOf(game: MyGame | undefined, token: string): boolean {
  return game !== undefined && (game.token === token || game.invitation === token)
}

/** The entry once the hello has claimed the seat with its invitation: the new token replaces the spent one. */
export function withNewToken(game: MyGame, token: string): MyGame {
  const { joinName: _claimed, ...rest } = game
  return { ...rest, token, invitation: game.invitation ?? game.token ?? undefined }
}

/**
 * The entry for a followed seat link (`#/seat/ID/TOKEN`): this browser plays the linked seat.
 * Its number is unknown until the table's first state says it (`seat: null`, as for an
 * invitation); no name is asked, since the seat is taken already and the hello resumes it.
 * The creator's invitations and cancel secret stay; what belonged to another seat held here
 * before (its spent invitation, a name to claim with) does not.
 */
export function fromSeatLink(known: MyGame | undefined, link: { id: string; game: string; token: string }, now: number): MyGame {
  if (known && holdsSeatOf(known, link.token)) return known
  const entry: MyGame = { id: link.id, game: link.game, seat: null, token: link.token, invites: known?.invites ?? [], added: now }
  if (known?.creatorToken !== undefined) entry.creatorToken = known.creatorToken
  return entry
}

/** Whether following a seat link for `token` would replace another seat this browser plays at that table. */
export function replacesOtherSeat(known: MyGame | undefined, token: string): boolean {
  return known !== undefined && known.token !== null && !holdsSeatOf(known, token)
}

/** Every game this browser holds a seat or an invitation of, newest first. */
export function myGames(store: Store | undefined = storage()): MyGame[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(GAMES_KEY) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter(isMyGame) : []
  } catch {
    return []
  }
}

export function myGame(id: string, store: Store | undefined = storage()): MyGame | undefined {
  return myGames(store).find((game) => game.id === id)
}

/** Adds or replaces the entry of `game.id` and moves it to the front. */
export function rememberGame(game: MyGame, store: Store | undefined = storage()): void {
  const others = myGames(store).filter((g) => g.id !== game.id)
  store?.setItem(GAMES_KEY, JSON.stringify([game, ...others].slice(0, KEEP)))
}

export function updateGame(id: string, change: Partial<MyGame>, store: Store | undefined = storage()): void {
  const games = myGames(store)
  const index = games.findIndex((g) => g.id === id)
  if (index < 0) return
  games[index] = { ...games[index], ...change }
  store?.setItem(GAMES_KEY, JSON.stringify(games))
}

export function forgetGame(id: string, store: Store | undefined = storage()): void {
  store?.setItem(GAMES_KEY, JSON.stringify(myGames(store).filter((g) => g.id !== id)))
}

/** Whether this browser created `game` and may cancel it (while it waits for players). */
export function canCancel(game: MyGame | undefined): game is MyGame & { creatorToken: string } {
  return game !== undefined && typeof game.creatorToken === 'string' && game.creatorToken !== ''
}

/** The display name last used in this browser. */
export function rememberedName(store: Store | undefined = storage()): string {
  return store?.getItem(NAME_KEY) ?? ''
}

export function rememberName(name: string, store: Store | undefined = storage()): void {
  store?.setItem(NAME_KEY, name.trim())
}

/** The server's limit (crates/server: MAX_NAME_CHARS). */
export const MAX_NAME_CHARS = 32

/** Where the clock of a running game of mine stands: the seat to move and its time left. */
export interface TurnClock {
  seat: number
  ms: number
  /** The seat's clock runs (not while a bot plays it for its person). */
  running: boolean
  low: boolean
}

/**
 * The time left of the seat to move in `summary` (fetched at `fetchedAt`, `Date.now()`
 * here), at `now`; null unless the game runs with a clock and its times were sent (the
 * single-game summary only) and a person's seat is to move.
 */
export function turnClock(summary: GameSummary | null | undefined, fetchedAt: number, now = Date.now()): TurnClock | null {
  if (!summary || summary.status !== 'running' || summary.clock.kind === 'none' || summary.times === null) return null
  const seat = summary.to_move
  if (seat === null || summary.seats.find((s) => s.seat === seat)?.kind !== 'human') return null
  const ms = remainingMs({ times: summary.times, receivedAt: fetchedAt }, seat, now)
  if (ms === null) return null
  return { seat, ms, running: summary.times.running === seat, low: isLow(summary.clock, ms) }
}
