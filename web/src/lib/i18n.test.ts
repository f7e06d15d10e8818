// Every catalogue (the shell's `common` and each game's namespace) in all four languages:
// what English says, every language says, with the plural forms its grammar needs.
import { describe, expect, it } from 'vitest'
import { catalogues, LANGUAGES, type Catalogue } from './i18n.svelte'

const PLURAL = /_(zero|one|two|few|many|other)$/
const ORDINAL = /_ordinal_(zero|one|two|few|many|other)$/

/** Every message as `dotted.key → text`; the top-level `_meta` is no message. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>()
  for (const [key, value] of Object.entries(catalogue)) {
    if (prefix === '' && key === '_meta') continue
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'object' && value !== null) {
      for (const [inner, text] of flatten(value, path)) found.set(inner, text)
    } else {
      found.set(path, value)
    }
  }
  return found
}

/** The key a plural form belongs to (`seats_one` → `seats`), and which kind of plural. */
function base(key: string): { key: string; plural: 'cardinal' | 'ordinal' | null } {
  if (ORDINAL.test(key)) return { key: key.replace(ORDINAL, ''), plural: 'ordinal' }
  if (PLURAL.test(key)) return { key: key.replace(PLURAL, ''), plural: 'cardinal' }
  return { key, plural: null }
}

/** The plural categories a language uses for the counts 0–10. */
function categories(lang: string, type: Intl.PluralRuleType): string[] {
  const rules = new Intl.PluralRules(lang, { type })
  return [...new Set(Array.from({ length: 11 }, (_, n) => rules.select(n)))].sort()
}

const namespaces = [...new Set(LANGUAGES.flatMap((lang) => Object.keys(catalogues[lang])))].sort()

it('finds the shell catalogue and each game catalogue', () => {
  expect(namespaces).toContain('common')
  for (const lang of LANGUAGES) expect(Object.keys(catalogues[lang])).toContain('common')
})

describe.each(namespaces)('namespace %s', (namespace) => {
  const english = flatten(catalogues.en[namespace] ?? {})
  const englishBases = new Map<string, 'cardinal' | 'ordinal' | null>()
  for (const key of english.keys()) {
    const { key: root, plural } = base(key)
    englishBases.set(root, plural)
  }

  it.each(LANGUAGES)('%s has no empty message', (lang) => {
    // A lone space may be meant (a separator); nothing at all never is.
    const empty = [...flatten(catalogues[lang][namespace] ?? {})]
      .filter(([, text]) => typeof text !== 'string' || text === '')
      .map(([key]) => key)
    expect(empty).toEqual([])
  })

  it.each(LANGUAGES.filter((lang) => lang !== 'en'))('%s has every English key', (lang) => {
    const messages = flatten(catalogues[lang][namespace] ?? {})
    const bases = new Set([...messages.keys()].map((key) => base(key).key))
    const missing = [...englishBases.keys()].filter((key) => !bases.has(key))
    expect(missing).toEqual([])
  })

  it.each(LANGUAGES)('%s has every plural form its grammar uses', (lang) => {
    const messages = flatten(catalogues[lang][namespace] ?? {})
    const missing: string[] = []
    for (const [root, plural] of englishBases) {
      if (plural === null) continue
      for (const category of categories(lang, plural)) {
        const key = plural === 'ordinal' ? `${root}_ordinal_${category}` : `${root}_${category}`
        if (!messages.has(key)) missing.push(key)
      }
    }
    expect(missing).toEqual([])
  })
})

describe('the shell catalogue', () => {
  const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort()

  it.each(LANGUAGES.filter((lang) => lang !== 'en'))('%s fills the same placeholders as English', (lang) => {
    const english = flatten(catalogues.en.common)
    const messages = flatten(catalogues[lang].common)
    const different: string[] = []
    for (const [key, text] of messages) {
      const root = base(key).key
      const reference = english.get(key) ?? english.get(`${root}_other`)
      if (reference === undefined) continue
      // `count` may go unsaid where the language's grammar does not need the number.
      const wanted = placeholders(reference).filter((name) => name !== 'count')
      const said = placeholders(text).filter((name) => name !== 'count')
      if (wanted.join() !== said.join()) different.push(key)
    }
    expect(different).toEqual([])
  })

  it.each(LANGUAGES.filter((lang) => lang !== 'en'))('%s has no key English lacks', (lang) => {
    const english = new Set([...flatten(catalogues.en.common).keys()].map((key) => base(key).key))
    const extra = [...flatten(catalogues[lang].common).keys()].filter((key) => !english.has(base(key).key))
    expect(extra).toEqual([])
  })
})

describe('the provisional-data notice', () => {
  // The README's heading is English: quoted in another language it reads wrong there.
  it('quotes the README heading only in English', () => {
    const english = 'Component data: what is provisional'
    for (const language of LANGUAGES) {
      const common = catalogues[language].common
      expect(common, language).toBeDefined()
      const text = common && flatten(common).get('banner.provisional')
      expect(typeof text, language).toBe('string')
      if (language === 'en') expect(text).toContain(english)
      else expect(text, language).not.toMatch(/Component data|what is provisional/)
    }
  })
})
