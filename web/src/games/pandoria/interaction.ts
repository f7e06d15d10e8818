// How table objects become clickable: every legal target carries the same attributes (the
// test hooks `data-legal` / `data-target`, focus, role, label) and the same handlers, so the
// components only say which key they draw.

/** Attributes and handlers spread onto the element that draws a target. */
export interface TargetAttributes {
  'data-legal'?: 'true'
  'data-target'?: string
  'data-selected'?: 'true'
  tabindex?: number
  role?: 'button'
  'aria-label'?: string
  'aria-haspopup'?: 'dialog'
  onclick?: (event: MouseEvent) => void
  onkeydown?: (event: KeyboardEvent) => void
}

/**
 * Given a target key and what the object is in words ("E6", "Conjure 8 / Bank −2"), the
 * attributes for its element: empty unless the key has legal actions now.
 */
export type TargetFn = (key: string, what: string) => TargetAttributes

/** A target function for tables where nothing may be done (spectators, tests). */
export const NO_TARGETS: TargetFn = () => ({})


/** Whether a key press belongs to a text field (the shell's chat), not to the board. */
export function typedInField(event: KeyboardEvent): boolean {
  const target = event.target
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}
