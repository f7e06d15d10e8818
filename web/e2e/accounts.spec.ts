// Accounts: Ada plays a turn-based table as a guest, then creates an account from the site
// header; her seat joins the account. A second browser (her phone: a new context shares
// nothing with the first) signs in to it, finds the table among its games and is at the
// table in her seat, without ever holding its token. Signed out, it is a guest again.
import { expect, test, type Page } from '@playwright/test'
import { createAdaAndBen, holdSeat, probe, SCREENS, seatRow } from './table'

async function fillAccountForm(page: Page, name: string, password: string): Promise<void> {
  const form = page.getByTestId('account-form')
  await expect(form).toBeVisible()
  await form.getByTestId('account-name-input').fill(name)
  await form.getByTestId('account-password').fill(password)
  await form.getByTestId('account-submit').click()
}

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
  await page.screenshot({ path: `${SCREENS}/profile.png` })

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
