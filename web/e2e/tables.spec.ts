// People at a table: presence, a gone person's seat handed to a bot and taken back, seats
// kept for a friend or open to anyone in the lobby, the creator cancelling a table. The
// server runs with `--hand-over-after-secs 2` (playwright.config.ts).
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { LogEntry } from '../src/generated/server/LogEntry'
import { clickOneMove, createFromLobby, probe, screenshot, seeded } from './table'

const LAPTOP = { width: 1366, height: 768 }
const PHONE = { width: 390, height: 844 }

/** The invitation link the creator's table shows for `seat`. */
async function invitationLink(page: Page, seat: number): Promise<string> {
  const invite = page.locator(`[data-testid="invite"][data-seat="${seat}"]`)
  await expect(invite).toBeVisible()
  const link = /https?:\/\/\S+#\/join\/\S+/.exec((await invite.textContent()) ?? '')?.[0]
  expect(link, 'the invitation shows its link').toBeTruthy()
  return link ?? ''
}

/** Pretends the tab was hidden or shown (the browser's own visibility cannot be switched). */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true })
    Object.defineProperty(document, 'hidden', { value: hidden, configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  }, hidden)
}

const seatRow = (page: Page, seat: number) => page.locator(`[data-testid="seat"][data-seat="${seat}"]`)

async function storedLog(page: Page, id: string): Promise<LogEntry[]> {
  return (await (await page.request.get(`/api/games/${id}/log`)).json()) as LogEntry[]
}

/** Moves of `seat` stored after the last seat event `what` of that seat. */
async function movesAfter(page: Page, id: string, seat: number, what: string): Promise<number> {
  const log = await storedLog(page, id)
  const at = log.findLastIndex((e) => e.seat_event?.what === what && e.seat_event.seat === seat)
  if (at < 0) return 0
  return log.slice(at + 1).filter((e) => e.seat_event === undefined && e.seat === seat).length
}

async function openAs(browser: Browser, url: string, viewport = LAPTOP) {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await page.goto(url)
  return { context, page }
}

test("a gone person's seat is handed to a bot, which plays it until they take it back", async ({ browser }) => {
  const hostContext = await browser.newContext({ viewport: LAPTOP })
  const host = await hostContext.newPage()
  const id = await createFromLobby(host, { game: 'valdora', players: 3, seats: ['me', 'human', 'bot:easy'], name: 'Ada' })
  const link = await invitationLink(host, 1)

  const guestContext = await browser.newContext({ viewport: LAPTOP })
  let guest = await guestContext.newPage()
  await guest.goto(link)
  await guest.locator('input[name=name]').fill('Ben')
  await guest.getByTestId('join').click()
  await expect(guest.getByTestId('board')).toBeVisible()
  await expect.poll(async () => (await probe(guest))?.seat).toBe(1)

  // Presence: online, away while the tab is hidden, online again.
  const ben = seatRow(host, 1)
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'online')
  await expect(seatRow(guest, 0).getByTestId('presence')).toHaveAttribute('data-state', 'online')
  await setHidden(guest, true)
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'away')
  await expect(ben.getByTestId('presence')).toContainText('Away for')
  await setHidden(guest, false)
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'online')

  // Ben closes his tab: Ada sees him offline, and after the hand-over time the button
  // appears by itself.
  await guest.close()
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'offline')
  await expect(ben.getByTestId('presence')).toContainText('Offline for')
  await expect(ben.getByTestId('hand-over')).toBeVisible({ timeout: 10_000 })
  await screenshot(host, 'tables-laptop-hand-over', 'seats')
  await ben.getByTestId('hand-over').click()
  await expect(ben.getByTestId('stand-in')).toContainText('plays for Ben')
  await expect(ben.getByTestId('hand-over')).toHaveCount(0)
  await expect(host.locator('[data-testid="seat-event"][data-what="handed_over"]')).toContainText(
    'Ben is gone: Ada handed the seat to a bot',
  )

  // The bot moves for Ben; Ada plays her turns meanwhile.
  const random = seeded(11)
  for (let i = 0; (await movesAfter(host, id, 1, 'handed_over')) === 0; i++) {
    expect(i, 'the stand-in bot moves for Ben').toBeLessThan(400)
    const now = await probe(host)
    if (now?.status !== 'running') throw new Error(`the game ended: ${now?.status}`)
    if (now.toMove === now.seat && now.legalCount > 0) await clickOneMove(host, random)
    else await host.waitForTimeout(100)
  }

  // Ben comes back with his seat's link, on his phone: the banner says a bot plays for him.
  guest = await guestContext.newPage()
  await guest.setViewportSize(PHONE)
  await guest.goto(`/#/game/${id}`)
  const banner = guest.getByTestId('banner-stand-in')
  await expect(banner).toBeVisible()
  await expect(seatRow(guest, 1).getByTestId('take-back')).toBeVisible()
  await expect(ben.getByTestId('presence')).toHaveAttribute('data-state', 'online')
  await screenshot(guest, 'tables-phone-take-back')
  await guest.setViewportSize(LAPTOP)
  await screenshot(guest, 'tables-laptop-take-back')
  await guest.setViewportSize(PHONE)
  await screenshot(guest, 'tables-phone-seats', 'seats')

  await banner.getByTestId('banner-take-back').click()
  await expect(banner).toHaveCount(0)
  await expect(ben.getByTestId('stand-in')).toHaveCount(0)
  await expect(host.locator('[data-testid="seat-event"][data-what="took_back"]')).toContainText('Ben took the seat back')
  await expect(guest.locator('[data-testid="seat-event"][data-what="took_back"]')).toContainText('Ben took the seat back')

  // Ben moves again himself.
  const players = [host, guest]
  let benMoved = 0
  for (let i = 0; benMoved === 0; i++) {
    expect(i, 'Ben gets a turn').toBeLessThan(400)
    const both = await Promise.all(players.map((p) => probe(p)))
    if (both.some((p) => p?.status !== 'running')) throw new Error('the game ended before Ben moved again')
    const mover = both.findIndex((p) => p && p.toMove === p.seat && p.legalCount > 0)
    if (mover < 0) {
      await host.waitForTimeout(100)
      continue
    }
    await clickOneMove(players[mover], random)
    if (mover === 1) benMoved += 1
  }
  expect(await movesAfter(host, id, 1, 'took_back')).toBeGreaterThan(0)
  await screenshot(host, 'tables-laptop-log', 'log')

  // Ben leaves for good: a confirmation says what it means; a bot finishes his seat.
  await guest.getByTestId('leave').click()
  const dialog = guest.getByTestId('confirm-leave')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('cannot be undone')
  await dialog.getByTestId('confirm-leave-confirm').click()
  await expect(guest.getByTestId('banner-left')).toBeVisible()
  await expect(ben.getByTestId('left')).toContainText('Left the game')
  await expect(host.locator('[data-testid="seat-event"][data-what="left"]')).toContainText(
    'Ben left the game; a bot finishes the seat',
  )
  await expect(seatRow(guest, 1).getByTestId('take-back')).toHaveCount(0)
  await guestContext.close()
  await hostContext.close()
})

