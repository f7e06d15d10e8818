// The shell's texts for things the server names in English or by key: games, options and
// their choices, seats, bot strengths, error kinds, score categories. Each falls back to the
// server's own word when no catalogue has it, so a new option or category still reads.
import type { OptionInfo } from '../generated/server/OptionInfo'
import type { SeatInfo } from '../generated/server/SeatInfo'
import type { JsonValue } from '../generated/serde_json/JsonValue'
import type { ProblemKind } from './api'
import { hasMessage, i18n, t } from './i18n.svelte'
import { SEAT_MARKS } from './palette'

/** "my_word" → "My word": the last resort for a key no catalogue has. */
export function humanize(raw: string): string {
  const spaced = raw.replace(/_/g, ' ')
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

export function gameName(game: string): string {
  return hasMessage(`game.${game}`) ? t(`game.${game}`) : humanize(game)
}

export function seatMark(seat: number): string {
  return SEAT_MARKS[seat % SEAT_MARKS.length]
}

export function optionLabel(option: OptionInfo): string {
  return hasMessage(`option.${option.key}`) ? t(`option.${option.key}`) : option.description
}

export function choiceLabel(option: OptionInfo, value: JsonValue): string {
  const key = `option.${option.key}.${String(value)}`
  if (hasMessage(key)) return t(key)
  if (value === null) return t('choice.auto')
  if (value === true) return t('choice.yes')
  if (value === false) return t('choice.no')
  return typeof value === 'string' ? humanize(value) : String(value)
}

export function strengthLabel(bot: string | null): string {
  if (bot === null) return ''
  return hasMessage(`bot.${bot}`) ? t(`bot.${bot}`) : bot
}

/** The name a seat goes by at the table, the log and the end screen. */
export function seatName(info: SeatInfo): string {
  const mark = seatMark(info.seat)
  if (info.kind === 'bot') return t('seat.bot', { mark, strength: strengthLabel(info.bot) })
  if (info.former) return t('formerPlayer')
  // A free seat is open to anyone from the lobby, or kept for the friend holding its link.
  return info.name ?? t(info.open ? 'seat.free' : 'seat.friend', { mark })
}

/**
 * The person's name of a taken seat ('' for a free one), for the sentences about them: a
 * seat whose account was deleted has the server's English placeholder for a name, shown in
 * the reader's language instead.
 */
export function personName(info: SeatInfo): string {
  return info.former ? t('formerPlayer') : (info.name ?? '')
}

/** A rating or its deviation as shown: a whole number, grouped as the language groups digits. */
export function ratingNumber(value: number): string {
  return new Intl.NumberFormat(i18n.lang, { maximumFractionDigits: 0 }).format(Math.round(value))
}

export function problemLabel(kind: ProblemKind): string {
  return t(`error.${kind}`)
}

export function categoryLabel(game: string, category: string): string {
  const key = `${game}:category.${category}`
  return hasMessage(key) ? t(key) : humanize(category)
}

export function tiebreakLabel(game: string, index: number): string {
  const key = `${game}:tiebreak.${index}`
  return hasMessage(key) ? t(key) : t('end.tiebreak', { n: index + 1 })
}

/**
 * A tie-break's value as people read it: a game whose tie-break compares a negated count
 * (Valley of the Kings: fewer tomb cards win) says so in its catalogue
 * (`tiebreak.0_value`, with `{{value}}` and `{{negated}}`).
 */
export function tiebreakValue(game: string, index: number, value: number): string {
  const key = `${game}:tiebreak.${index}_value`
  return hasMessage(key) ? t(key, { value, negated: -value }) : String(value)
}

/** "Ana, Bruno and Chiara" in the current language. */
export function listOfNames(names: string[]): string {
  return new Intl.ListFormat(i18n.lang, { style: 'long', type: 'conjunction' }).format(names)
}

/** "5 minutes ago" in the current language. */
export function sinceText(unixMillis: number, now = Date.now()): string {
  const seconds = Math.round((unixMillis - now) / 1000)
  const format = new Intl.RelativeTimeFormat(i18n.lang, { numeric: 'auto' })
  const abs = Math.abs(seconds)
  if (abs < 60) return format.format(0, 'minute')
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute')
  if (abs < 86400) return format.format(Math.round(seconds / 3600), 'hour')
  return format.format(Math.round(seconds / 86400), 'day')
}

/** Whether a view says its component data is provisional (the views' `provisional_data`). */
export function isProvisional(view: unknown): boolean {
  return typeof view === 'object' && view !== null && (view as { provisional_data?: unknown }).provisional_data === true
}
