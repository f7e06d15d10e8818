// Seats grouped as the table shows them: in the teams variant (P-SC2, P-E5) partners sit
// opposite, seats 0+2 against 1+3, and a team's points are counted together.
import type { View } from '../../generated/pandoria/View'

/** Whether the game is the teams variant (the view says so; only 4-player games have it). */
export function isTeamGame(view: View): boolean {
  return view.teams
}

/** Seat `seat`'s partner in the teams variant. */
export function partnerOf(seat: number): number {
  return (seat + 2) % 4
}

/** The team number (1 or 2) of a seat: seats 0 and 2 play as team 1. */
export function teamNumber(seat: number): number {
  return (seat % 2) + 1
}

/**
 * The seats in the order their panels appear: the viewer's seat first, then clockwise
 * (P-S1); in the teams variant the viewer's team first, partners together.
 */
export function panelGroups(view: View, viewer: number | null): number[][] {
  const count = view.players.length
  const first = viewer ?? 0
  const clockwise = Array.from({ length: count }, (_, i) => (first + i) % count)
  if (!isTeamGame(view)) return [clockwise]
  return [
    [first, partnerOf(first)],
    [(first + 1) % 4, partnerOf((first + 1) % 4)],
  ]
}

/** A team's points: both partners' scores (P-E5). */
export function teamScore(view: View, seat: number): number {
  return (view.players[seat]?.score ?? 0) + (view.players[partnerOf(seat)]?.score ?? 0)
}
