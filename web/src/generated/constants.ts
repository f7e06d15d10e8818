// Generated from the Rust constants by tests/generated_types.rs (scripts/generate-types): do not edit.
import type { Color } from './valdora/Color'
import type { Gem } from './valdora/Gem'
import type { Item } from './valdora/Item'

/** The longest chat message, in characters (Unicode code points): `server::chat::MAX_CHAT_CHARS`. */
export const MAX_CHAT_CHARS = 500

/** The most seats one request hands to an account or names for a browser: `server::MAX_CLAIMED`. */
export const MAX_CLAIMED = 100

/** The run-outs of a seat's clock after which a bot plays it to the end: `server::store::MAX_RUN_OUTS`. */
export const MAX_RUN_OUTS = 3

/** Valdora: the order of every gem-count array in the view (V-C2, `Gem::ALL`). */
export const VALDORA_GEMS: readonly Gem[] = ['gold', 'ruby', 'sapphire', 'amethyst', 'emerald']

/** Valdora: the order of every colour-count array in the view (V-C8, `Color::ALL`). */
export const VALDORA_COLORS: readonly Color[] = ['grey', 'yellow', 'white', 'violet', 'red', 'blue', 'green']

/** Valdora: the gem each pan and tool loads; null for horse and cart, which load any (V-C5). */
export const VALDORA_ITEM_GEMS: Readonly<Record<Item, Gem | null>> = {
  gold_pan: 'gold',
  ruby_tool: 'ruby',
  sapphire_tool: 'sapphire',
  amethyst_tool: 'amethyst',
  emerald_tool: 'emerald',
  horse: null,
  cart: null,
}
