// Events and legal actions as sentences in the current language (the shell's log and its
// list of actions). Each reads only the event or action and the view's public state.
import { t } from '../../lib/i18n.svelte'
import type { Action } from '../../generated/pandoria/Action'
import type { Event } from '../../generated/pandoria/Event'
import type { Resource } from '../../generated/pandoria/Resource'
import type { View } from '../../generated/pandoria/View'
import { cellLabel } from './board'
import { CARDS, DOUBLE_TILES, SINGLE_TILES } from './tables'
import {
  amount,
  buildingLabel,
  cardName,
  directionName,
  doubleTileName,
  hexName,
  placeName,
  realmName,
  resourceName,
  seatName,
  singleTileName,
  spellLabel,
  terrainWord,
} from './names'
import { secondCell } from './targets'

/** " (Market: the shortfall in gold)" for a payment through the Market building (P-T7). */
function paySuffix(pay: Resource | null): string {
  return pay ? t('pandoria:action.paySuffix', { resource: resourceName(pay) }) : ''
}

/** The acting seat: the one to move, or the current seat once the game is over. */
function actor(view: View): number {
  return view.to_move ?? view.current
}

/** "Place tile D12: Forest ● on E6, Hill ●● on E5 (north)". */
function placementText(tile: number, at: number, dir: number, drawn: boolean): string {
  const data = DOUBLE_TILES[tile]
  const to = secondCell({ type: 'place_tile', tile, at, dir })
  return t(drawn ? 'pandoria:action.placeDrawnDouble' : 'pandoria:action.placeTile', {
    id: data?.id ?? '?',
    a: data ? hexName(data.a) : '?',
    b: data ? hexName(data.b) : '?',
    at: cellLabel(at),
    to: to === undefined ? '?' : cellLabel(to),
    direction: directionName(dir),
  })
}

/** The words for `Skip` depend on what is skipped (the phase, or the spell step). */
function skipText(view: View): string {
  const step = view.pending.step
  if (step === 'master_builder_build' || step === 'master_builder_monument') {
    return t(`pandoria:action.skip.${step}`)
  }
  switch (view.phase) {
    case 'figure':
    case 'card':
    case 'follow_up':
    case 'buy':
    case 'elf_move':
      return t(`pandoria:action.skip.${view.phase}`)
    default:
      return t('pandoria:action.skip.default')
  }
}

/** `Done` ends an "up to n" spell (P-P1). */
function doneText(view: View): string {
  const step = view.pending.step
  switch (step) {
    case 'acquire':
    case 'clone':
    case 'muster':
    case 'flee':
    case 'teleport':
      return t(`pandoria:action.done.${step}`)
    default:
      return t('pandoria:action.done.default')
  }
}

/** One legal action as a label in the current language. */
export function actionText(action: Action, view: View): string {
  const me = view.players[actor(view)]
  switch (action.type) {
    case 'place_tile':
      return placementText(action.tile, action.at, action.dir, false)
    case 'place_drawn': {
      const pending = view.pending
      if (pending.step === 'terrain_place' && !pending.single) {
        return placementText(pending.tile, action.at, action.dir, true)
      }
      const tile = pending.step === 'terrain_place' ? SINGLE_TILES[pending.tile] : undefined
      return t('pandoria:action.placeDrawnSingle', {
        tile: tile ? hexName(tile) : t('pandoria:ui.unknownTile'),
        at: cellLabel(action.at),
      })
    }
    case 'place_castle':
      return t('pandoria:action.placeCastle', { at: cellLabel(action.at) })
    case 'place_figure':
      return t(action.leader ? 'pandoria:action.placeLeader' : 'pandoria:action.placeFigure', {
        at: placeName(action.at, view),
      })
    case 'remove_figure': {
      const leader = view.cells[action.at]?.figure?.[1] ?? false
      return t(leader ? 'pandoria:action.removeLeader' : 'pandoria:action.removeFigure', {
        at: placeName(action.at, view),
      })
    }
    case 'cast_spell':
      return t('pandoria:action.castSpell', { spell: spellLabel(action.card) }) + paySuffix(action.pay)
    case 'build': {
      const covered = me?.slots[action.slot]
      const params = { building: buildingLabel(action.card), slot: action.slot + 1 }
      const text =
        covered == null
          ? t('pandoria:action.build', params)
          : t('pandoria:action.buildOver', { ...params, covered: buildingLabel(covered) })
      return text + paySuffix(action.pay)
    }
    case 'monument': {
      const covered = me?.slots[action.slot]
      const top = view.monuments[view.monuments.length - 1]
      return (
        t('pandoria:action.monument', {
          points: amount('points', top ?? 0),
          building: covered == null ? '?' : buildingLabel(covered),
          slot: action.slot + 1,
        }) + paySuffix(action.pay)
      )
    }
    case 'move_figure':
      return t('pandoria:action.moveFigure', {
        from: placeName(action.from, view),
        to: placeName(action.to, view),
      })
    case 'take_card': {
      const id = view.market[action.market]
      return t('pandoria:action.takeCard', { card: id == null ? '?' : cardName(id) })
    }
    case 'adopt_from': {
      const other = view.players[action.seat]
      const last = other?.last_spell
      return t('pandoria:action.adoptFrom', {
        spell: last == null ? '?' : spellLabel(last),
        realm: other ? realmName(other.realm) : '?',
      })
    }
    case 'set_resource': {
      const value = view.pending.step === 'conjure' ? view.pending.value : 0
      return t('pandoria:action.setResource', { resource: resourceName(action.resource), value })
    }
    case 'rage_on': {
      const weight = view.pending.step === 'rage' ? view.pending.weight : 0
      return t('pandoria:action.rageOn', { at: placeName(action.at, view), weight })
    }
    case 'draw_from':
      return t(action.single ? 'pandoria:action.drawSingle' : 'pandoria:action.drawDouble')
    case 'buy': {
      const id = view.market[action.market]
      return (
        t('pandoria:action.buy', {
          card: id == null ? '?' : cardName(id),
          price: amount('gold', id == null ? 0 : (CARDS[id]?.goldPrice ?? 0)),
        }) + paySuffix(action.pay)
      )
    }
    case 'skip':
      return skipText(view)
    case 'done':
      return doneText(view)
  }
}

