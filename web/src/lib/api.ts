// The HTTP half of the API (docs/server.md), typed with the types generated from the Rust
// code. Every failure becomes an ApiError carrying the server's stable `kind`, so screens
// can show it in the current language.
import type { PostSeek } from '../generated/server/PostSeek'
import type { NotificationList } from '../generated/server/NotificationList'
import type { BrowserSeats } from '../generated/server/BrowserSeats'
import type { HeldSeats } from '../generated/server/HeldSeats'
import type { Blocked } from '../generated/server/Blocked'
import type { Ending } from '../generated/server/Ending'
import type { Moderate } from '../generated/server/Moderate'
import type { ModerationAction } from '../generated/server/ModerationAction'
import type { MyReport } from '../generated/server/MyReport'
import type { MyStanding } from '../generated/server/MyStanding'
import type { NewReport } from '../generated/server/NewReport'
import type { QueuedReport } from '../generated/server/QueuedReport'
import type { ReportFiled } from '../generated/server/ReportFiled'
import type { FriendAsked } from '../generated/server/FriendAsked'
import type { FriendList } from '../generated/server/FriendList'
import type { InviteByName } from '../generated/server/InviteByName'
import type { ReadNotifications } from '../generated/server/ReadNotifications'
import type { Unread } from '../generated/server/Unread'
import type { SeekList } from '../generated/server/SeekList'
import type { SeekPosted } from '../generated/server/SeekPosted'
import type { SeekState } from '../generated/server/SeekState'
import type { Account } from '../generated/server/Account'
import type { AccountPasskey } from '../generated/server/AccountPasskey'
import type { ChatMessage } from '../generated/server/ChatMessage'
import type { AccountSeat } from '../generated/server/AccountSeat'
import type { AccountSettings } from '../generated/server/AccountSettings'
import type { AccountSettingsView } from '../generated/server/AccountSettingsView'
import type { CreateGame } from '../generated/server/CreateGame'
import type { Credentials } from '../generated/server/Credentials'
import type { Deletion } from '../generated/server/Deletion'
import type { PasskeyChallenge } from '../generated/server/PasskeyChallenge'
import type { PasskeyFinish } from '../generated/server/PasskeyFinish'
import type { PasskeyStart } from '../generated/server/PasskeyStart'
import type { Created } from '../generated/server/Created'
import type { ErrorBody } from '../generated/server/ErrorBody'
import type { ErrorKind } from '../generated/server/ErrorKind'
import type { GameSummary } from '../generated/server/GameSummary'
import type { JoinGame } from '../generated/server/JoinGame'
import type { Joined } from '../generated/server/Joined'
import type { Kinds } from '../generated/server/Kinds'
import type { Leaderboard } from '../generated/server/Leaderboard'
import type { Profile } from '../generated/server/Profile'
import type { LogEntry } from '../generated/server/LogEntry'
import type { Status } from '../generated/server/Status'
import type { Replay } from '../generated/server/Replay'
import type { ReplayRequest } from '../generated/server/ReplayRequest'
import type { SeatToken } from '../generated/server/SeatToken'
import { lobbyPath, nextPage, NO_FILTERS, type LobbyFilters, type LobbyPage } from './lobby'
import { isReplay } from './replay'

/** The server's error kinds, plus `network` when the server could not be reached at all. */
export type ProblemKind = ErrorKind | 'network'

export class ApiError extends Error {
  readonly kind: ProblemKind
  readonly status: number

  constructor(kind: ProblemKind, message: string, status: number) {
    super(message)
    this.kind = kind
    this.status = status
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).kind === 'string' &&
    typeof (value as Record<string, unknown>).message === 'string'
  )
}

async function send(path: string, init?: RequestInit): Promise<Response> {
  let response: Response
  try {
    response = await fetch(path, init)
  } catch (cause) {
    throw new ApiError('network', cause instanceof Error ? cause.message : String(cause), 0)
  }
  if (response.ok) return response
  let body: unknown
  try {
    body = await response.json()
  } catch {
    body = undefined
  }
  if (isErrorBody(body)) throw new ApiError(body.kind, body.message, response.status)
  // A proxy or a dead server answers without the API's error body.
  throw new ApiError(response.status >= 500 ? 'network' : 'internal', response.statusText, response.status)
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await send(path, init)).json()) as T
}

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
}

