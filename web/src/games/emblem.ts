// Each game's emblem, found by folder like the game modules (index.ts): `GAME/emblem.ts`
// default-exports its colour and picture. Loaded eagerly, unlike the modules, because the
// lobby shows every game's emblem; each is a few bytes.

/** One path of an emblem's 24×24 picture, drawn filled or as one of the shared finishes. */
export interface EmblemShape {
  d: string
  /** `fill`: the picture itself; `shade`: a darker side; `facets`: thin cut lines. */
  tone: 'fill' | 'shade' | 'facets'
}

/** A game's emblem tile: its background colour and its picture (viewBox 0 0 24 24). */
export interface Emblem {
  colour: string
  shapes: EmblemShape[]
}

const found = import.meta.glob<Emblem>('./*/emblem.ts', { eager: true, import: 'default' })

/** The emblem of `game`, or undefined for a game without one (its initial shows). */
export function emblemOf(game: string): Emblem | undefined {
  return found[`./${game}/emblem.ts`]
}
