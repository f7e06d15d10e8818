// A Valdora move on the board (docs/web.md, "Following the game"): the pawn walks its road
// (Pawn.svelte, along `road`), gems and coins travel between the valley and the seat's
// area, cards between a book and the seat; the places touched are ringed in the seat's
// colour. Places are the `data-spot` names the board gives: `space:ID`, `book:B`,
// `seat:S`, `discard`.
import type { Event } from '../../generated/valdora/Event'
import type { Gem } from '../../generated/valdora/Gem'
import type { View } from '../../generated/valdora/View'
import type { SeatMove } from '../../lib/moves'
import { showEach, type MoveShow } from '../follow/follow'

/** What travels: a gem, a coin, a card. */
export type Token = { kind: 'gem'; gem: Gem } | { kind: 'coin' } | { kind: 'card' }

/**
 * The spaces a pawn walks from `from` to `to`, both included: a shortest road on the
 * valley's graph (the move's event says where it started and ended, not the way).
 */
export function road(view: View, from: number, to: number): number[] {
  const came = new Map<number, number>([[from, from]])
  const queue = [from]
  while (queue.length > 0) {
    const here = queue.shift() as number
    if (here === to) break
    for (const next of view.spaces[here]?.neighbours ?? []) {
      if (came.has(next)) continue
      came.set(next, here)
      queue.push(next)
    }
  }
  if (!came.has(to)) return [from, to]
  const path = [to]
  while (path[0] !== from) path.unshift(came.get(path[0]) as number)
  return path
}

/** The walk of the move that arrived, if it moved a pawn: the seat and its road. */
export function walkOf(move: SeatMove<Event>, view: View): { seat: number; road: number[] } | null {
  const moved = move.events.find((e) => e.type === 'moved')
  return moved?.type === 'moved' ? { seat: moved.seat, road: road(view, moved.from, moved.to) } : null
}

export function showMove(move: SeatMove<Event>, view: View): MoveShow<Token> {
  const seatSpot = (seat: number) => `seat:${seat}`
  const spaceOf = (seat: number) => `space:${view.seats[seat]?.space ?? 0}`
  const shown = showEach<Event, Token>(move.events, (event) => {
    switch (event.type) {
      case 'moved':
        return { spots: [`space:${event.to}`] }
      case 'loaded':
        return {
          spots: [seatSpot(event.seat)],
          flights: [{ from: spaceOf(event.seat), to: seatSpot(event.seat), what: { kind: 'gem', gem: event.gem } }],
        }
      case 'unloaded':
        return {
          spots: ['discard'],
          flights: [{ from: seatSpot(event.seat), to: 'discard', what: { kind: 'gem', gem: event.gem } }],
        }
      case 'equipment_bought':
      case 'commission_bought':
        return {
          spots: [`book:${event.book}`, seatSpot(event.seat)],
          flights: [{ from: `book:${event.book}`, to: seatSpot(event.seat), what: { kind: 'card' } }],
        }
      case 'commission_returned':
        return {
          spots: [`book:${event.book}`],
          flights: [{ from: seatSpot(event.seat), to: `book:${event.book}`, what: { kind: 'card' } }],
        }
      case 'page_turned':
        return { spots: [`book:${event.book}`] }
      case 'meeting_fee':
        return {
          spots: [seatSpot(event.to)],
          flights: [{ from: seatSpot(event.seat), to: seatSpot(event.to), what: { kind: 'coin' } }],
        }
      case 'silver_refilled':
        return {
          spots: [seatSpot(event.seat)],
          flights: [{ from: spaceOf(event.seat), to: seatSpot(event.seat), what: { kind: 'coin' } }],
        }
      case 'provisions_taken':
      case 'commission_completed':
      case 'commission_completed_hidden':
      case 'bonus_tile':
      case 'craftsman_hired':
      case 'workshop_taken':
        return { spots: [seatSpot(event.seat)] }
      default:
        return null
    }
  })
  // Wherever the seat acted, its pawn stands: ring it first, where the label goes.
  const pawn = spaceOf(move.seat)
  return { spots: [pawn, ...shown.spots.filter((s) => s !== pawn)], flights: shown.flights }
}
