// A tomb grouped by scoring category with the points each group makes now (K-G3), the
// same grouping as the engine's scoring (crates/valley/src/scoring.rs), which also sends
// what a set scores (SET_POINTS).
import { SETS, SET_POINTS } from './tables'
import { card } from './cards'
import type { Category } from '../../generated/valley/Category'

export interface TombGroup {
  category: Category
  /** The group's cards, one entry per kind with its copies, in kind order. */
  kinds: { card: number; copies: number }[]
  /** Sets: distinct kinds d (K-G3); starters and uniques: the number of cards. */
  distinct: number
  points: number
}

export interface TombScore {
  groups: TombGroup[]
  total: number
  size: number
}

/** The rulebook's set table: what d distinct kinds of a set score (K-G3, from the engine). */
export function setPoints(distinct: number): number {
  return SET_POINTS[distinct] ?? 0
}

/** Groups in scoring order: starters, uniques, then the sets in data order. */
export function scoreTomb(tomb: number[]): TombScore {
  const order: Category[] = ['starter', 'unique', ...SETS.map((_, i) => i)]
  const groups: TombGroup[] = []
  for (const category of order) {
    const copies = new Map<number, number>()
    for (const id of tomb) if (card(id).category === category) copies.set(id, (copies.get(id) ?? 0) + 1)
    if (copies.size === 0) continue
    const kinds = [...copies].sort((a, b) => a[0] - b[0]).map(([id, n]) => ({ card: id, copies: n }))
    const points =
      typeof category === 'number'
        ? setPoints(kinds.length) // extra copies add nothing (K-G3)
        : kinds.reduce((sum, k) => sum + card(k.card).vp * k.copies, 0) // printed VP
    groups.push({ category, kinds, distinct: kinds.length, points })
  }
  return { groups, total: groups.reduce((sum, g) => sum + g.points, 0), size: tomb.length }
}
