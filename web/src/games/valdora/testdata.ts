// Positions for the tests (never imported by the board): the fixtures the engine wrote
// (web/fixtures/valdora-*.json, scripts/web-fixtures) and hand-made situations built on them
// for the actions the fixtures do not reach.
import type { Action } from '../../generated/valdora/Action'
import type { Event } from '../../generated/valdora/Event'
import type { View } from '../../generated/valdora/View'
import type { Fixture as AnyFixture } from '../fixture'
import type { Legal } from '../types'

export type Fixture = AnyFixture<View, Action, Event>

const files = import.meta.glob<unknown>('../../../fixtures/valdora-*.json', { eager: true, import: 'default' })

/** Every Valdora fixture. They are the server's JSON for exactly the generated types. */
export const fixtures: Fixture[] = Object.entries(files)
  .map(([path, data]) => ({ ...(data as Omit<Fixture, 'name'>), name: path.replace(/^.*\/(.*)\.json$/, '$1') }))
  .sort((a, b) => a.name.localeCompare(b.name))

const legal = (actions: Action[]): Legal<Action>[] => actions.map((action) => ({ action, description: action.type }))

/** A copy of the mid-game fixture with the seat to move (seat 0) put on `space`. */
function at(space: number, change: (view: View) => void = () => {}): View {
  const base = fixtures.find((f) => f.name === 'valdora-150')
  if (!base) throw new Error('fixture valdora-150 is missing')
  const view = structuredClone(base.view)
  view.current = 0
  view.to_move = 0
  view.phase = { phase: 'act', begun: null, pages_turned: 0 }
  view.seats[0].space = space
  change(view)
  return view
}

const spaceOf = (view: View, kind: string, name?: string): number => {
  const found = view.spaces.find((s) => s.kind === kind && (name === undefined || s.name === name))
  if (!found) throw new Error(`no ${kind} space ${name ?? ''}`)
  return found.id
}
const probe = fixtures[0].view

/** Situations covering every action kind and every kind of several actions on one target. */
export const situations: { name: string; view: View; legal: Legal<Action>[] }[] = [
  {
    name: 'patron house: two ways to pay one commission, a coin commission, end',
    view: at(spaceOf(probe, 'patron_house', 'pb'), (v) => {
      v.phase = { phase: 'act', begun: 'complete', pages_turned: 0 }
      v.seats[0].equipment = [
        { item: 'gold_pan', name: 'gold_pan', load_cost: 0, gem: 'gold' },
        { item: 'cart', name: 'cart', load_cost: 2, gem: 'gold' },
      ]
      v.seats[0].incomplete = [
        { color: 'yellow', wants: { gems: [1, 0, 0, 0, 0], coins: 0 }, points: 3 },
        { color: 'grey', wants: { gems: [0, 0, 0, 0, 0], coins: 1 }, points: 2 },
      ]
    }),
    legal: legal([
      { type: 'complete', commission: 0, pay_from: ['gold_pan'] },
      { type: 'complete', commission: 0, pay_from: ['cart'] },
      { type: 'complete', commission: 1, pay_from: [] },
      { type: 'end' },
    ]),
  },
  {
    name: 'commission city with three commissions held: return to either side, buy, turn',
    view: at(spaceOf(probe, 'commission_city', 'C'), (v) => {
      v.seats[0].incomplete = [
        { color: 'red', wants: { gems: [0, 1, 0, 0, 0], coins: 0 }, points: 4 },
        { color: 'white', wants: { gems: [0, 1, 1, 1, 0], coins: 0 }, points: 9 },
        { color: 'blue', wants: { gems: [0, 0, 1, 0, 0], coins: 0 }, points: 4 },
      ]
      v.phase = { phase: 'act', begun: 'buy', pages_turned: 1 }
    }),
    legal: legal([
      { type: 'return', commission: 0, side: 'left' },
      { type: 'return', commission: 0, side: 'right' },
      { type: 'return', commission: 2, side: 'left' },
      { type: 'return', commission: 2, side: 'right' },
      { type: 'turn', from: 'left' },
      { type: 'turn', from: 'right' },
      { type: 'buy_commission', side: 'right' },
      { type: 'end' },
    ]),
  },
  {
    name: 'equipment city: two items hold gold to pay with',
    view: at(spaceOf(probe, 'equipment_city', 'A'), (v) => {
      v.seats[0].equipment = [
        { item: 'gold_pan', name: 'gold_pan', load_cost: 0, gem: 'gold' },
        { item: 'horse', name: 'horse', load_cost: 3, gem: 'gold' },
      ]
    }),
    legal: legal([
      { type: 'buy_equipment', side: 'left', gold_from: 'gold_pan' },
      { type: 'buy_equipment', side: 'left', gold_from: 'horse' },
      { type: 'turn', from: 'right' },
      { type: 'take_provisions' },
      { type: 'pass' },
    ]),
  },
  {
    name: 'road space: a gem two items take, unloading the cart',
    view: at(spaceOf(probe, 'road', 'g01'), (v) => {
      v.seats[0].equipment = [
        { item: 'gold_pan', name: 'gold_pan', load_cost: 0, gem: 'gold' },
        { item: 'ruby_tool', name: 'pick', load_cost: 0, gem: null },
        { item: 'cart', name: 'cart', load_cost: 2, gem: 'emerald' },
        { item: 'horse', name: 'horse', load_cost: 3, gem: null },
      ]
    }),
    legal: legal([
      { type: 'load', gem: 'ruby', onto: 'ruby_tool' },
      { type: 'load', gem: 'ruby', onto: 'horse' },
      { type: 'load', gem: 'sapphire', onto: 'horse' },
      { type: 'unload', from: 'cart' },
      { type: 'pass' },
    ]),
  },
  {
    name: 'harbour: loading from the discard area, then ending',
    view: at(spaceOf(probe, 'harbour', 'h2'), (v) => {
      v.phase = { phase: 'act', begun: 'load', pages_turned: 0 }
      v.discard = [2, 0, 1, 0, 0]
      v.seats[0].equipment = [{ item: 'gold_pan', name: 'gold_pan', load_cost: 0, gem: null }]
    }),
    legal: legal([{ type: 'load', gem: 'gold', onto: 'gold_pan' }, { type: 'end' }]),
  },
  {
    name: 'silver mine',
    view: at(spaceOf(probe, 'silver_mine', 'm1')),
    legal: legal([{ type: 'refill_silver' }, { type: 'pass' }]),
  },
]
