// Issue 12's browser tests: Valley of the Kings and Pandoria played in Chromium against the
// real server by clicking their boards; the tile placement preview; the replay viewer.
import { expect, test, type Page, type WebSocket } from '@playwright/test'
import type { Created } from '../src/generated/server/Created'
import {
  awaitTurn,
  clickOneMove,
  createFromLobby,
  expectEndScreenMatches,
  playToTheEnd,
  positionText,
  screenshot,
  seeded,
  summary,
} from './table'
import { CORRECTED_STARTER_COST, CORRECTED_URL } from './servers'

const THREE_BOTS = ['me', 'bot:easy', 'bot:easy', 'bot:easy']

test('a 4-player Valley of the Kings game against bots, played to the end by clicking', async ({ page, request }) => {
  const id = await createFromLobby(page, { game: 'valley', players: 4, seats: THREE_BOTS })
  const moves = await playToTheEnd(page, seeded(31), async (n) => {
    if (n === 10) await screenshot(page, 'valley-table')
  })
  expect(moves).toBeGreaterThan(5)
  await expectEndScreenMatches(page, request, id)
  await screenshot(page, 'valley-end', 'end-screen')
})

test('a 4-player Pandoria game (full mode) against bots, played to the end by clicking', async ({ page, request }) => {
  const id = await createFromLobby(page, {
    game: 'pandoria',
    players: 4,
    seats: THREE_BOTS,
    options: { mode: 'full' },
  })
  const moves = await playToTheEnd(page, seeded(41), async (n) => {
    if (n === 12) await screenshot(page, 'pandoria-table')
  })
  expect(moves).toBeGreaterThan(5)
  await expectEndScreenMatches(page, request, id)
  await screenshot(page, 'pandoria-end', 'end-screen')
})

test('a 4-player Pandoria team game against bots, played to the end by clicking', async ({ page, request }) => {
  const id = await createFromLobby(page, {
    game: 'pandoria',
    players: 4,
    seats: THREE_BOTS,
    options: { mode: 'full', teams: true },
  })
  await playToTheEnd(page, seeded(43))
  await expectEndScreenMatches(page, request, id)
})

/** The legal actions of the newest message carrying them, as this page's socket received them. */
function legalFrom(frames: string[]): unknown[] {
  for (const text of [...frames].reverse()) {
    const message = JSON.parse(text) as { type: string; legal?: { action: unknown }[] | null }
    if ((message.type === 'state' || message.type === 'update') && message.legal)
      return message.legal.map((l) => l.action)
  }
  return []
}

async function previewedPlacements(page: Page): Promise<string[]> {
  const raw = await page.getByTestId('board').locator('[data-placements]').first().getAttribute('data-placements')
  return (JSON.parse(raw ?? '[]') as unknown[]).map((a) => JSON.stringify(a))
}

test('the tile placement preview shows exactly the legal placements', async ({ page }) => {
  const frames: string[] = []
  page.on('websocket', (ws: WebSocket) => ws.on('framereceived', (f) => frames.push(String(f.payload))))
  await createFromLobby(page, { game: 'pandoria', players: 4, seats: THREE_BOTS, options: { mode: 'full' } })
  const random = seeded(47)
  // Play until the server offers tile placements to this seat.
  for (let turn = 0; turn < 40; turn++) {
    expect(await awaitTurn(page)).toBe(true)
    const placements = legalFrom(frames).filter((a) => (a as { type: string }).type === 'place_tile')
    if (placements.length > 0) {
      const legal = new Set(placements.map((a) => JSON.stringify(a)))
      const previewed = new Set<string>()
      const cells = page.getByTestId('board').locator('[data-legal="true"][data-target^="cell"]')
      const count = await cells.count()
      expect(count).toBeGreaterThan(0)
      for (let i = 0; i < count; i++) {
        await cells.nth(i).click()
        for (const p of await previewedPlacements(page)) previewed.add(p)
        await expect(page.getByTestId('ghost').first()).toBeVisible()
        await page.keyboard.press('Escape')
      }
      expect([...previewed].sort()).toEqual([...legal].sort())
      await screenshot(page, 'pandoria-placement')
      return
    }
    await clickOneMove(page, random)
  }
  throw new Error('no tile placement was offered in 40 turns')
})

