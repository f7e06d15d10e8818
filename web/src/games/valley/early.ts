// Ending the play with gold in hand: "End play" while a card could still be bought or an
// action card played (K-T2's play menu) gives those up for the turn.
import type { Action } from '../../generated/valley/Action'
import { t } from '../../lib/i18n.svelte'
import type { Legal } from '../types'

export function endsEarly(action: Action, legal: Legal<Action>[]): string | null {
  if (action.type !== 'end_play') return null
  const offered = new Set(legal.map((item) => item.action.type))
  if (offered.has('begin_purchase')) return t('valley:early.buy')
  if (offered.has('play_action')) return t('valley:early.play')
  return null
}
