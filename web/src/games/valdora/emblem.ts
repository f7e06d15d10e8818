import type { Emblem } from '../emblem'

/** A cut gem. */
export default {
  colour: '#2f6b4f',
  shapes: [
    { d: 'M7 4.5h10l4 5-9 11-9-11z', tone: 'fill' },
    { d: 'M3 9.5h18M9.5 4.5 12 9.5l2.5-5M12 9.5v11M7.5 9.5 12 20.5l4.5-11', tone: 'facets' },
  ],
} satisfies Emblem
