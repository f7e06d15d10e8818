// The sentence above the action bar: what the seat to move is asked, or whom the table
// waits for. Reactions and opponents' choices (K-R4, K-E8) are asked of a seat outside its
// own turn, so the prompt names whose card asks.
import { t } from '../../lib/i18n.svelte'
import type { Action } from '../../generated/valley/Action'
import type { View } from '../../generated/valley/View'
import { cardName, currentPart, framePartText, programName } from './cards'
import { seatName } from './text'

export function promptText(view: View, seat: number | null, names: string[], legal: Action[]): string {
  if (view.phase === 'over' || view.to_move === null) return t('valley:prompt.over')
  if (seat === null || view.to_move !== seat) return t('valley:prompt.waiting', { seat: seatName(view.to_move, names) })
  // K-T17, K-T19: the crumble choice comes before anything else.
  if (view.crumble_pending) return t('valley:prompt.crumble')
  const current = currentPart(view)
  if (current) {
    const { frame } = current
    const card = programName(frame.program)
    if (frame.stage === 'LookDiscard') return t('valley:prompt.lookDiscard', { card })
    if (frame.stage === 'LookArrange') return t('valley:prompt.lookArrange', { card })
    const text = framePartText(frame.program, frame.part)
    if (frame.stage === 'AcceptOrSkip') return t('valley:prompt.acceptOrSkip', { card, text })
    if (frame.actor !== seat) return t('valley:prompt.partOpponent', { seat: seatName(frame.actor, names), card, text })
    return t('valley:prompt.part', { card, text })
  }
  const phase = view.phase
  if (phase === 'rebuild') return t('valley:prompt.rebuild')
  if (phase === 'play' || phase === 'finishing') return t('valley:prompt.play')
  if ('paying' in phase) {
    const { slot, paid, cost } = phase.paying
    const here = view.pyramid[slot]
    return t('valley:prompt.paying', { card: here ? cardName(here.card) : '', paid, cost })
  }
  // K-R2: the window follows a purchase; the bought card lies on top of the buyer's discard.
  const bought = view.seats[view.active]?.discard.at(-1)
  const options = {
    seat: seatName(view.active, names),
    card: bought === undefined ? '' : cardName(bought),
  }
  return legal.some((a) => a.type === 'react')
    ? t('valley:prompt.window', options)
    : t('valley:prompt.windowDeck', options)
}