async function lobbyPage(path: string): Promise<LobbyPage> {
  const response = await send(path)
  return { games: (await response.json()) as GameSummary[], next: nextPage(response.headers.get('link')) }
}

const gamePath = (id: string) => `/api/games/${encodeURIComponent(id)}`

let kindsRequest: Promise<Kinds> | undefined

export const api = {
  /** The games, their options and the bot strengths; asked once per page load. */
  kinds(): Promise<Kinds> {
    kindsRequest ??= json<Kinds>('/api/games/kinds').catch((error: unknown) => {
      kindsRequest = undefined
      throw error
    })
    return kindsRequest
  },
  /** The first page of a lobby list: games of `status` (and of `game` unless null), newest first. */
  list(status: Status, filters: LobbyFilters = NO_FILTERS, limit = 30): Promise<LobbyPage> {
    return lobbyPage(lobbyPath(status, filters, limit))
  },
  /** The page at `path`: a list's `next`. */
  listMore(path: string): Promise<LobbyPage> {
    return lobbyPage(path)
  },
  summary(id: string): Promise<GameSummary> {
    return json(gamePath(id))
  },
  create(request: CreateGame): Promise<Created> {
    return json('/api/games', post(request))
  },
  join(id: string, request: JoinGame): Promise<Joined> {
    return json(`${gamePath(id)}/join`, post(request))
  },
  /** Posts a seek (quick play): its id and its token, which only this browser holds. */
  postSeek(request: PostSeek): Promise<SeekPosted> {
    return json('/api/seeks', post(request))
  },
  /** The open seeks, oldest first, and how many each game has. */
  /**
   * The person's notifications of the last 30 days, newest first: the signed-in person's,
   * else those of the guest's browser `browser`.
   */
  notifications(browser: string): Promise<NotificationList> {
    return json('/api/notifications', { headers: { authorization: `Bearer ${browser}` } })
  },

  /** Marks some of the person's notifications read (or all): the unread left. */
  readNotifications(which: ReadNotifications, browser: string): Promise<Unread> {
    const init = post(which)
    return json('/api/notifications/read', { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${browser}` } })
  },

  /** A guest's browser names the seats it holds (their tokens), to be told its turn at them. */
  holdBrowserSeats(seats: BrowserSeats): Promise<HeldSeats> {
    return json('/api/notifications/seats', post(seats))
  },

  /** The signed-in person's friends with where they are, and their requests. */
  friends(): Promise<FriendList> {
    return json('/api/friends')
  },

  /** Asks the person named `name` to be friends (`friends`: they had asked first). */
  askFriend(name: string): Promise<FriendAsked> {
    return json('/api/friends', post({ name }))
  },

  acceptFriend(id: string): Promise<FriendAsked> {
    return json(`/api/friends/${encodeURIComponent(id)}/accept`, { method: 'POST' })
  },

  /** Declines their request, withdraws one's own, or ends the friendship. */
  async endFriend(id: string): Promise<void> {
    await send(`/api/friends/${encodeURIComponent(id)}`, { method: 'DELETE' })
  },

  /** The open and running tables one's friends sit at, newest first. */
  friendsTables(): Promise<GameSummary[]> {
    return json('/api/friends/tables')
  },

  /** Keeps free seat `invite.seat` for the friend named `invite.name`; `token`: the seat's invitation. */
  async inviteByName(id: string, token: string, invite: InviteByName): Promise<void> {
    await send(`/api/games/${encodeURIComponent(id)}/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(invite),
    })
  },

  seeks(): Promise<SeekList> {
    return json('/api/seeks')
  },
  /** Waits (up to 20 s) for the seek to be matched; the wait keeps it matchable. */
  waitSeek(id: string, token: string, signal?: AbortSignal): Promise<SeekState> {
    return json(`/api/seeks/${encodeURIComponent(id)}/wait`, { headers: { authorization: `Bearer ${token}` }, signal })
  },
  async withdrawSeek(id: string, token: string): Promise<void> {
    await send(`/api/seeks/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })
  },
  /** Cancels a table that waits for players, with the creator's secret (`Created.creator_token`). */
  async cancel(id: string, creatorToken: string): Promise<void> {
    await send(`${gamePath(id)}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${creatorToken}` } })
  },
  /**
   * Every move's events as the seat of `token` is told them (a spectator without one): until
   * the game is over, the server leaves out what another seat keeps hidden.
   */
  async log(id: string, token: string | null = null): Promise<LogEntry[]> {
    return json<LogEntry[]>(`${gamePath(id)}/log`, token ? { headers: { authorization: `Bearer ${token}` } } : undefined)
  },
  /**
   * What was said at the table that the seat of `token` may read (a spectator without one);
   * everything once the game is over.
   */
  chat(id: string, token: string | null = null): Promise<ChatMessage[]> {
    return json<ChatMessage[]>(`${gamePath(id)}/chat`, token ? { headers: { authorization: `Bearer ${token}` } } : undefined)
  },
  /**
   * The record `{game, config, seed, actions}` as the server wrote it (only once the game is
   * over). Kept as text: its seed is a 64-bit integer, which a JavaScript number would round,
   * and a rounded seed deals other cards, so the replay would fail.
   */
  async recordText(id: string): Promise<string> {
    return (await send(`${gamePath(id)}/record`)).text()
  },
  /** A record replayed for one seat (null: the spectator): first view, one patch per move, log. */
  /** `recordText`: the record's JSON text, exactly as written (see `recordText`). */
  async replay(recordText: string, seat: number | null): Promise<Replay> {
    // The body is ReplayRequest, written as text so that the record's seed keeps every digit.
    const request: Omit<ReplayRequest, 'record'> = { seat }
    const body = `{"record":${recordText},"seat":${JSON.stringify(request.seat)}}`
    const answer = await json<unknown>('/api/replay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    if (!isReplay(answer)) throw new ApiError('internal', 'the replay answer is not {game, view, patches, to_move, log}', 200)
    return answer
  },
  /**
   * The component tables a game's board draws from, on the data it plays on (for a game
   * whose `data_digest` is set: the shipped data's are built in). The game's module reads
   * them as its generated `Tables` type (GameModule.useData).
   */
  components(id: string): Promise<unknown> {
    return json<unknown>(`${gamePath(id)}/components`)
  },
  /** The signed-in account (`not_signed_in` without a session: the cookie is HTTP-only). */
  me(): Promise<Account> {
    return json('/api/account')
  },
  signIn(credentials: Credentials): Promise<Account> {
    return json('/api/account/sign-in', post(credentials))
  },
  signUp(credentials: Credentials): Promise<Account> {
    return json('/api/account/sign-up', post(credentials))
  },
  /** Ends this browser's session, or (`everywhere`) every session of the account. */
  async signOut(everywhere = false): Promise<void> {
    await send(everywhere ? '/api/account/sign-out-everywhere' : '/api/account/sign-out', { method: 'POST' })
  },
  /** Hands the account the seats of these tokens; answers those that are the account's now. */
  claimSeats(seats: SeatToken[]): Promise<AccountSeat[]> {
    return json('/api/account/seats', post({ seats }))
  },
  /**
   * Deletes the signed-in account, confirmed by its password (`bad_credentials`: not its
   * password, nothing deleted). The session goes with it.
   */
  async deleteAccount(deletion: Deletion): Promise<void> {
    await send('/api/account', { ...post(deletion), method: 'DELETE' })
  },
  /**
   * Starts making a passkey (lib/passkeys.ts): signed out, `start.name` is the new
   * account's (`name_taken`, `malformed`); signed in, it is added to the account.
   */
  passkeyRegisterStart(start: PasskeyStart): Promise<PasskeyChallenge> {
    return json('/api/account/passkey/register/start', post(start))
  },
  /** The new passkey: signed up (and in) with it, or added to the signed-in account. */
  passkeyRegisterFinish(finish: PasskeyFinish): Promise<Account> {
    return json('/api/account/passkey/register/finish', post(finish))
  },
  /** Starts signing in with a passkey, naming no account (also what confirms a deletion). */
  passkeySignInStart(): Promise<PasskeyChallenge> {
    return json('/api/account/passkey/sign-in/start', { method: 'POST' })
  },
  /** Signs in as the account of the passkey that answered (`bad_credentials`, `stale`). */
  passkeySignIn(finish: PasskeyFinish): Promise<Account> {
    return json('/api/account/passkey/sign-in/finish', post(finish))
  },
  /** The signed-in account's passkeys, oldest first. */
  passkeys(): Promise<AccountPasskey[]> {
    return json('/api/account/passkeys')
  },
  /** Removes one of them (`conflict`: the account's only way to sign in). */
  async removePasskey(id: string): Promise<void> {
    await send(`/api/account/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' })
  },
  /** How finished game `id` went, seat by seat, and whether it was rated. */
  ending(id: string): Promise<Ending> {
    return json(`/api/games/${encodeURIComponent(id)}/ending`)
  },
  /** Reports an account (or the writer of the chat messages pointed at). */
  report(report: NewReport): Promise<ReportFiled> {
    return json('/api/reports', post(report))
  },
  /** The signed-in person's reports and where each stands. */
  myReports(): Promise<MyReport[]> {
    return json('/api/reports/mine')
  },
  /** What moderators did concerning the signed-in person, and whether they moderate. */
  standing(): Promise<MyStanding> {
    return json('/api/account/standing')
  },
  /** The moderators' queue of open reports. */
  moderationQueue(): Promise<QueuedReport[]> {
    return json('/api/moderation/reports')
  },
  /** A moderator's action. */
  moderate(action: Moderate): Promise<ModerationAction> {
    return json('/api/moderation/actions', post(action))
  },
  /** The moderators' audit log, newest first. */
  moderationLog(): Promise<ModerationAction[]> {
    return json('/api/moderation/log')
  },
  /** The accounts the signed-in person blocked, by name. */
  blocks(): Promise<Blocked[]> {
    return json('/api/blocks')
  },
  /** Blocks the account named `name`: the two are kept apart (docs/server.md, "Blocks"). */
  async block(name: string): Promise<void> {
    await send('/api/blocks', post({ name }))
  },
  /** Lifts the block of the account named `name`. */
  async unblock(name: string): Promise<void> {
    await send(`/api/blocks/${encodeURIComponent(name)}`, { method: 'DELETE' })
  },
  /** A game's best rated people, with the bot levels' fixed ratings. */
  leaderboard(game: string): Promise<Leaderboard> {
    return json(`/api/ratings/${encodeURIComponent(game)}`)
  },
  /** A person's public page. */
  profile(id: string): Promise<Profile> {
    return json(`/api/accounts/${encodeURIComponent(id)}`)
  },
  /** The account's seats, the newest games first. */
  accountSeats(): Promise<AccountSeat[]> {
    return json('/api/account/seats')
  },
  /** The signed-in person's languages, address and turn e-mail, and whether this server sends mail. */
  settings(): Promise<AccountSettingsView> {
    return json('/api/account/settings')
  },
  /**
   * Stores the signed-in person's settings; answers them as stored. `malformed`: a language
   * tag or the address is not one, or turn e-mail without an address (nothing stored).
   */
  saveSettings(settings: AccountSettings): Promise<AccountSettingsView> {
    return json('/api/account/settings', { ...post(settings), method: 'PUT' })
  },
  /** The position drawn as text (the terminal client's screen), as the token's seat sees it. */
  async text(id: string, token: string | null): Promise<string> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
    return (await send(`${gamePath(id)}/text`, { headers })).text()
  },
}

/** Any failure as an ApiError, for showing: a thrown non-API error is the client's own bug. */
export function asProblem(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  return new ApiError('internal', error instanceof Error ? error.message : String(error), 0)
}
