// Valdora's table for the client: the board and its texts (namespace `valdora`).
import type { Action } from '../../generated/valdora/Action'
import type { Event } from '../../generated/valdora/Event'
import type { View } from '../../generated/valdora/View'
import type { GameModule } from '../types'
import Board from './Board.svelte'
import { whyAction } from './why'
import { endsEarly } from './early'
import { actionText, eventText } from './text'

const valdora: GameModule<View, Action, Event> = {
  name: 'valdora',
  Board,
  eventText,
  actionText,
  whyAction,
  endsEarly,
}

export default valdora
