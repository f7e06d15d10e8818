// The account settings form's logic (docs/web.md, "Settings and turn e-mail"): what the
// form holds, the request it sends, whether anything changed, why turn e-mail cannot be
// switched on, and which field a refusal of the server belongs to.
import type { AccountSettings } from '../generated/server/AccountSettings'
import type { AccountSettingsView } from '../generated/server/AccountSettingsView'
import { cleanTag } from './languages'

/** The form: the address as typed. */
export interface SettingsDraft {
  languages: string[]
  email: string
  turnMail: boolean
}

export type SettingsField = 'languages' | 'email' | 'turn_mail'

export function draftOf(view: AccountSettings): SettingsDraft {
  return { languages: [...view.languages], email: view.email ?? '', turnMail: view.turn_mail }
}

/** Whether the form holds an address (whatever it is: the server checks it). */
export function hasAddress(draft: SettingsDraft): boolean {
  return draft.email.trim() !== ''
}

/**
 * The request for the form: the address trimmed (none when empty), and turn e-mail only
 * with an address: emptying the address switches it off.
 */
export function requestOf(draft: SettingsDraft): AccountSettings {
  const email = draft.email.trim()
  return { languages: [...draft.languages], email: email === '' ? null : email, turn_mail: draft.turnMail && email !== '' }
}

/** Whether two settings are the same as stored (language tags compared as the server cleans them). */
export function sameSettings(a: AccountSettings, b: AccountSettings): boolean {
  const tags = (s: AccountSettings) => s.languages.map((tag) => cleanTag(tag) ?? tag).join(' ')
  return tags(a) === tags(b) && (a.email ?? '') === (b.email ?? '') && a.turn_mail === b.turn_mail
}

/** Why the turn e-mail box cannot be ticked now, if it cannot. */
export function turnMailBlocked(view: Pick<AccountSettingsView, 'mail_available'>, draft: SettingsDraft): 'no_mail' | 'no_address' | null {
  if (!view.mail_available) return 'no_mail'
  if (!hasAddress(draft)) return 'no_address'
  return null
}

/**
 * The field a `malformed` refusal of PUT /api/account/settings is about, read from the
 * server's message (crates/server: accounts/settings.rs); null for anything else (said
 * beside the Save button).
 */
export function problemField(problem: { kind: string; message: string }): SettingsField | null {
  if (problem.kind !== 'malformed') return null
  const message = problem.message.toLowerCase()
  if (message.includes('turn mail')) return 'turn_mail'
  if (message.includes('e-mail address')) return 'email'
  if (message.includes('language')) return 'languages'
  return null
}
