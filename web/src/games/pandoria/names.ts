// Names of the game's things in the current language (namespace `pandoria`): terrains,
// realms, cards, tiles, cells. Sentences about events and actions build on these (texts.ts).
import { t } from '../../lib/i18n.svelte'
import type { Realm } from '../../generated/pandoria/Realm'
import type { Resource } from '../../generated/pandoria/Resource'
import type { Terrain } from '../../generated/pandoria/Terrain'
import type { View } from '../../generated/pandoria/View'
import { BOARD, cellLabel } from './board'
import {
  CARDS,
  DOUBLE_TILES,
  SINGLE_TILES,
  type BuildingId,
  type CardData,
  type HexData,
  type SpellId,
} from './tables'

export function terrainName(terrain: Terrain): string {
  return t(`pandoria:terrain.${terrain}`)
}

/** A terrain inside a sentence ("the forest region"). */
export function terrainWord(terrain: Terrain): string {
  return t(`pandoria:terrainWord.${terrain}`)
}

export function resourceName(resource: Resource): string {
  return t(`pandoria:resource.${resource}`)
}

/** "3 crystals", "1 gold", "2 points". */
export function amount(what: Resource | 'points', count: number): string {
  return t(`pandoria:amount.${what}`, { count })
}

export function realmName(realm: Realm): string {
  return t(`pandoria:realm.${realm}`)
}

export function spellName(spell: SpellId): string {
  return t(`pandoria:spell.${spell}`)
}

export function buildingName(building: BuildingId): string {
  return t(`pandoria:building.${building}`)
}

export function card(id: number): CardData | undefined {
  return CARDS[id]
}

/** The spell half with its printed value (P-D1): "Muster 2", "Conjure 8", "Flee". */
export function spellLabel(id: number): string {
  const c = CARDS[id]
  if (!c) return t('pandoria:ui.unknownCard')
  return c.spellValue ? `${spellName(c.spell)} ${c.spellValue}` : spellName(c.spell)
}

/** The building's parameter as printed (P-D1): "−2", "+1", "2:1", or "". */
export function buildingParameter(c: CardData): string {
  switch (c.building) {
    case 'bank':
    case 'carpenter':
    case 'school_of_wizardry':
      return `−${c.buildingValue}`
    case 'shrine':
      return `+${c.buildingValue}`
    case 'market':
      return `${c.buildingValue}:1`
    case 'lumberyard':
    case 'repository':
    case 'vault':
      return `${c.buildingRate[0]}:${c.buildingRate[1]}`
    default:
      return ''
  }
}

/** The building half with its printed parameter: "Bank −2", "Vault 3:2", "Statue". */
export function buildingLabel(id: number): string {
  const c = CARDS[id]
  if (!c) return t('pandoria:ui.unknownCard')
  const parameter = buildingParameter(c)
  return parameter ? `${buildingName(c.building)} ${parameter}` : buildingName(c.building)
}

/** A whole card: "Muster 2 / Bank −2". */
export function cardName(id: number): string {
  return t('pandoria:card.name', { spell: spellLabel(id), building: buildingLabel(id) })
}

/** What the spell half does, with this card's value. */
export function spellText(id: number): string {
  const c = CARDS[id]
  if (!c) return ''
  return t(`pandoria:spellText.${c.spell}`, { count: c.spellValue, value: c.spellValue })
}

/** What the building half does, with this card's parameter. */
export function buildingText(id: number): string {
  const c = CARDS[id]
  if (!c) return ''
  const [n, p] = c.buildingRate
  // Plurals follow the number the sentence counts: the points of a rate, else the value.
  const rate = c.building === 'lumberyard' || c.building === 'repository' || c.building === 'vault'
  return t(`pandoria:buildingText.${c.building}`, { count: rate ? p : c.buildingValue, value: c.buildingValue, n, p })
}

/** A card in full, for tooltips and the choice popover. */
export function cardDescription(id: number): string {
  const c = CARDS[id]
  if (!c) return t('pandoria:ui.unknownCard')
  return t('pandoria:card.description', {
    spell: spellLabel(id),
    spellText: spellText(id),
    crystal: amount('crystal', c.crystalCost),
    building: buildingLabel(id),
    buildingText: buildingText(id),
    wood: amount('wood', c.woodCost),
    gold: amount('gold', c.goldPrice),
  })
}

/** One hex of a tile: "Forest ●●" (the dots are its symbols). */
export function hexName(hex: HexData): string {
  return `${terrainName(hex.terrain)} ${'●'.repeat(hex.symbols)}`
}

/** A double tile: "D12 (Forest ● + Hill ●●)". */
export function doubleTileName(tile: number): string {
  const data = DOUBLE_TILES[tile]
  if (!data) return t('pandoria:ui.unknownTile')
  return t('pandoria:tile.double', { id: data.id, a: hexName(data.a), b: hexName(data.b) })
}

/** A single tile: "E3 (Hill ●)". */
export function singleTileName(tile: number): string {
  const data = SINGLE_TILES[tile]
  if (!data) return t('pandoria:ui.unknownTile')
  return t('pandoria:tile.single', { id: data.id, a: hexName(data) })
}

/** A cell for sentences: "E6", "E6 (ship)", "E6 (castle)". */
export function placeName(cell: number, view: View): string {
  const label = cellLabel(cell)
  if (BOARD[cell]?.kind === 'ship') return t('pandoria:place.ship', { cell: label })
  if (view.cells[cell]?.castle != null) return t('pandoria:place.castle', { cell: label })
  return label
}

/** A compass direction on the drawn map (flat-top hexes, north up, P-G1). */
export function directionName(dir: number): string {
  return t(`pandoria:direction.d${((dir % 6) + 6) % 6}`)
}

/** A seat's display name, or "Seat 3" when the shell gave none. */
export function seatName(seat: number, names: readonly string[]): string {
  return names[seat] ?? t('pandoria:ui.seat', { seat: seat + 1 })
}

/** Everything visible on a cell, for its tooltip and label: "E6 · Forest ●● · closed region · Ana's figure". */
export function cellDescription(cell: number, view: View, names: readonly string[]): string {
  const here = BOARD[cell]
  const seen = view.cells[cell]
  const parts = [cellLabel(cell)]
  if (seen?.terrain) parts.push(hexName({ terrain: seen.terrain, symbols: seen.symbols }))
  else if (here?.kind === 'exit' && here.terrain)
    parts.push(t('pandoria:cellKind.exit', { terrain: terrainName(here.terrain) }))
  else if (here && seen?.castle == null) parts.push(t(`pandoria:cellKind.${here.kind}`))
  if (seen?.closed) parts.push(t('pandoria:ui.closed'))
  if (seen?.castle != null) parts.push(t('pandoria:ui.castleOf', { name: seatName(seen.castle, names) }))
  if (seen?.figure) {
    const [owner, leader] = seen.figure
    parts.push(t(leader ? 'pandoria:ui.leaderOf' : 'pandoria:ui.figureOf', { name: seatName(owner, names) }))
  }
  return parts.join(' · ')
}
