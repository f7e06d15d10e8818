// A table with a real-time clock: the person's time counts down in the seats panel, runs
// out, the stand-in bot plays the seat (a "time ran out" line in the log), and the person
// takes the seat back. The server runs with `--shortest-clock-secs 1` (playwright.config.ts)
// so that a clock may be seconds long, and its bots move at once: a second person, Ben, who
// never comes, holds the game on his turn (his own clock) meanwhile, or the bots would
// play it to its end before Ada could take her seat back.
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { CreateGame } from '../src/generated/server/CreateGame'
import type { Created } from '../src/generated/server/Created'
import type { LogEntry } from '../src/generated/server/LogEntry'
import { SCREENS, screenshot } from './table'

/** Long enough for the table to load and be seen running on this slow machine, short enough to run out soon. */
const CLOCK_SECS = 10

test("a person's clock runs out, a bot plays for them, and they take their seat back", async ({ page }) => {
  // Seat 0 (the first seat starts: not drawn) is Ada's; seat 1 a bot's, which has no clock; seat 2 Ben's.
  const request: CreateGame = {
    game: 'valdora',
    config: { players: 3, random_start_player: false },
    seed: null,
    seats: [
      { kind: 'human', name: 'Ada' },
      { kind: 'bot', bot: 'easy' },
      { kind: 'human', name: 'Ben' },
    ],
    stand_in: 'easy',
    clock: { kind: 'realtime', initial_secs: CLOCK_SECS, increment_secs: 0 },
  }
  const response = await page.request.post('/api/games', { data: request })
  expect(response.ok(), await response.text()).toBeTruthy()
  const created = (await response.json()) as Created
  const token = created.seats.find((s) => s.seat === 0)?.token ?? null
  expect(token).toBeTruthy()

  // The browser holds the seat as if it had created the table from the lobby (src/lib/myGames.ts,
  // not imported: it would bring the app's i18n into this test's compilation).
  const mine = { id: created.id, game: 'valdora', seat: 0, token, invites: [], added: Date.now() }
  await page.goto('/')
  await page.evaluate((games) => localStorage.setItem('tabletop.games', JSON.stringify(games)), [mine])
  await page.goto(`/#/game/${created.id}`)

  const ada = page.locator('[data-testid="seat"][data-seat="0"]')
  const bot = page.locator('[data-testid="seat"][data-seat="1"]')
  const clock = ada.getByTestId('seat-clock')
  await expect(clock).toHaveAttribute('data-running', 'true')
  // Under 30 s of real time: marked low.
  await expect(clock).toHaveAttribute('data-low', 'true')
  await expect(bot.getByTestId('seat-clock')).toHaveCount(0)
  const ben = page.locator('[data-testid="seat"][data-seat="2"]')
  await expect(ben.getByTestId('seat-clock')).toHaveAttribute('data-running', 'false')
  await expect(ben.getByTestId('seat-clock-time')).toHaveText(`0:${CLOCK_SECS}`)

  // It counts down on screen between the server's messages.
  const time = clock.getByTestId('seat-clock-time')
  const first = (await time.textContent()) ?? ''
  expect(first).toMatch(/^0:(0\d|10)$/)
  await expect(time).not.toHaveText(first, { timeout: 3_000 })
  await screenshot(page, 'clock-table')
  // Ben has been offline past the hand-over time (2 s), but on a clocked table his clock,
  // not Ada, hands his seat to a bot.
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'offline')
  await expect(ben.getByTestId('presence')).toContainText(/Offline for ([3-9]|\d{2,}) seconds/)
  await expect(ben.getByTestId('hand-over')).toHaveCount(0)
  await page.getByTestId('seats').screenshot({ path: `${SCREENS}/clock-seats.png` })

  // The time runs out: the log says so, the banner offers the seat back, the bot plays it.
  const timedOut = page.locator('[data-testid="seat-event"][data-what="timed_out"]')
  await expect(timedOut).toContainText("Ada's time ran out", { timeout: CLOCK_SECS * 1000 + 15_000 })
  await expect(time).toHaveText('0:00')
  await expect(clock).toHaveAttribute('data-running', 'false')
  const banner = page.getByTestId('banner-stand-in')
  await expect(banner).toBeVisible()
  await expect(ada.getByTestId('stand-in')).toBeVisible()
  await expect
    .poll(
      async () => {
        const log = (await (await page.request.get(`/api/games/${created.id}/log`)).json()) as LogEntry[]
        const at = log.findLastIndex((e) => e.seat_event?.what === 'timed_out')
        return at < 0 ? 0 : log.slice(at + 1).filter((e) => e.seat_event === undefined && e.seat === 0).length
      },
      { message: "the stand-in bot moves for Ada's seat", timeout: 30_000 },
    )
    .toBeGreaterThan(0)
  await screenshot(page, 'clock-timed-out')

  await banner.getByTestId('banner-take-back').click()
  await expect(banner).toHaveCount(0)
  await expect(ada.getByTestId('stand-in')).toHaveCount(0)
  await expect(page.locator('[data-testid="seat-event"][data-what="took_back"]')).toContainText('Ada took the seat back')

  // The lobby: "Your games" says whose turn it is and their time left; the form offers clocks.
  await page.goto('/')
  const row = page.locator(`[data-testid="my-games"] [data-game-id="${created.id}"]`)
  await expect(row.getByTestId('my-game-clock')).toContainText(/left/)
  const form = page.getByTestId('new-game')
  const choice = form.locator('select[name=clock]')
  await expect(choice.locator('option').first()).toHaveText('No clock')
  await expect(choice).toContainText('Real time 10 min + 10 sec a move')
  await expect(choice).toContainText('Turn-based: 1 day a move (bank 3 days)')
  await choice.selectOption('custom-realtime')
  await form.locator('input[name="clock-initialMinutes"]').fill('15')
  await expect(form).toContainText('Chosen: Real time 15 min + 10 sec a move')
  await screenshot(page, 'clock-lobby')
  await form.screenshot({ path: `${SCREENS}/clock-form.png` })
})

