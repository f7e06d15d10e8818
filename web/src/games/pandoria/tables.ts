// The static tables the board draws from (see ../componentData.ts): the map with its geometry,
// the tiles and the cards of a Pandoria data file, as the engine compiles them
// (crates/pandoria/src/tables.rs; cards and tiles by their index in the file, which is the id
// the views, actions and events carry). The view names cells by index only, so the client
// needs the static map to draw them; nothing is parsed or copied here.
import shippedJson from '../../generated/tables/pandoria.json'
import type { Building } from '../../generated/pandoria/Building'
import type { Spell } from '../../generated/pandoria/Spell'
import type { Tables } from '../../generated/pandoria/Tables'
import { tablesOr } from '../componentData'

export type { BoardCell } from '../../generated/pandoria/BoardCell'
export type { CardData } from '../../generated/pandoria/CardData'
export type { DoubleTileData } from '../../generated/pandoria/DoubleTileData'
export type { HexData } from '../../generated/pandoria/HexData'
export type { SingleTileData } from '../../generated/pandoria/SingleTileData'
export type SpellId = Spell
export type BuildingId = Building

// The generated JSON is of the generated type Tables (tests/generated_types.rs writes both).
const shipped = shippedJson as unknown as Tables

/** The tables drawn from now: the shipped data's, or a game's corrected data's (`useTables`). */
export let TABLES: Tables = shipped
/** The map's rows as the data file draws them (odd-q offset grid; see board.ts). */
export let MAP_ROWS = shipped.mapRows
export let DOUBLE_TILES = shipped.doubleTiles
export let SINGLE_TILES = shipped.singleTiles
export let CARDS = shipped.cards
/** The spells and buildings the cards carry, in name order. */
export let SPELL_IDS = shipped.spellIds
export let BUILDING_IDS = shipped.buildingIds

/** Draws from `tables` (a game's on corrected data, from the server), or the shipped data's (`null`). */
export function useTables(tables: unknown): void {
  const t = tablesOr(shipped, tables)
  TABLES = t
  MAP_ROWS = t.mapRows
  DOUBLE_TILES = t.doubleTiles
  SINGLE_TILES = t.singleTiles
  CARDS = t.cards
  SPELL_IDS = t.spellIds
  BUILDING_IDS = t.buildingIds
}
