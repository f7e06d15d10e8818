// What every board does with the server's legal actions, whatever the game: group them by
// the thing they concern (the click target), and treat Enter and Space on a focused target
// as a click.

/** `items` grouped by `keyOf`, each group in the items' order (the server's order). */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return groups
}

/** Enter and Space activate a focused target, as they would a button. */
export function isActivationKey(event: KeyboardEvent): boolean {
  return event.key === 'Enter' || event.key === ' '
}
