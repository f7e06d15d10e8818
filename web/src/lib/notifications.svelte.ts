// The bell's notifications (docs/web.md, "Notifications"; docs/server.md, "Notifications"):
// a signed-in person's list, read once per page load, then kept up to date by the server's
// live stream (`/api/notifications/live`, an EventSource that connects again by itself and
// is told only what it missed). One stream per page, whichever screens come and go.
import type { Notification } from '../generated/server/Notification'
import type { NotificationsUpdate } from '../generated/server/NotificationsUpdate'
import { api } from './api'
import { t } from './i18n.svelte'
import { gameName } from './labels'
import { rememberGame } from './myGames'
import { href } from './routes'

export const bell = $state<{ unread: number; items: Notification[] }>({ unread: 0, items: [] })

/** `items` (newest first) with an update's new notifications on top, none twice. */
export function merged(items: Notification[], update: NotificationsUpdate): Notification[] {
  const known = new Set(items.map((n) => n.id))
  const fresh = update.new.filter((n) => !known.has(n.id)).reverse()
  return [...fresh, ...items]
}

/** `items` with notifications `ids` (or all) marked read. */
export function markedRead(items: Notification[], ids: number[] | 'all'): Notification[] {
  return items.map((n) => (ids === 'all' || ids.includes(n.id) ? { ...n, read: true } : n))
}

/** What happened, in the reader's language. */
export function notificationText(n: Notification): string {
  return t(`bell.${n.kind}`, { game: n.game ? gameName(n.game) : '', name: n.from ?? '' })
}

/**
 * Where it sends the reader: the table (their seat there follows their account), their
 * friends for a friend request. An invitation's seat is taken first ([`takeInvitation`]).
 */
export function notificationLink(n: Notification): string {
  if (n.kind === 'friend_request') return href.friends()
  return n.game_id ? href.table(n.game_id) : href.lobby()
}

/** Takes the seat an invitation by name kept for the signed-in person `name`: this browser holds it then. */
export async function takeInvitation(n: Notification, name: string): Promise<void> {
  if (n.kind !== 'invitation' || n.game_id === null || n.game === null || n.seat === null) return
  const joined = await api.join(n.game_id, { seat: n.seat, name })
  rememberGame({ id: n.game_id, game: n.game, seat: joined.seat, token: joined.token, invites: [], added: Date.now() })
}

let source: EventSource | null = null
/** The account followed, if any. */
let following: string | null = null

/** Follows the notifications of account `accountId` (once per page while it stays signed in). */
export async function followBell(accountId: string): Promise<void> {
  if (following === accountId) return
  stopBell()
  following = accountId
  try {
    const list = await api.notifications()
    if (following !== accountId) return
    bell.items = list.items
    bell.unread = list.unread
    const after = list.items[0]?.id ?? 0
    source = new EventSource(`/api/notifications/live?after=${after}`)
    source.onmessage = (event: MessageEvent<string>) => {
      const update = JSON.parse(event.data) as NotificationsUpdate
      bell.items = merged(bell.items, update)
      bell.unread = update.unread
    }
  } catch (error) {
    // The bell stays empty; the next page load tries again.
    console.warn('notifications unavailable', error)
  }
}

/** Stops following (signed out): the bell is empty. */
export function stopBell(): void {
  source?.close()
  source = null
  following = null
  bell.items = []
  bell.unread = 0
}

/** Reads the list again (another page may have marked some read). */
export async function refreshBell(): Promise<void> {
  if (!following) return
  const list = await api.notifications()
  bell.items = list.items
  bell.unread = list.unread
}

/** Marks notifications `ids` (or all) read, here and for the person's other pages. */
export async function markRead(ids: number[] | 'all'): Promise<void> {
  bell.items = markedRead(bell.items, ids)
  const { unread } = await api.readNotifications(ids === 'all' ? { all: true } : { ids })
  bell.unread = unread
}
