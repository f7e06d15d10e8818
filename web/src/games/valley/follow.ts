// A Valley of the Kings move on the board (docs/web.md, "Following the game"): a bought
// card travels from its pyramid slot to the seat's discard pile, an entombed one from the
// hand to the tomb, a given one from seat to seat; a crumbled card falls on its own
// (Pyramid.svelte). The places touched are ringed in the seat's colour. Places are the
// `data-spot` names the board gives: `slot:N`, `boneyard`, `seat:S`, `hand:S`,
// `discard:S`, `tomb:S`.
import type { Event } from '../../generated/valley/Event'
import type { SeatMove } from '../../lib/moves'
import { showEach, type MoveShow } from '../follow/follow'

/** What travels: a card, by its id. */
export interface Token {
  card: number
}

export function showMove(move: SeatMove<Event>): MoveShow<Token> {
  return showEach<Event, Token>(move.events, (event) => {
    switch (event.type) {
      case 'bought':
        return {
          spots: [`slot:${event.slot}`, `discard:${event.seat}`],
          flights: [{ from: `slot:${event.slot}`, to: `discard:${event.seat}`, what: { card: event.card } }],
        }
      case 'entombed':
        return {
          spots: [`tomb:${event.seat}`],
          flights: [{ from: `hand:${event.seat}`, to: `tomb:${event.seat}`, what: { card: event.card } }],
        }
      case 'discarded':
        return {
          spots: [`discard:${event.seat}`],
          flights: [{ from: `hand:${event.seat}`, to: `discard:${event.seat}`, what: { card: event.card } }],
        }
      case 'sacrificed':
        return {
          spots: ['boneyard'],
          flights: [{ from: `seat:${event.seat}`, to: 'boneyard', what: { card: event.card } }],
        }
      case 'given':
        return {
          spots: [`seat:${event.to}`],
          flights: [{ from: `seat:${event.from}`, to: `seat:${event.to}`, what: { card: event.card } }],
        }
      case 'crumbled':
        return { spots: [`slot:${event.to}`] }
      case 'reserved':
        return { spots: [`slot:${event.slot}`] }
      case 'action_played':
      case 'executed':
      case 'taken':
      case 'revealed':
      case 'reacted':
        return { spots: [`seat:${event.seat}`] }
      default:
        return null
    }
  })
}