test('a seat kept for a friend is not joinable from the lobby, an open seat is', async ({ browser }) => {
  const hostContext = await browser.newContext({ viewport: LAPTOP })
  const host = await hostContext.newPage()
  const friends = await createFromLobby(host, { game: 'valdora', players: 3, seats: ['me', 'human', 'bot:easy'], name: 'Ada' })
  await expect(seatRow(host, 1)).toContainText('kept for a friend')
  const open = await createFromLobby(host, { game: 'valdora', players: 3, seats: ['me', 'open', 'bot:easy'], name: 'Ada' })

  const { context, page: other } = await openAs(browser, '/')
  const openList = other.getByTestId('open-games')
  const friendsRow = openList.locator(`[data-game-id="${friends}"]`)
  const openRow = openList.locator(`[data-game-id="${open}"]`)
  await expect(friendsRow).toBeVisible()
  await expect(friendsRow.getByTestId('join-open')).toHaveCount(0)
  await expect(friendsRow.getByTestId('kept-for-friend')).toHaveText(/Kept for a friend/)
  await expect(openRow.getByTestId('join-open')).toBeVisible()
  await screenshot(other, 'tables-laptop-lobby', 'open-games')

  // The server refuses a join of the friend's seat too.
  const refused = await other.request.post(`/api/games/${friends}/join`, { data: { seat: 1, name: 'Cy' } })
  expect(refused.status()).toBe(403)

  await openRow.getByTestId('join-open').click()
  await other.locator('input[name=name]').fill('Cy')
  await other.getByTestId('join').click()
  await expect(other.getByTestId('board')).toBeVisible()
  await expect.poll(async () => (await probe(other))?.seat).toBe(1)
  await expect.poll(async () => (await probe(other))?.status).toBe('running')
  await context.close()

  // The creator cancels the friends' table from "Your games", after a confirmation.
  await host.goto('/')
  const mine = host.getByTestId('my-games').locator(`[data-game-id="${friends}"]`)
  await mine.getByTestId('cancel-table').click()
  const dialog = host.getByTestId('confirm-cancel')
  await expect(dialog).toBeVisible()
  await dialog.getByTestId('confirm-cancel-confirm').click()
  await expect(mine.locator('.tag.cancelled')).toHaveText('Cancelled')
  await expect(mine.getByTestId('cancel-table')).toHaveCount(0)
  // The running table offers no cancelling.
  await expect(host.getByTestId('my-games').locator(`[data-game-id="${open}"]`).getByTestId('cancel-table')).toHaveCount(0)
  await host.goto(`/#/game/${friends}`)
  await expect(host.getByTestId('banner-ended')).toHaveAttribute('data-status', 'cancelled')
  await hostContext.close()
})

test('the creator cancels a waiting table from the table screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE })
  const page = await context.newPage()
  await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'human', 'bot:easy'], name: 'Ada' })
  await expect(page.getByTestId('banner-waiting')).toBeVisible()
  await page.getByTestId('cancel-table').click()
  const dialog = page.getByTestId('confirm-cancel')
  await expect(dialog).toBeVisible()
  await screenshot(page, 'tables-phone-cancel-dialog')
  await dialog.getByTestId('confirm-cancel-confirm').click()
  await expect(page.getByTestId('banner-ended')).toHaveAttribute('data-status', 'cancelled')
  await expect(page.getByTestId('banner-waiting')).toHaveCount(0)
  await expect(page.getByTestId('cancel-table')).toHaveCount(0)
  await context.close()
})
