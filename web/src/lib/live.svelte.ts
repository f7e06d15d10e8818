// The page's one live link to the site (`/api/live`, a WebSocket; docs/web.md,
// "Notifications"): the signed-in person's notifications as they change (the bell), the
// count of people online, and the person's own presence on the site (their friends see
// them online while it is open). Opened once per page by the site header, whichever
// screens come and go; made again after a loss (told only what it missed) and when the
// person signs in or out.
import { MAX_CLAIMED } from '../generated/constants'
import type { LiveMessage } from '../generated/server/LiveMessage'
import { api } from './api'
import { retryDelay } from './backoff'
import { myGames } from './myGames'
import { applyUpdate, bell, loadBell, stopBell } from './notifications.svelte'
import { browserId } from './seeks'

export const site = $state<{ online: number | null }>({ online: null })

/** Whose link is open: an account id, or `guest`. */
let following: string | null = null
let socket: WebSocket | null = null
let retry: ReturnType<typeof setTimeout> | undefined
let attempt = 0

/** The link's address for `account` (null: a guest), told what came after the bell's newest. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>, account: string | null, after: number, browser: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const query = account === null ? `browser=${encodeURIComponent(browser)}&after=${after}` : `after=${after}`
  return `${scheme}://${location.host}/api/live?${query}`
}

/** Keeps the link open for `account` (its id; null: a guest), opening it anew if it was someone else's. */
export async function followSite(account: string | null): Promise<void> {
  const who = account ?? 'guest'
  // A guest's browser names its seats on every screen: one just taken is told its turn.
  if (account === null) void holdGuestSeats()
  if (following === who) return
  close()
  following = who
  attempt = 0
  stopBell()
  await loadBell()
  if (following === who) open(account)
}

/** Names this browser's seats (their tokens) to the server, for a guest's notifications. */
async function holdGuestSeats(): Promise<void> {
  const seats = myGames().flatMap((g) => (g.token ? [{ game: g.id, token: g.token }] : []))
  if (seats.length === 0) return
  try {
    await api.holdBrowserSeats({ browser: browserId(), seats: seats.slice(0, MAX_CLAIMED) })
  } catch (error) {
    // Told again on the next screen.
    console.warn('naming this browser\'s seats failed', error)
  }
}

function open(account: string | null): void {
  const newest = bell.items[0]?.id ?? 0
  const link = new WebSocket(liveUrl(location, account, newest, browserId()))
  socket = link
  link.onmessage = (event: MessageEvent<string>) => {
    attempt = 0
    const message = JSON.parse(event.data) as LiveMessage
    if (message.type === 'online') site.online = message.people
    else applyUpdate(message)
  }
  link.onclose = () => {
    if (socket !== link) return
    socket = null
    // Lost (a restart, the network): again, after a wait that grows.
    retry = setTimeout(() => open(account), retryDelay(attempt++))
  }
}

function close(): void {
  clearTimeout(retry)
  const link = socket
  socket = null
  link?.close()
}
