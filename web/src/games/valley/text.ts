// Events and actions as sentences in the current language (the log, the action list, the
// choice popover). Events carry ids only (K-Z14): names come from the card table.
import { t } from '../../lib/i18n.svelte'
import type { Action } from '../../generated/valley/Action'
import type { Event } from '../../generated/valley/Event'
import type { View } from '../../generated/valley/View'
import { cardName, currentPart, effectiveGold, card as cardData } from './cards'
import { choiceZone } from './targets'

/** A seat's display name, or "Seat N" when the shell gave none. */
export function seatName(seat: number, names: string[]): string {
  return names[seat] ?? t('valley:seatN', { n: seat + 1 })
}

export function slotName(slot: number): string {
  return t(`valley:slot.${slot}`)
}

/** The card in a pyramid slot now (a name), or the slot's name if it is empty. */
function slotCard(view: View, slot: number): string {
  const here = view.pyramid[slot]
  return here ? cardName(here.card) : slotName(slot)
}

export function eventText(event: Event, names: string[], view: View): string {
  const seat = (s: number) => seatName(s, names)
  switch (event.type) {
    case 'turn_started':
    case 'pharaoh_used':
    case 'part_skipped':
    case 'declined':
    case 'arranged':
    case 'play_ended':
    case 'turn_ended':
      return t(`valley:event.${event.type}`, { seat: seat(event.seat) })
    case 'drew':
    case 'reshuffled':
    case 'looked':
      return t(`valley:event.${event.type}`, { seat: seat(event.seat), count: event.count })
    case 'purchase_begun':
      return t('valley:event.purchase_begun', {
        seat: seat(event.seat),
        card: cardName(event.card),
        slot: slotName(event.slot),
      })
    case 'paid':
      return t('valley:event.paid', { seat: seat(event.seat), card: cardName(event.card), count: event.gold })
    case 'bought':
      // K-T4c: gold paid beyond the cost is lost.
      return t(event.lost > 0 ? 'valley:event.bought_lost' : 'valley:event.bought', {
        seat: seat(event.seat),
        card: cardName(event.card),
        slot: slotName(event.slot),
        count: event.paid,
        lost: event.lost,
      })
    case 'action_played':
    case 'entombed':
    case 'sacrificed':
    case 'taken':
    case 'revealed':
    case 'discarded':
    case 'executed':
    case 'reacted':
      return t(`valley:event.${event.type}`, { seat: seat(event.seat), card: cardName(event.card) })
    case 'crumbled':
      return t('valley:event.crumbled', { from: slotName(event.from), to: slotName(event.to) })
    case 'given':
      return t('valley:event.given', { from: seat(event.from), to: seat(event.to), card: cardName(event.card) })
    case 'reserved':
      return t('valley:event.reserved', { seat: seat(event.seat), slot: slotName(event.slot) })
    case 'refilled':
      return t('valley:event.refilled', { card: cardName(event.card), slot: slotName(event.slot) })
    case 'game_over':
      return t('valley:event.game_over')
  }
}

export function actionText(action: Action, view: View): string {
  switch (action.type) {
    case 'begin_purchase': {
      const here = view.pyramid[action.slot]
      return t('valley:action.begin_purchase', {
        card: slotCard(view, action.slot),
        slot: slotName(action.slot),
        count: here ? cardData(here.card).cost : 0,
      })
    }
    case 'pay':
      return t('valley:action.pay', {
        card: cardName(action.card),
        count: effectiveGold(view, action.card, view.to_move),
      })
    case 'play_action':
    case 'entomb':
    case 'react':
      return t(`valley:action.${action.type}`, { card: cardName(action.card) })
    case 'sacrifice':
    case 'crumble_from':
      return t(`valley:action.${action.type}`, { card: slotCard(view, action.slot), slot: slotName(action.slot) })
    case 'choose': {
      // The verb of the part being resolved: "sacrifice Urn", "repeat Tyet Amulet's action"…
      const zone = choiceZone(view)
      const op = zone === 'look' ? lookVerb(view) : currentPart(view)?.part.op
      return t('valley:action.choose', { context: op, card: cardName(action.card) })
    }
    case 'choose_slot':
      return t('valley:action.choose_slot', {
        context: currentPart(view)?.part.op,
        card: slotCard(view, action.slot),
        slot: slotName(action.slot),
      })
    case 'skip':
      // While discarding looked-at cards, skipping keeps the rest (K-E16).
      return t('valley:action.skip', { context: choiceZone(view) === 'look' ? 'look' : undefined })
    case 'use_pharaoh':
    case 'end_play':
    case 'decline':
    case 'accept':
    case 'done':
      return t(`valley:action.${action.type}`)
  }
}

/** K-E16: discarding a looked-at card, or putting one back as the next from the top. */
function lookVerb(view: View): string {
  const frame = view.frames[view.frames.length - 1]
  return frame?.stage === 'LookDiscard' ? 'look_discard' : 'look_arrange'
}
