// Friends and invitations by name (issue 54 part 3; docs/web.md, "Friends"): Ada asks Ben
// to be friends from her friends page; the bell on Ben's page tells him, one click opens
// his friends page, and he accepts. Ada makes a Pandoria table from the lobby with a seat
// for a friend and keeps it for Ben by name; the bell on Ben's page shows the invitation,
// and one click seats him at the table, no link sent. On a phone and a laptop, with every
// control used inside the viewport.
import { expect, test, type Page } from '@playwright/test'
import { createFromLobby, probe, SCREENS, signUp, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS
const PASSWORD = 'a long passphrase'

/** Fails unless `testId`'s element (scrolled into view) lies within the viewport's width and height. */
async function insideViewport(page: Page, testId: string): Promise<void> {
  const element = page.getByTestId(testId).first()
  await element.scrollIntoViewIfNeeded()
  const box = await element.boundingBox()
  const view = page.viewportSize()
  expect(box && view, testId).toBeTruthy()
  if (!box || !view) return
  expect(box.x, `${testId} left`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${testId} right`).toBeLessThanOrEqual(view.width + 0.5)
  expect(box.y, `${testId} top`).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height, `${testId} bottom`).toBeLessThanOrEqual(view.height + 0.5)
}

async function openBell(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.getByTestId('bell').locator('summary').click()
  await expect(page.getByTestId('bell-list')).toBeVisible()
  await insideViewport(page, 'bell-list')
}

for (const [label, viewport] of [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const) {
  test(`Ada befriends Ben and keeps him a seat by name; his bell seats him in one click (${label})`, async ({ browser }) => {
    const [adaContext, benContext] = await Promise.all([browser.newContext({ viewport }), browser.newContext({ viewport })])
    const ada = await adaContext.newPage()
    const ben = await benContext.newPage()
    const stamp = `${viewport.width % 1000}${Date.now() % 10_000}`
    const [adaName, benName] = [`Ada${stamp}`, `Ben${stamp}`]
    await ada.goto('/')
    await signUp(ada, adaName, PASSWORD)
    await ben.goto('/')
    await signUp(ben, benName, PASSWORD)

    // Ada asks Ben from her friends page (the account menu leads there).
    await ada.getByTestId('account-name').click()
    await ada.getByTestId('my-friends').click()
    await expect(ada.getByTestId('friends')).toBeVisible()
    await ada.getByTestId('friend-name').fill(benName)
    await insideViewport(ada, 'friend-ask-send')
    await ada.getByTestId('friend-ask-send').click()
    await expect(ada.getByTestId('friend-asked')).toContainText(benName)
    // Asking again is refused, and said so.
    await ada.getByTestId('friend-name').fill(benName)
    await ada.getByTestId('friend-ask-send').click()
    await expect(ada.getByTestId('friend-ask-problem')).toHaveAttribute('data-kind', 'malformed')

    // Ben's bell tells him; one click opens his friends page, where he accepts.
    await expect(ben.getByTestId('bell-count')).toHaveText('1', { timeout: 15_000 })
    await openBell(ben)
    const request = ben.getByTestId('bell-item').first()
    await expect(request).toHaveText(new RegExp(`${adaName} asks to be your friend`))
    await request.click()
    await expect(ben.getByTestId('friend-request')).toContainText(adaName)
    await insideViewport(ben, 'friend-accept')
    await ben.getByTestId('friend-accept').click()
    const friend = ben.getByTestId('friend')
    await expect(friend).toContainText(adaName)
    // Ada has a page of the site open.
    await expect(friend).toHaveAttribute('data-state', 'online')
    await ben.screenshot({ path: `${SCREENS}/friends-${viewport.width}.png`, fullPage: true })
    await ben.goto('/')

    // Ada's table with a seat for a friend: she keeps it for Ben by name.
    const id = await createFromLobby(ada, { game: 'pandoria', players: 2, seats: ['me', 'human'], name: adaName })
    const form = ada.locator('[data-testid="invite-friend"][data-seat="1"]')
    await expect(form).toBeVisible()
    await expect(form.getByTestId('invite-friend-name')).toHaveValue(benName)
    await insideViewport(ada, 'invite-friend-send')
    await form.getByTestId('invite-friend-send').click()
    await expect(form.getByTestId('invite-friend-done')).toContainText(benName)
    await form.screenshot({ path: `${SCREENS}/invite-friend-${viewport.width}.png` })

    // Ben's bell: the invitation; one click seats him.
    await expect(ben.getByTestId('bell-count')).toHaveText('1', { timeout: 15_000 })
    await openBell(ben)
    const invitation = ben.locator('[data-testid="bell-item"][data-kind="invitation"]')
    await expect(invitation).toContainText(`${adaName} invited you to a Pandoria table`)
    await ben.screenshot({ path: `${SCREENS}/bell-invitation-${viewport.width}.png` })
    await invitation.click()
    await expect(ben).toHaveURL(new RegExp(`#/game/${id}$`))
    await expect.poll(async () => (await probe(ben))?.seat, { timeout: 15_000 }).toBe(1)
    // Both seats taken: the game is on, for Ada too.
    await expect.poll(async () => (await probe(ada))?.status, { timeout: 15_000 }).toBe('running')
    await adaContext.close()
    await benContext.close()
  })
}
