// What a move looks like on a board (docs/web.md, "Following the game"): the places it
// touched, to ring in the mover's colour, and the components that travel between two
// places. Places are the board's own `data-spot` names ("space:12", "seat:2"), so the
// shared layer (MoveLayer.svelte) finds them without knowing the game.
import type { SeatMove } from '../../lib/moves'

/** A component travelling from one place to another; `what` tells the board what to draw. */
export interface Flight<What> {
  from: string
  to: string
  what: What
}

/** A move on the board: where to ring, what travels. */
export interface MoveShow<What> {
  spots: string[]
  flights: Flight<What>[]
}

/** How one game turns a move's events into a show, reading the position it led to. */
export type ShowMove<View, Event, What> = (move: SeatMove<Event>, view: View) => MoveShow<What>

/** The show of several events: each event's places and flights, each place once. */
export function showEach<Event, What>(
  events: Event[],
  one: (event: Event) => Partial<MoveShow<What>> | null,
): MoveShow<What> {
  const spots: string[] = []
  const flights: Flight<What>[] = []
  for (const event of events) {
    const shown = one(event)
    if (!shown) continue
    for (const spot of shown.spots ?? []) if (!spots.includes(spot)) spots.push(spot)
    flights.push(...(shown.flights ?? []))
  }
  return { spots, flights }
}

/** How long a component travels, in ms (issue 28: 400–700 ms, long enough to follow). */
export const FLIGHT_MS = 600
