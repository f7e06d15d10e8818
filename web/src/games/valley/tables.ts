// The card table the board draws from (see ../componentData.ts): the shipped data's or the
// corrected data's of the game on the table.
import shippedData from '../../../../data/valley.toml?raw'
import { componentTables } from '../componentData'
import type { CardData, PharaohData, SetData } from './carddata'
import { cardTable } from './cardTable'

const tablesOf = componentTables(shippedData, cardTable)
const shipped = tablesOf(null)

/** Scoring sets in data order (a card's `category` number indexes this list). */
export let SETS: readonly SetData[] = shipped.sets
/** Card kinds in data order: a CardId of the view indexes this list. */
export let CARDS: readonly CardData[] = shipped.cards
/** Pharaoh cards in data order (SeatView.pharaoh indexes this list). */
export let PHARAOHS: readonly PharaohData[] = shipped.pharaohs

/** Draws from the data file `toml` (a game's corrected data), or the shipped data (`null`). */
export function useData(toml: string | null): void {
  const table = tablesOf(toml)
  SETS = table.sets
  CARDS = table.cards
  PHARAOHS = table.pharaohs
}
