// Which thing on the table each legal action concerns. The board never decides legality: it
// groups the server's legal actions by the thing they concern (a "target" key) and makes
// exactly those things clickable; a target concerned by several actions opens a choice.
import type { Action } from '../../generated/valdora/Action'
import type { BookView } from '../../generated/valdora/BookView'
import type { Gem } from '../../generated/valdora/Gem'
import type { Item } from '../../generated/valdora/Item'
import type { Side } from '../../generated/valdora/Side'
import type { View } from '../../generated/valdora/View'

/** A space of the valley (moving, V-T1). */
export const spaceKey = (space: number): string => `space:${space}`
/** One pile of a book (turning a page from it, V-A1). */
export const pileKey = (book: number, side: Side): string => `pile:${book}:${side}`
/** The visible top face of one pile (buying it, V-A1). */
export const faceKey = (book: number, side: Side): string => `face:${book}:${side}`
/** An incomplete commission of the seat to move, by index (returning or completing it). */
export const heldKey = (index: number): string => `held:${index}`
/** Gems of one kind where the seat to move may load them: a road space, or the discard area
 * from a harbour (V-A2). */
export const gemKey = (source: GemSource, gem: Gem): string => `gem:${source}:${gem}`
/** An equipment item of the seat to move (unloading it, V-A2). */
export const itemKey = (item: Item): string => `item:${item}`
/** A button of the action bar: actions that concern no thing on the table. */
export const barKey = (type: BarAction['type']): string => `bar:${type}`

export type BarAction = Extract<Action, { type: 'pass' | 'take_provisions' | 'refill_silver' | 'end' }>
/** Where loaded gems come from: a road space's id, or the discard area. */
export type GemSource = number | 'discard'

/** The space the seat to move stands on: every action but moving happens there (V-T4). */
export function hereSpace(view: View): number | undefined {
  return view.seats[view.current]?.space
}

/** The book in the city where the seat to move stands (V-A1), if any. */
export function bookHere(view: View): BookView | undefined {
  const here = hereSpace(view)
  return view.books.find((book) => book.city === here)
}

/** Where gems are loaded from at the seat to move's space: a road space's own gems, or the
 * discard area at a harbour or the harbour city (V-A2). */
export function gemSourceHere(view: View): GemSource {
  const here = hereSpace(view)
  const space = here === undefined ? undefined : view.spaces[here]
  return space?.kind === 'road' ? space.id : 'discard'
}

/** The thing `action` concerns, as a target key. */
export function targetOf(action: Action, view: View): string {
  switch (action.type) {
    case 'move':
      return spaceKey(action.to)
    case 'turn':
      return pileKey(bookHere(view)?.book ?? -1, action.from)
    case 'buy_equipment':
    case 'buy_commission':
      return faceKey(bookHere(view)?.book ?? -1, action.side)
    case 'return':
    case 'complete':
      return heldKey(action.commission)
    case 'load':
      return gemKey(gemSourceHere(view), action.gem)
    case 'unload':
      return itemKey(action.from)
    case 'pass':
    case 'take_provisions':
    case 'refill_silver':
    case 'end':
      return barKey(action.type)
  }
}

/** The action-bar buttons, in a fixed order so they do not jump around between turns (kit/targets.ts barButtons). */
export const BAR_ORDER: readonly BarAction['type'][] = ['take_provisions', 'refill_silver', 'end', 'pass']
