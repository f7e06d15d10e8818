// Colours of the table. Terrains differ in colour *and* in pattern (pattern ids in
// TerrainPatterns.svelte), and each resource has its own icon, so no information rests on
// colour alone.
import type { Resource } from '../../generated/pandoria/Resource'
import type { Terrain } from '../../generated/pandoria/Terrain'

export const TERRAIN_FILL: Record<Terrain, string> = {
  forest: '#4f8a3a',
  hill: '#dcb258',
  mountain: '#9ea3b4',
  city: '#c7654a',
}

/** The resource a terrain yields (P-G4); a city yields points. */
export const TERRAIN_YIELD: Record<Terrain, Resource | 'points'> = {
  forest: 'wood',
  hill: 'gold',
  mountain: 'crystal',
  city: 'points',
}

export const RESOURCE_COLOUR: Record<Resource, string> = {
  crystal: '#5fb7d4',
  gold: '#e2b33c',
  wood: '#9a6435',
}

export const RESOURCES: readonly Resource[] = ['crystal', 'gold', 'wood']

export const LAKE_FILL = '#79b8dc'
export const FIELD_FILL = '#efe4c4'
export const BORDER_FILL = '#6d6459'

/** The SVG pattern drawn over a terrain's colour. */
export function terrainPattern(terrain: Terrain): string {
  return `url(#pandoria-pattern-${terrain})`
}
