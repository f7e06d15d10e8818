// The bell (issue 54 part 4; docs/web.md, "Notifications"): Ada and Bo, signed in, sit at a
// turn-based Valley of the Kings table; Bo waits in the lobby. When Ada's moves make it his
// turn, the bell on Bo's page counts it at once (no reload); opened, it says so, inside the
// viewport; one click opens his seat on his turn and the count is gone. On a phone and a
// laptop. The lobby counts the people online. A guest's bell is this browser's: told
// their turn at a seat taken by its link.
import { expect, test, type Page } from '@playwright/test'
import type { CreateGame } from '../src/generated/server/CreateGame'
import type { Created } from '../src/generated/server/Created'
import { moveUntilTurnOf, probe, SCREENS, seeded, signUp, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS
const PASSWORD = 'a long passphrase'

/** Hands seat `seat` of `created` to the account `page` is signed in as. */
async function handSeat(page: Page, created: Created, seat: number): Promise<void> {
  const token = created.seats.find((s) => s.seat === seat)?.token
  const response = await page.request.post('/api/account/seats', { data: { seats: [{ game: created.id, token }] } })
  expect(response.ok(), await response.text()).toBeTruthy()
}

/** Fails unless `testId`'s element lies within the page's viewport. */
async function insideViewport(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox()
  const view = page.viewportSize()
  expect(box && view, testId).toBeTruthy()
  if (!box || !view) return
  expect(box.x, `${testId} left`).toBeGreaterThanOrEqual(0)
  expect(box.y, `${testId} top`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${testId} right`).toBeLessThanOrEqual(view.width + 0.5)
  expect(box.y + box.height, `${testId} bottom`).toBeLessThanOrEqual(view.height + 0.5)
}

for (const [label, viewport] of [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const) {
  test(`the bell tells Bo it is his turn, live, and one click opens his seat (${label})`, async ({ browser }) => {
    const [adaContext, boContext] = await Promise.all([browser.newContext({ viewport }), browser.newContext({ viewport })])
    const ada = await adaContext.newPage()
    const bo = await boContext.newPage()
    const stamp = `${viewport.width}${Date.now() % 100_000}`
    const [adaName, boName] = [`Ada ${stamp}`, `Bo ${stamp}`]
    await ada.goto('/')
    await signUp(ada, adaName, PASSWORD)
    await bo.goto('/')
    await signUp(bo, boName, PASSWORD)
    // Signed in, the bell is there, with nothing yet.
    await expect(bo.getByTestId('bell')).toBeVisible()
    await expect(bo.getByTestId('bell-count')).toHaveCount(0)
    await insideViewport(bo, 'bell')
    // The lobby counts the people with a page open (told as the link opens, then every
    // 20 s): Ada and Bo at least.
    await bo.reload()
    await expect
      .poll(async () => Number(/\d+/.exec((await bo.getByTestId('people-online').textContent()) ?? '')?.[0] ?? 0), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2)

    const request: CreateGame = {
      game: 'valley',
      config: { players: 2 },
      // Ada moves first (as in tests/server_notifications.rs).
      seed: 1,
      seats: [
        { kind: 'human', name: adaName },
        { kind: 'human', name: boName },
      ],
      stand_in: null,
      clock: { kind: 'turn_based', per_move_secs: 86_400, bank_secs: 259_200 },
    }
    const response = await ada.request.post('/api/games', { data: request })
    expect(response.ok(), await response.text()).toBeTruthy()
    const created = (await response.json()) as Created
    await handSeat(ada, created, 0)
    await handSeat(bo, created, 1)

    // Ada plays until it is Bo's turn; Bo's lobby hears it.
    await ada.goto(`/#/game/${created.id}`)
    await expect.poll(async () => (await probe(ada))?.seat).toBe(0)
    await moveUntilTurnOf(ada, 1, seeded(viewport.width))
    const count = bo.getByTestId('bell-count')
    await expect(count).toHaveText('1', { timeout: 15_000 })
    await expect(bo.getByTestId('bell').locator('summary')).toHaveAccessibleName('Notifications: 1 unread')

    await bo.screenshot({ path: `${SCREENS}/bell-count-${viewport.width}.png`, clip: { x: 0, y: 0, width: viewport.width, height: 160 } })

    await bo.getByTestId('bell').locator('summary').click()
    const item = bo.getByTestId('bell-item')
    await expect(item).toHaveCount(1)
    await expect(item).toContainText('Your turn in Valley of the Kings')
    await expect(item).toHaveAttribute('data-read', 'false')
    await insideViewport(bo, 'bell-list')
    await bo.screenshot({ path: `${SCREENS}/bell-${viewport.width}.png` })

    await item.click()
    await expect.poll(async () => (await probe(bo))?.seat).toBe(1)
    await expect.poll(async () => (await probe(bo))?.toMove).toBe(1)
    await expect(count).toHaveCount(0)
    await adaContext.close()
    await boContext.close()
  })
}

test('a guest who took a seat by its link is told by the bell of this browser when it is their turn', async ({ browser }) => {
  const [adaContext, guestContext] = await Promise.all([browser.newContext({ viewport: PHONE }), browser.newContext({ viewport: PHONE })])
  const ada = await adaContext.newPage()
  const guest = await guestContext.newPage()
  const request: CreateGame = {
    game: 'valley',
    config: { players: 2 },
    seed: 1,
    seats: [{ kind: 'human', name: 'Ada' }, { kind: 'human', name: null }],
    stand_in: null,
    clock: { kind: 'turn_based', per_move_secs: 86_400, bank_secs: 259_200 },
  }
  const response = await ada.request.post('/api/games', { data: request })
  expect(response.ok(), await response.text()).toBeTruthy()
  const created = (await response.json()) as Created
  const adaToken = created.seats.find((s) => s.seat === 0)?.token ?? ''
  const invitation = created.seats.find((s) => s.seat === 1)?.token ?? ''

  // The guest follows the invitation link, sits down, and goes back to the lobby.
  await guest.goto(`/#/join/${created.id}/${invitation}`)
  await guest.locator('input[name=name]').fill('Gus')
  await guest.getByTestId('join').click()
  await expect.poll(async () => (await probe(guest))?.seat).toBe(1)
  await guest.goto('/')
  await expect(guest.getByTestId('bell')).toBeVisible()
  await expect(guest.getByTestId('bell-count')).toHaveCount(0)

  await ada.goto('/')
  await ada.evaluate(
    ([id, token]) => localStorage.setItem('tabletop.games', JSON.stringify([{ id, game: 'valley', seat: 0, token, invites: [], added: Date.now() }])),
    [created.id, adaToken],
  )
  await ada.goto(`/#/game/${created.id}`)
  await expect.poll(async () => (await probe(ada))?.seat).toBe(0)
  await moveUntilTurnOf(ada, 1, seeded(5))
  await expect(guest.getByTestId('bell-count')).toHaveText('1', { timeout: 15_000 })
  await guest.getByTestId('bell').locator('summary').click()
  await guest.getByTestId('bell-item').click()
  await expect.poll(async () => (await probe(guest))?.toMove).toBe(1)
  await expect.poll(async () => (await probe(guest))?.seat).toBe(1)
  await adaContext.close()
  await guestContext.close()
})