/** A page in a context of its own holding seat `seat` of table `id` with `token`, at the table. */
async function seated(browser: Browser, id: string, seat: number, token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } })
  const page = await context.newPage()
  const mine = { id, game: 'valdora', seat, token, invites: [], added: Date.now() }
  await page.goto('/')
  await page.evaluate((games) => localStorage.setItem('tabletop.games', JSON.stringify(games)), [mine])
  await page.goto(`/#/game/${id}`)
  return page
}

test('a person closes their tab, their clock runs out while the other watches, and they come back for their seat', async ({
  browser,
  request,
}) => {
  // Ben (seat 0) starts and his clock runs at once; Ada (seat 2) watches. A bot sits between.
  const table: CreateGame = {
    game: 'valdora',
    config: { players: 3, random_start_player: false },
    seed: null,
    seats: [
      { kind: 'human', name: 'Ben' },
      { kind: 'bot', bot: 'easy' },
      { kind: 'human', name: 'Ada' },
    ],
    stand_in: 'easy',
    clock: { kind: 'realtime', initial_secs: CLOCK_SECS, increment_secs: 0 },
  }
  const response = await request.post('/api/games', { data: table })
  expect(response.ok(), await response.text()).toBeTruthy()
  const { id, seats } = (await response.json()) as Created
  const tokenOf = (seat: number) => seats.find((s) => s.seat === seat)?.token ?? ''
  const ada = await seated(browser, id, 2, tokenOf(2))
  const ben = await seated(browser, id, 0, tokenOf(0))
  const benRow = ada.locator('[data-testid="seat"][data-seat="0"]')
  await expect(benRow.getByTestId('presence')).toHaveAttribute('data-state', 'online')
  await expect(benRow.getByTestId('seat-clock')).toHaveAttribute('data-running', 'true')

  // Ben closes his tab: Ada sees him go offline, and his clock still runs out.
  await ben.close()
  await expect(benRow.getByTestId('presence')).toHaveAttribute('data-state', 'offline')
  const timedOut = ada.locator('[data-testid="seat-event"][data-what="timed_out"]')
  await expect(timedOut).toContainText("Ben's time ran out", { timeout: CLOCK_SECS * 1000 + 15_000 })
  await expect(benRow.getByTestId('stand-in')).toBeVisible()

  // Ben comes back in a new tab and takes his seat back with one click.
  const back = await ben.context().newPage()
  await back.goto(`/#/game/${id}`)
  const banner = back.getByTestId('banner-stand-in')
  await expect(banner).toBeVisible()
  await banner.getByTestId('banner-take-back').click()
  await expect(ada.locator('[data-testid="seat-event"][data-what="took_back"]')).toContainText('Ben took the seat back')
  await expect(benRow.getByTestId('stand-in')).toHaveCount(0)
  await expect(benRow.getByTestId('presence')).toHaveAttribute('data-state', 'online')
})
