import type { Emblem } from '../emblem'

/** Three hexagonal tiles. */
export default {
  colour: '#5d4a8c',
  shapes: [
    {
      d: 'M7.9 3.9 11.7 6.1 11.7 10.5 7.9 12.7 4.1 10.5 4.1 6.1zM16.1 3.9 19.9 6.1 19.9 10.5 16.1 12.7 12.3 10.5 12.3 6.1zM12.0 11.0 15.8 13.2 15.8 17.6 12.0 19.8 8.2 17.6 8.2 13.2z',
      tone: 'fill',
    },
  ],
} satisfies Emblem
