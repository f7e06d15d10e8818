// What the browser tests share: creating games through the lobby, playing by clicking the
// board, reading the server's own answers to compare with what the page shows.
import { errors, expect, type APIRequestContext, type Page } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import type { CreateGame } from '../src/generated/server/CreateGame'
import type { Created } from '../src/generated/server/Created'
import type { GameSummary } from '../src/generated/server/GameSummary'
import type { Kinds } from '../src/generated/server/Kinds'
import type { TabletopDebug } from '../src/lib/debug'

export const SCREENS = 'test-results/screens'

/** A phone, a laptop and a desktop: the widths every screen is checked at. */
export const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]

/** A screenshot of the page from its top, or with `testId`'s element scrolled into view. */
export async function screenshot(page: Page, name: string, testId?: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true })
  if (testId) await page.getByTestId(testId).scrollIntoViewIfNeeded()
  else await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `${SCREENS}/${name}.png` })
}

/**
 * The text of the position the board draws, without the moves drawn over it: the rings of the
 * last moves depend on which seat watches and since when (a live table's marks are not a
 * replay's), the position does not.
 */
export async function positionText(page: Page): Promise<string> {
  return page.getByTestId('board').evaluate((board) => {
    const copy = board.cloneNode(true) as HTMLElement
    for (const layer of copy.querySelectorAll('[data-move-layer]')) layer.remove()
    // Spacing between elements is layout, not position (as `toHaveText` compares).
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim()
  })
}

/** A turn-based Valley of the Kings table of two people, Ada (seat 0) and Ben, both seated. */
export async function createAdaAndBen(page: Page): Promise<Created> {
  const request: CreateGame = {
    game: 'valley',
    config: { players: 2 },
    seed: null,
    seats: [
      { kind: 'human', name: 'Ada' },
      { kind: 'human', name: 'Ben' },
    ],
    stand_in: null,
    clock: { kind: 'turn_based', per_move_secs: 86_400, bank_secs: 259_200 },
  }
  const response = await page.request.post('/api/games', { data: request })
  expect(response.ok(), await response.text()).toBeTruthy()
  return (await response.json()) as Created
}

/** A Pandoria beginner table of Ada (seat 0) against an easy bot, untimed, an easy bot standing in for her when she leaves. */
export async function createAdaAgainstEasyBot(page: Page): Promise<Created> {
  const request: CreateGame = {
    game: 'pandoria',
    config: { players: 2, mode: 'beginner' },
    seed: null,
    seats: [
      { kind: 'human', name: 'Ada' },
      { kind: 'bot', bot: 'easy' },
    ],
    stand_in: 'easy',
    clock: null,
  }
  const response = await page.request.post('/api/games', { data: request })
  expect(response.ok(), await response.text()).toBeTruthy()
  return (await response.json()) as Created
}

/** Holds `seat` of `created` (a table of `game`) in `page`'s browser, as if it had made the table from the lobby. */
export async function holdSeat(page: Page, created: Created, seat: number, game = 'valley'): Promise<void> {
  const token = created.seats.find((s) => s.seat === seat)?.token ?? null
  expect(token).toBeTruthy()
  // src/lib/myGames.ts's entry, not imported: it would bring the app's i18n into this compilation.
  const mine = { id: created.id, game, seat, token, invites: [], added: Date.now() }
  await page.goto('/')
  await page.evaluate((games) => localStorage.setItem('tabletop.games', JSON.stringify(games)), [mine])
}

/** Fills the site header's account form (opened already) and sends it. */
export async function fillAccountForm(page: Page, name: string, password: string): Promise<void> {
  const form = page.getByTestId('account-form')
  await expect(form).toBeVisible()
  await form.getByTestId('account-name-input').fill(name)
  await form.getByTestId('account-password').fill(password)
  await form.getByTestId('account-submit').click()
}

/** Creates the account `name` from the site header of the page shown, and waits until signed in. */
export async function signUp(page: Page, name: string, password: string): Promise<void> {
  await page.getByTestId('sign-in').click()
  await page.getByTestId('account-switch').click()
  await fillAccountForm(page, name, password)
  await expect(page.getByTestId('account-name')).toHaveText(name)
}

/** The row of `seat` in the table's players panel. */
export const seatRow = (page: Page, seat: number) => page.locator(`[data-testid="seat"][data-seat="${seat}"]`)

export async function probe(page: Page): Promise<TabletopDebug | undefined> {
  return page.evaluate(() => window.__tabletop && { ...window.__tabletop })
}

/** Seat values of the lobby form: `me`, `human`, `bot:easy|medium|hard`. */
export interface NewGame {
  game: string
  players: number
  seats: string[]
  name?: string
  /** Config options by key, as JSON values (`{mode: 'full', teams: true}`). */
  options?: Record<string, unknown>
  /** Allow hints at the table (the form's checkbox). */
  hints?: boolean
  /** The clock select's value: a preset's index in /api/games/kinds `clocks.presets` (none by default). */
  clock?: string
}

