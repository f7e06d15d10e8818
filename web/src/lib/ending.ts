// How a finished game went (docs/server.md, "How a game ended"), in the reader's words:
// for each seat whose person left, timed out or had a bot play for them, a sentence; and
// whether the game counts for the ratings and, if not, why.
import type { Ending } from '../generated/server/Ending'
import type { Unrated } from '../generated/server/Unrated'
import { t } from './i18n.svelte'

/** One sentence per thing worth saying about a seat, seat by seat (none for a seat its person played alone, nor a bot's seat). */
export function seatNotes(ending: Ending, nameOf: (seat: number) => string): { seat: number; text: string }[] {
  return ending.seats.flatMap((seat) => {
    if (seat.bot) return []
    const name = nameOf(seat.seat)
    const notes: string[] = []
    if (seat.left) notes.push(t('ending.left', { name }))
    if (seat.timed_out > 0) notes.push(t('ending.timedOut', { name, count: seat.timed_out }))
    if (seat.by_bot > 0) notes.push(t('ending.botPlayed', { name, byBot: seat.by_bot, count: seat.decisions }))
    return notes.map((text) => ({ seat: seat.seat, text }))
  })
}

/** Whether the game counts for the ratings, and if not why. */
export function ratedNote(ending: Ending, nameOf: (seat: number) => string): string {
  if (ending.rated || !ending.unrated) return t('ending.rated')
  return unratedText(ending.unrated, nameOf)
}

function unratedText(why: Unrated, nameOf: (seat: number) => string): string {
  switch (why.why) {
    case 'casual':
      return t('ending.unrated.casual')
    case 'hints':
      return t('ending.unrated.hints')
    case 'few_people':
      return t('ending.unrated.fewPeople')
    case 'stand_in':
      return t('ending.unrated.standIn', { name: nameOf(why.seat) })
    case 'truncated':
      return t('ending.unrated.truncated')
  }
}
