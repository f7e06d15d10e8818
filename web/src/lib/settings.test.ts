import { describe, expect, it } from 'vitest'
import { draftOf, hasAddress, problemField, requestOf, sameSettings, turnMailBlocked } from './settings'

const stored = { languages: ['es', 'en'], email: 'bo@example.org', turn_mail: true }

describe('the settings form', () => {
  it('holds the stored settings and sends them back unchanged', () => {
    const draft = draftOf(stored)
    expect(draft).toEqual({ languages: ['es', 'en'], email: 'bo@example.org', turnMail: true })
    expect(requestOf(draft)).toEqual(stored)
    expect(sameSettings(requestOf(draft), stored)).toBe(true)
    expect(draftOf({ languages: [], email: null, turn_mail: false }).email).toBe('')
  })

  it('trims the address, sends none for an empty one, and turn e-mail only with an address', () => {
    expect(requestOf({ languages: [], email: '  bo@example.org ', turnMail: true })).toEqual({
      languages: [],
      email: 'bo@example.org',
      turn_mail: true,
    })
    expect(requestOf({ languages: [], email: '   ', turnMail: true })).toEqual({ languages: [], email: null, turn_mail: false })
    expect(hasAddress({ languages: [], email: ' ', turnMail: false })).toBe(false)
  })

  it('sees a change in the order of languages, the address or the box, and not in a tag’s case', () => {
    expect(sameSettings({ ...stored, languages: ['en', 'es'] }, stored)).toBe(false)
    expect(sameSettings({ ...stored, email: 'ana@example.org' }, stored)).toBe(false)
    expect(sameSettings({ ...stored, turn_mail: false }, stored)).toBe(false)
    expect(sameSettings({ ...stored, languages: ['ES', 'en'] }, stored)).toBe(true)
    expect(sameSettings({ ...stored, email: null }, { ...stored, email: null })).toBe(true)
  })

  it('says why the turn e-mail box cannot be ticked', () => {
    const draft = draftOf(stored)
    expect(turnMailBlocked({ mail_available: false }, draft)).toBe('no_mail')
    expect(turnMailBlocked({ mail_available: true }, { ...draft, email: '' })).toBe('no_address')
    expect(turnMailBlocked({ mail_available: true }, draft)).toBeNull()
  })

  it('puts each refusal of the server at its field (crates/server: accounts/settings.rs)', () => {
    const malformed = (message: string) => ({ kind: 'malformed', message })
    expect(problemField(malformed('"bo@" is not an e-mail address'))).toBe('email')
    expect(problemField(malformed('an e-mail address has at most 254 characters'))).toBe('email')
    expect(problemField(malformed('turn mail needs an e-mail address'))).toBe('turn_mail')
    expect(problemField(malformed('"x" is not a language tag (such as "es" or "pt-BR")'))).toBe('languages')
    expect(problemField(malformed('at most 8 languages'))).toBe('languages')
    expect(problemField(malformed('unknown field `colour`'))).toBeNull()
    expect(problemField({ kind: 'network', message: 'e-mail address' })).toBeNull()
  })
})