/** "3 crystals, 2 gold and 4 points", or "nothing". */
function gainsText(parts: string[]): string {
  if (parts.length === 0) return t('pandoria:event.nothing')
  if (parts.length === 1) return parts[0]
  return t('pandoria:event.list', { items: parts.slice(0, -1).join(', '), last: parts[parts.length - 1] })
}

/** One event as a sentence in the current language. */
export function eventText(event: Event, names: readonly string[], view: View): string {
  const seat = 'seat' in event ? seatName(event.seat, names) : ''
  switch (event.type) {
    case 'turn_began':
      return t('pandoria:event.turnBegan', { seat, turn: event.turn })
    case 'tile_placed': {
      const to = secondCell({ type: 'place_tile', tile: event.tile, at: event.at, dir: event.dir })
      return t('pandoria:event.tilePlaced', {
        seat,
        tile: doubleTileName(event.tile),
        at: cellLabel(event.at),
        to: to === undefined ? '?' : cellLabel(to),
      })
    }
    case 'castle_placed':
      return t('pandoria:event.castlePlaced', { seat, at: cellLabel(event.at) })
    case 'placement_impossible':
      return t('pandoria:event.placementImpossible', { seat })
    case 'region_closed': {
      const terrain = view.cells[event.root]?.terrain
      return terrain
        ? t('pandoria:event.regionClosed', { terrain: terrainWord(terrain), at: cellLabel(event.root) })
        : t('pandoria:event.regionClosedPlain', { at: cellLabel(event.root) })
    }
    case 'figure_returned':
      return t(event.leader ? 'pandoria:event.leaderReturned' : 'pandoria:event.figureReturned', {
        seat,
        at: placeName(event.at, view),
      })
    case 'figure_placed':
      return t(event.leader ? 'pandoria:event.leaderPlaced' : 'pandoria:event.figurePlaced', {
        seat,
        at: placeName(event.at, view),
      })
    case 'figure_moved':
      return t('pandoria:event.figureMoved', {
        seat,
        from: placeName(event.from, view),
        to: placeName(event.to, view),
      })
    case 'figure_removed':
      return t(event.leader ? 'pandoria:event.leaderRemoved' : 'pandoria:event.figureRemoved', {
        seat,
        at: placeName(event.at, view),
      })
    case 'spell_cast':
      return t('pandoria:event.spellCast', {
        seat,
        spell: spellLabel(event.card),
        cost: amount('crystal', event.cost),
      })
    case 'spell_adopted':
      return t('pandoria:event.spellAdopted', {
        seat,
        other: seatName(event.from, names),
        spell: spellLabel(event.card),
      })
    case 'card_taken':
      return t('pandoria:event.cardTaken', { seat, card: cardName(event.card) })
    case 'resource_set':
      return t('pandoria:event.resourceSet', {
        seat,
        resource: resourceName(event.resource),
        value: event.value,
      })
    case 'rage_on':
      return t('pandoria:event.rageOn', { seat, at: placeName(event.at, view), weight: event.weight })
    case 'terrain_drawn':
      return t(event.single ? 'pandoria:event.terrainDrawnSingle' : 'pandoria:event.terrainDrawnDouble', {
        seat,
        tile: event.single ? singleTileName(event.tile) : doubleTileName(event.tile),
      })
    case 'building_built':
      return t('pandoria:event.buildingBuilt', {
        seat,
        building: buildingLabel(event.card),
        slot: event.slot + 1,
        cost: amount('wood', event.cost),
      })
    case 'monument_built':
      return t('pandoria:event.monumentBuilt', {
        seat,
        points: amount('points', event.value),
        slot: event.slot + 1,
        cost: amount('wood', event.cost),
      })
    case 'region_scored': {
      const parts: string[] = []
      if (event.crystal) parts.push(amount('crystal', event.crystal))
      if (event.gold) parts.push(amount('gold', event.gold))
      if (event.wood) parts.push(amount('wood', event.wood))
      if (event.points) parts.push(amount('points', event.points))
      return t('pandoria:event.regionScored', { seat, gains: gainsText(parts) })
    }
    case 'resource_changed':
      return t('pandoria:event.resourceChanged', {
        seat,
        amount: amount(event.resource, event.value),
        resource: resourceName(event.resource),
        value: event.value,
      })
    case 'points_gained':
      return t('pandoria:event.pointsGained', {
        seat,
        points: amount('points', event.points),
        reason: t(`pandoria:reason.${event.reason}`),
      })
    case 'card_bought':
      return t('pandoria:event.cardBought', {
        seat,
        card: cardName(event.card),
        cost: amount('gold', event.cost),
      })
    case 'market_refilled':
      return t('pandoria:event.marketRefilled', { card: cardName(event.card), slot: event.market + 1 })
    case 'tile_drawn':
      return t('pandoria:event.tileDrawn', { seat })
    case 'end_triggered':
      return t('pandoria:event.endTriggered', { seat })
    case 'final_scored':
      return t('pandoria:event.finalScored', {
        seat,
        points: amount('points', event.points),
        count: event.leftovers,
      })
    case 'game_over':
      return t('pandoria:event.gameOver')
  }
}
