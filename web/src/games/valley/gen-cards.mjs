#!/usr/bin/env node
// Writes cards.generated.ts (the client's card table) from the engine's card data,
// data/valley.toml, so that no cost, gold value or text is ever copied by hand. The view
// names cards only by kind id (the order of [[card]] in the file), so the client needs
// this table to draw a card face.
//
//   node src/games/valley/gen-cards.mjs           rewrites cards.generated.ts
//   node src/games/valley/gen-cards.mjs --check   exits 1 when the table is stale (tests)
//
// The data file uses a small part of TOML (tables, arrays of tables, strings, integers,
// booleans, arrays and inline tables), so a small parser here avoids a dependency.
// Defaults mirror crates/valley/src/data.rs (Rules::parse): an absent number takes its
// level default and must be flagged provisional (K-A20).
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const source = join(here, '../../../../data/valley.toml')
const target = join(here, 'cards.generated.ts')

// ---------------------------------------------------------------- TOML (the subset used)

function parseToml(text) {
  const root = {}
  let table = root
  let i = 0
  const fail = (msg) => {
    const line = text.slice(0, i).split('\n').length
    throw new Error(`valley.toml line ${line}: ${msg}`)
  }
  const skipSpace = (newlines) => {
    for (;;) {
      const c = text[i]
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++
      else if (c === '#') while (i < text.length && text[i] !== '\n') i++
      else return
    }
  }
  const key = () => {
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i))
    if (m) {
      i += m[0].length
      return m[0]
    }
    if (text[i] === '"') return string()
    return fail('expected a key')
  }
  const dottedKey = () => {
    const parts = [key()]
    skipSpace(false)
    while (text[i] === '.') {
      i++
      skipSpace(false)
      parts.push(key())
      skipSpace(false)
    }
    return parts
  }
  const string = () => {
    i++ // opening quote
    let out = ''
    while (text[i] !== '"') {
      if (i >= text.length || text[i] === '\n') fail('unterminated string')
      if (text[i] === '\\') {
        const e = text[i + 1]
        out += { n: '\n', t: '\t', '"': '"', '\\': '\\' }[e] ?? fail(`escape \\${e}`)
        i += 2
      } else out += text[i++]
    }
    i++
    return out
  }
  const value = () => {
    const c = text[i]
    if (c === '"') return string()
    if (c === '[') {
      i++
      const list = []
      for (;;) {
        skipSpace(true)
        if (text[i] === ']') {
          i++
          return list
        }
        list.push(value())
        skipSpace(true)
        if (text[i] === ',') i++
        else if (text[i] !== ']') fail('expected , or ]')
      }
    }
    if (c === '{') {
      i++
      const obj = {}
      for (;;) {
        skipSpace(false)
        if (text[i] === '}') {
          i++
          return obj
        }
        const k = key()
        skipSpace(false)
        if (text[i] !== '=') fail('expected =')
        i++
        skipSpace(false)
        obj[k] = value()
        skipSpace(false)
        if (text[i] === ',') i++
        else if (text[i] !== '}') fail('expected , or }')
      }
    }
    const m = /^(true|false|[+-]?\d+)/.exec(text.slice(i))
    if (!m) return fail('expected a value')
    i += m[0].length
    return m[0] === 'true' ? true : m[0] === 'false' ? false : Number(m[0])
  }
  const descend = (path, arrayItem) => {
    let t = root
    path.forEach((k, n) => {
      const last = n === path.length - 1
      if (last && arrayItem) {
        t[k] ??= []
        const item = {}
        t[k].push(item)
        t = item
      } else {
        t[k] ??= {}
        t = Array.isArray(t[k]) ? t[k][t[k].length - 1] : t[k]
      }
    })
    return t
  }
  for (;;) {
    skipSpace(true)
    if (i >= text.length) return root
    if (text[i] === '[') {
      const array = text[i + 1] === '['
      i += array ? 2 : 1
      skipSpace(false)
      const path = dottedKey()
      if (text.slice(i, i + (array ? 2 : 1)) !== (array ? ']]' : ']')) fail('expected ]')
      i += array ? 2 : 1
      table = descend(path, array)
      continue
    }
    const path = dottedKey()
    if (text[i] !== '=') fail('expected =')
    i++
    skipSpace(false)
    const v = value()
    let t = table
    for (const k of path.slice(0, -1)) t = t[k] ??= {}
    t[path[path.length - 1]] = v
  }
}

// ---------------------------------------------------------------- compiling (data.rs)

const LEVELS = { I: 1, II: 2, III: 3 }
const ALL_SLOTS = 0b111111
const BASE_SLOTS = 0b000111

/** A card kind's i18n key: its English name as a slug ("Book of the Dead" → book_of_the_dead). */
function slug(name) {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
}

/** "Mummification (unnamed 3)" is a placeholder for a card whose name we could not read. */
function placeholderOf(name) {
  const m = /^(.*) \(unnamed (\d+)\)$/.exec(name)
  return m ? { of: slug(m[1]), n: Number(m[2]) } : null
}

function category(name, sets) {
  if (name === 'starter' || name === 'unique') return name
  const index = sets.findIndex((s) => s.id === name)
  if (index < 0) throw new Error(`unknown category ${name}`)
  return index
}

