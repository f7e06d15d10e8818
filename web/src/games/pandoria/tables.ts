// The static tables the board draws from (see ../componentData.ts): the map, the tiles and
// the cards of a Pandoria data file, exactly as the engine reads them (cards and tiles by
// their index in the file, which is the id the views, actions and events carry). The view
// names cells by index only, so the client needs the static map to draw them; numbers are
// never copied by hand.
import { parse } from 'smol-toml'
import shippedData from '../../../../data/pandoria.toml?raw'
import { componentTables } from '../componentData'
import type { Building } from '../../generated/pandoria/Building'
import type { Realm } from '../../generated/pandoria/Realm'
import type { Spell } from '../../generated/pandoria/Spell'
import type { Terrain } from '../../generated/pandoria/Terrain'

export type SpellId = Spell
export type BuildingId = Building

export interface HexData { terrain: Terrain; symbols: number }
export interface PrintedHex extends HexData { col: number; row: number }
export interface DoubleTileData { id: string; a: HexData; b: HexData }
export interface SingleTileData extends HexData { id: string }
export interface CardData {
  id: string
  spell: SpellId
  /** n, v or m of the spell (P-D1); 0 when it has none. */
  spellValue: number
  crystalCost: number
  building: BuildingId
  /** k, p or m of the building; 0 when it has none. */
  buildingValue: number
  /** (n, p) of a rate building; [3, 1] otherwise. */
  buildingRate: readonly [number, number]
  woodCost: number
  goldPrice: number
  realm: Realm | null
  markedA: boolean
}

/** A data file as far as the client reads it (crates/pandoria/src/data.rs). */
interface PandoriaFile {
  board: { map: string[]; printed: PrintedHex[] }
  double_tiles: { tiles: DoubleTileData[] }
  single_tiles: { tiles: SingleTileData[] }
  card: {
    id: string
    spell: SpellId
    spell_value?: number
    crystal_cost: number
    building: BuildingId
    building_value?: number
    building_rate?: [number, number]
    wood_cost: number
    gold_price: number
    realm?: Realm
    marked_a?: boolean
  }[]
}

interface Tables {
  mapRows: readonly string[]
  printedSymbols: readonly PrintedHex[]
  doubleTiles: readonly DoubleTileData[]
  singleTiles: readonly SingleTileData[]
  cards: readonly CardData[]
  spellIds: readonly SpellId[]
  buildingIds: readonly BuildingId[]
}

const hex = (entry: HexData): HexData => ({ terrain: entry.terrain, symbols: entry.symbols })
const double = (t: DoubleTileData): DoubleTileData => ({ id: t.id, a: hex(t.a), b: hex(t.b) })

function tables(toml: string): Tables {
  const data = parse(toml) as unknown as PandoriaFile
  const cards = data.card.map(
    (c): CardData => ({
      id: c.id,
      spell: c.spell,
      spellValue: c.spell_value ?? 0,
      crystalCost: c.crystal_cost,
      building: c.building,
      buildingValue: c.building_value ?? 0,
      // (n, p) of a rate building; (3, 1) otherwise, as the engine stores it (P-B3–P-B5).
      buildingRate: c.building_rate ?? [3, 1],
      woodCost: c.wood_cost,
      goldPrice: c.gold_price,
      realm: c.realm ?? null,
      markedA: c.marked_a ?? false,
    }),
  )
  return {
    mapRows: data.board.map,
    printedSymbols: data.board.printed.map((p) => ({ col: p.col, row: p.row, ...hex(p) })),
    doubleTiles: data.double_tiles.tiles.map(double),
    singleTiles: data.single_tiles.tiles.map((t) => ({ id: t.id, ...hex(t) })),
    cards,
    spellIds: [...new Set(cards.map((c) => c.spell))].sort(),
    buildingIds: [...new Set(cards.map((c) => c.building))].sort(),
  }
}

const tablesOf = componentTables(shippedData, tables)
const shipped = tablesOf(null)

/** The map's rows as the data file draws them (odd-q offset grid; see board.ts). */
export let MAP_ROWS = shipped.mapRows
export let PRINTED_SYMBOLS = shipped.printedSymbols
export let DOUBLE_TILES = shipped.doubleTiles
export let SINGLE_TILES = shipped.singleTiles
export let CARDS = shipped.cards
/** The spells and buildings the cards carry, in name order. */
export let SPELL_IDS = shipped.spellIds
export let BUILDING_IDS = shipped.buildingIds

/** Draws from the data file `toml` (a game's corrected data), or the shipped data (`null`). */
export function useTables(toml: string | null): void {
  const t = tablesOf(toml)
  MAP_ROWS = t.mapRows
  PRINTED_SYMBOLS = t.printedSymbols
  DOUBLE_TILES = t.doubleTiles
  SINGLE_TILES = t.singleTiles
  CARDS = t.cards
  SPELL_IDS = t.spellIds
  BUILDING_IDS = t.buildingIds
}
