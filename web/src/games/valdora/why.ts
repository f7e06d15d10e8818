// "Why not?" on Valdora's board: the action a click on a space or a book face that is not
// a target now would have meant, for the server to explain (moving, buying).
import type { Action } from '../../generated/valdora/Action'
import type { Side } from '../../generated/valdora/Side'
import type { View } from '../../generated/valdora/View'

export function whyAction(key: string, _legal: Action[], view: View): Action | null {
  const [kind, first, second] = key.split(':')
  if (kind === 'space') return { type: 'move', to: Number(first) }
  const side: Side = second === 'left' ? 'left' : 'right'
  if (kind === 'pile') return { type: 'turn', from: side }
  if (kind === 'face') {
    const book = view.books.find((b) => b.book === Number(first))
    if (!book) return null
    // A purchase pays with gold from the gold pan first: what a person means here.
    return book.kind === 'commission' ? { type: 'buy_commission', side } : { type: 'buy_equipment', side, gold_from: 'gold_pan' }
  }
  return null
}
