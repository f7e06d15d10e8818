// Card identities of the view (kind ids, K-SC5) → what a card face shows, in the current
// language. Numbers come from the generated table (data/valley.toml); names and texts
// from the `valley` catalogue.
import { t, hasMessage } from '../../lib/i18n.svelte'
import type { Frame } from '../../generated/valley/Frame'
import type { View } from '../../generated/valley/View'
import { CARDS, PHARAOHS, SETS } from './tables'
import type { ActionData } from '../../generated/valley/ActionData'
import type { CardData } from '../../generated/valley/CardData'
import type { Category } from '../../generated/valley/Category'
import type { Expr } from '../../generated/valley/Expr'
import type { PartData } from '../../generated/valley/PartData'
import type { Placeholder } from '../../generated/valley/Placeholder'

/** A stand-in for a card kind the data file does not list (a corrected data file). */
function unknownCard(id: number): CardData {
  return {
    key: `unknown_${id}`,
    name: `#${id}`,
    placeholder: null,
    version: '?',
    level: 2,
    category: 'unique',
    cost: 0,
    gold: 0,
    vp: 0,
    copies: 1,
    action: 'unknown',
    reaction: null,
    notRepeatable: false,
    provisional: ['name', 'cost', 'gold', 'action'],
  }
}

export function card(id: number): CardData {
  return CARDS[id] ?? unknownCard(id)
}

/** A name that the `valley` catalogue may translate, else the data file's English name. */
function localName(key: string, english: string, placeholder: Placeholder | null): string {
  if (hasMessage(`valley:${key}`)) return t(`valley:${key}`)
  if (placeholder) {
    // "Mummification (unnamed 3)": a card whose real name we could not read (K-A20).
    const of = hasMessage(`valley:set.${placeholder.of}`)
      ? t(`valley:set.${placeholder.of}`)
      : hasMessage(`valley:placeholderOf.${placeholder.of}`)
        ? t(`valley:placeholderOf.${placeholder.of}`)
        : placeholder.of
    return t('valley:placeholder', { what: of, n: placeholder.n })
  }
  return english
}

export function cardName(id: number): string {
  const c = card(id)
  return localName(`card.${c.key}`, c.name, c.placeholder)
}

export function pharaohName(index: number): string {
  const p = PHARAOHS[index]
  if (!p) return t('valley:pharaoh')
  return localName(`pharaohName.${p.key}`, p.name, p.placeholder)
}

export function setName(index: number): string {
  const s = SETS[index]
  return s ? t(`valley:set.${s.key}`) : `#${index}`
}

/** The name of a card's scoring category: a set, or starter / unique (K-G3). */
export function categoryName(category: Category): string {
  return typeof category === 'number' ? setName(category) : t(`valley:kind.${category}`)
}

export function isProvisional(id: number): boolean {
  return card(id).provisional.length > 0
}

/** The provisional fields of a card, named in the current language (K-A20). */
export function provisionalFields(id: number): string {
  return card(id)
    .provisional.map((field) => t(`valley:field.${field}`))
    .join(', ')
}

/**
 * A hand card's effective gold (K-T5): printed gold, or the turn's `set` value, plus the
 * turn's `add`s (K-E10). The modifiers belong to the active seat's turn.
 */
export function effectiveGold(view: View, id: number, owner: number | null): number {
  const printed = card(id).gold
  if (owner !== view.active) return printed
  const base = view.turn.gold_set ?? printed
  return Math.min(255, Math.max(0, base + view.turn.gold_add))
}

/** Whether a kind's action was executed this turn (TurnState.action_log: a bit per kind). */
export function inActionLog(view: View, id: number): boolean {
  const word = view.turn.action_log[Math.floor(id / 64)] ?? 0
  // The log words are u64s sent as JSON numbers; bits above 53 lose precision, so read
  // them through BigInt.
  return ((BigInt(word) >> BigInt(id % 64)) & 1n) === 1n
}

/** The parts of whatever a frame runs: a card's action, a reaction, a pharaoh's ability. */
export function programParts(program: Frame['program']): PartData[] {
  const asParts = (a: ActionData | null | undefined) => (Array.isArray(a) ? a : [])
  if (program === 'None') return []
  if ('Card' in program) return asParts(card(program.Card).action)
  if ('Reaction' in program) return asParts(card(program.Reaction).reaction)
  return asParts(PHARAOHS[program.Pharaoh]?.ability)
}

/** The card (or pharaoh) a frame runs, as a name. */
export function programName(program: Frame['program']): string {
  if (program === 'None') return ''
  if ('Card' in program) return cardName(program.Card)
  if ('Reaction' in program) return cardName(program.Reaction)
  return pharaohName(program.Pharaoh)
}

/** The part the top frame is resolving, if any: what a `choose` picks for. */
export function currentPart(view: View): { frame: Frame; part: PartData } | null {
  const frame = view.frames[view.frames.length - 1]
  if (!frame) return null
  const part = programParts(frame.program)[frame.part]
  return part ? { frame, part } : null
}

// ------------------------------------------------------------------ action texts (§6)

const LEVEL_NAMES = ['I', 'II', 'III']

/** The primitives of spec §6 that have a sentence of their own (the rest are handled above). */
const KNOWN_OPS = ['draw', 'reveal', 'execute', 'give', 'repeat_action', 'grant_entomb', 'purchase_scope', 'reserve']

