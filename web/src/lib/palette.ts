// Seat colours for every table: the Okabe–Ito palette, safe for the common forms of colour
// blindness. A seat is never told apart by colour alone: boards also print its number
// (SEAT_MARKS) on its pieces.
export const SEAT_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9'] as const

/** Text colour readable on each seat colour. */
export const SEAT_INK = ['#ffffff', '#1b1b1b', '#ffffff', '#1b1b1b', '#ffffff', '#1b1b1b'] as const

/** The seat's mark printed on its pieces, beside its colour. */
export const SEAT_MARKS = ['1', '2', '3', '4', '5', '6'] as const

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length]
}

export function seatInk(seat: number): string {
  return SEAT_INK[seat % SEAT_INK.length]
}
