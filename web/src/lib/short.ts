// Short log lines with the component pictures in them (docs/web.md, "Following the game"):
// a translation names its pictures as placeholders ("loads {{gem}} onto {{item}}"), so each
// language puts them where its word order wants; the line is the translation cut into text
// and pictures. A game says which picture each placeholder is (games/*/short.ts) and draws
// them (its Picture component).
import { t } from './i18n.svelte'

export type LinePart<Picture> = { text: string } | { picture: Picture }

/** A character no translation holds: it fences a placeholder's name in the translated text. */
const FENCE = '\u{E000}'

/**
 * Translation `key` cut into text and pictures: each `{{name}}` of `pictures` becomes that
 * picture, the other placeholders take their `values`.
 */
export function pictured<Picture>(
  key: string,
  pictures: Record<string, Picture>,
  values: Record<string, unknown> = {},
): LinePart<Picture>[] {
  const fenced = Object.fromEntries(Object.keys(pictures).map((name) => [name, `${FENCE}${name}${FENCE}`]))
  return cut(t(key, { ...values, ...fenced }), pictures)
}

/** `text` with fenced picture names, cut into its parts (empty text parts left out). */
export function cut<Picture>(text: string, pictures: Record<string, Picture>): LinePart<Picture>[] {
  return text.split(FENCE).flatMap((piece, i): LinePart<Picture>[] => {
    // Odd pieces are the fenced names.
    if (i % 2 === 1 && piece in pictures) return [{ picture: pictures[piece] }]
    return piece === '' ? [] : [{ text: piece }]
  })
}

/** The line as plain text (for a title or a screen reader): pictures by their names. */
export function lineText<Picture>(parts: LinePart<Picture>[], name: (picture: Picture) => string): string {
  return parts.map((part) => ('text' in part ? part.text : name(part.picture))).join('')
}
