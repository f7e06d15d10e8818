// Whether the table asks before an action that gives up a free choice (a game's
// `endsEarly`): on unless the person turned it off, remembered in this browser.
import { storage, type Store } from './nudge'

const KEY = 'tabletop.confirmEarlyEnd'

export function confirmEarlyEnd(store: Store | undefined = storage()): boolean {
  return store?.getItem(KEY) !== 'off'
}

export function setConfirmEarlyEnd(on: boolean, store: Store | undefined = storage()): void {
  store?.setItem(KEY, on ? 'on' : 'off')
}
