// A Pandoria move on the board (docs/web.md, "Following the game"): a tile drops onto its
// hexes and pieces appear on their cells (MapCell.svelte, MapView.svelte), a card travels
// from the market to the seat's hand; the places touched are ringed in the seat's colour.
// Places are the `data-spot` names the board gives: `cell:N`, `market:N`, `seat:S`.
import type { Event } from '../../generated/pandoria/Event'
import type { SeatMove } from '../../lib/moves'
import { showEach, type MoveShow } from '../follow/follow'

/** What travels: a card of the market, by its id. */
export interface Token {
  card: number
}

export function showMove(move: SeatMove<Event>): MoveShow<Token> {
  return showEach<Event, Token>(move.events, (event) => {
    switch (event.type) {
      case 'tile_placed':
        return { spots: [`cell:${event.at}`] }
      case 'castle_placed':
      case 'figure_placed':
      case 'rage_on':
        return { spots: [`cell:${event.at}`] }
      case 'figure_moved':
        return { spots: [`cell:${event.to}`] }
      case 'figure_removed':
        return { spots: [`cell:${event.at}`] }
      case 'card_taken':
      case 'card_bought':
        return {
          spots: [`seat:${event.seat}`],
          // The card has left the market (a new one may lie there now): it is named by the
          // event, and travels from the slot it was in.
          flights: [{ from: `market:${event.market}`, to: `seat:${event.seat}`, what: { card: event.card } }],
        }
      case 'building_built':
      case 'monument_built':
      case 'spell_cast':
      case 'spell_adopted':
        return { spots: [`seat:${event.seat}`] }
      default:
        return null
    }
  })
}
