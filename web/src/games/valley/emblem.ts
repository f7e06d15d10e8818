import type { Emblem } from '../emblem'

/** A pyramid, its shaded side. */
export default {
  colour: '#b06f1c',
  shapes: [
    { d: 'M12 3.5 22.5 20H1.5z', tone: 'fill' },
    { d: 'M12 3.5 22.5 20H15z', tone: 'shade' },
  ],
} satisfies Emblem
