// Valdora in words, in the current language (namespace `valdora`): component names as the
// rulebook of each language prints them, and sentences for the log and the action list.
// Sentences are whole templates per language (no words glued together in code), so each
// language can order them and choose prepositions that do not contract with articles.
import type { Action } from '../../generated/valdora/Action'
import type { Color } from '../../generated/valdora/Color'
import type { CommissionFace } from '../../generated/valdora/CommissionFace'
import type { Event } from '../../generated/valdora/Event'
import type { Face } from '../../generated/valdora/Face'
import type { Gem } from '../../generated/valdora/Gem'
import type { Item } from '../../generated/valdora/Item'
import type { Requirement } from '../../generated/valdora/Requirement'
import type { Side } from '../../generated/valdora/Side'
import type { SpaceView } from '../../generated/valdora/SpaceView'
import type { View } from '../../generated/valdora/View'
import { t } from '../../lib/i18n.svelte'
import { GEMS, itemGem } from './components'

const tv = (key: string, options?: Record<string, unknown>): string => t(`valdora:${key}`, options)

// ---------------------------------------------------------------- component names

/** The printed tool pictures and the other items, as named in the component data. */
const PRINTED_ITEMS = ['gold_pan', 'shovel', 'pick', 'hammer', 'chisel', 'horse', 'cart'] as const
export type PrintedItem = (typeof PRINTED_ITEMS)[number]

/** The items in the engine's order (`View.item_names` is indexed by it). */
const ITEM_ORDER: readonly Item[] = ['gold_pan', 'ruby_tool', 'sapphire_tool', 'amethyst_tool', 'emerald_tool', 'horse', 'cart']

function isPrinted(name: string): name is PrintedItem {
  return (PRINTED_ITEMS as readonly string[]).includes(name)
}

/** The shipped data's pictures (data/valdora.toml), for a name outside the printed set. */
const SHIPPED_PICTURE: Record<Item, PrintedItem> = {
  gold_pan: 'gold_pan',
  ruby_tool: 'pick',
  sapphire_tool: 'chisel',
  amethyst_tool: 'hammer',
  emerald_tool: 'shovel',
  horse: 'horse',
  cart: 'cart',
}

/** The picture printed on `item`'s cards ("pick"). Which tool picture loads which gem is
 * data (V-C5), so the view names every item; a corrected data file naming a picture the
 * catalogues do not know falls back to the shipped data's picture. */
export function printedItem(item: Item, view: View): PrintedItem {
  const name = view.item_names[ITEM_ORDER.indexOf(item)] ?? ''
  return isPrinted(name) ? name : SHIPPED_PICTURE[item]
}

/** "Pick", for labels. */
export const itemName = (item: Item, view: View): string => tv(`item.${printedItem(item, view)}`)
/** "the pick", inside sentences. */
export const itemThe = (item: Item, view: View): string => tv(`itemThe.${printedItem(item, view)}`)

export const gemName = (gem: Gem): string => tv(`gem.${gem}`)
/** "a ruby", inside sentences. */
export const gemA = (gem: Gem): string => tv(`gemA.${gem}`)
/** "3 rubies". */
export const gemCount = (gem: Gem, count: number): string => tv(`gems.${gem}`, { count })

/** A patron colour as an adjective; `feminine` where the language agrees it with the noun
 * (Italian "commissione" is feminine). */
export const colorName = (color: Color, feminine = false): string =>
  tv(`color.${color}`, feminine ? { context: 'f' } : undefined)

export const points = (count: number): string => tv('points', { count })
export const seatName = (seat: number, names: readonly string[]): string =>
  names[seat] ?? tv('seat', { mark: seat + 1 })

/** The number or letter in a space's data name ("g04" → "4", "pb" → "b"). */
export function spaceMark(space: SpaceView): string {
  if (space.kind === 'patron_house') return /^p([a-z])$/.exec(space.name)?.[1] ?? space.name
  const digits = /(\d+)$/.exec(space.name)
  return digits ? String(Number(digits[1])) : space.name
}

function spaceText(view: View, id: number, form: 'space' | 'spaceThe'): string {
  const space = view.spaces[id]
  if (!space) return String(id)
  const color = space.kind === 'patron_house' ? colorName(space.color) : ''
  return tv(`${form}.${space.kind}`, { name: space.name, n: spaceMark(space), letter: spaceMark(space), color })
}

