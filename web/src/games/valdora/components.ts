// The fixed vocabulary of Valdora as the board draws it: the orders of the view's arrays
// (from the engine's constants, generated) and the colours printed on the components.
import type { Color } from '../../generated/valdora/Color'
import type { Gem } from '../../generated/valdora/Gem'
import type { Item } from '../../generated/valdora/Item'
import { VALDORA_COLORS, VALDORA_GEMS, VALDORA_ITEM_GEMS } from '../../generated/constants'

/** The order of every gem-count array in the view (V-C2). */
export const GEMS = VALDORA_GEMS

/** The order of every colour-count array in the view (V-C8). */
export const COLORS = VALDORA_COLORS

/** The gem `item` loads, or null for horse and cart (any gem for coins, V-C5). */
export const itemGem = (item: Item): Gem | null => VALDORA_ITEM_GEMS[item]

/** Gem fill, and a lighter tone for facets. Every gem also has its own shape (Gem.svelte). */
export const GEM_FILL: Record<Gem, { fill: string; light: string; dark: string }> = {
  gold: { fill: '#e9b824', light: '#fbe38a', dark: '#9a6f07' },
  ruby: { fill: '#c8102e', light: '#f2798a', dark: '#6d0616' },
  sapphire: { fill: '#1d55b8', light: '#7fb0f2', dark: '#0b2a63' },
  amethyst: { fill: '#8a4fbf', light: '#d4b0f2', dark: '#4a1f70' },
  emerald: { fill: '#13925a', light: '#7fe0b0', dark: '#064d2c' },
}

/** Patron, craftsman and workshop colours as printed; each also has its emblem (Crest.svelte). */
export const COLOR_FILL: Record<Color, { fill: string; ink: string }> = {
  grey: { fill: '#a3a7ad', ink: '#1f2226' },
  yellow: { fill: '#f2c81d', ink: '#3d2f00' },
  white: { fill: '#f6f2e6', ink: '#3a3325' },
  violet: { fill: '#8a55b8', ink: '#ffffff' },
  red: { fill: '#c9362b', ink: '#ffffff' },
  blue: { fill: '#2f69b3', ink: '#ffffff' },
  green: { fill: '#3b9447', ink: '#ffffff' },
}
