// Valdora's short log lines (docs/web.md, "Following the game"): what a seat did, with the
// pictures the board draws (gems, items, coins), in the current language; the full
// sentence (text.ts `eventText`) is the detail on demand.
import type { Event } from '../../generated/valdora/Event'
import type { Gem } from '../../generated/valdora/Gem'
import type { View } from '../../generated/valdora/View'
import { pictured, type LinePart } from '../../lib/short'
import type { IconName } from './Icon.svelte'
import { colorName, printedItem, seatName, spaceName } from './text'

export type Picture = { gem: Gem } | { icon: IconName }

const COIN: Picture = { icon: 'coin' }

/** One event as a short line; null for the game's bookkeeping. */
export function shortLine(event: Event, names: string[], view: View): LinePart<Picture>[] | null {
  const key = (name: string) => `valdora:short.${name}`
  switch (event.type) {
    case 'moved':
      return pictured(key('moved'), {}, { to: spaceName(view, event.to) })
    case 'stuck':
    case 'passed':
    case 'bonus_tile':
    case 'commission_completed_hidden':
    case 'end_triggered':
      return pictured(key(event.type), { bonus: { icon: 'bonus' } })
    case 'provisions_taken':
      return pictured(key('provisions_taken'), { provisions: { icon: 'provisions' } })
    case 'silver_refilled':
      return pictured(key('silver_refilled'), { coin: COIN })
    case 'meeting_fee':
      return pictured(key('meeting_fee'), { coin: COIN }, { other: seatName(event.to, names) })
    case 'page_turned':
      return pictured(key('page_turned'), {})
    case 'equipment_bought':
      return pictured(key('equipment_bought'), { item: { icon: printedItem(event.face.item, view) } })
    case 'commission_bought':
      return pictured(key('commission_bought'), { scroll: { icon: 'scroll' } }, { color: colorName(event.face.color, true) })
    case 'commission_returned':
      return pictured(key('commission_returned'), { scroll: { icon: 'scroll' } })
    case 'commission_completed':
      return pictured(
        key('commission_completed'),
        { scroll: { icon: 'scroll' } },
        { color: colorName(event.face.color, true), count: event.face.points },
      )
    case 'loaded':
      return pictured(key('loaded'), { gem: { gem: event.gem }, item: { icon: printedItem(event.onto, view) } })
    case 'unloaded':
      return pictured(key('unloaded'), { gem: { gem: event.gem } })
    case 'craftsman_hired':
    case 'workshop_taken':
      return pictured(key(event.type), { workshop: { icon: 'workshop' } }, { color: colorName(event.color) })
    default:
      return null
  }
}
