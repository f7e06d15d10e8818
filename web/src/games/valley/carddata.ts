// The shape of the card table (tables.ts, from a data file by cardTable.ts). Parts mirror
// crates/valley/src/data.rs with its defaults made explicit.

export type Zone =
  | 'hand'
  | 'discard'
  | 'pyramid'
  | 'revealed'
  | 'stock_top'
  | 'boneyard_top'
  | 'boneyard_any'

export type Destination = 'discard' | 'hand' | 'tomb' | 'boneyard' | 'deck_top'

/** A number in a filter: a constant, k × a bound card's cost, or the dearest purchase. */
export type Expr = { const: number } | { boundCost: string; times: number } | { maxPurchases: true }

export type Predicate =
  | { kind: 'discard_size_ge'; n: number }
  | { kind: 'hand_size_ge'; n: number }
  | { kind: 'bought_this_turn' }
  | { kind: 'pyramid_nonempty' }

/** `starter`, `unique`, or the index of a set in SETS. */
export type Category = 'starter' | 'unique' | number

/** One part of an action (spec §6, K-E0). */
export interface PartData {
  op: string
  from?: Zone
  to?: Destination
  n?: number
  mayDiscard?: boolean
  extra?: boolean
  gold?: { set: number } | { add: number }
  pred?: Predicate
  /** Pyramid slots the part may use: bit i = slot i. */
  slots: number
  cost?: { cmp: 'le' | 'lt' | 'ge'; value: Expr }
  extreme?: 'lowest' | 'highest'
  category?: Category
  level?: number
  bind?: string
  may: boolean
  /** K-E8: every opponent resolves the part as its chooser. */
  eachOpponent: boolean
  exemptTotalLe?: number
  /** K-T7e: k single picks; `min` < `count` for "up to k". */
  count: number
  min: number
}

/** `none`: known to have no action (Boat); `unknown`: the text could not be sourced (K-A20). */
export type ActionData = PartData[] | 'none' | 'unknown'

export interface Placeholder {
  /** Slug of what the placeholder stands for ("mummification", "statue", …). */
  of: string
  n: number
}

export interface CardData {
  /** i18n key: `valley:card.<key>`. */
  key: string
  /** The English name of the data file. */
  name: string
  /** Set for cards named "… (unnamed N)": stand-ins for cards whose names we could not read. */
  placeholder: Placeholder | null
  version: string
  level: number
  category: Category
  cost: number
  gold: number
  vp: number
  copies: number
  action: ActionData
  reaction: ActionData | null
  notRepeatable: boolean
  /** Fields that are engine placeholders, not read from a card (K-A20). */
  provisional: string[]
}

export interface SetData {
  key: string
  name: string
  /** Distinct kinds in the set. */
  size: number
  provisional: boolean
}

export interface PharaohData {
  key: string
  name: string
  placeholder: Placeholder | null
  ability: ActionData
  provisional: string[]
}
