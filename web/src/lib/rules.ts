// The rules panel's texts: each game's rules in each language, written by us from the
// numbered rules of its spec (web/src/games/GAME/rules/LANG.json), organised by rule id.
// Loaded when first opened, one file per game and language.
import type { Language } from './i18n.svelte'

export interface RuleText {
  /** The spec's id (`V-T1`), what a refusal and an offered action cite. */
  id: string
  text: string
}

export interface RulesSection {
  id: string
  title: string
  rules: RuleText[]
}

export interface RulesDoc {
  title: string
  intro: string
  sections: RulesSection[]
}

const loaders = import.meta.glob<RulesDoc>('../games/*/rules/*.json', { import: 'default' })

/** Whether the client has rules for `game` (in English, the language every game has). */
export function hasRules(game: string): boolean {
  return `../games/${game}/rules/en.json` in loaders
}

/** `game`'s rules in `lang`, or in English when that language is missing; undefined for none. */
export async function loadRules(game: string, lang: Language): Promise<RulesDoc | undefined> {
  const loader = loaders[`../games/${game}/rules/${lang}.json`] ?? loaders[`../games/${game}/rules/en.json`]
  return loader ? await loader() : undefined
}

/** Every rule id of a document, in order. */
export function ruleIds(doc: RulesDoc): string[] {
  return doc.sections.flatMap((section) => section.rules.map((rule) => rule.id))
}

/** The rules whose id or text holds `query` (any case), by section; sections left empty go. */
export function filterRules(doc: RulesDoc, query: string): RulesSection[] {
  const wanted = query.trim().toLocaleLowerCase()
  if (!wanted) return doc.sections
  return doc.sections
    .map((section) => ({
      ...section,
      rules: section.rules.filter(
        (rule) => rule.id.toLocaleLowerCase().includes(wanted) || rule.text.toLocaleLowerCase().includes(wanted),
      ),
    }))
    .filter((section) => section.rules.length > 0)
}
