// What each legal action concerns on the table. The board never decides legality: it draws
// every action the server listed on the object `targetOf` names, groups the actions per
// object (kit/targets.ts), and a click sends the group's one action or offers the group as a
// choice.
import type { Action } from '../../generated/pandoria/Action'
import type { View } from '../../generated/pandoria/View'
import type { Resource } from '../../generated/pandoria/Resource'
import { neighbour } from './board'

/** A double-tile placement: from the hand (P-T1) or drawn by Terrain (P-SP13). */
export type DoublePlacement =
  | Extract<Action, { type: 'place_tile' }>
  | Extract<Action, { type: 'place_drawn' }>

export type FigureMove = Extract<Action, { type: 'move_figure' }>

/**
 * The key of the table object an action concerns:
 * - `cell:N` — a map cell: tiles, castles and figures placed, taken back, moved from, raged on;
 * - `card:N` — a hand card (cast as a spell or built);
 * - `slot:N` — one of the player's own building slots (a monument covers it, P-T6);
 * - `market:N` — a market card (bought, or taken by Acquire);
 * - `spell:N` — seat N's last spell (Adopt copies it, P-SP2);
 * - `resource:R` — the player's own resource track (Conjure sets it, P-SP5);
 * - `stack:single` / `stack:double` — the tile stacks Terrain draws from (P-SP13);
 * - `bar:skip` / `bar:done` — buttons of the action bar, for decisions without an object.
 */
export function targetOf(action: Action, view: View): string {
  // The view is part of the contract so that a target may one day depend on the position;
  // today every action names its object itself.
  void view
  switch (action.type) {
    case 'place_tile':
    case 'place_castle':
    case 'place_figure':
    case 'remove_figure':
    case 'rage_on':
    case 'place_drawn':
      return cellKey(action.at)
    case 'move_figure':
      return cellKey(action.from)
    case 'cast_spell':
    case 'build':
      return `card:${action.card}`
    case 'monument':
      return `slot:${action.slot}`
    case 'take_card':
    case 'buy':
      return `market:${action.market}`
    case 'adopt_from':
      return `spell:${action.seat}`
    case 'set_resource':
      return resourceKey(action.resource)
    case 'draw_from':
      return `stack:${action.single ? 'single' : 'double'}`
    case 'skip':
    case 'done':
      return `bar:${action.type}`
  }
}

export function cellKey(cell: number): string {
  return `cell:${cell}`
}

export function resourceKey(resource: Resource): string {
  return `resource:${resource}`
}

/**
 * Whether an action places a double tile, whose second half lies in direction `dir`. A
 * single tile drawn by Terrain is also a `place_drawn` (with `dir` 0) but has no second
 * half, so the pending step tells them apart.
 */
export function isDoublePlacement(action: Action, view: View): action is DoublePlacement {
  if (action.type === 'place_tile') return true
  if (action.type !== 'place_drawn') return false
  return view.pending.step === 'terrain_place' && !view.pending.single
}

/** The cell the second half of a double placement covers (P-G6). */
export function secondCell(placement: DoublePlacement): number | undefined {
  return neighbour(placement.at, placement.dir)
}

/** The double placements among `actions` (a group, or all legal actions). */
export function doublePlacements(actions: readonly Action[], view: View): DoublePlacement[] {
  return actions.filter((a): a is DoublePlacement => isDoublePlacement(a, view))
}

/** The figure moves among `actions`. */
export function figureMoves(actions: readonly Action[]): FigureMove[] {
  return actions.filter((a): a is FigureMove => a.type === 'move_figure')
}

/**
 * The target a group should be activated with: one action is sent at once, except a double
 * placement, which is always previewed first (a tile is never placed without seeing it).
 */
export function sendsAtOnce(group: readonly Action[], view: View): boolean {
  return group.length === 1 && !isDoublePlacement(group[0], view)
}

/** Equal actions (the server's JSON has no other identity). */
export function sameAction(a: Action, b: Action): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
