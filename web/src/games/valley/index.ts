// Valley of the Kings' module for the shell: its board and its texts (namespace `valley`).
import type { Action } from '../../generated/valley/Action'
import type { Event } from '../../generated/valley/Event'
import type { View } from '../../generated/valley/View'
import type { GameModule } from '../types'
import Board from './Board.svelte'
import { whyAction } from './why'
import { targetOf } from './targets'
import { endsEarly } from './early'
import { useData } from './tables'
import Picture from './Picture.svelte'
import { shortLine, type Picture as PictureKind } from './short'
import { actionText, eventText } from './text'

const valley: GameModule<View, Action, Event, PictureKind> = {
  name: 'valley',
  Board,
  eventText,
  shortLine,
  Picture,
  actionText,
  whyAction,
  targetOf,
  endsEarly,
  useData,
}

export default valley
