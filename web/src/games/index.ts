// The one list of the client's games, found by folder: each `src/games/GAME/index.ts`
// default-exports its GameModule. Each is its own chunk, loaded when a table of that game
// opens, so the lobby's JavaScript stays small.
import type { GameModule } from './types'

/** A game module with its view, action and event types erased (the shell never looks inside). */
export type AnyGameModule = GameModule<unknown, unknown, unknown, unknown>

const loaders = import.meta.glob<{ default: GameModule<never, never, never, never> }>('./*/index.ts')

const loaded = new Map<string, AnyGameModule>()

/** The games the client can draw. */
export const CLIENT_GAMES: string[] = Object.keys(loaders).map((path) => path.split('/')[1])

/**
 * Loads the module of `game` (`valdora`, …), drawing from `tables`, the server's component
 * tables of the corrected data the game plays on (null: the shipped data's); undefined for a
 * game this client cannot draw.
 */
export async function loadGame(game: string, tables: unknown = null): Promise<AnyGameModule | undefined> {
  const module = loaded.get(game) ?? (await importGame(game))
  module?.useData?.(tables)
  return module
}

async function importGame(game: string): Promise<AnyGameModule | undefined> {
  const loader = loaders[`./${game}/index.ts`]
  if (!loader) return undefined
  // The server sends each game's own view, action and event JSON; the module was written
  // for exactly those types, so erasing them here is the one cast between shell and game.
  const module = (await loader()).default as unknown as AnyGameModule
  loaded.set(game, module)
  return module
}
