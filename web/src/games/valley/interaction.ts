// The board's one way of making something clickable: every target element spreads
// `attrs(key, label)`, which carries the test hooks (data-target, data-legal), the
// keyboard and screen-reader affordances, and the click. Children get it from context, so
// no component decides on its own whether something is legal.
import { getContext, setContext } from 'svelte'
import type { HTMLAttributes } from 'svelte/elements'

export interface Interaction {
  /** Attributes for the element standing for `key`; clickable only when legal and not busy. */
  attrs(key: string, label: string): HTMLAttributes<HTMLElement>
  isLegal(key: string): boolean
  /** The hand card held for entombing (clicked, waiting for the tomb), if any. */
  readonly held: number | null
}

const KEY = Symbol('valley-interaction')

export function provideInteraction(interaction: Interaction): void {
  setContext(KEY, interaction)
}

export function useInteraction(): Interaction {
  return getContext<Interaction>(KEY)
}
