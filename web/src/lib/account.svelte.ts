// The signed-in person, if any (docs/server.md, "Accounts"). The session itself is an
// HTTP-only cookie that the browser sends by itself; this keeps who it is, for the screens,
// and moves seats between this browser and the account: the seats held here (their tokens)
// are handed to the account, and the account's seats taken elsewhere are listed here
// without a token (a signed-in hello without one takes them).
import { MAX_CLAIMED } from '../generated/constants'
import type { Account } from '../generated/server/Account'
import type { AccountSeat } from '../generated/server/AccountSeat'
import type { Credentials } from '../generated/server/Credentials'
import type { Deletion } from '../generated/server/Deletion'
import { api, asProblem } from './api'
import { forgetGame, myGames, rememberGame, type MyGame } from './myGames'


export const session = $state<{
  account: Account | null
  checked: boolean
  /** The name of the account just deleted in this browser, for the lobby to say so once. */
  deleted: string | null
}>({ account: null, checked: false, deleted: null })

let checking: Promise<void> | undefined

/** Asks the server who this browser is signed in as, once per page load, and syncs the seats. */
export function checkSession(): Promise<void> {
  checking ??= check()
  return checking
}

async function check(): Promise<void> {
  try {
    session.account = await api.me()
  } catch (error) {
    // Not signed in, or the server is unreachable: either way, a guest for now.
    if (asProblem(error).kind !== 'not_signed_in') console.warn('account check failed', error)
    session.account = null
  }
  session.checked = true
  if (session.account) await syncSeats()
}

export async function signIn(mode: 'sign_in' | 'sign_up', credentials: Credentials): Promise<void> {
  session.account = await (mode === 'sign_in' ? api.signIn(credentials) : api.signUp(credentials))
  session.checked = true
  await syncSeats()
}

/** The server signed this browser in as `account` by a passkey (lib/passkeys.ts): as after `signIn`. */
export async function signedInAs(account: Account): Promise<void> {
  session.account = account
  session.checked = true
  await syncSeats()
}

/** Signs out, and forgets here the games listed only because the account holds a seat (no token here). */
export async function signOut(everywhere = false): Promise<void> {
  await api.signOut(everywhere)
  signedOut()
}

/**
 * Deletes the signed-in account (its password or one of its passkeys confirms it); this
 * browser is signed out as by `signOut`. A wrong password or another account's passkey
 * throws `bad_credentials` and changes nothing.
 */
export async function deleteAccount(confirmation: Deletion): Promise<void> {
  const name = session.account?.name ?? null
  await api.deleteAccount(confirmation)
  signedOut()
  session.deleted = name
}

function signedOut(): void {
  session.account = null
  for (const game of myGames()) if (game.viaAccount && game.token === null) forgetGame(game.id)
}

/** Hands one seat just taken here to the account (when signed in); failures wait for the next sync. */
export function handSeat(game: string, token: string | null): void {
  if (session.account && token) api.claimSeats([{ game, token }]).catch(() => undefined)
}

/**
 * The seats this browser holds go to the account, and the account's seats become games of
 * this browser (without a token). Failures leave both as they were: the next load retries.
 */
export async function syncSeats(now = Date.now()): Promise<void> {
  const held = myGames().flatMap((g) => (g.token ? [{ game: g.id, token: g.token }] : []))
  try {
    if (held.length > 0) await api.claimSeats(held.slice(0, MAX_CLAIMED))
    const known = new Set(myGames().map((g) => g.id))
    // Oldest first, so that the newest ends at the front of "my games".
    for (const seat of (await api.accountSeats()).reverse()) {
      if (!known.has(seat.game.id)) rememberGame(fromAccountSeat(seat, now))
    }
  } catch (error) {
    console.warn('syncing the account seats failed', error)
  }
}

/** The entry of "my games" for a seat the account holds and this browser has no token of. */
export function fromAccountSeat(seat: AccountSeat, now: number): MyGame {
  return { id: seat.game.id, game: seat.game.game, seat: seat.seat, token: null, invites: [], added: now, viaAccount: true }
}
