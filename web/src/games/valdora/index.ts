// Valdora's table for the client: the board and its texts (namespace `valdora`).
import type { Action } from '../../generated/valdora/Action'
import type { Event } from '../../generated/valdora/Event'
import type { View } from '../../generated/valdora/View'
import type { GameModule } from '../types'
import Board from './Board.svelte'
import { whyAction } from './why'
import { targetOf } from './targets'
import { endsEarly } from './early'
import Picture from './Picture.svelte'
import { shortLine, type Picture as PictureKind } from './short'
import { actionText, eventText } from './text'

const valdora: GameModule<View, Action, Event, PictureKind> = {
  name: 'valdora',
  Board,
  eventText,
  shortLine,
  Picture,
  actionText,
  whyAction,
  targetOf,
  endsEarly,
}

export default valdora
