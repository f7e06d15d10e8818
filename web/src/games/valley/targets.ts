// Which board object each legal action concerns, and what a click on that object does.
// The client never judges legality: it only groups the server's legal actions by target.
import type { Action } from '../../generated/valley/Action'
import type { View } from '../../generated/valley/View'
import { currentPart } from './cards'

/**
 * Where a `choose` picks its card from (K-E0), read from the part being resolved:
 * `hand` (the chooser's hand), `discard` (its discard pile), `boneyard`, `played` (an action
 * of this turn to repeat, K-E11), `look` (the looked-at deck top, K-E16), `pick` otherwise.
 */
export type ChoiceZone = 'hand' | 'discard' | 'boneyard' | 'played' | 'look' | 'pick'

export function choiceZone(view: View): ChoiceZone {
  const current = currentPart(view)
  if (!current) return 'pick'
  const { frame, part } = current
  if (frame.stage === 'LookDiscard' || frame.stage === 'LookArrange') return 'look'
  if (part.op === 'repeat_action') return 'played'
  if (part.op === 'give') return 'hand'
  if (part.from === 'hand') return 'hand'
  if (part.from === 'discard') return 'discard'
  if (part.from === 'boneyard_any') return 'boneyard'
  return 'pick'
}

/**
 * The board object an action concerns, as a target key (`data-target`):
 * `slot:N` a pyramid slot; `hand:C` a hand card kind; `tomb` the seat's own tomb;
 * `pharaoh` its pharaoh; `discard:C` / `boneyard:C` / `played:C` / `look:C` / `pick:C` a card
 * of the choice tray; `bar:TYPE` a button of the action bar (no board object).
 */
export function targetOf(action: Action, view: View): string {
  switch (action.type) {
    case 'begin_purchase':
    case 'sacrifice':
    case 'crumble_from':
    case 'choose_slot':
      return `slot:${action.slot}`
    case 'pay':
    case 'play_action':
    case 'react':
      return `hand:${action.card}`
    case 'entomb':
      // K-T8: a hand card goes to the tomb; the tomb is the object clicked.
      return 'tomb'
    case 'use_pharaoh':
      return 'pharaoh'
    case 'choose':
      return `${choiceZone(view)}:${action.card}`
    case 'end_play':
    case 'decline':
    case 'accept':
    case 'skip':
    case 'done':
      return `bar:${action.type}`
  }
}

/** The legal entombment of one hand card kind, if any. */
export function entombOf(groups: Map<string, Action[]>, card: number): Action | undefined {
  return groups.get('tomb')?.find((a) => a.type === 'entomb' && a.card === card)
}

/** Whether a target key is something the seat can act on now. */
export function isLegalTarget(groups: Map<string, Action[]>, key: string): boolean {
  if (groups.has(key)) return true
  const hand = /^hand:(\d+)$/.exec(key)
  return hand !== null && entombOf(groups, Number(hand[1])) !== undefined
}

export type ClickOutcome =
  | { kind: 'send'; action: Action }
  | { kind: 'choose'; actions: Action[] }
  /** A hand card whose only use now is entombing: held until the tomb is clicked. */
  | { kind: 'select'; card: number }
  | { kind: 'none' }

/**
 * What a click on `key` does. One legal action: it is sent. Several: a choice popover.
 * A hand card that may be entombed is never sent on one click (entombing takes the card
 * and the tomb, and is once per turn, K-T8): its other uses and "entomb" become choices, or
 * it is held (`select`) when entombing is its only use. The tomb entombs the held card, or
 * offers every entombment.
 */
export function clickOutcome(
  key: string,
  groups: Map<string, Action[]>,
  held: number | null,
): ClickOutcome {
  const hand = /^hand:(\d+)$/.exec(key)
  if (hand) {
    const card = Number(hand[1])
    const own = groups.get(key) ?? []
    const entomb = entombOf(groups, card)
    if (entomb) return own.length === 0 ? { kind: 'select', card } : { kind: 'choose', actions: [...own, entomb] }
    return pick(own)
  }
  if (key === 'tomb' && held !== null) {
    const entomb = entombOf(groups, held)
    if (entomb) return { kind: 'send', action: entomb }
  }
  return pick(groups.get(key) ?? [])
}

function pick(actions: Action[]): ClickOutcome {
  if (actions.length === 0) return { kind: 'none' }
  if (actions.length === 1) return { kind: 'send', action: actions[0] }
  return { kind: 'choose', actions }
}
