// The card table the board draws from: the shipped data (data/valley.toml, read at build
// time) or the corrected data of the game on the table (`useData`, from the server or a
// record). These are module bindings that `useData` replaces, so every importer reads the
// table of the game open now: the shell opens one table at a time and installs its data
// before the board mounts.
import shippedData from '../../../../data/valley.toml?raw'
import type { CardData, PharaohData, SetData } from './carddata'
import { cardTable, type CardTable } from './cardTable'

const shipped = cardTable(shippedData)
let current: string | null = null

/** Scoring sets in data order (a card's `category` number indexes this list). */
export let SETS: readonly SetData[] = shipped.sets
/** Card kinds in data order: a CardId of the view indexes this list. */
export let CARDS: readonly CardData[] = shipped.cards
/** Pharaoh cards in data order (SeatView.pharaoh indexes this list). */
export let PHARAOHS: readonly PharaohData[] = shipped.pharaohs

/** Draws from the data file `toml` (a game's corrected data), or the shipped data (`null`). */
export function useData(toml: string | null): void {
  if (toml === current) return
  const table: CardTable = toml === null ? shipped : cardTable(toml)
  current = toml
  SETS = table.sets
  CARDS = table.cards
  PHARAOHS = table.pharaohs
}
