// The shape of a position in web/fixtures/ (scripts/web-fixtures writes them from the
// engine): the view of the seat to move and a spectator's, that seat's legal actions with
// the server's descriptions, and the events of the move that led there. `name` is the
// file's name, added by whoever loads it.
import type { Legal } from './types'

export interface Fixture<View, Action, Event> {
  name: string
  game: string
  /** The seat to move (seat 0 once the game is over). */
  seat: number
  view: View
  spectator_view: View
  legal: Legal<Action>[] | null
  last_events: Event[]
}
