// Issue 28, "see every move": a game with people and bots shows each bot move happening on
// the board (a pawn walking, a card travelling), keeps the others' last moves marked until
// one's own move, sums up what they did when one's turn starts, and with reduced motion
// turns movement into a highlight.
import { expect, test, type Page } from '@playwright/test'
import type { LogEntry } from '../src/generated/server/LogEntry'
import { awaitTurn, clickOneMove, createFromLobby, probe, seeded } from './table'

/**
 * Records in the page every `data-moving` attribute that appears (a component travelling,
 * its move's seq) and every `data-highlight` (the reduced-motion stand-in), from now on.
 */
async function watchMoves(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { moving: new Set<string>(), highlight: new Set<string>() }
    Object.defineProperty(window, '__moves', { value: seen, configurable: true })
    const note = (element: Element) => {
      const moving = element.getAttribute('data-moving')
      if (moving !== null) seen.moving.add(moving)
      const highlight = element.getAttribute('data-highlight')
      if (highlight !== null) seen.highlight.add(highlight)
    }
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element) note(record.target)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue
          note(node)
          node.querySelectorAll('[data-moving], [data-highlight]').forEach(note)
        }
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-moving', 'data-highlight'],
    })
  })
}

/** What was seen moving (a travelling component's move seq, a dropping tile's `tile:CELL`). */
async function seenMarks(page: Page, kind: 'moving' | 'highlight'): Promise<string[]> {
  return page.evaluate((k) => {
    const moves = (window as unknown as { __moves: Record<string, Set<string>> }).__moves
    return [...moves[k]]
  }, kind)
}

async function seen(page: Page, kind: 'moving' | 'highlight'): Promise<number[]> {
  return (await seenMarks(page, kind)).map(Number).sort((a, b) => a - b)
}

/** Plays my whole Valdora turn (several decisions: it ends with the next turn's start). */
async function playMyTurn(page: Page, gameId: string, random: () => number): Promise<void> {
  for (let decision = 0; decision < 30; decision++) {
    expect(await awaitTurn(page)).toBe(true)
    const seq = (await clickOneMove(page, random)) + 1
    const log = await (await page.request.get(`/api/games/${gameId}/log`)).json() as LogEntry[]
    const mine = log.find((e) => e.seq === seq && e.seat_event === undefined)
    if (mine?.events.some((e) => (e.event as { type?: string }).type === 'turn_began')) return
  }
  throw new Error('my turn did not end in 30 decisions')
}

/** The seqs of the bot seats' moves in the log after `after`, whose events include `type`. */
async function botMoves(page: Page, gameId: string, after: number, type: string): Promise<number[]> {
  const response = await page.request.get(`/api/games/${gameId}/log`)
  const log = (await response.json()) as LogEntry[]
  return log
    .filter((e) => e.seq > after && e.seat !== 0 && !e.seat_event && e.events.some((x) => (x.event as { type?: string }).type === type))
    .map((e) => e.seq)
}

test('every bot move that walks a pawn is seen walking, and stays marked until my move', async ({ page }) => {
  const id = await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] })
  await watchMoves(page)
  const random = seeded(28)
  await awaitTurn(page)
  const start = (await probe(page))?.seq ?? 0
  for (let turn = 0; turn < 3; turn++) await playMyTurn(page, id, random)
  expect(await awaitTurn(page)).toBe(true)
  const walked = await botMoves(page, id, start, 'moved')
  expect(walked.length).toBeGreaterThan(0)
  const moving = await seen(page, 'moving')
  for (const seq of walked) expect(moving, `the walk of move ${seq} was animated`).toContain(seq)
  // It is my turn: both bots' last moves are marked on the board, with their seat.
  const board = page.getByTestId('board')
  await expect(board.locator('[data-last-move="1"]').first()).toBeVisible()
  await expect(board.locator('[data-last-move="2"]').first()).toBeVisible()

  // My turn starts with what each bot did, in short lines, and the log has short lines whose
  // whole sentence opens on demand.
  const since = page.getByTestId('since-last-turn')
  await expect(since).toBeVisible()
  await expect(since.locator('li[data-seat="1"]')).toBeVisible()
  await expect(since.locator('li[data-seat="2"]')).toBeVisible()
  const more = page.getByTestId('log-more').first()
  await expect(more).toHaveAttribute('aria-expanded', 'false')
  await more.click()
  await expect(more).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByTestId('log-long').first()).toBeVisible()

  // My decision ends both: the marks and the summary are for the moves before it.
  await clickOneMove(page, random)
  await expect(board.locator('[data-last-move]')).toHaveCount(0)
  await expect(since).toBeHidden()
})

// The other two games: what a bot move carries across the board is seen travelling (a
// bought Valley card from its pyramid slot, a Pandoria market card to the seat) or dropping
// (a Pandoria tile onto its hex), for every such bot move while I play.
type Logged = LogEntry['events'][number]['event'] & { type?: string; at?: number }
for (const { game, travels } of [
  {
    game: 'valley',
    travels: (event: Logged, seq: number) => (event.type === 'bought' ? [String(seq)] : []),
  },
  {
    game: 'pandoria',
    travels: (event: Logged, seq: number) =>
      event.type === 'tile_placed'
        ? [`tile:${event.at}`]
        : event.type === 'card_taken' || event.type === 'card_bought'
          ? [String(seq)]
          : [],
  },
]) {
  test(`every ${game} bot move that carries a component is seen carrying it`, async ({ page }) => {
    const id = await createFromLobby(page, { game, players: 2, seats: ['me', 'bot:easy'] })
    await watchMoves(page)
    const random = seeded(30)
    await awaitTurn(page)
    const start = (await probe(page))?.seq ?? 0
    const expected = async () => {
      const log = (await (await page.request.get(`/api/games/${id}/log`)).json()) as LogEntry[]
      return log
        .filter((e) => e.seq > start && e.seat === 1 && !e.seat_event)
        .flatMap((e) => e.events.flatMap((x) => travels(x.event as Logged, e.seq)))
    }
    // My decisions until the bot has carried components in at least three moves.
    for (let decision = 0; decision < 60 && (await expected()).length < 3; decision++) {
      if (!(await awaitTurn(page))) break
      await clickOneMove(page, random)
    }
    expect(await awaitTurn(page)).toBe(true)
    const wanted = await expected()
    expect(wanted.length).toBeGreaterThanOrEqual(3)
    const moving = await seenMarks(page, 'moving')
    for (const mark of wanted) expect(moving, `${mark} was seen moving`).toContain(mark)
  })
}

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' })

  test('a bot move is highlighted where it happened, and nothing travels', async ({ page }) => {
    const id = await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] })
    await watchMoves(page)
    const random = seeded(29)
    await awaitTurn(page)
    const start = (await probe(page))?.seq ?? 0
    for (let turn = 0; turn < 2; turn++) await playMyTurn(page, id, random)
    expect(await awaitTurn(page)).toBe(true)
    const response = await page.request.get(`/api/games/${id}/log`)
    const log = (await response.json()) as LogEntry[]
    const botMoves = log.filter((e) => e.seq > start && e.seat !== 0 && !e.seat_event).map((e) => e.seq)
    expect(botMoves.length).toBeGreaterThan(0)
    // Each bot move lit up where it happened as it arrived.
    const highlighted = await seen(page, 'highlight')
    for (const seq of botMoves) expect(highlighted, `move ${seq} was highlighted`).toContain(seq)
    await expect(page.getByTestId('board').locator('[data-highlight]').first()).toBeVisible()
    expect(await seen(page, 'moving')).toEqual([])
  })
})
