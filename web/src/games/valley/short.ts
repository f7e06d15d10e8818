// Valley of the Kings' short log lines (docs/web.md, "Following the game"): what a seat did,
// each card with its set's symbol as the board prints it, in the current language; the
// full sentence (text.ts `eventText`) is the detail on demand.
import type { Event } from '../../generated/valley/Event'
import type { View } from '../../generated/valley/View'
import { pictured, type LinePart } from '../../lib/short'
import { seatName, slotName } from './text'

/** A card, drawn with its set's symbol and its name. */
export interface Picture {
  card: number
}

/** One event as a short line; null for the game's bookkeeping (drawing, paying, refills…). */
export function shortLine(event: Event, names: string[], view: View): LinePart<Picture>[] | null {
  void view
  const key = (name: string) => `valley:short.${name}`
  switch (event.type) {
    case 'bought':
    case 'action_played':
    case 'entombed':
    case 'sacrificed':
    case 'taken':
    case 'revealed':
    case 'discarded':
    case 'executed':
    case 'reacted':
      return pictured(key(event.type), { card: { card: event.card } })
    case 'given':
      return pictured(key('given'), { card: { card: event.card } }, { other: seatName(event.to, names) })
    case 'crumbled':
      return pictured(key('crumbled'), {}, { to: slotName(event.to) })
    case 'reserved':
      return pictured(key('reserved'), {}, { slot: slotName(event.slot) })
    case 'pharaoh_used':
      return pictured(key('pharaoh_used'), {})
    default:
      return null
  }
}