function expr(v, binds) {
  if (typeof v === 'number') return { const: v }
  const s = v.replace(/ /g, '')
  if (s === 'max(purchases)') return { maxPurchases: true }
  if (/^[+-]?\d+$/.test(s)) return { const: Number(s) }
  const m = /^(?:(\d+)\*)?\$([A-Za-z0-9_]+)\.cost$/.exec(s)
  if (!m || !binds.includes(m[2])) throw new Error(`bad expression ${v}`)
  return { boundCost: m[2], times: m[1] ? Number(m[1]) : 1 }
}

function pred(p) {
  const m = /^(discard_size_ge|hand_size_ge)\((\d+)\)$/.exec(p)
  if (m) return { kind: m[1], n: Number(m[2]) }
  if (p === 'bought_this_turn' || p === 'pyramid_nonempty') return { kind: p }
  throw new Error(`unknown predicate ${p}`)
}

/** One part of an action, with data.rs's defaults made explicit. */
function part(e, sets, binds) {
  const defaultFrom = { take: 'pyramid', discard: 'hand', entomb: 'hand', sacrifice: 'hand' }
  const out = { op: e.op }
  if (e.op in defaultFrom) out.from = e.from ?? defaultFrom[e.op]
  if (e.op === 'take') out.to = e.to ?? 'discard'
  if (e.op === 'draw' || e.op === 'look_top' || e.op === 'grant_entomb') out.n = e.n ?? 1
  if (e.op === 'look_top') out.mayDiscard = e.may_discard === true
  if (e.op === 'entomb') out.extra = e.extra === true
  if (e.op === 'gold_modifier') out.gold = e.set !== undefined ? { set: e.set } : { add: e.add }
  if (e.op === 'condition') out.pred = pred(e.pred)
  out.slots = e.slots === undefined || e.slots === 'any' ? ALL_SLOTS : e.slots === 'base' ? BASE_SLOTS
    : e.slots.reduce((mask, s) => mask | (1 << s), 0)
  for (const cmp of ['le', 'lt', 'ge']) {
    const v = e[`cost_${cmp}`]
    if (v !== undefined) out.cost = { cmp, value: expr(v, binds) }
  }
  if (e.extreme) out.extreme = e.extreme
  if (e.category) out.category = category(e.category, sets)
  if (e.level) out.level = LEVELS[e.level]
  if (e.bind) {
    binds.push(e.bind)
    out.bind = e.bind
  }
  out.may = e.may === true
  out.eachOpponent = e.each_opponent === true
  if (e.exempt_total_le !== undefined) out.exemptTotalLe = e.exempt_total_le
  out.count = e.count ?? 1
  out.min = e.up_to ? 0 : out.count
  return out
}

function actionOf(entry, sets) {
  if (entry === 'none' || entry === 'unknown') return entry
  const binds = []
  return entry.map((e) => part(e, sets, binds))
}

function compile(file) {
  const sets = file.set.map((s) => ({ key: slug(s.id), name: s.id, size: s.size, provisional: (s.provisional ?? []).length > 0 }))
  const cards = file.card.map((c) => {
    const level = LEVELS[c.level]
    const cat = category(c.category, file.set)
    const defaults = file.level_defaults[c.level]
    const provisional = c.provisional ?? []
    const number = (field) => {
      if (c[field] !== undefined) return c[field]
      // A set card's VP is not printed (sets score d², K-G3) and a starter's copies come from
      // the starter table (K-S3): data.rs fills 1 for those without a flag.
      if ((field === 'vp' && typeof cat === 'number') || (field === 'copies' && cat === 'starter')) return 1
      if (!provisional.includes(field)) throw new Error(`${c.name}: ${field} missing and not provisional`)
      return field === 'vp' && cat === 'unique' ? file.unique_default_vp : defaults[field]
    }
    return {
      key: slug(c.name),
      name: c.name,
      placeholder: placeholderOf(c.name),
      version: c.version,
      level,
      category: cat,
      cost: number('cost'),
      gold: number('gold'),
      vp: number('vp'),
      copies: number('copies'),
      action: actionOf(c.action, file.set),
      reaction: c.reaction ? actionOf(c.reaction, file.set) : null,
      notRepeatable: c.not_repeatable === true,
      provisional,
    }
  })
  const pharaohs = (file.pharaoh ?? []).map((p) => ({
    key: slug(p.name),
    name: p.name,
    placeholder: placeholderOf(p.name),
    ability: actionOf(p.ability, file.set),
    provisional: p.provisional ?? [],
  }))
  return { sets, cards, pharaohs }
}

function render({ sets, cards, pharaohs }) {
  const list = (items) => `[\n${items.map((x) => `  ${JSON.stringify(x)},`).join('\n')}\n]`
  return `// GENERATED by gen-cards.mjs from data/valley.toml: do not edit; run
// \`node src/games/valley/gen-cards.mjs\` after changing the data file.
import type { CardData, PharaohData, SetData } from './carddata'

/** Scoring sets in data order (a card's \`category\` number indexes this list). */
export const SETS: readonly SetData[] = ${list(sets)}

/** Card kinds in data order: a CardId of the view indexes this list. */
export const CARDS: readonly CardData[] = ${list(cards)}

/** Pharaoh cards in data order (SeatView.pharaoh indexes this list). */
export const PHARAOHS: readonly PharaohData[] = ${list(pharaohs)}
`
}

const generated = render(compile(parseToml(readFileSync(source, 'utf8'))))
if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(target, 'utf8')
  } catch {
    // a missing table is stale
  }
  if (current !== generated) {
    console.error('cards.generated.ts is stale: run node src/games/valley/gen-cards.mjs')
    process.exit(1)
  }
} else {
  writeFileSync(target, generated)
  console.log(`wrote ${target}`)
}
