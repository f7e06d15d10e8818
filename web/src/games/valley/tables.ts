// The card tables the board draws from (see ../componentData.ts): the shipped data's, or the
// corrected data's of the game on the table, as the engine compiles them (crates/valley/src/tables.rs).
import shippedJson from '../../generated/tables/valley.json'
import type { CardData } from '../../generated/valley/CardData'
import type { PharaohData } from '../../generated/valley/PharaohData'
import type { SetData } from '../../generated/valley/SetData'
import type { Tables } from '../../generated/valley/Tables'
import { tablesOr } from '../componentData'

// The generated JSON is of the generated type Tables (tests/generated_types.rs writes both).
const shipped = shippedJson as unknown as Tables

/** Scoring sets in data order (a card's `category` number indexes this list). */
export let SETS: readonly SetData[] = shipped.sets
/** Card kinds in data order: a CardId of the view indexes this list. */
export let CARDS: readonly CardData[] = shipped.cards
/** Pharaoh cards in data order (SeatView.pharaoh indexes this list). */
export let PHARAOHS: readonly PharaohData[] = shipped.pharaohs
/** K-G3: what a set of d distinct kinds scores, indexed by d. */
export let SET_POINTS: readonly number[] = shipped.setPoints

/** Draws from `tables` (a game's on corrected data, from the server), or the shipped data's (`null`). */
export function useData(tables: unknown): void {
  const table = tablesOr(shipped, tables)
  SETS = table.sets
  CARDS = table.cards
  PHARAOHS = table.pharaohs
  SET_POINTS = table.setPoints
}
