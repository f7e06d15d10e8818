// How a drawn thing becomes clickable: the board provides `Targets` (from the grouped legal
// actions) through Svelte context, and every component spreads `targets.attrs(key)` onto the
// element that draws the thing. Only keys with legal actions get attributes, so nothing else
// can be clicked or focused, and nothing at all while the board is busy.
import { getContext, setContext } from 'svelte'

/** The attributes of a clickable legal target (the Playwright tests rely on the data-*). */
export interface TargetAttrs {
  'data-legal': 'true'
  'data-target': string
  role: 'button'
  tabindex: 0
  'aria-label': string
  onclick: (event: MouseEvent) => void
  onkeydown: (event: KeyboardEvent) => void
  onpointerenter: () => void
  onpointerleave: () => void
  onfocus: () => void
  onblur: () => void
}

/** A thing no legal action concerns now: named, so that "why not?" can ask about it. */
export interface InertAttrs {
  'data-target': string
}

export interface Targets {
  /**
   * The attributes making an element target `key`; only its name (`data-target`, for "why
   * not?") when no legal action concerns it, nothing at all on a drawing only looked at.
   */
  attrs(key: string): TargetAttrs | InertAttrs | Record<string, never>
  /** Whether `key` is a legal target now. */
  has(key: string): boolean
}

const CONTEXT = Symbol('valdora targets')

export function provideTargets(targets: Targets): void {
  setContext(CONTEXT, targets)
}

/** Targets that are never legal: for drawings only looked at. */
export const INERT: Targets = { attrs: () => ({}), has: () => false }

export function useTargets(): Targets {
  // A component drawn outside a board (never in the client) is simply not interactive.
  return getContext<Targets | undefined>(CONTEXT) ?? INERT
}

