// The click-target contract every board keeps, whatever the game: the server's legal actions
// are grouped by the thing they concern (a target key, named by the game's `targetOf`), and
// every element drawing a thing spreads `targets.attrs(key, what)`. Only keys with legal
// actions become clickable and focusable; every other drawn thing is only named
// (`data-target`), so that "why not?" can ask about it and hints can find it. A board
// provides its `Targets` once (provideTargets), and its components take them from context
// (useTargets), so no component decides on its own whether something is legal.
import { getContext, setContext } from 'svelte'

/** `items` grouped by their target key, each group in the items' order (the server's order). */
export function groupByTarget<T>(items: readonly T[], targetOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = targetOf(item)
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return groups
}

/** The prefix of the keys of decisions that concern no thing on the table (the action bar's). */
export const BAR_PREFIX = 'bar:'

/**
 * The action bar's buttons among `groups`: each `bar:` target with the words of its first
 * action, in `order` (the names after `bar:`) or else in the groups' own.
 */
export function barButtons<T>(
  groups: ReadonlyMap<string, readonly T[]>,
  labelOf: (first: T) => string,
  order?: readonly string[],
): { key: string; label: string }[] {
  const keys = order
    ? order.map((name) => BAR_PREFIX + name)
    : [...groups.keys()].filter((key) => key.startsWith(BAR_PREFIX))
  return keys.flatMap((key) => {
    const first = groups.get(key)?.[0]
    return first === undefined ? [] : [{ key, label: labelOf(first) }]
  })
}

/** Enter and Space activate a focused target, as they would a button. */
export function isActivationKey(event: KeyboardEvent): boolean {
  return event.key === 'Enter' || event.key === ' '
}

/** Whether a key press belongs to a text field (the shell's chat), not to the board. */
export function typedInField(event: KeyboardEvent): boolean {
  const target = event.target
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** What an element drawing target `key` carries (the Playwright tests rely on the data-*). */
export interface TargetAttributes {
  'data-target': string
  'data-legal'?: 'true'
  'data-selected'?: 'true'
  tabindex?: 0
  role?: 'button'
  'aria-label'?: string
  'aria-haspopup'?: 'dialog'
  onclick?: (event: MouseEvent) => void
  onkeydown?: (event: KeyboardEvent) => void
  onpointerenter?: () => void
  onpointerleave?: () => void
  onfocus?: () => void
  onblur?: () => void
}

/** Nothing at all: for a drawing only looked at (another seat's hand, a card zoomed). */
export type NoAttributes = Record<string, never>

export interface Targets {
  /**
   * The attributes making an element target `key`; `what` is the thing in words ("E6", "the
   * gold pan"), for its label. Only its name (`data-target`) when no legal action concerns
   * it now; nothing at all on a drawing only looked at (NO_TARGETS).
   */
  attrs(key: string, what?: string): TargetAttributes | NoAttributes
  /** Whether `key` is a legal target now. */
  has(key: string): boolean
}

/** How a board's targets behave; `board(…)` turns it into the `Targets` it provides. */
export interface TargetRules {
  /** Whether `key` may be acted on now (false for everything while an action is on its way). */
  isLegal(key: string): boolean
  /** The target was clicked, or activated with Enter or Space. */
  activate(key: string, element: HTMLElement | SVGElement): void
  /** The accessible name of a legal target: the thing in words and what a click does. */
  label(key: string, what: string): string
  /** Whether activating `key` opens a choice (announced as `aria-haspopup`). */
  opensChoice?(key: string): boolean
  /** Whether `key`'s choice is the one open (drawn with `data-selected`). */
  isSelected?(key: string): boolean
  /** A legal target was pointed at or focused (its label), or left (''). */
  onHover?(label: string): void
}

/** The `Targets` of a board following `rules`. */
export function boardTargets(rules: TargetRules): Targets {
  return {
    has: (key) => rules.isLegal(key),
    attrs(key, what = ''): TargetAttributes {
      if (!rules.isLegal(key)) return { 'data-target': key }
      const label = rules.label(key, what)
      const hover = rules.onHover
      const element = (event: Event) => event.currentTarget as HTMLElement | SVGElement
      return {
        'data-legal': 'true',
        'data-target': key,
        ...(rules.isSelected?.(key) ? { 'data-selected': 'true' as const } : {}),
        tabindex: 0,
        role: 'button',
        ...(rules.opensChoice?.(key) ? { 'aria-haspopup': 'dialog' as const } : {}),
        'aria-label': label,
        onclick: (event) => rules.activate(key, element(event)),
        onkeydown: (event) => {
          // A native button already turns Enter and Space into a click.
          if (event.currentTarget instanceof HTMLButtonElement || !isActivationKey(event)) return
          event.preventDefault()
          rules.activate(key, element(event))
        },
        ...(hover
          ? {
              onpointerenter: () => hover(label),
              onpointerleave: () => hover(''),
              onfocus: () => hover(label),
              onblur: () => hover(''),
            }
          : {}),
      }
    },
  }
}

/** Targets that are never legal: for drawings only looked at, and tables where nothing may be done. */
export const NO_TARGETS: Targets = { attrs: () => ({}), has: () => false }

const CONTEXT = Symbol('board targets')

/** Makes `targets` the ones the board's components draw with. */
export function provideTargets(targets: Targets): void {
  setContext(CONTEXT, targets)
}

/** The board's targets; none for a component drawn outside a board (never in the client). */
export function useTargets(): Targets {
  return getContext<Targets | undefined>(CONTEXT) ?? NO_TARGETS
}
