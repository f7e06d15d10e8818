// How scoring categories look: a colour and a symbol each, so that sets are told apart by
// shape and name as well as colour (colour-blind safe). The rulebook colours Sarcophagi
// red, Weapons green, Builders blue, starters grey and uniques purple; the rest are ours.
import { SETS } from './tables'
import type { Category } from '../../generated/valley/Category'

const COLOURS: Record<string, string> = {
  starter: '#6f6a60',
  unique: '#6d3a91',
  books: '#2a5597',
  amulets: '#137a7a',
  statues: '#7d6318',
  canopic_jars: '#a85a22',
  sarcophagi: '#a8231b',
  mummification: '#6b5840',
  jewelry: '#a87400',
  chambers: '#45458a',
  weapons: '#2d7031',
  tomb_art: '#b01b57',
  priests: '#00625a',
  priestesses: '#9c4c7c',
  builders: '#175fb8',
  artisans: '#734f43',
}

/** The key of a category's look: `starter`, `unique` or a set's key. */
export function lookKey(category: Category): string {
  return typeof category === 'number' ? (SETS[category]?.key ?? 'unique') : category
}

export function categoryColour(category: Category): string {
  return COLOURS[lookKey(category)] ?? '#555'
}

/** SVG paths (24×24, stroked) of each category's symbol. */
export const ICONS: Record<string, string> = {
  starter: 'M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16z M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z',
  unique: 'M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z',
  books: 'M3 5h6a3 3 0 0 1 3 3v12a2 2 0 0 0-2-2H3z M21 5h-6a3 3 0 0 0-3 3v12a2 2 0 0 1 2-2h7z',
  amulets: 'M12 11c-2.5 0-4-2.2-4-4.5S9.5 2 12 2s4 2.2 4 4.5-1.5 4.5-4 4.5z M12 11v11 M5 13h14',
  statues: 'M9 22l1-16 2-4 2 4 1 16z M6 22h12 M10 10h4',
  canopic_jars: 'M9 3h6 M10 3v3 M14 3v3 M8 6h8c3 3 3 11-1 15H9C5 17 5 9 8 6z',
  sarcophagi: 'M9 2h6c3 3 3 7 2 10l1 10H6l1-10C6 9 6 5 9 2z M9 8h6',
  mummification: 'M7 3h10v18H7z M7 7l10 4 M7 12l10 4 M7 17l6 3',
  jewelry: 'M4 6c2 8 14 8 16 0 M7 9l-1 3 M12 11v3 M17 9l1 3 M12 14l-2 3 2 3 2-3z',
  chambers: 'M4 22V9l8-6 8 6v13z M9 22v-7h6v7',
  weapons: 'M5 21l8-8 M13 13c4-1 7-5 7-10-3 3-7 5-10 7 M7 13l4 4 M3 19l2 2',
  tomb_art: 'M2 12c4-6 16-6 20 0-4 6-16 6-20 0z M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z M8 17l-2 4 M12 18v3',
  priests: 'M12 22V9 M12 9c-3 0-4-2-4-4s2-3 4-3 4 1 4 3 M9 22h6',
  priestesses: 'M12 22c0-7-5-11 0-20 5 9 0 13 0 20z M12 8v10',
  builders: 'M4 20V4l16 16z M8 16v-4l4 4z',
  artisans: 'M14 3l7 7-3 3-7-7z M12 8L3 17l4 4 9-9',
}

export function categoryIcon(category: Category): string {
  return ICONS[lookKey(category)] ?? ICONS.unique
}
