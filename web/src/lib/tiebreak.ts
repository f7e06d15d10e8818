// What the tie-breaks did on the end screen: between seats with the same score, which
// tie-break put one ahead of the other, or that they stayed tied after every one of them
// and share the rank. Pure, so the end screen only says it.
import type { Outcome } from '../generated/engine/Outcome'
import type { SeatResult } from '../generated/engine/SeatResult'

/** A seat's relation to the seats that ended with its score. */
export type TieNote =
  /** `tiebreak` (an index into `tiebreaks`) set this seat above (`ahead`) or below the others. */
  | { kind: 'decided'; tiebreak: number; ahead: boolean; others: number[]; mine: number; theirs: number[] }
  /** Same score and every tie-break alike: the rank is shared. */
  | { kind: 'tied'; others: number[] }

/** The first tie-break on which two results differ; undefined when all are alike. */
function firstDifference(a: SeatResult, b: SeatResult): number | undefined {
  const count = Math.max(a.tiebreaks.length, b.tiebreaks.length)
  for (let i = 0; i < count; i++) if (a.tiebreaks[i] !== b.tiebreaks[i]) return i
  return undefined
}

/**
 * What the tie-breaks did for `seat`: one note per tie-break that decided between it and a
 * seat with the same score (ahead and behind apart), and one for the seats it stayed tied
 * with. Empty when no other seat had its score.
 */
export function tieNotes(outcome: Outcome, seat: number): TieNote[] {
  const me = outcome.seats.find((s) => s.seat === seat)
  if (!me) return []
  const notes: TieNote[] = []
  const tied: number[] = []
  const decided = new Map<string, SeatResult[]>()
  for (const other of outcome.seats) {
    if (other.seat === seat || other.score !== me.score) continue
    const index = firstDifference(me, other)
    if (index === undefined) {
      tied.push(other.seat)
      continue
    }
    const key = `${index}:${me.rank < other.rank}`
    decided.set(key, [...(decided.get(key) ?? []), other])
  }
  for (const [key, others] of decided) {
    const [index, ahead] = key.split(':')
    const tiebreak = Number(index)
    notes.push({
      kind: 'decided',
      tiebreak,
      ahead: ahead === 'true',
      others: others.map((o) => o.seat),
      mine: me.tiebreaks[tiebreak] ?? 0,
      theirs: others.map((o) => o.tiebreaks[tiebreak] ?? 0),
    })
  }
  if (tied.length > 0) notes.push({ kind: 'tied', others: tied })
  return notes
}
