#!/usr/bin/env node
// Writes positions.generated.json: real positions of decision kinds that the shared
// fixtures (web/fixtures/valley-*.json) do not reach — Boat reactions (K-R4), crumble
// choices (K-T17), rebuild sacrifices (K-T12), card choices inside actions (K-E0), choices
// of opponents (K-E8), accept/skip/done — so the board tests can click through all of them.
// They come from `tabletop engine` playing seeded random games; regenerate, never edit:
//
//   node src/games/valley/gen-positions.mjs [path/to/tabletop]
//
// Each position has the fixtures' shape: the view of the seat to move, the spectator's
// view, that seat's legal actions with the engine's descriptions, and the last events.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const binary = process.argv[2] ?? join(here, '../../../../target/release/tabletop')
const target = join(here, 'positions.generated.json')

const engine = spawn(binary, ['engine', '--no-data-files'], { stdio: ['pipe', 'pipe', 'inherit'] })
const lines = createInterface({ input: engine.stdout })[Symbol.asyncIterator]()

async function ask(request) {
  engine.stdin.write(JSON.stringify(request) + '\n')
  const { value } = await lines.next()
  const reply = JSON.parse(value)
  if (reply.error) throw new Error(`${JSON.stringify(request)}: ${value}`)
  return reply
}

/** A small seeded generator (mulberry32), so the same positions come out every time. */
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// A pool rich in cards with actions and the Boat, so every kind of decision comes up.
const ACTION_POOL = [
  'Boat', 'Book of Gates', 'Book of the Netherworld', 'Book of the Heavens', 'Tyet Amulet',
  'Qebehsenuef Canopic Jar', 'Book of the Dead', 'Book of the Earth', 'Statue of Thoth',
  'Statue (unnamed 1)', 'Statue of Bastet', 'Middle Sarcophagus',
]
const CASES = [
  { players: 3, pool_cards: ACTION_POOL, starters: 'last_rites', pharaohs: true },
  { players: 4, pool_cards: ACTION_POOL },
  { players: 5, pharaohs: true },
  { players: 2, pool: 'last_rites' },
]

/** What kind of decision a position asks: the positions keep one of each. */
function signature(view, actions) {
  const frame = view.frames[view.frames.length - 1]
  const phase = typeof view.phase === 'string' ? view.phase : Object.keys(view.phase)[0]
  const types = [...new Set(actions.map((a) => a.type))].sort().join('+')
  const who = view.to_move === view.active ? 'active' : 'other'
  // The running card and part (kind ids index data/valley.toml's cards).
  const program = frame
    ? `${typeof frame.program === 'string' ? frame.program : JSON.stringify(frame.program)}#${frame.part}:${frame.stage}`
    : '-'
  return `${phase}|${program}|${who}|${types}`
}

const positions = []
const seen = new Map()
for (const [index, config] of CASES.entries()) {
  for (let game = 0; game < 6; game++) {
    const rng = random(1000 * index + game)
    const id = (await ask({ cmd: 'new', game: 'valley', config, seed: 100 * index + game })).id
    let events = []
    for (let move = 0; move < 2000; move++) {
      const legal = await ask({ cmd: 'legal', id })
      if (legal.to_move === null || legal.actions.length === 0) break
      const view = (await ask({ cmd: 'view', id, seat: legal.to_move })).view
      const key = signature(view, legal.actions)
      if ((seen.get(key) ?? 0) < 1) {
        seen.set(key, (seen.get(key) ?? 0) + 1)
        positions.push({
          name: `${key} (case ${index}, game ${game}, move ${move})`,
          game: 'valley',
          config,
          seat: legal.to_move,
          view,
          spectator_view: (await ask({ cmd: 'view', id, seat: null })).view,
          legal: legal.actions.map((action, i) => ({ action, description: legal.descriptions[i] })),
          last_events: events,
        })
      }
      // Prefer doing something over ending play, so that games see many actions.
      const busy = legal.actions.filter((a) => a.type !== 'end_play' && a.type !== 'decline')
      const pool = busy.length > 0 && rng() < 0.85 ? busy : legal.actions
      const action = pool[Math.floor(rng() * pool.length)]
      events = (await ask({ cmd: 'apply', id, action })).events
    }
    await ask({ cmd: 'drop', id })
  }
}
await ask({ cmd: 'quit' })
writeFileSync(target, JSON.stringify(positions, null, 0).replace(/\},\{"name"/g, '},\n{"name"') + '\n')
console.log(`wrote ${positions.length} positions to ${target}`)
for (const p of positions) console.log(' ', p.name)
