// What fell where: the client gets views, not events, so the pyramid's crumbling (K-T17)
// is read from the difference between two successive pyramids.
import type { SlotCard } from '../../generated/valley/SlotCard'

type Pyramid = readonly (SlotCard | null)[]

/** K-Z10: the slots diagonally above each slot (which may fall into a gap there). */
export const ABOVE: readonly (readonly number[])[] = [[3], [3, 4], [4], [5], [5], []]

export interface PyramidChange {
  /** A card fell from `from` into `to` (K-T17). */
  falls: { from: number; to: number }[]
  /** Slots filled from the stock (K-T14). */
  refilled: number[]
  /** Slots that were occupied and are empty now. */
  emptied: number[]
}

export const NO_CHANGE: PyramidChange = { falls: [], refilled: [], emptied: [] }

const same = (a: SlotCard | null | undefined, b: SlotCard | null | undefined) =>
  (a?.card ?? null) === (b?.card ?? null)

/**
 * Reads falls bottom-up: a slot whose card is new and equals the old card of a slot above
 * it that changed, fell from there (a chain B1 ← M0 ← T reads as two falls). Any other new
 * card came from the stock. Copies of one kind may make a guess wrong; it only draws.
 */
export function pyramidChange(before: Pyramid, after: Pyramid): PyramidChange {
  const falls: PyramidChange['falls'] = []
  const refilled: number[] = []
  const emptied: number[] = []
  const usedSources = new Set<number>()
  for (let slot = 0; slot < 6; slot++) {
    const now = after[slot]
    if (!now) {
      if (before[slot]) emptied.push(slot)
      continue
    }
    if (same(before[slot], now)) continue
    const source = ABOVE[slot].find(
      (a) => !usedSources.has(a) && before[a]?.card === now.card && !same(before[a], after[a]),
    )
    if (source === undefined) refilled.push(slot)
    else {
      usedSources.add(source)
      falls.push({ from: source, to: slot })
    }
  }
  return { falls, refilled, emptied }
}

export function samePyramid(a: Pyramid, b: Pyramid): boolean {
  return a.every((slot, i) => same(slot, b[i]) && (slot?.reserved_by ?? -1) === (b[i]?.reserved_by ?? -1))
}
