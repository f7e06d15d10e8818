import { describe, expect, it } from 'vitest'
import { LANGUAGES } from './i18n.svelte'
import { filterRules, loadRules, ruleIds, type RulesDoc } from './rules'
import { CLIENT_GAMES } from '../games'

// Every game the client draws (found by folder), so a new game's rules panel is checked too.
const GAMES = CLIENT_GAMES

describe('the rules panel texts', () => {
  it.each(GAMES)('%s has the same rule ids and sections, in order, in every language, none empty', async (game) => {
    const english = await loadRules(game, 'en')
    expect(english).toBeDefined()
    const ids = ruleIds(english as RulesDoc)
    expect(new Set(ids).size).toBe(ids.length)
    for (const lang of LANGUAGES) {
      const doc = (await loadRules(game, lang)) as RulesDoc
      expect(ruleIds(doc), `${game} ${lang}`).toEqual(ids)
      expect(doc.sections.map((s) => s.id), `${game} ${lang}`).toEqual(english?.sections.map((s) => s.id))
      for (const rule of doc.sections.flatMap((s) => s.rules)) expect(rule.text.trim(), `${game} ${lang} ${rule.id}`).not.toBe('')
    }
  })

  it('filters by id or by words, dropping sections left empty', () => {
    const doc: RulesDoc = {
      title: 'T',
      intro: '',
      sections: [
        { id: 'a', title: 'A', rules: [{ id: 'V-T1', text: 'Move your pawn.' }] },
        { id: 'b', title: 'B', rules: [{ id: 'V-A1', text: 'Buy equipment.' }] },
      ],
    }
    expect(filterRules(doc, 'pawn').map((s) => s.id)).toEqual(['a'])
    expect(filterRules(doc, 'v-a1').map((s) => s.id)).toEqual(['b'])
    expect(filterRules(doc, '  ')).toEqual(doc.sections)
  })
})
