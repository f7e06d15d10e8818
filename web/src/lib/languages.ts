// The languages a person speaks (docs/web.md, "Settings and turn e-mail"): BCP 47 tags,
// the best spoken first, at most MAX_LANGUAGES, each once. Their names come from the
// browser (Intl.DisplayNames) in the reader's language, so no catalogue lists them.

/** The server keeps at most this many (crates/server: accounts/settings.rs `MAX_LANGUAGES`). */
export const MAX_LANGUAGES = 8

/**
 * The languages offered in the picker: the most spoken ones and those of Europe. A tag
 * stored otherwise (through the API: "pt-BR") is shown and kept all the same.
 */
export const OFFERED_LANGUAGES: readonly string[] = [
  'af', 'ar', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi', 'fil', 'fr',
  'ga', 'gl', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'kk', 'ko', 'lt', 'lv', 'mk', 'mr',
  'ms', 'mt', 'nb', 'nl', 'pa', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'sw', 'ta', 'te', 'th', 'tl',
  'tr', 'uk', 'ur', 'uz', 'vi', 'yue', 'zh', 'zu',
]

const TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,2}$/

/**
 * A tag as the server stores it: the language in lower case, the rest in upper case
 * ("PT-br" → "pt-BR"); null for what the server would refuse.
 */
export function cleanTag(tag: string): string | null {
  const trimmed = tag.trim()
  if (!TAG.test(trimmed)) return null
  const [primary, ...rest] = trimmed.split('-')
  return [primary.toLowerCase(), ...rest.map((part) => part.toUpperCase())].join('-')
}

const namers = new Map<string, Intl.DisplayNames | null>()

function namer(lang: string): Intl.DisplayNames | null {
  if (!namers.has(lang)) {
    let found: Intl.DisplayNames | null = null
    try {
      found = new Intl.DisplayNames([lang], { type: 'language', fallback: 'code' })
    } catch {
      found = null
    }
    namers.set(lang, found)
  }
  return namers.get(lang) ?? null
}

/** The name of language `tag` in language `reader` ("es" in "en": "Spanish"); the tag itself when unknown. */
export function languageName(tag: string, reader: string): string {
  let name: string | undefined
  try {
    name = namer(reader)?.of(tag)
  } catch {
    name = undefined
  }
  // Without a name, the browser answers the code: shown as it is.
  if (!name || name.toLowerCase() === tag.toLowerCase()) return tag
  // Some languages name languages in lower case ("español"): a name stands alone here.
  return name.charAt(0).toLocaleUpperCase(reader) + name.slice(1)
}

/** The language's name in itself ("es": "Español"), for recognising one's own. */
export function nativeName(tag: string): string {
  return languageName(tag, tag)
}

/** The tags as one phrase in `reader`'s language: "Spanish, English and Italian". */
export function languageList(tags: readonly string[], reader: string): string {
  const names = tags.map((tag) => languageName(tag, reader))
  try {
    return new Intl.ListFormat([reader], { type: 'conjunction', style: 'long' }).format(names)
  } catch {
    return names.join(', ')
  }
}

/** The offered languages not chosen yet, by name in `reader`'s alphabetical order. */
export function languageChoices(chosen: readonly string[], reader: string): { tag: string; name: string }[] {
  const taken = new Set(chosen.map((tag) => cleanTag(tag) ?? tag))
  const collator = new Intl.Collator([reader])
  return OFFERED_LANGUAGES.filter((tag) => !taken.has(tag))
    .map((tag) => ({ tag, name: languageName(tag, reader) }))
    .sort((a, b) => collator.compare(a.name, b.name))
}

/** `list` with `tag` added last (the same list when it holds it already, is full, or the tag is no tag). */
export function addLanguage(list: readonly string[], tag: string): string[] {
  const clean = cleanTag(tag)
  if (clean === null || list.includes(clean) || list.length >= MAX_LANGUAGES) return [...list]
  return [...list, clean]
}

/** `list` without `tag`. */
export function removeLanguage(list: readonly string[], tag: string): string[] {
  return list.filter((t) => t !== tag)
}

/** `list` with the language at `index` moved `by` places (-1: up, spoken better), kept inside the list. */
export function moveLanguage(list: readonly string[], index: number, by: number): string[] {
  const moved = [...list]
  const to = Math.min(Math.max(index + by, 0), list.length - 1)
  if (index < 0 || index >= list.length || to === index) return moved
  const [tag] = moved.splice(index, 1)
  moved.splice(to, 0, tag)
  return moved
}
