// The client's card table from the text of a Valley of the Kings data file (data/valley.toml,
// or the corrected file a server plays a game on), so that no cost, gold value or text is
// ever copied by hand. The view names cards only by kind id (the order of [[card]] in the
// file), so the client needs this table to draw a card face. Defaults mirror
// crates/valley/src/data.rs (Rules::parse): an absent number takes its level default and must
// be flagged provisional (K-A20). Errors are thrown (see ../componentData.ts).
import { parse } from 'smol-toml'
import type { ActionData, CardData, Category, Expr, PartData, PharaohData, Predicate, SetData } from './carddata'

export interface CardTable {
  /** Scoring sets in data order (a card's `category` number indexes this list). */
  sets: SetData[]
  /** Card kinds in data order: a CardId of the view indexes this list. */
  cards: CardData[]
  /** Pharaoh cards in data order (SeatView.pharaoh indexes this list). */
  pharaohs: PharaohData[]
}

type Level = 'I' | 'II' | 'III'
type Slots = 'any' | 'base' | number[]
type NumberField = 'cost' | 'gold' | 'vp' | 'copies'

/** One part of an action as the file writes it (data.rs's `PartSpec`). */
interface PartEntry {
  op: string
  from?: PartData['from']
  to?: PartData['to']
  n?: number
  may_discard?: boolean
  extra?: boolean
  set?: number
  add?: number
  pred?: string
  slots?: Slots
  cost_le?: number | string
  cost_lt?: number | string
  cost_ge?: number | string
  extreme?: 'lowest' | 'highest'
  category?: string
  level?: Level
  bind?: string
  may?: boolean
  each_opponent?: boolean
  exempt_total_le?: number
  count?: number
  up_to?: boolean
}

type ActionEntry = PartEntry[] | 'none' | 'unknown'

interface CardEntry extends Partial<Record<NumberField, number>> {
  name: string
  version: string
  level: Level
  category: string
  action: ActionEntry
  reaction?: ActionEntry
  not_repeatable?: boolean
  provisional?: string[]
}

interface ValleyFile {
  set: { id: string; size: number; provisional?: string[] }[]
  card: CardEntry[]
  level_defaults: Record<Level, Record<NumberField, number>>
  unique_default_vp: number
  pharaoh?: { name: string; ability: ActionEntry; provisional?: string[] }[]
}

const LEVELS: Record<Level, number> = { I: 1, II: 2, III: 3 }
const ALL_SLOTS = 0b111111
const BASE_SLOTS = 0b000111

/** A card kind's i18n key: its English name as a slug ("Book of the Dead" → book_of_the_dead). */
function slug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
}

/** "Mummification (unnamed 3)" is a placeholder for a card whose name we could not read. */
function placeholderOf(name: string): CardData['placeholder'] {
  const m = /^(.*) \(unnamed (\d+)\)$/.exec(name)
  return m ? { of: slug(m[1]), n: Number(m[2]) } : null
}

function category(name: string, sets: ValleyFile['set']): Category {
  if (name === 'starter' || name === 'unique') return name
  const index = sets.findIndex((s) => s.id === name)
  if (index < 0) throw new Error(`valley data: unknown category ${name}`)
  return index
}

function expr(v: number | string, binds: string[]): Expr {
  if (typeof v === 'number') return { const: v }
  const s = v.replace(/ /g, '')
  if (s === 'max(purchases)') return { maxPurchases: true }
  if (/^[+-]?\d+$/.test(s)) return { const: Number(s) }
  const m = /^(?:(\d+)\*)?\$([A-Za-z0-9_]+)\.cost$/.exec(s)
  if (!m || !binds.includes(m[2])) throw new Error(`valley data: bad expression ${v}`)
  return { boundCost: m[2], times: m[1] ? Number(m[1]) : 1 }
}

function pred(p: string): Predicate {
  const m = /^(discard_size_ge|hand_size_ge)\((\d+)\)$/.exec(p)
  if (m) return { kind: m[1] as 'discard_size_ge' | 'hand_size_ge', n: Number(m[2]) }
  if (p === 'bought_this_turn' || p === 'pyramid_nonempty') return { kind: p }
  throw new Error(`valley data: unknown predicate ${p}`)
}

const DEFAULT_FROM: Record<string, PartData['from']> = {
  take: 'pyramid',
  discard: 'hand',
  entomb: 'hand',
  sacrifice: 'hand',
}

/** One part of an action, with data.rs's defaults made explicit. */
function part(e: PartEntry, sets: ValleyFile['set'], binds: string[]): PartData {
  const count = e.count ?? 1
  const out: PartData = {
    op: e.op,
    slots:
      e.slots === undefined || e.slots === 'any'
        ? ALL_SLOTS
        : e.slots === 'base'
          ? BASE_SLOTS
          : e.slots.reduce((mask, s) => mask | (1 << s), 0),
    may: e.may === true,
    eachOpponent: e.each_opponent === true,
    count,
    min: e.up_to ? 0 : count,
  }
  if (e.op in DEFAULT_FROM) out.from = e.from ?? DEFAULT_FROM[e.op]
  if (e.op === 'take') out.to = e.to ?? 'discard'
  if (e.op === 'draw' || e.op === 'look_top' || e.op === 'grant_entomb') out.n = e.n ?? 1
  if (e.op === 'look_top') out.mayDiscard = e.may_discard === true
  if (e.op === 'entomb') out.extra = e.extra === true
  if (e.op === 'gold_modifier') out.gold = e.set !== undefined ? { set: e.set } : { add: e.add ?? 0 }
  if (e.op === 'condition' && e.pred !== undefined) out.pred = pred(e.pred)
  for (const cmp of ['le', 'lt', 'ge'] as const) {
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
  if (e.exempt_total_le !== undefined) out.exemptTotalLe = e.exempt_total_le
  return out
}

function actionOf(entry: ActionEntry, sets: ValleyFile['set']): ActionData {
  if (entry === 'none' || entry === 'unknown') return entry
  const binds: string[] = []
  return entry.map((e) => part(e, sets, binds))
}

/** The card table of a Valley of the Kings data file's text. */
export function cardTable(toml: string): CardTable {
  const file = parse(toml) as unknown as ValleyFile
  const sets = file.set.map((s) => ({
    key: slug(s.id),
    name: s.id,
    size: s.size,
    provisional: (s.provisional ?? []).length > 0,
  }))
  const cards = file.card.map((c): CardData => {
    const cat = category(c.category, file.set)
    const defaults = file.level_defaults[c.level]
    const provisional = c.provisional ?? []
    const number = (field: NumberField): number => {
      const given = c[field]
      if (given !== undefined) return given
      // A set card's VP is not printed (sets score d², K-G3) and a starter's copies come from
      // the starter table (K-S3): data.rs fills 1 for those without a flag.
      if ((field === 'vp' && typeof cat === 'number') || (field === 'copies' && cat === 'starter')) return 1
      if (!provisional.includes(field)) throw new Error(`valley data: ${c.name}: ${field} missing and not provisional`)
      return field === 'vp' && cat === 'unique' ? file.unique_default_vp : defaults[field]
    }
    return {
      key: slug(c.name),
      name: c.name,
      placeholder: placeholderOf(c.name),
      version: c.version,
      level: LEVELS[c.level],
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
