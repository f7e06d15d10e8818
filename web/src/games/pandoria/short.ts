// Pandoria's short log lines (docs/web.md, "Following the game"): what a seat did, with the
// pieces and resource symbols the board draws, in the current language; the full sentence
// (texts.ts `eventText`) is the detail on demand.
import type { Event } from '../../generated/pandoria/Event'
import type { Resource } from '../../generated/pandoria/Resource'
import type { View } from '../../generated/pandoria/View'
import { pictured, type LinePart } from '../../lib/short'
import { cardName, placeName } from './names'

export type Picture = { resource: Resource | 'points' } | { piece: 'figure' | 'leader' | 'castle'; seat: number }

const POINTS: Picture = { resource: 'points' }

/** One event as a short line; null for the game's bookkeeping (turns, draws, refills…). */
export function shortLine(event: Event, names: string[], view: View): LinePart<Picture>[] | null {
  void names
  const key = (name: string) => `pandoria:short.${name}`
  switch (event.type) {
    case 'tile_placed':
      return pictured(key('tilePlaced'), {}, { at: placeName(event.at, view) })
    case 'castle_placed':
      return pictured(key('castlePlaced'), { castle: { piece: 'castle', seat: event.seat } }, { at: placeName(event.at, view) })
    case 'figure_placed':
      return pictured(
        key('figurePlaced'),
        { figure: { piece: event.leader ? 'leader' : 'figure', seat: event.seat } },
        { at: placeName(event.at, view) },
      )
    case 'figure_moved':
      return pictured(key('figureMoved'), { figure: { piece: 'figure', seat: event.seat } }, { to: placeName(event.to, view) })
    case 'figure_removed':
      return pictured(
        key('figureRemoved'),
        { figure: { piece: event.leader ? 'leader' : 'figure', seat: event.seat } },
        { at: placeName(event.at, view) },
      )
    case 'spell_cast':
    case 'spell_adopted':
    case 'card_taken':
    case 'card_bought':
    case 'building_built':
      return pictured(key(event.type), {}, { card: cardName(event.card) })
    case 'monument_built':
      return pictured(key('monument_built'), { points: POINTS }, { count: event.value })
    case 'region_scored':
      return pictured(key('region_scored'), { points: POINTS }, { count: event.points })
    case 'points_gained':
    case 'final_scored':
      return pictured(key(event.type), { points: POINTS }, { count: event.points })
    case 'resource_changed':
    case 'resource_set':
      return pictured(key('resource'), { resource: { resource: event.resource } }, { value: event.value })
    case 'end_triggered':
      return pictured(key('end_triggered'), {})
    default:
      return null
  }
}
