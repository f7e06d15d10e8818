// Issue 11's browser tests: Valdora played in a real Chromium against the real server.
import { expect, test, type Page, type WebSocket } from '@playwright/test'
import { writeFileSync, mkdirSync } from 'node:fs'
import {
  awaitTurn,
  clickOneMove,
  createFromLobby,
  expectEndScreenMatches,
  playToTheEnd,
  positionText,
  probe,
  screenshot,
  seeded,
} from './table'

// Medium bots (greedy) end a Valdora game in about 750 moves.
const ME_AND_THREE_BOTS = ['me', 'bot:medium', 'bot:medium', 'bot:medium']

/** Durations of the client's `tabletop:act-to-board` measures: click sent → board updated. */
async function actToBoard(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    performance.getEntriesByName('tabletop:act-to-board', 'measure').map((m) => m.duration),
  )
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

test('a 4-player Valdora game against three bots, played to the end by clicking the board', async ({
  page,
  request,
}) => {
  await page.goto('/')
  await expect(page.getByTestId('new-game')).toBeVisible()
  await screenshot(page, 'lobby')
  const id = await createFromLobby(page, { game: 'valdora', players: 4, seats: ME_AND_THREE_BOTS })
  await expect(page.getByTestId('banner-provisional')).toBeVisible()
  const random = seeded(11)
  const moves = await playToTheEnd(page, random, async (n) => {
    if (n === 12) await screenshot(page, 'valdora-table')
  })
  expect(moves).toBeGreaterThan(10)
  await expectEndScreenMatches(page, request, id)
  await screenshot(page, 'valdora-end', 'end-screen')

  // Figures for docs/benchmarks.md (not asserted): click → board shows the server's update,
  // and the tab's memory after a whole game.
  const durations = (await actToBoard(page)).sort((a, b) => a - b)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN
  mkdirSync('test-results', { recursive: true })
  writeFileSync(
    'test-results/valdora-figures.json',
    JSON.stringify(
      {
        moves_clicked: moves,
        act_to_board_ms: { n: durations.length, median: percentile(durations, 50), p95: percentile(durations, 95) },
        js_heap_used_bytes: heap,
      },
      null,
      1,
    ),
  )
})