/** A whole action (or reaction, or pharaoh ability) as card text, one sentence per part. */
export function actionText(action: ActionData | null): string {
  if (action === null || action === 'none') return ''
  if (action === 'unknown') return t('valley:text.unknown')
  const sentences = action.map((part, i) => partText(part, action.slice(0, i)))
  // "Only if …:" runs on into the next part's sentence (K-E12).
  for (let i = 1; i < sentences.length; i++) {
    if (action[i - 1].op === 'condition') sentences[i] = sentences[i].charAt(0).toLocaleLowerCase() + sentences[i].slice(1)
  }
  return joinSentences(sentences)
}

/** Sentences one after another: a space between them, none after a CJK full stop or colon. */
export function joinSentences(sentences: string[]): string {
  return sentences.reduce((text, next) => (text === '' || /[。：]$/.test(text) ? text + next : `${text} ${next}`), '')
}

/** The text of the part a frame is at, with the parts before it (for `$bind` names). */
export function framePartText(program: Frame['program'], index: number): string {
  const parts = programParts(program)
  const part = parts[index]
  return part ? partText(part, parts.slice(0, index)) : ''
}

/** One part as a sentence (K-E0..K-E16). `before` holds the parts before it (for `$bind`). */
export function partText(part: PartData, before: PartData[] = []): string {
  const context = part.eachOpponent ? 'opponent' : undefined
  const options = {
    context,
    what: objectPhrase(part, before),
    from: fromPhrase(part, context),
    to: part.to ? t(`valley:text.to.${part.to}`, { context }) : '',
    count: part.n ?? part.count,
  }
  let sentence: string
  switch (part.op) {
    case 'condition':
      sentence = t('valley:text.op.condition', { cond: predicateText(part) })
      break
    case 'gold_modifier': {
      const gold = part.gold ?? { add: 0 }
      sentence =
        'set' in gold
          ? t('valley:text.op.gold_set', { count: gold.set })
          : t(gold.add >= 0 ? 'valley:text.op.gold_add' : 'valley:text.op.gold_sub', {
              count: Math.abs(gold.add),
            })
      break
    }
    case 'look_top':
      sentence = t(part.mayDiscard ? 'valley:text.op.look_top_discard' : 'valley:text.op.look_top', options)
      break
    case 'entomb':
    case 'discard':
    case 'sacrifice':
    case 'take': {
      // From the revealed card, the stock top or the boneyard top there is nothing to pick.
      const fixed = part.from === 'revealed' || part.from === 'stock_top' || part.from === 'boneyard_top'
      const op = fixed ? `${part.op}_${part.from}` : part.op
      sentence = t(`valley:text.op.${op}`, options)
      if (part.op === 'entomb' && part.extra) sentence += t('valley:text.extraEntomb')
      break
    }
    default:
      sentence = KNOWN_OPS.includes(part.op)
        ? t(`valley:text.op.${part.op}`, options)
        : t('valley:text.op.unknown_op', { op: part.op })
  }
  if (part.eachOpponent && part.exemptTotalLe !== undefined) {
    sentence += t('valley:text.exempt', { count: part.exemptTotalLe })
  }
  if (part.min < part.count) sentence += t('valley:text.upToDone')
  return tidy(part.may ? t('valley:text.may', { clause: sentence }) : sentence)
}

/** Drops the spaces left by an empty phrase ("take the revealed card {{to}}."). */
function tidy(sentence: string): string {
  return sentence.replace(/ {2,}/g, ' ').replace(/ ([.,:;])/g, '$1')
}

function predicateText(part: PartData): string {
  const pred = part.pred
  if (!pred) return '?'
  return t(`valley:text.pred.${pred.kind}`, { count: 'n' in pred ? pred.n : 0 })
}

function fromPhrase(part: PartData, context: string | undefined): string {
  // A reservation always names a pyramid card (K-E15).
  const from = part.op === 'reserve' ? 'pyramid' : part.from
  // The revealed card needs no "from": its sentences name it (discard_revealed, …).
  if (from === undefined || from === 'revealed') return ''
  if (from !== 'pyramid') return t(`valley:text.from.${from}`, { context })
  if (part.slots === 0b111111) return t('valley:text.from.pyramid')
  if (part.slots === 0b000111) return t('valley:text.from.pyramid_base')
  const slots = [0, 1, 2, 3, 4, 5].filter((s) => (part.slots >> s) & 1).map((s) => t(`valley:slot.${s}`))
  return t('valley:text.from.pyramid_slots', { slots: slots.join(t('valley:text.or')) })
}

/** "a card", "2 cards", "up to 3 cards", with the part's filters (K-E0). */
function objectPhrase(part: PartData, before: PartData[]): string {
  const noun =
    part.min < part.count
      ? t('valley:text.cardsUpTo', { count: part.count })
      : t('valley:text.cards', { count: part.count })
  const filters: string[] = []
  if (part.level) filters.push(t('valley:text.filter.level', { level: LEVEL_NAMES[part.level - 1] }))
  if (part.category !== undefined) {
    filters.push(t('valley:text.filter.category', { category: categoryName(part.category) }))
  }
  if (part.cost) {
    filters.push(t(`valley:text.filter.cost_${part.cost.cmp}`, { value: exprText(part.cost.value, before) }))
  }
  if (part.extreme) filters.push(t(`valley:text.filter.${part.extreme}`))
  if (filters.length === 0) return noun
  return t('valley:text.filtered', { noun, filters: filters.join(t('valley:text.filterJoin')) })
}

function exprText(expr: Expr, before: PartData[]): string {
  if ('const' in expr) return String(expr.const)
  if ('maxPurchases' in expr) return t('valley:text.expr.maxPurchases')
  // "2 × the sacrificed card's cost": named after the part that bound the card.
  const binder = before.find((p) => p.bind === expr.boundCost)
  return t('valley:text.expr.bound', { context: binder?.op, count: expr.times })
}