/** "Road space 4", for labels. */
export const spaceName = (view: View, id: number): string => spaceText(view, id, 'space')
/** "the road space 4", inside sentences. */
export const spaceThe = (view: View, id: number): string => spaceText(view, id, 'spaceThe')

/** "commission book of city C". */
export function bookName(view: View, book: number): string {
  const found = view.books.find((b) => b.book === book)
  if (!found) return String(book)
  return tv(`book.${found.kind}`, { city: view.spaces[found.city]?.name ?? '?' })
}

export const sideName = (side: Side): string => tv(`side.${side}`)

/** What a commission wants: "ruby + sapphire + amethyst", "1 silver coin". */
export function wantsText(wants: Requirement): string {
  const parts: string[] = []
  GEMS.forEach((gem, i) => {
    for (let n = 0; n < wants.gems[i]; n++) parts.push(gemName(gem))
  })
  if (wants.coins > 0) parts.push(tv('silverCoins', { count: wants.coins }))
  return parts.join(' + ')
}

/** "the grey commission (1 silver coin; 2 points)", inside sentences. */
export function commissionThe(face: CommissionFace): string {
  return tv('face.commission', {
    color: colorName(face.color, true),
    wants: wantsText(face.wants),
    points: points(face.points),
  })
}

/** A visible face inside a sentence; "nothing" for an empty pile. */
export function faceThe(face: Face | null, view: View): string {
  if (!face) return tv('face.empty')
  if (face.kind === 'commission') return commissionThe(face)
  const item = itemThe(face.item, view)
  if (face.load_cost > 0) return tv('face.equipmentCost', { item, count: face.load_cost })
  const gem = itemGem(face.item)
  return gem ? tv('face.equipmentGem', { item, gem: gemName(gem) }) : item
}

// ---------------------------------------------------------------- the log

/** One event as a sentence. */
export function eventText(event: Event, names: string[], view: View): string {
  const seat = 'seat' in event ? seatName(event.seat, names) : ''
  switch (event.type) {
    case 'turn_began':
      return tv('event.turn_began', { seat, turn: event.turn })
    case 'stuck':
    case 'passed':
    case 'provisions_taken':
    case 'silver_refilled':
    case 'bonus_tile':
    case 'commission_completed_hidden':
    case 'end_triggered':
    case 'action_ended':
      return tv(`event.${event.type}`, { seat })
    case 'moved':
      return tv(event.provisions_spent ? 'event.moved_provisions' : 'event.moved', {
        seat,
        from: spaceThe(view, event.from),
        to: spaceThe(view, event.to),
      })
    case 'meeting_fee':
      return tv(event.banked ? 'event.meeting_fee_banked' : 'event.meeting_fee', {
        seat,
        other: seatName(event.to, names),
      })
    case 'page_turned':
      return tv(event.cost > 0 ? 'event.page_turned_paid' : 'event.page_turned', {
        seat,
        count: event.cost,
        book: bookName(view, event.book),
        side: sideName(event.from),
        left: faceThe(event.left, view),
        right: faceThe(event.right, view),
      })
    case 'equipment_bought':
      return tv('event.equipment_bought', {
        seat,
        face: faceThe({ kind: 'equipment', ...event.face }, view),
        side: sideName(event.side),
        book: bookName(view, event.book),
        item: itemThe(event.gold_from, view),
        other: faceThe(event.other_face, view),
      })
    case 'commission_bought':
      return tv('event.commission_bought', {
        seat,
        face: commissionThe(event.face),
        side: sideName(event.side),
        book: bookName(view, event.book),
        other: faceThe(event.other_face, view),
      })
    case 'commission_returned':
      return tv('event.commission_returned', {
        seat,
        side: sideName(event.side),
        book: bookName(view, event.book),
        face: faceThe(event.shows, view),
      })
    case 'book_tops':
      return tv('event.book_tops', {
        book: bookName(view, event.book),
        left: faceThe(event.left, view),
        right: faceThe(event.right, view),
      })
    case 'loaded':
      return tv(event.cost > 0 ? 'event.loaded_paid' : 'event.loaded', {
        seat,
        gem: gemA(event.gem),
        item: itemThe(event.onto, view),
        count: event.cost,
      })
    case 'unloaded':
      return tv('event.unloaded', { seat, gem: gemA(event.gem), item: itemThe(event.from, view) })
    case 'commission_completed':
      return tv('event.commission_completed', { seat, face: commissionThe(event.face) })
    case 'craftsman_hired':
    case 'workshop_taken':
      return tv(`event.${event.type}`, { seat, color: colorName(event.color) })
    case 'game_over':
    case 'stalled':
      return tv(`event.${event.type}`)
    case 'turn_cap_reached':
      return tv('event.turn_cap_reached', { count: event.turns })
  }
}

