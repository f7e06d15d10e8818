// Whether the rules panel is open, and at which rule: one panel per page, opened from the
// header, from an offered action's rule and from a "why not?" answer.
export const rulesPanel = $state<{ open: boolean; rule: string | null }>({ open: false, rule: null })

/** Opens the panel, at `rule` when given (scrolled to and marked). */
export function openRules(rule: string | null = null): void {
  rulesPanel.rule = rule
  rulesPanel.open = true
}

export function closeRules(): void {
  rulesPanel.open = false
}
