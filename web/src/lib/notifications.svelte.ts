// The bell's notifications (docs/web.md, "Notifications"; docs/server.md, "Notifications"):
// a signed-in person's list, read once per page load, then kept up to date by the page's
// live link (lib/live.svelte.ts), which is told only what the list has not.
import type { Notification } from '../generated/server/Notification'
import type { NotificationsUpdate } from '../generated/server/NotificationsUpdate'
import { api } from './api'
import { t } from './i18n.svelte'
import { gameName } from './labels'
import { rememberGame } from './myGames'
import { href } from './routes'
import { browserId } from './seeks'

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

/** Whether the bell follows someone (the list was read). */
let loaded = false

/** Reads the person's list, signed in or this browser's (the live link brings what follows, [`applyUpdate`]). */
export async function loadBell(): Promise<void> {
  try {
    const list = await api.notifications(browserId())
    bell.items = list.items
    bell.unread = list.unread
    loaded = true
  } catch (error) {
    // The bell stays empty; the live link still brings what comes.
    console.warn('notifications unavailable', error)
  }
}

/** An update the live link brought: the new ones on top, and the unread count. */
export function applyUpdate(update: NotificationsUpdate): void {
  bell.items = merged(bell.items, update)
  bell.unread = update.unread
}

/** Someone else follows the bell now: it is empty until their list is read. */
export function stopBell(): void {
  loaded = false
  bell.items = []
  bell.unread = 0
}

/** Reads the list again (another page may have marked some read). */
export async function refreshBell(): Promise<void> {
  if (!loaded) return
  const list = await api.notifications(browserId())
  bell.items = list.items
  bell.unread = list.unread
}

/** Marks notifications `ids` (or all) read, here and for the person's other pages. */
export async function markRead(ids: number[] | 'all'): Promise<void> {
  bell.items = markedRead(bell.items, ids)
  const { unread } = await api.readNotifications(ids === 'all' ? { all: true } : { ids }, browserId())
  bell.unread = unread
}
