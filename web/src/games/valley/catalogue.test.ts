// The four catalogues hold the same messages (plural forms per language: Japanese has only
// `_other`), the translated names are listed in `_meta.translated`, and the end screen's
// scoring categories (crates/valley/src/scoring.rs) all have a name.
import { describe, expect, test } from 'vitest'
import en from './locales/en.json'
import es from './locales/es.json'
import it from './locales/it.json'
import ja from './locales/ja.json'
import shellEn from '../../locales/en.json'
import shellEs from '../../locales/es.json'
import shellIt from '../../locales/it.json'
import shellJa from '../../locales/ja.json'
import { SETS } from './tables'

type Tree = { [key: string]: string | Tree | string[] }

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => {
    if (k === '_meta') return []
    const path = prefix ? `${prefix}.${k}` : k
    return typeof v === 'string' || Array.isArray(v) ? [path] : keys(v, path)
  })
}

/** A message key without its plural suffix (the message, whatever its plural forms). */
const message = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')

const catalogues: Record<string, Tree> = { en, es, it, ja }

describe.each(Object.keys(catalogues))('%s', (lang) => {
  const tree = catalogues[lang]
  test('has every message of the English catalogue and no other', () => {
    const want = new Set(keys(en).map(message))
    const have = new Set(keys(tree).map(message))
    expect([...want].filter((k) => !have.has(k))).toEqual([])
    expect([...have].filter((k) => !want.has(k))).toEqual([])
  })

  test('plural forms fit the language', () => {
    const all = keys(tree)
    const plural = all.filter((k) => /_(one|other)$/.test(k))
    if (lang === 'ja') expect(all.filter((k) => k.endsWith('_one'))).toEqual([])
    else for (const k of plural) expect(all, k).toContain(`${message(k)}_${k.endsWith('_one') ? 'other' : 'one'}`)
  })

  test('translated names are listed and exist', () => {
    if (lang === 'en') return
    const meta = (tree._meta as Tree | undefined)?.translated
    expect(Array.isArray(meta)).toBe(true)
    const all = keys(tree)
    for (const k of meta as string[]) expect(all.some((key) => key === k || key.startsWith(`${k}.`)), k).toBe(true)
  })

  test('names every scoring category of the engine', () => {
    const category = tree.category as Tree
    for (const name of ['starters', 'uniques', ...SETS.map((s) => `set ${s.name}`)]) {
      expect(typeof category[name], name).toBe('string')
    }
  })
})

test('Italian and Japanese mark every component name as translated', () => {
  for (const tree of [it, ja] as Tree[]) {
    const meta = (tree._meta as Tree).translated as string[]
    for (const k of keys(tree).filter((k) => /^(card|set|kind|placeholderOf)\./.test(k))) expect(meta, k).toContain(k)
  }
})

test("the board's title is the game's name in the shell's catalogue, in every language", () => {
  const shell: Record<string, { game: { valley: string } }> = { en: shellEn, es: shellEs, it: shellIt, ja: shellJa }
  for (const [lang, tree] of Object.entries(catalogues)) expect(tree.title, lang).toBe(shell[lang]?.game.valley)
})
