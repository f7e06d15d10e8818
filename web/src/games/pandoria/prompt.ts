// What the seat to move is deciding, in words: the phase (P-T1–P-T12) or, during a spell,
// its pending step (P-SP1–P-SP13).
import { t } from '../../lib/i18n.svelte'
import type { View } from '../../generated/pandoria/View'
import { DOUBLE_TILES, SINGLE_TILES } from './tables'
import { doubleTileName, singleTileName } from './names'

export function promptText(view: View): string {
  if (view.phase !== 'spell') return t(`pandoria:phase.${view.phase}`)
  const pending = view.pending
  switch (pending.step) {
    case 'acquire':
    case 'clone':
    case 'muster':
    case 'teleport':
      return t(`pandoria:pending.${pending.step}`, { count: pending.left })
    case 'conjure':
      return t('pandoria:pending.conjure', { value: pending.value })
    case 'rage':
      return t('pandoria:pending.rage', { value: pending.weight })
    case 'terrain_place':
      return t('pandoria:pending.terrain_place', {
        tile: pending.single ? singleTileName(pending.tile) : doubleTileName(pending.tile),
      })
    case 'none':
      return t(`pandoria:phase.${view.phase}`)
    default:
      return t(`pandoria:pending.${pending.step}`)
  }
}

/** The tile Terrain drew and is waiting to place (public, P-SP13), as hexes to draw. */
export function drawnTileHexes(view: View) {
  const pending = view.pending
  if (pending.step !== 'terrain_place') return null
  if (pending.single) {
    const tile = SINGLE_TILES[pending.tile]
    return tile ? { hexes: [tile], label: singleTileName(pending.tile) } : null
  }
  const tile = DOUBLE_TILES[pending.tile]
  return tile ? { hexes: [tile.a, tile.b], label: doubleTileName(pending.tile) } : null
}