test('the replay viewer steps through a stored game to the final position of the table', async ({ page }) => {
  const id = await createFromLobby(page, { game: 'valley', players: 4, seats: THREE_BOTS })
  await playToTheEnd(page, seeded(53))
  await expect(page.getByTestId('end-screen')).toBeVisible()
  const finalBoard = await positionText(page)
  await page.goto(`/#/replay/${id}`)
  const viewer = page.getByTestId('replay')
  await expect(viewer).toBeVisible()
  await viewer.locator('select[name=seat]').selectOption('0')
  // Step forward and back, then jump to the end.
  await viewer.getByTestId('step-forward').click()
  await viewer.getByTestId('step-forward').click()
  await viewer.getByTestId('step-back').click()
  await expect(viewer.getByTestId('position')).toContainText('1')
  await viewer.getByTestId('to-end').click()
  await expect.poll(() => positionText(page)).toBe(finalBoard)
  await screenshot(page, 'replay')
})

// Bots alone play as fast as the server answers, so the log a spectator fetches after its
// state is often ahead of the updates still on their way. That once gave the log two entries
// for one move, a page error in its keyed list, and a board that stopped updating parts of
// itself: the live board must equal a fresh load of the finished game, with no page error.
test('a spectator of a fast bots-only game ends on the board a fresh load shows', async ({ page, request }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  for (let game = 0; game < 6; game++) {
    const created = await request.post('/api/games', {
      data: { game: 'valley', config: { players: 4 }, seats: [0, 1, 2, 3].map(() => ({ kind: 'bot', bot: 'easy' })) },
    })
    expect(created.ok()).toBe(true)
    const { id } = (await created.json()) as { id: string }
    await page.goto(`/#/game/${id}?watch`)
    await expect(page.getByTestId('end-screen')).toBeVisible({ timeout: 120_000 })
    const live = await positionText(page)
    await page.reload()
    // The board's code loads after the end screen shows: wait for it, not just read once.
    await expect.poll(() => positionText(page), { message: `game ${id}` }).toBe(live)
  }
  expect(errors).toEqual([])
})

test("a Valley of the Kings game on corrected data is drawn from that data, not the client's own", async ({ page, request }) => {
  const created = await request.post(`${CORRECTED_URL}/api/games`, {
    data: { game: 'valley', config: { players: 2 }, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'easy' }] },
  })
  expect(created.status()).toBe(201)
  const { id, seats } = (await created.json()) as Created
  const token = seats[0].token
  if (!token) throw new Error('no token for the human seat')
  await page.goto(`${CORRECTED_URL}/#/join/${id}/${token}`)
  await page.locator('input[name=name]').fill('Ada')
  await page.getByTestId('join').click()
  await expect(page.getByTestId('board')).toBeVisible()
  await expectCorrectedStarters(page)
})

test("the replay viewer draws a game on corrected data from its record's data", async ({ page, request }) => {
  const created = await request.post(`${CORRECTED_URL}/api/games`, {
    data: { game: 'valley', config: { players: 2 }, seats: [0, 1].map(() => ({ kind: 'bot', bot: 'easy' })) },
  })
  expect(created.status()).toBe(201)
  const { id } = (await created.json()) as Created
  await expect
    .poll(async () => (await summary(request, id, CORRECTED_URL)).status, { timeout: 120_000 })
    .toBe('over')
  await page.goto(`${CORRECTED_URL}/#/replay/${id}`)
  const viewer = page.getByTestId('replay')
  await expect(viewer).toBeVisible()
  await viewer.locator('select[name=seat]').selectOption('0')
  await expect(viewer.getByTestId('position')).toContainText('0')
  await expectCorrectedStarters(page)
})

/** Every card in the hand shown is a starter card with the corrected cost. */
async function expectCorrectedStarters(page: Page): Promise<void> {
  // (the gem's last span: the first is its label for screen readers)
  const costs = page.locator('.hand .face .gem > span:last-child')
  await expect(costs.first()).toBeVisible()
  expect(await costs.count()).toBeGreaterThan(0)
  for (const cost of await costs.all()) await expect(cost).toHaveText(String(CORRECTED_STARTER_COST))
}
