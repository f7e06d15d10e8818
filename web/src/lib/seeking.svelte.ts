// The seek this browser waits on, if any (docs/server.md, "Seeks and quick play"): posted
// from the lobby, waited for by asking the server again after each long wait (which keeps
// the seek alive: a closed tab is not seated), and, once matched, the seat's token kept
// with the other seats of this browser and the table opened.
import { session } from './account.svelte'
import { api, asProblem, type ApiError } from './api'
import { rememberGame, rememberedName, rememberName } from './myGames'
import { navigate } from './router.svelte'
import { href } from './routes'
import { browserId, rememberSettings, seekRequest, type SeekSettings } from './seeks'

export type SeekPhase = 'idle' | 'posting' | 'waiting' | 'expired'

export const seeking = $state<{
  phase: SeekPhase
  settings: SeekSettings | null
  /** When the wait began (`Date.now()`). */
  since: number
  problem: ApiError | null
  /** The name a guest seeks with (a signed-in person sits as their account). */
  name: string
}>({ phase: 'idle', settings: null, since: 0, problem: null, name: rememberedName() })

let current: { id: string; token: string; stop: AbortController } | null = null

/** Posts a seek with `settings` (a guest sits as `seeking.name`) and waits for its table. */
export async function seek(settings: SeekSettings): Promise<void> {
  if (seeking.phase === 'posting' || seeking.phase === 'waiting') return
  seeking.phase = 'posting'
  seeking.problem = null
  seeking.settings = settings
  const guest = session.account ? null : { name: seeking.name.trim(), browser: browserId() }
  try {
    const posted = await api.postSeek(seekRequest(settings, guest))
    rememberSettings(settings)
    if (guest) rememberName(guest.name)
    current = { ...posted, stop: new AbortController() }
    seeking.phase = 'waiting'
    seeking.since = Date.now()
    void waitFor(current)
  } catch (error) {
    seeking.problem = asProblem(error)
    seeking.phase = 'idle'
  }
}

async function waitFor(held: { id: string; token: string; stop: AbortController }): Promise<void> {
  let failures = 0
  while (current === held) {
    try {
      const state = await api.waitSeek(held.id, held.token, held.stop.signal)
      failures = 0
      if (current !== held) return
      if (state.state === 'matched') {
        current = null
        seeking.phase = 'idle'
        rememberGame({ id: state.game, game: seeking.settings?.game ?? '', seat: state.seat, token: state.token, invites: [], added: Date.now() })
        navigate(href.table(state.game))
        return
      }
      if (state.state === 'expired') {
        current = null
        seeking.phase = 'expired'
        return
      }
    } catch (error) {
      if (current !== held) return
      const problem = asProblem(error)
      // A lost connection is tried again (the seek lives 30 s without a wait); anything else ends it.
      if (problem.kind === 'network' && failures < 5) {
        failures += 1
        await new Promise((resolve) => setTimeout(resolve, 1000 * failures))
        continue
      }
      current = null
      seeking.problem = problem
      seeking.phase = 'idle'
      return
    }
  }
}

/** Withdraws the seek waited on. */
export async function stopSeeking(): Promise<void> {
  const held = current
  current = null
  seeking.phase = 'idle'
  if (!held) return
  held.stop.abort()
  try {
    await api.withdrawSeek(held.id, held.token)
  } catch (error) {
    const problem = asProblem(error)
    if (problem.kind === 'conflict') {
      // Matched meanwhile: the seat is this browser's; read it and open the table.
      current = { ...held, stop: new AbortController() }
      seeking.phase = 'waiting'
      void waitFor(current)
    } else if (problem.kind !== 'not_found') {
      seeking.problem = problem
    }
  }
}

/** Clears an ended seek's notice. */
export function dismissSeek(): void {
  if (seeking.phase === 'expired') seeking.phase = 'idle'
  seeking.problem = null
}
