// A seat link: Ada plays a turn-based table in one browser, copies the link to her seat, and
// a second browser (her phone, say: a new context shares nothing with the first) opens it
// and is at the table as Ada, with her clock, her turn or whose turn it is, and the token
// gone from the address bar. A browser that plays another seat at that table is asked first.
import { expect, test, type Page } from '@playwright/test'
import { createAdaAndBen, holdSeat, probe, SCREENS, seatRow } from './table'

/** What this browser's local storage holds for game `id`. */
async function stored(page: Page, id: string): Promise<{ seat: number | null; token: string | null } | undefined> {
  return page.evaluate((id) => {
    const games = JSON.parse(localStorage.getItem('tabletop.games') ?? '[]') as { id: string; seat: number | null; token: string | null }[]
    return games.find((g) => g.id === id)
  }, id)
}

test("a seat link takes Ada's seat at a turn-based table to another browser", async ({ browser }) => {
  const phoneContext = { viewport: { width: 390, height: 844 } }
  const first = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await first.newPage()
  const created = await createAdaAndBen(page)
  const adaToken = created.seats.find((s) => s.seat === 0)?.token ?? ''

  await holdSeat(page, created, 0)
  await page.goto(`/#/game/${created.id}`)
  const ada = seatRow(page, 0)
  await expect(ada.locator('.tag.you')).toBeVisible()
  // Only one's own seat offers its link.
  await expect(seatRow(page, 1).getByTestId('seat-link')).toHaveCount(0)
  const control = ada.getByTestId('seat-link')
  await control.locator('summary').click()
  await expect(control).toContainText('Anyone with this link plays your seat: open it only on your own devices.')
  const shown = (await control.getByTestId('seat-link-url').textContent()) ?? ''
  expect(shown).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#/seat/${created.id}/${adaToken}$`))
  await control.getByTestId('seat-link-copy').click()
  await expect(control.getByTestId('seat-link-copy')).toHaveText('Copied')
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(link).toBe(shown)
  // Ada's seat with its link open (docs/screens/seat-link.png).
  await ada.screenshot({ path: `${SCREENS}/seat-link.png` })

  // Another browser, on a phone: nothing of the first one's storage.
  const second = await browser.newContext(phoneContext)
  const phone = await second.newPage()
  await phone.goto(link)
  // The token leaves the address bar and the history: the table is at #/game/ID.
  await phone.waitForURL(new RegExp(`#/game/${created.id}$`))
  await expect.poll(async () => (await probe(phone))?.seat).toBe(0)
  const there = seatRow(phone, 0)
  await expect(there.locator('.tag.you')).toBeVisible()
  // The turn-based clock: days and hours from a day on, hours, minutes and seconds under
  // one (the move's day running out, as the mover's does from the first second).
  await expect(there.getByTestId('seat-clock-time')).toHaveText(/^(\d+d( \d+h)?|\d{1,2}:\d\d:\d\d)$/)
  // Its seat number came with the first state and is kept for the lobby.
  await expect.poll(async () => await stored(phone, created.id)).toMatchObject({ seat: 0, token: adaToken })
  const state = await probe(phone)
  if (state?.toMove === 0) {
    await expect(phone.getByTestId('to-move')).toHaveText(/Your turn/)
    const before = state.seq
    await phone.getByTestId('legal-list').locator('button.action').first().click()
    await phone.waitForFunction((seq) => { const t = window.__tabletop; return !!t && !t.busy && t.seq > seq }, before)
    // The first browser, at the same seat, sees the move made on the phone.
    await page.waitForFunction((seq) => (window.__tabletop?.seq ?? 0) > seq, before)
  } else {
    await expect(phone.getByTestId('to-move')).toHaveText(/Ben to move/)
  }
  await phone.screenshot({ path: `${SCREENS}/seat-link-phone.png` })

  // The same link opened again in the browser that holds the seat: straight to the table.
  await phone.goto(link)
  await phone.waitForURL(new RegExp(`#/game/${created.id}$`))
  await expect(seatRow(phone, 0).locator('.tag.you')).toBeVisible()

  // Ben's seat link in Ada's first browser: it would forget Ada's seat there, so it asks.
  await page.goto(link.replace(`/${adaToken}`, `/${created.seats.find((s) => s.seat === 1)?.token ?? ''}`))
  await expect(page.getByTestId('seat-link-screen')).toContainText('already plays another seat')
  await page.screenshot({ path: `${SCREENS}/seat-link-other-seat.png` })
  await page.getByTestId('seat-link-keep').click()
  await page.waitForURL(new RegExp(`#/game/${created.id}$`))
  await expect(seatRow(page, 0).locator('.tag.you')).toBeVisible()
  expect(await stored(page, created.id)).toMatchObject({ token: adaToken })

  await first.close()
  await second.close()
})
