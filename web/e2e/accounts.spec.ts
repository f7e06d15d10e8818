// Accounts: Ada plays a turn-based table as a guest, then creates an account from the site
// header; her seat joins the account. A second browser (her phone: a new context shares
// nothing with the first) signs in to it, finds the table among its games and is at the
// table in her seat, without ever holding its token. Signed out, it is a guest again.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { createAdaAndBen, fillAccountForm, holdSeat, probe, SCREENS, seatRow, WIDTHS } from './table'

test('a guest signs up and her seat opens in a second browser signed in to her account', async ({ browser }) => {
  const first = await browser.newContext()
  const page = await first.newPage()
  const created = await createAdaAndBen(page)
  // Ada's seat held in this browser, as if she had made the table from the lobby.
  await holdSeat(page, created, 0)
  await page.goto(`/#/game/${created.id}`)
  await expect(seatRow(page, 0).locator('.tag.you')).toBeVisible()

  // She creates an account from the header: one name a run, as the server outlives tests.
  const name = `Ada ${Date.now() % 100_000}`
  const password = 'a long passphrase'
  await page.getByTestId('sign-in').click()
  await page.getByTestId('account-switch').click()
  await expect(page.getByTestId('account-form')).toContainText('Create account')
  await page.getByTestId('account-form').screenshot({ path: `${SCREENS}/account-sign-up.png` })
  await fillAccountForm(page, name, password)
  await expect(page.getByTestId('account-name')).toHaveText(name)
  await expect(page.getByTestId('account-form')).toBeHidden()
  await page.getByTestId('account-name').click()
  await expect(page.getByTestId('sign-out-everywhere')).toBeVisible()
  await page.screenshot({ path: `${SCREENS}/account-table.png` })
  await page.getByTestId('account-name').click()

  // Her page: her name and the table she sits at.
  await page.getByTestId('account-name').click()
  await page.getByTestId('my-profile').click()
  await expect(page.getByTestId('profile-name')).toHaveText(name)
  await expect(page.getByTestId('profile-games')).toContainText('Valley of the Kings')
  await expect(page.getByTestId('profile-games')).toContainText('1 table')
  await expect(page.getByTestId('profile-recent').locator(`[data-game-id="${created.id}"]`)).toBeVisible()
  await page.screenshot({ path: `${SCREENS}/profile-new.png` })

  // Her phone: a wrong password first, then the right one.
  const second = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const phone = await second.newPage()
  await phone.goto('/')
  await phone.getByTestId('sign-in').click()
  await fillAccountForm(phone, name, 'not her password')
  await expect(phone.getByTestId('account-problem')).toHaveText('Wrong name or password')
  await fillAccountForm(phone, name.toLowerCase(), password)
  await expect(phone.getByTestId('account-name')).toHaveText(name)
  // The lobby lists her table among her games, though this browser never held its token.
  const mine = phone.getByTestId('my-games')
  const resume = mine.locator(`a[href="#/game/${created.id}"]`)
  await expect(resume).toBeVisible()
  await phone.screenshot({ path: `${SCREENS}/account-my-games-phone.png` })
  await resume.click()
  await expect.poll(async () => (await probe(phone))?.seat).toBe(0)
  await expect(seatRow(phone, 0).locator('.tag.you')).toBeVisible()
  const held = await phone.evaluate((id) => {
    const games = JSON.parse(localStorage.getItem('tabletop.games') ?? '[]') as { id: string; token: string | null }[]
    return games.find((g) => g.id === id)
  }, created.id)
  expect(held).toMatchObject({ token: null, viaAccount: true })

  // Signed out, the phone watches the table like anyone else.
  await phone.getByTestId('account-name').click()
  await phone.getByTestId('sign-out').click()
  await expect(phone.getByTestId('sign-in')).toBeVisible()
  // What the account brought here is forgotten with it.
  expect(await phone.evaluate(() => localStorage.getItem('tabletop.games'))).toBe('[]')
  await phone.reload()
  await expect.poll(async () => (await probe(phone))?.status).toBe('running')
  expect((await probe(phone))?.seat).toBeNull()

  await first.close()
  await second.close()
})

/** Every box of `inner` lies inside `outer`'s box and inside the window. */
async function expectInside(page: Page, inner: Locator, outer: Locator, what: string): Promise<void> {
  const window = page.viewportSize()
  const around = await outer.boundingBox()
  expect(window && around, what).toBeTruthy()
  if (!window || !around) return
  for (const box of await Promise.all((await inner.all()).map((item) => item.boundingBox()))) {
    expect(box, what).toBeTruthy()
    if (!box) continue
    const at = `${what} at ${window.width} px: ${JSON.stringify(box)} in ${JSON.stringify(around)}`
    expect(box.x, at).toBeGreaterThanOrEqual(Math.max(around.x, 0) - 0.5)
    expect(box.y, at).toBeGreaterThanOrEqual(Math.max(around.y, 0) - 0.5)
    expect(box.x + box.width, at).toBeLessThanOrEqual(Math.min(around.x + around.width, window.width) + 0.5)
    expect(box.y + box.height, at).toBeLessThanOrEqual(Math.min(around.y + around.height, window.height) + 0.5)
  }
}

test('the sign-in form, the account menu and a page fit a phone, a laptop and a desktop', async ({ page }) => {
  await page.goto('/')
  const name = `Cy ${Date.now() % 100_000}`
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await expectInside(page, page.getByTestId('sign-in'), page.locator('header.site'), 'the sign-in button')
    await page.getByTestId('sign-in').click()
    const form = page.getByTestId('account-form')
    await expect(form).toBeVisible()
    await expectInside(page, form.locator('input, button'), form, 'the form controls')
    await page.keyboard.press('Escape')
    await expect(form).toBeHidden()
  }
  await page.getByTestId('sign-in').click()
  await page.getByTestId('account-switch').click()
  await fillAccountForm(page, name, 'a long passphrase')
  await expect(page.getByTestId('account-name')).toHaveText(name)
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await page.getByTestId('account-name').click()
    const menu = page.locator('[data-testid="account"] .items')
    await expect(menu).toBeVisible()
    await expectInside(page, menu.locator('a, button'), menu, 'the account menu')
    await page.getByTestId('account-name').click()
    await expect(menu).toBeHidden()
  }
  // Her page: as tall as what it shows (or the window), and no wider than the window.
  await page.getByTestId('account-name').click()
  await page.getByTestId('my-profile').click()
  await expect(page.getByTestId('profile-name')).toHaveText(name)
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    const { scroll, content, inner, width, innerWidth } = await page.evaluate(() => {
      let content = 0
      for (const child of Array.from(document.body.querySelectorAll('header.site, main'))) {
        content = Math.max(content, child.getBoundingClientRect().bottom + window.scrollY)
      }
      return {
        scroll: document.documentElement.scrollHeight,
        content,
        inner: window.innerHeight,
        width: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }
    })
    expect(scroll, `page height at ${size.width} px`).toBeLessThanOrEqual(Math.max(content + 48, inner) + 1)
    expect(width, `page width at ${size.width} px`).toBeLessThanOrEqual(innerWidth)
  }
})
