// Passing with something to do where the pawn stands: "No action" (V-A6) while a purchase,
// a load, a commission or provisions are offered gives them up for the turn.
import type { Action } from '../../generated/valdora/Action'
import { t } from '../../lib/i18n.svelte'
import type { Legal } from '../types'

const FREE_TO_TAKE: Action['type'][] = ['buy_equipment', 'buy_commission', 'load', 'complete', 'take_provisions', 'refill_silver']

export function endsEarly(action: Action, legal: Legal<Action>[]): string | null {
  if (action.type !== 'pass') return null
  return legal.some((item) => FREE_TO_TAKE.includes(item.action.type)) ? t('valdora:early.pass') : null
}