test('two browsers play one game together through an invitation link', async ({ browser }) => {
  const host = await browser.newPage()
  await createFromLobby(host, { game: 'valdora', players: 3, seats: ['me', 'human', 'bot:easy'], name: 'Ada' })
  const invite = host.locator('[data-testid="invite"][data-seat="1"]')
  await expect(invite).toBeVisible()
  const link = /https?:\/\/\S+#\/join\/\S+/.exec((await invite.textContent()) ?? '')?.[0]
  expect(link, 'the invitation shows its link').toBeTruthy()

  const guestContext = await browser.newContext()
  const guest = await guestContext.newPage()
  await guest.goto(link ?? '')
  await guest.locator('input[name=name]').fill('Bo')
  await guest.getByTestId('join').click()
  await expect(guest.getByTestId('board')).toBeVisible()
  await expect(host.getByText('Bo').first()).toBeVisible()
  // Taking the seat spent the link: the guest's browser keeps the seat's new token (a
  // reload finds the seat again) and the address no longer holds the link's token...
  await expect(guest).toHaveURL(/#\/game\/[^/]+$/)
  await expect.poll(async () => (await probe(guest))?.seat).toBe(1)
  await guest.reload()
  await expect(guest.getByTestId('board')).toBeVisible()
  await expect.poll(async () => (await probe(guest))?.seat).toBe(1)
  // ...and whoever opens it later is refused the seat (and offered to watch).
  const lateContext = await browser.newContext()
  const late = await lateContext.newPage()
  await late.goto(link ?? '')
  await late.locator('input[name=name]').fill('Cy')
  await late.getByTestId('join').click()
  await expect(late.locator('a[href$="?watch"]')).toBeVisible()
  await lateContext.close()

  const random = seeded(5)
  const taken = [0, 0]
  const players = [host, guest]
  while (taken[0] < 3 || taken[1] < 3) {
    // Whoever is to move clicks; the other waits.
    const both = await Promise.all(players.map((p) => probe(p)))
    if (both.some((p) => p?.status === 'over')) break
    const mover = both.findIndex((p) => p && p.toMove === p.seat && p.legalCount > 0)
    if (mover < 0) {
      await host.waitForTimeout(50)
      continue
    }
    await clickOneMove(players[mover], random)
    taken[mover] += 1
  }
  // Both tables show the same position.
  await expect
    .poll(async () => {
      const [a, b] = await Promise.all(players.map((p) => probe(p)))
      return a?.seq === b?.seq
    })
    .toBe(true)
  await guestContext.close()
})

test('a reload mid-game resumes the same position', async ({ page }) => {
  await createFromLobby(page, { game: 'valdora', players: 4, seats: ME_AND_THREE_BOTS })
  const random = seeded(3)
  for (let i = 0; i < 5 && (await awaitTurn(page)); i++) await clickOneMove(page, random)
  await awaitTurn(page)
  const before = await probe(page)
  const boardBefore = await positionText(page)
  await page.reload()
  await expect(page.getByTestId('board')).toBeVisible()
  await expect.poll(async () => (await probe(page))?.seq).toBe(before?.seq)
  expect(await probe(page)).toEqual(before)
  expect(await positionText(page)).toBe(boardBefore)
})

test('a spectator receives no hidden information', async ({ page, browser }) => {
  const id = await createFromLobby(page, { game: 'valdora', players: 4, seats: ME_AND_THREE_BOTS })
  const watcherContext = await browser.newContext()
  const watcher = await watcherContext.newPage()
  const frames: string[] = []
  watcher.on('websocket', (ws: WebSocket) => ws.on('framereceived', (f) => frames.push(String(f.payload))))
  await watcher.goto(`/#/game/${id}?watch`)
  await expect(watcher.getByTestId('board')).toBeVisible()
  expect((await probe(watcher))?.seat).toBeNull()
  await expect(watcher.getByTestId('legal-list')).toHaveCount(0)
  const random = seeded(8)
  for (let i = 0; i < 30 && (await awaitTurn(page)); i++) await clickOneMove(page, random)
  // The bots answer the last click: wait until the seat is to move again (the position is
  // settled), then until the spectator has seen every one of those moves.
  await awaitTurn(page)
  const settled = (await probe(page))?.seq
  await expect.poll(async () => (await probe(watcher))?.seq).toBe(settled)
  expect(frames.length).toBeGreaterThan(1)
  // The seat sees its own points (its view's `own`), and another seat's as hidden.
  const me = (await probe(page))?.seat ?? 0
  const panel = (seat: number) => page.locator(`[data-testid="seat-panel"][data-seat="${seat}"] .score`)
  await expect(panel(me)).toHaveText(/★ -?\d+/)
  await expect(panel((me + 1) % 4)).toHaveText('★ ?')
  // V-I1: completed commissions and the points they carry lie hidden under each
  // adventurer card: a spectator never receives them while the game runs.
  for (const text of frames) {
    const message = JSON.parse(text) as { type: string; status?: string; view?: { own: unknown; seats: { completed: unknown; score: unknown }[] }; view_patch?: { path: string; value?: unknown }[]; legal?: unknown }
    expect(message.legal ?? null, 'a spectator gets no legal actions').toBeNull()
    expect(message.view?.own ?? null, 'a spectator has no adventurer card of its own').toBeNull()
    for (const op of message.view_patch ?? []) expect(op.path).not.toMatch(/^\/own(\/|$)/)
    if (message.status === 'over') continue
    for (const seat of message.view?.seats ?? []) {
      expect(seat.completed).toBeNull()
      expect(seat.score).toBeNull()
    }
    for (const op of message.view_patch ?? []) {
      if (/\/(completed|score)(\/|$)/.test(op.path)) expect(op.value ?? null).toBeNull()
    }
  }
  await watcherContext.close()
})

test('switching to Japanese shows Japanese on the board and in the log', async ({ page }) => {
  await createFromLobby(page, { game: 'valdora', players: 4, seats: ME_AND_THREE_BOTS })
  const random = seeded(21)
  for (let i = 0; i < 2 && (await awaitTurn(page)); i++) await clickOneMove(page, random)
  await page.getByTestId('language').selectOption('ja')
  const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/
  await expect(page.getByTestId('board')).toContainText(japanese)
  await expect(page.getByTestId('log')).toContainText(japanese)
  await screenshot(page, 'valdora-table-ja')
  // Remembered across a reload.
  await page.reload()
  await expect(page.getByTestId('board')).toContainText(japanese)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
  test('a phone-sized screen plays a turn', async ({ page }) => {
    await createFromLobby(page, { game: 'valdora', players: 4, seats: ME_AND_THREE_BOTS })
    expect(await awaitTurn(page)).toBe(true)
    const before = await clickOneMove(page, seeded(2))
    expect((await probe(page))?.seq).toBeGreaterThan(before)
    await screenshot(page, 'valdora-phone')
  })
})