// ---------------------------------------------------------------- the legal actions

/** One legal action as a label. */
export function actionText(action: Action, view: View): string {
  const me = view.seats[view.current]
  const here = me ? view.books.find((b) => b.city === me.space) : undefined
  const topFace = (side: Side): Face | null => (here ? visibleFace(here[side], side) : null)
  switch (action.type) {
    case 'move': {
      const fee = meetingFee(view, action.to)
      const provisions = me !== undefined && !reachableWithoutCity(view, me.space, action.to)
      const key = provisions ? 'action.move_provisions' : 'action.move'
      const place = spaceThe(view, action.to)
      return fee > 0
        ? tv(`${key}_fee`, { space: place, count: fee })
        : tv(key, { space: place })
    }
    case 'pass':
    case 'take_provisions':
    case 'refill_silver':
    case 'end':
      return tv(`action.${action.type}`)
    case 'turn': {
      // V-A1: the first page turned in a turn is free, each further one costs 1 coin.
      const paid = view.phase.phase === 'act' && view.phase.pages_turned > 0
      return tv(paid ? 'action.turn_paid' : 'action.turn', { side: sideName(action.from), count: 1 })
    }
    case 'buy_equipment':
      return tv('action.buy_equipment', {
        face: faceThe(topFace(action.side), view),
        side: sideName(action.side),
        item: itemThe(action.gold_from, view),
      })
    case 'buy_commission':
      return tv('action.buy_commission', { face: faceThe(topFace(action.side), view), side: sideName(action.side) })
    case 'return': {
      const held = me?.incomplete[action.commission]
      return tv('action.return', {
        face: held ? commissionThe(held) : '?',
        side: sideName(action.side),
      })
    }
    case 'load': {
      const cost = me?.equipment.find((e) => e.item === action.onto)?.load_cost ?? 0
      const options = { gem: gemA(action.gem), item: itemThe(action.onto, view), count: cost }
      return tv(cost > 0 ? 'action.load_paid' : 'action.load', options)
    }
    case 'unload': {
      const gem = me?.equipment.find((e) => e.item === action.from)?.gem
      return tv('action.unload', { item: itemThe(action.from, view), gem: gem ? gemA(gem) : '?' })
    }
    case 'complete': {
      const held = me?.incomplete[action.commission]
      const face = held ? commissionThe(held) : '?'
      // No items to pay from: the requirement is silver coins (V-C7, V-A3).
      if (action.pay_from.length === 0)
        return tv('action.complete_coins', { face, pay: tv('silverCoins', { count: held?.wants.coins || 1 }) })
      const pay = action.pay_from.map((item) => itemName(item, view)).join(', ')
      return tv('action.complete_gems', { face, pay })
    }
  }
}

/** The face showing on a pile: the right pile shows its top card's recto, the left pile its
 * verso (V-C6). */
export function visibleFace(pile: readonly { recto: Face | null; verso: Face | null }[], side: Side): Face | null {
  const top = pile[pile.length - 1]
  if (!top) return null
  return side === 'right' ? top.recto : top.verso
}

/** Coins a seat would pay for ending on `to`: one to each other pawn there, none on a silver
 * mine (V-T2). For the label only; legality is the server's. */
function meetingFee(view: View, to: number): number {
  if (view.spaces[to]?.kind === 'silver_mine') return 0
  return view.seats.filter((p) => p.seat !== view.current && p.space === to).length
}

/** Whether `to` is reachable from `from` without passing a city (V-T1): if not, moving there
 * spends the provisions. For the label only; legality is the server's. */
function reachableWithoutCity(view: View, from: number, to: number): boolean {
  const isCity = (id: number): boolean => view.spaces[id]?.kind.endsWith('city') ?? false
  const seen = new Set<number>([from])
  const queue = [from]
  while (queue.length > 0) {
    const at = queue.shift() as number
    for (const next of view.spaces[at]?.neighbours ?? []) {
      if (next === to) return true
      if (seen.has(next) || isCity(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return false
}
