// "Why not?" on Valley of the Kings' board: the action a click on a pyramid card, a hand
// card or the pharaoh that is not a target now would have meant, for the server to explain:
// the kind of decision the board asks for now aimed at that object (a slot to sacrifice, a
// card to pay with), else the object's usual action (buying, playing).
import type { Action } from '../../generated/valley/Action'
import type { View } from '../../generated/valley/View'

export function whyAction(key: string, legal: Action[], _view: View): Action | null {
  const [kind, id] = key.split(':')
  const n = Number(id)
  if (kind === 'slot') {
    const asked = legal.find((a) => 'slot' in a)
    return asked && 'slot' in asked ? { ...asked, slot: n } : { type: 'begin_purchase', slot: n }
  }
  if (kind === 'hand') {
    const asked = legal.find((a) => a.type === 'pay' || a.type === 'play_action' || a.type === 'react')
    return asked && 'card' in asked ? { ...asked, card: n } : { type: 'play_action', card: n }
  }
  if (kind === 'pharaoh') return { type: 'use_pharaoh' }
  return null
}
