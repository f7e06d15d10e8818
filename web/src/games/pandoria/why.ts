// "Why not?" on Pandoria's board: the action a click on a cell, a card or a market slot
// that is not a target now would have meant, for the server to explain: the kind of
// decision the board asks for now aimed at that object (a tile, a figure, a spell, a
// building), else the object's usual action (placing a figure, casting, taking a card).
import type { Action } from '../../generated/pandoria/Action'
import type { View } from '../../generated/pandoria/View'

export function whyAction(key: string, legal: Action[], _view: View): Action | null {
  const [kind, id] = key.split(':')
  const n = Number(id)
  if (Number.isNaN(n)) return null
  if (kind === 'cell') {
    const asked = legal.find((a) => 'at' in a || a.type === 'move_figure')
    if (asked?.type === 'move_figure') return { ...asked, from: n }
    if (asked && 'at' in asked) return { ...asked, at: n }
    return { type: 'place_figure', at: n, leader: false }
  }
  if (kind === 'card') {
    const asked = legal.find((a) => a.type === 'cast_spell' || a.type === 'build')
    if (asked && 'card' in asked) return { ...asked, card: n }
    return { type: 'cast_spell', card: n, pay: null }
  }
  if (kind === 'market') {
    const asked = legal.find((a) => a.type === 'take_card' || a.type === 'buy')
    if (asked && 'market' in asked) return { ...asked, market: n }
    return { type: 'take_card', market: n }
  }
  return null
}