/** Creates a game from the lobby's form and waits for its table; returns the game id. */
export async function createFromLobby(page: Page, game: NewGame): Promise<string> {
  await page.goto('/')
  const form = page.getByTestId('new-game')
  await form.locator('select[name=game]').selectOption(game.game)
  await form.locator('select[name=players]').selectOption(String(game.players))
  if (game.options) {
    // The form lists each option's choices in the order /api/games/kinds gives them.
    const kinds = (await (await page.request.get('/api/games/kinds')).json()) as Kinds
    const options = kinds.games.find((k) => k.game === game.game)?.options ?? []
    for (const [key, value] of Object.entries(game.options)) {
      const index = options
        .find((o) => o.key === key)
        ?.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value))
      expect(index ?? -1, `${game.game} offers ${key} = ${JSON.stringify(value)}`).toBeGreaterThanOrEqual(0)
      await form.locator(`select[name="option-${key}"]`).selectOption(String(index))
    }
  }
  for (const [seat, kind] of game.seats.entries()) {
    await form.locator(`select[name="seat-${seat}"]`).selectOption(kind)
  }
  if (game.hints) await form.getByTestId('new-game-hints').check()
  if (game.clock !== undefined) await form.locator('select[name=clock]').selectOption(game.clock)
  await form.locator('input[name=name]').fill(game.name ?? 'Ada')
  await form.getByTestId('create').click()
  await page.waitForURL(/#\/game\/[^/?]+/)
  const id = /#\/game\/([^/?]+)/.exec(page.url())?.[1]
  if (!id) throw new Error(`no game id in ${page.url()}`)
  await expect(page.getByTestId('board')).toBeVisible()
  return id
}

/** Waits until this page's seat is to move (true) or the game is over (false). */
export async function awaitTurn(page: Page, timeout = 180_000): Promise<boolean> {
  await page.waitForFunction(
    () => {
      const t = window.__tabletop
      return !!t && (t.status === 'over' || (t.toMove === t.seat && t.seat !== null && t.legalCount > 0))
    },
    null,
    { timeout, polling: 50 },
  )
  const now = await probe(page)
  return now?.status !== 'over'
}

/**
 * Takes one legal action by clicking the board: random highlighted targets (some actions
 * take several clicks, e.g. a card and then the cards that pay for it) and, when a choice
 * opens, a random choice, until an action is sent and the server's update arrives. Returns
 * the seq the move was taken at. `random` decides.
 */
export async function clickOneMove(page: Page, random: () => number): Promise<number> {
  const before = (await probe(page))?.seq ?? 0
  const board = page.getByTestId('board')
  for (let click = 0; click < 25; click++) {
    const targets = board.locator('[data-legal="true"]')
    // The board draws its targets once it has taken the state the probe already shows: wait
    // for them, then count.
    await expect(targets.first(), 'a seat to move has legal targets on the board').toBeVisible()
    const count = await targets.count()
    // A click waits for its target to take it; one that never can (covered, or redrawn
    // away meanwhile) would hold the test to its timeout: try another target instead.
    try {
      await targets.nth(Math.floor(random() * count)).click({ timeout: 10_000 })
    } catch (error) {
      if (error instanceof errors.TimeoutError) continue
      throw error
    }
    for (let step = 0; step < 4; step++) {
      const choice = page.getByTestId('choice')
      if (!(await choice.isVisible())) break
      const options = choice.locator('[data-choice]')
      const n = await options.count()
      if (n === 0) break
      await options.nth(Math.floor(random() * n)).click()
    }
    // Ending a play with a free choice left asks first (Valley's "End play" with gold in
    // hand): a random player means it.
    const early = page.getByTestId('confirm-early-end')
    if (await early.isVisible()) await early.getByTestId('confirm-early-end-confirm').click()
    // Sent: wait for the server's answer. Not sent (a selection): click on.
    const sent = (await probe(page))?.busy ?? false
    if (sent || (await probe(page))?.seq !== before) {
      await page.waitForFunction((seq) => { const t = window.__tabletop; return !!t && !t.busy && t.seq > seq }, before, {
        timeout: 60_000,
        polling: 20,
      })
      return before
    }
  }
  throw new Error(`no move was taken at seq ${before} after 25 clicks`)
}

/** Plays this page's seat by clicking the board until the game is over. */
/** Clicks moves for `page`'s seat until `seat` is to move. */
export async function moveUntilTurnOf(page: Page, seat: number, random: () => number): Promise<void> {
  for (let moves = 0; (await probe(page))?.toMove !== seat; moves++) {
    expect(moves, `the turn comes to seat ${seat}`).toBeLessThan(60)
    expect(await awaitTurn(page, 60_000), 'the game goes on').toBe(true)
    await clickOneMove(page, random)
  }
}

export async function playToTheEnd(page: Page, random: () => number, onMove?: (moves: number) => Promise<void>): Promise<number> {
  let moves = 0
  while (await awaitTurn(page)) {
    await clickOneMove(page, random)
    moves += 1
    if (onMove) await onMove(moves)
  }
  return moves
}

/** A small deterministic generator (mulberry32), so a failing run can be repeated. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The summary of game `id` on the server at `base` (the tests' own by default). */
export async function summary(request: APIRequestContext, id: string, base = ''): Promise<GameSummary> {
  const response = await request.get(`${base}/api/games/${id}`)
  expect(response.ok()).toBeTruthy()
  return (await response.json()) as GameSummary
}

/** The end screen shows each seat's score and rank exactly as the server's outcome. */
export async function expectEndScreenMatches(page: Page, request: APIRequestContext, id: string): Promise<void> {
  const over = await summary(request, id)
  expect(over.status).toBe('over')
  const outcome = over.outcome
  expect(outcome).toBeTruthy()
  const end = page.getByTestId('end-screen')
  await expect(end).toBeVisible()
  for (const result of outcome?.seats ?? []) {
    const row = end.locator(`[data-testid="result"][data-seat="${result.seat}"]`)
    await expect(row.getByTestId('score')).toHaveText(new RegExp(`(^|\\D)${result.score}(\\D|$)`))
    await expect(row.getByTestId('rank')).toHaveText(new RegExp(`(^|\\D)${result.rank}(\\D|$)`))
  }
}
