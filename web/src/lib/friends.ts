// Friends (docs/web.md, "Friends"; docs/server.md, "Friends"): what the friends page and the
// invitation picker say of each friend, in the reader's language.
import type { Friend } from '../generated/server/Friend'
import { t } from './i18n.svelte'
import { sinceText } from './labels'

/** "Online", "At a table", "Offline since 3 hours ago" (or just "Offline"). */
export function friendStateText(friend: Friend, now = Date.now()): string {
  switch (friend.state) {
    case 'online':
      return t('friends.online')
    case 'at_table':
      return t('friends.atTable')
    case 'offline':
      return friend.last_seen === null ? t('friends.offline') : t('friends.offlineSince', { since: sinceText(friend.last_seen, now) })
  }
}

/** The friends first who are on the site, then by name. */
export function byPresence(friends: Friend[]): Friend[] {
  const rank = { at_table: 0, online: 1, offline: 2 } as const
  return [...friends].sort((a, b) => rank[a.state] - rank[b.state] || a.name.localeCompare(b.name))
}
