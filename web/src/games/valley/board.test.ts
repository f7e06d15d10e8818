// Every legal action of every known position is reachable by clicking: its target is drawn
// as a legal element of the real Board (server-side rendered), and a click on it sends the
// action or opens a choice that lists it (held hand cards are entombed on the tomb). This
// is what the end-to-end test does at random in a browser.
import { render } from 'svelte/server'
import { afterAll, describe, expect, test } from 'vitest'
import { i18n, LANGUAGES } from '../../lib/i18n.svelte'
import type { Action } from '../../generated/valley/Action'
import Board from './Board.svelte'
import { groupByTarget } from '../kit/targets'
import { clickOutcome, targetOf } from './targets'
import { allPositions, generatedPositions, type Position } from './testing'
import type { Frame } from '../../generated/valley/Frame'

const names = ['Ana', 'Bruno', 'Chiara', 'Daiki', 'Eva', 'Femi']

/** The target elements of the markup: data-target → whether any is marked legal. */
function targetsIn(html: string): Map<string, boolean> {
  const found = new Map<string, boolean>()
  for (const tag of html.match(/<[a-z][^>]*>/g) ?? []) {
    const key = /data-target="([^"]+)"/.exec(tag)?.[1]
    if (key === undefined) continue
    found.set(key, (found.get(key) ?? false) || /data-legal="true"/.test(tag))
  }
  return found
}

function draw(p: Position, options: { spectator?: boolean; busy?: boolean } = {}): string {
  return render(Board, {
    props: {
      view: options.spectator ? p.spectator_view : p.view,
      legal: options.spectator ? null : p.legal,
      seat: options.spectator ? null : p.seat,
      names,
      busy: options.busy ?? false,
      act: () => {},
    },
  }).body
}

/** Whether clicking (then, if asked, choosing or clicking the tomb) can send `action`. */
function reachable(action: Action, p: Position, targets: Map<string, boolean>): boolean {
  const groups = groupByTarget(p.legal?.map((l) => l.action) ?? [], (action) => targetOf(action, p.view))
  const candidates = [...targets].filter(([, legal]) => legal).map(([key]) => key)
  return candidates.some((key) => {
    const outcome = clickOutcome(key, groups, null)
    if (outcome.kind === 'send') return outcome.action === action
    if (outcome.kind === 'choose') return outcome.actions.includes(action)
    if (outcome.kind === 'select' && targets.get('tomb')) {
      const then = clickOutcome('tomb', groups, outcome.card)
      return then.kind === 'send' && then.action === action
    }
    return false
  })
}

afterAll(() => {
  i18n.lang = 'en'
})

describe.each(allPositions())('$name', (p) => {
  test('every legal action is reachable by click (+choice)', () => {
    const targets = targetsIn(draw(p))
    for (const { action } of p.legal ?? []) {
      expect(targets.get(targetOf(action, p.view)), `${JSON.stringify(action)} has a legal target`).toBe(true)
      expect(reachable(action, p, targets), `${JSON.stringify(action)} is reachable`).toBe(true)
    }
  })

  test('only legal targets are marked, and none while busy or for a spectator', () => {
    const groups = groupByTarget(p.legal?.map((l) => l.action) ?? [], (action) => targetOf(action, p.view))
    for (const [key, legal] of targetsIn(draw(p))) {
      if (legal) expect(clickOutcome(key, groups, null).kind, key).not.toBe('none')
    }
    expect(draw(p, { busy: true })).not.toContain('data-legal="true"')
    expect(draw(p, { spectator: true })).not.toContain('data-legal="true"')
  })

  test('a panel per seat, in every language', () => {
    for (const lang of LANGUAGES) {
      i18n.lang = lang
      const html = draw(p)
      const panels = [...html.matchAll(/data-testid="seat-panel"[^>]*data-seat="(\d+)"|data-seat="(\d+)"[^>]*data-testid="seat-panel"/g)]
      expect(panels.map((m) => Number(m[1] ?? m[2]))).toEqual(p.view.seats.map((_, i) => i))
      expect(html, lang).not.toMatch(/valley:|\{\{/)
    }
    i18n.lang = 'en'
  })
})

// Decisions the shipped card data never asks (no pharaoh has an ability, no part is `may`
// or "up to k", no card looks at the deck top, K-A20), put by hand on a real position.
describe('hand-made decisions', () => {
  const play = generatedPositions().find((p) => p.view.phase === 'play' && p.view.frames.length === 0 && p.view.seats[p.seat].pharaoh !== null)
  if (!play) throw new Error('no play position with a pharaoh')
  const withLegal = (p: Position, view: Position['view'], actions: Action[]): Position => ({
    ...p,
    view,
    legal: actions.map((action) => ({ action, description: action.type })),
  })
  const frame = (stage: Frame['stage']): Frame => ({
    program: { Card: 11 },
    actor: play.seat,
    part: 0,
    stage,
    opponent: 0,
    bound: [255, 255],
    revealed: 255,
    picks: 0,
    look: 2,
    placed: 0,
  })

  test.each([
    ['the pharaoh (K-T9)', play.view, [{ type: 'use_pharaoh' }, { type: 'end_play' }]],
    ['accept or skip a may part (K-T7c)', { ...play.view, frames: [frame('AcceptOrSkip')] }, [{ type: 'accept' }, { type: 'skip' }]],
    ['done with an up-to part (K-T7e)', { ...play.view, frames: [frame('Choosing')] }, [{ type: 'choose', card: 1 }, { type: 'done' }]],
    ['discard looked-at cards (K-E16)', { ...play.view, frames: [frame('LookDiscard')] }, [{ type: 'choose', card: 0 }, { type: 'choose', card: 2 }, { type: 'skip' }]],
    ['arrange looked-at cards (K-E16)', { ...play.view, frames: [frame('LookArrange')] }, [{ type: 'choose', card: 0 }, { type: 'choose', card: 2 }]],
  ] as [string, Position['view'], Action[]][])('%s', (_, view, actions) => {
    const p = withLegal(play, view, actions)
    const targets = targetsIn(draw(p))
    for (const action of actions) {
      expect(targets.get(targetOf(action, view)), JSON.stringify(action)).toBe(true)
      expect(reachable(action, p, targets), JSON.stringify(action)).toBe(true)
    }
  })
})
