// Quick play (docs/server.md, "Seeks and quick play"): the settings of a seek, kept in this
// browser so that "Play now" is one click with the last ones, this browser's guest id (a
// guest's seeks are one person's), and how the lobby words a seek.
import type { Clock } from '../generated/server/Clock'
import type { OpenSeek } from '../generated/server/OpenSeek'
import type { PostSeek } from '../generated/server/PostSeek'

/** What a person chooses for quick play. */
export interface SeekSettings {
  game: string
  players: { min: number; max: number }
  clock: Clock
  rated: boolean
  /** Seconds before bots take the seats nobody took; null: never. */
  botsAfterSecs: number | null
  /** ISO 639-1 codes; empty: any language. */
  languages: string[]
}

const SETTINGS_KEY = 'tabletop.seek'
const BROWSER_KEY = 'tabletop.browser'

type Store = Pick<Storage, 'getItem' | 'setItem'>

function storage(): Store | undefined {
  return globalThis.localStorage
}

function isRange(value: unknown): value is { min: number; max: number } {
  const v = value as { min: unknown; max: unknown }
  return typeof v === 'object' && v !== null && Number.isInteger(v.min) && Number.isInteger(v.max)
}

// Local storage is outside the program's control (old versions, hand edits): check it.
function isSettings(value: unknown): value is SeekSettings {
  const v = value as SeekSettings
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.game === 'string' &&
    isRange(v.players) &&
    typeof v.clock === 'object' &&
    v.clock !== null &&
    typeof v.clock.kind === 'string' &&
    typeof v.rated === 'boolean' &&
    (v.botsAfterSecs === null || Number.isInteger(v.botsAfterSecs)) &&
    Array.isArray(v.languages) &&
    v.languages.every((l) => typeof l === 'string')
  )
}

/** The settings of the last seek posted in this browser, if any. */
export function lastSettings(store: Store | undefined = storage()): SeekSettings | null {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(SETTINGS_KEY) ?? 'null')
    return isSettings(parsed) ? parsed : null
  } catch {
    return null
  }
}

export function rememberSettings(settings: SeekSettings, store: Store | undefined = storage()): void {
  store?.setItem(SETTINGS_KEY, JSON.stringify(settings))
}

/** This browser's guest id: random, made once and kept. */
export function browserId(
  store: Store | undefined = storage(),
  random: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => {
    crypto.getRandomValues(b)
  },
): string {
  const known = store?.getItem(BROWSER_KEY)
  if (known && /^[A-Za-z0-9_-]{16,64}$/.test(known)) return known
  const bytes = new Uint8Array(16)
  random(bytes)
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  store?.setItem(BROWSER_KEY, id)
  return id
}

/** The request that posts `settings`: a signed-in person's (`guest` null), or a guest's with their name and browser id. */
export function seekRequest(settings: SeekSettings, guest: { name: string; browser: string } | null): PostSeek {
  const request: PostSeek = {
    game: settings.game,
    players: settings.players,
    clock: settings.clock,
    rated: settings.rated && guest === null,
  }
  if (settings.botsAfterSecs !== null) request.bots_after_secs = settings.botsAfterSecs
  if (settings.languages.length > 0) request.languages = settings.languages
  if (guest) {
    request.name = guest.name
    request.browser = guest.browser
  }
  return request
}

/** The settings that answer `seek` from the lobby's list: the same game, players, clock and rating. */
export function answering(seek: OpenSeek): SeekSettings {
  return {
    game: seek.game,
    players: seek.players,
    clock: seek.clock,
    rated: seek.rated,
    botsAfterSecs: null,
    languages: seek.languages,
  }
}

/** The player counts as shown: "2" or "2–4". */
export function playersText(players: { min: number; max: number }): string {
  return players.min === players.max ? String(players.min) : `${players.min}–${players.max}`
}
