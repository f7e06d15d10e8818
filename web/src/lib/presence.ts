// Who is at the table: each taken human seat's presence (online, away, offline since when),
// the bot standing in for a person, and when another person may hand a gone person's seat
// to a bot (the server's `hand_over_after_secs`; docs/server.md, "WebSocket").
import type { PresenceState } from '../generated/server/PresenceState'
import type { HintedAction } from '../generated/server/HintedAction'
import type { SeatEvent } from '../generated/server/SeatEvent'
import type { SeatInfo } from '../generated/server/SeatInfo'
import type { Status } from '../generated/server/Status'
import { hintLine } from './hints'
import { i18n, t } from './i18n.svelte'
import { seatMark } from './labels'

/** How long since `unixMillis`: "12 seconds", "3 minutes", "2 hours", in the current language. */
export function durationText(unixMillis: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - unixMillis) / 1000))
  const [value, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.floor(seconds / 60), 'minute']
        : seconds < 86400
          ? [Math.floor(seconds / 3600), 'hour']
          : [Math.floor(seconds / 86400), 'day']
  return new Intl.NumberFormat(i18n.lang, { style: 'unit', unit, unitDisplay: 'long' }).format(value)
}

/** How a seat's presence reads: its state (for the icon) and its sentence; null when it has none. */
export function presenceText(info: SeatInfo, now = Date.now()): { state: PresenceState; text: string } | null {
  const presence = info.presence
  if (!presence || info.kind !== 'human' || info.name === null || info.left) return null
  const duration = durationText(presence.since, now)
  const text =
    presence.state === 'online'
      ? t('presence.online')
      : presence.state === 'away'
        ? t('presence.away', { duration })
        : t('presence.offline', { duration })
  return { state: presence.state, text }
}

/** Whether a person still sits in the seat (taken, human, not left). */
export function isPerson(info: SeatInfo): boolean {
  return info.kind === 'human' && info.name !== null && !info.left
}

/**
 * When (unix ms) the person at `info` may be handed to a bot by someone else at the table:
 * once offline for `afterSecs`. Null when never (not a person, a bot plays it already, not
 * offline).
 */
export function handOverDueAt(info: SeatInfo, afterSecs: number): number | null {
  if (!isPerson(info) || info.stand_in !== null || info.presence?.state !== 'offline') return null
  return info.presence.since + afterSecs * 1000
}

/**
 * Whether the person at `mySeat` is offered "Hand to a bot" for `info` at `now`: another
 * person's seat in a running game, offline for the server's hand-over time.
 */
export function canHandOver(
  info: SeatInfo,
  mySeat: number | null,
  status: Status | null,
  afterSecs: number,
  now = Date.now(),
): boolean {
  if (status !== 'running' || mySeat === null || info.seat === mySeat) return false
  const due = handOverDueAt(info, afterSecs)
  return due !== null && now >= due
}

/** The next time (unix ms, after `now`) a "Hand to a bot" button appears, to redraw then; null: none. */
export function nextHandOverDue(
  seats: SeatInfo[],
  mySeat: number | null,
  status: Status | null,
  afterSecs: number,
  now = Date.now(),
): number | null {
  if (status !== 'running' || mySeat === null) return null
  let next: number | null = null
  for (const info of seats) {
    if (info.seat === mySeat) continue
    const due = handOverDueAt(info, afterSecs)
    if (due !== null && due > now && (next === null || due < next)) next = due
  }
  return next
}

/** Whether a bot plays this seat for its person (handed over, or the person left). */
export function standInPlays(info: SeatInfo | undefined): boolean {
  return info !== undefined && info.kind === 'human' && info.stand_in !== null
}

/** Seat `seat`'s name in `names`, or its mark when it has none. */
function nameOf(seat: number, names: string[]): string {
  return names[seat] ?? t('seat.mark', { mark: seatMark(seat) })
}

/** An undo in the log as a short sentence: "Ana took back a decision". */
export function undoText(seat: number, names: string[]): string {
  return t('log.undo', { name: nameOf(seat, names) })
}

/** A seat event as a short sentence: "Ben is gone: Ana handed the seat to a bot". */
export function seatEventText(
  event: SeatEvent,
  names: string[],
  labelOf: (action: HintedAction) => string = (action) => action.description,
): string {
  const name = nameOf(event.seat, names)
  if (event.what === 'hinted') return t('seatEvent.hinted', { name, actions: hintLine(event.hint ?? [], labelOf) })
  if (event.what === 'handed_over') {
    const by = event.by === null ? undefined : names[event.by]
    return by === undefined ? t('seatEvent.handed_over_anon', { name }) : t('seatEvent.handed_over', { name, by })
  }
  return t(`seatEvent.${event.what}`, { name })
}
