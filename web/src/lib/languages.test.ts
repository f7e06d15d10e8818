import { describe, expect, it } from 'vitest'
import {
  addLanguage,
  cleanTag,
  languageChoices,
  languageList,
  languageName,
  MAX_LANGUAGES,
  moveLanguage,
  nativeName,
  OFFERED_LANGUAGES,
  removeLanguage,
} from './languages'

describe('language tags', () => {
  it('cleans a tag as the server stores it, and refuses what the server refuses', () => {
    expect(cleanTag('ES')).toBe('es')
    expect(cleanTag(' pt-br ')).toBe('pt-BR')
    expect(cleanTag('fil')).toBe('fil')
    for (const bad of ['', 'e', 'english', 'es_AR', 'es-', '<b>', 'es-a-b-c', 'es-AR-x-y']) expect(cleanTag(bad), bad).toBeNull()
  })

  it('offers each language once, each a tag the server takes as it is', () => {
    expect(new Set(OFFERED_LANGUAGES).size).toBe(OFFERED_LANGUAGES.length)
    for (const tag of OFFERED_LANGUAGES) expect(cleanTag(tag)).toBe(tag)
  })
})

describe('language names', () => {
  it('names a language in the reader’s language, capitalised to stand alone', () => {
    expect(languageName('es', 'en')).toBe('Spanish')
    expect(languageName('es', 'it')).toBe('Spagnolo')
    expect(languageName('en', 'es')).toBe('Inglés')
    expect(languageName('es', 'ja')).toBe('スペイン語')
    expect(languageName('pt-BR', 'en')).toBe('Brazilian Portuguese')
    expect(nativeName('es')).toBe('Español')
    expect(nativeName('ja')).toBe('日本語')
  })

  it('falls back to the tag for a language no one names', () => {
    expect(languageName('qaa', 'en')).toBe('qaa')
  })

  it('joins names as the reader’s language lists things', () => {
    expect(languageList(['es', 'en', 'it'], 'en')).toBe('Spanish, English, and Italian')
    expect(languageList(['es', 'en'], 'es')).toBe('Español e Inglés')
    expect(languageList(['ja'], 'it')).toBe('Giapponese')
    expect(languageList([], 'en')).toBe('')
  })

  it('offers the languages not chosen yet, alphabetically in the reader’s language', () => {
    const english = languageChoices(['es', 'EN'], 'en')
    expect(english.map((c) => c.tag)).not.toContain('es')
    expect(english.map((c) => c.tag)).not.toContain('en')
    expect(english).toHaveLength(OFFERED_LANGUAGES.length - 2)
    const names = english.map((c) => c.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    expect(names.indexOf('French')).toBeLessThan(names.indexOf('German'))
    // In Spanish, "Alemán" (German) comes before "Francés" (French).
    const spanish = languageChoices([], 'es').map((c) => c.tag)
    expect(spanish.indexOf('de')).toBeLessThan(spanish.indexOf('fr'))
  })
})

describe('the list of languages', () => {
  it('adds a language last, cleaned, once, and no more than the server keeps', () => {
    expect(addLanguage(['es'], 'EN')).toEqual(['es', 'en'])
    expect(addLanguage(['es'], 'es')).toEqual(['es'])
    expect(addLanguage(['es'], 'not a tag')).toEqual(['es'])
    const full = OFFERED_LANGUAGES.slice(0, MAX_LANGUAGES)
    expect(addLanguage(full, 'zu')).toEqual(full)
  })

  it('removes a language', () => {
    expect(removeLanguage(['es', 'en', 'it'], 'en')).toEqual(['es', 'it'])
    expect(removeLanguage(['es'], 'ja')).toEqual(['es'])
  })

  it('moves a language up or down, never out of the list', () => {
    const list = ['es', 'en', 'it']
    expect(moveLanguage(list, 1, -1)).toEqual(['en', 'es', 'it'])
    expect(moveLanguage(list, 1, 1)).toEqual(['es', 'it', 'en'])
    expect(moveLanguage(list, 0, -1)).toEqual(list)
    expect(moveLanguage(list, 2, 1)).toEqual(list)
    expect(moveLanguage(list, 5, -1)).toEqual(list)
    expect(list).toEqual(['es', 'en', 'it'])
  })
})
