// The one translation layer: i18next (plural rules from Intl.PluralRules) over message
// catalogues in four languages. The shell's catalogue is the `common` namespace
// (src/locales/LANG.json); each game's is its own namespace (src/games/GAME/locales/LANG.json),
// found here by file name, so adding a game adds no line to this file.
import i18next, { type TOptions } from 'i18next'

export const LANGUAGES = ['en', 'es', 'it', 'ja'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language's name in that language, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  it: 'Italiano',
  ja: '日本語',
}

export type Catalogue = { [key: string]: string | Catalogue }

const STORAGE_KEY = 'tabletop.language'

/** Every catalogue: language → namespace → messages. */
export const catalogues: Record<Language, Record<string, Catalogue>> = collect()

function collect(): Record<Language, Record<string, Catalogue>> {
  const found: Record<Language, Record<string, Catalogue>> = { en: {}, es: {}, it: {}, ja: {} }
  const common = import.meta.glob<Catalogue>('../locales/*.json', { eager: true, import: 'default' })
  const games = import.meta.glob<Catalogue>('../games/*/locales/*.json', {
    eager: true,
    import: 'default',
  })
  for (const [path, messages] of Object.entries({ ...common, ...games })) {
    const match = /(?:games\/([^/]+)\/)?locales\/([a-z]+)\.json$/.exec(path)
    if (!match) continue
    const [, game, lang] = match
    if (!isLanguage(lang)) continue
    found[lang][game ?? 'common'] = messages
  }
  return found
}

export function isLanguage(value: string | null | undefined): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '')
}

function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY)
  if (isLanguage(stored)) return stored
  const preferred = globalThis.navigator?.languages ?? []
  for (const tag of preferred) {
    const base = tag.slice(0, 2).toLowerCase()
    if (isLanguage(base)) return base
  }
  return 'en'
}

const initial = initialLanguage()
let current = $state<Language>(initial)

void i18next.init({
  resources: catalogues,
  lng: initial,
  fallbackLng: false,
  ns: Object.keys(catalogues.en),
  defaultNS: 'common',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
})

/** The language shown; setting it re-renders every text and is remembered. */
export const i18n = {
  get lang(): Language {
    return current
  },
  set lang(lang: Language) {
    current = lang
    globalThis.localStorage?.setItem(STORAGE_KEY, lang)
    if (globalThis.document) globalThis.document.documentElement.lang = lang
  },
}

/**
 * A message of the current language: `t('lobby.title')`, `t('valdora:gem.ruby')`,
 * `t('common:coins', { count: 3 })`. Reading `current` makes every caller in a template
 * re-render when the language changes.
 */
export function t(key: string, options?: TOptions): string {
  return i18next.t(key, { ...options, lng: current }) as string
}

/** Whether the current language has a message under `key`. */
export function hasMessage(key: string): boolean {
  return i18next.exists(key, { lng: current })
}
