import { describe, expect, it } from 'vitest'
import type { Friend } from '../generated/server/Friend'
import { byPresence, friendStateText } from './friends'
import { i18n } from './i18n.svelte'

function friend(name: string, state: Friend['state'], lastSeen: number | null = null): Friend {
  return { id: name, name, state, last_seen: lastSeen, game_id: state === 'at_table' ? 'g1' : null }
}

describe('friends', () => {
  it('says where a friend is in the reader language', () => {
    i18n.lang = 'en'
    const now = 10 * 3_600_000
    expect(friendStateText(friend('Ben', 'online'), now)).toBe('Online')
    expect(friendStateText(friend('Ben', 'at_table'), now)).toBe('At a table')
    expect(friendStateText(friend('Ben', 'offline'), now)).toBe('Offline')
    expect(friendStateText(friend('Ben', 'offline', now - 3 * 3_600_000), now)).toBe('Offline since 3 hours ago')
    i18n.lang = 'it'
    expect(friendStateText(friend('Ben', 'at_table'), now)).not.toBe('At a table')
    i18n.lang = 'en'
  })

  it('lists those at a table first, then online, then offline, each by name', () => {
    const sorted = byPresence([friend('Cy', 'offline'), friend('Bo', 'online'), friend('Al', 'offline'), friend('Di', 'at_table')])
    expect(sorted.map((f) => f.name)).toEqual(['Di', 'Bo', 'Al', 'Cy'])
  })
})
