// Pandoria's module for the shell: its board and its texts (namespace `pandoria`).
import type { Action } from '../../generated/pandoria/Action'
import type { Event } from '../../generated/pandoria/Event'
import type { View } from '../../generated/pandoria/View'
import type { GameModule } from '../types'
import Board from './Board.svelte'
import { whyAction } from './why'
import { targetOf } from './targets'
import { layOutBoard } from './board'
import { useTables } from './tables'
import Picture from './Picture.svelte'
import { shortLine, type Picture as PictureKind } from './short'
import { actionText, eventText } from './texts'

const pandoria: GameModule<View, Action, Event, PictureKind> = {
  name: 'pandoria',
  Board,
  eventText,
  shortLine,
  Picture,
  actionText,
  whyAction,
  targetOf,
  useData(tables) {
    useTables(tables)
    layOutBoard()
  },
}

export default pandoria
