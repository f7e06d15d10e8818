// The lobby's filters (issue 54): two open Pandoria tables, one turn-based and one without
// a clock. The open list shows each table's clock, and the clock filter keeps only the
// tables of the chosen kind, asked of the server; a signed-in person's seat shows their
// rating and languages, and the language filter keeps the tables where a seated person
// speaks it. On a phone, a laptop and a wide screen, with every filter inside the viewport.
import { expect, test, type Page } from '@playwright/test'
import { SCREENS, signUp } from './table'

async function openPandoria(page: Page, host: string, clock: object): Promise<{ id: string; token: string }> {
  const response = await page.request.post('/api/games', {
    data: { game: 'pandoria', config: { players: 2 }, seats: [{ kind: 'human', name: host }, { kind: 'human' }], clock },
  })
  expect(response.status()).toBe(201)
  const created = (await response.json()) as { id: string; seats: { token: string | null }[] }
  return { id: created.id, token: created.seats[0]?.token ?? '' }
}

/** Fails unless every filter control lies within the viewport's width. */
async function filtersInView(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0
  const boxes = await page
    .getByTestId('lobby-filters')
    .locator('select')
    .evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON() as DOMRect))
  expect(boxes.length).toBe(6)
  for (const box of boxes) {
    expect(box.left).toBeGreaterThanOrEqual(0)
    expect(box.right).toBeLessThanOrEqual(width)
  }
}

for (const [label, width, height] of [
  ['a phone', 390, 844],
  ['a laptop', 1366, 768],
  ['a wide screen', 1920, 1080],
] as const) {
  test(`the lobby shows each table's clock and filters by it (${label})`, async ({ page }) => {
    await page.setViewportSize({ width, height })
    const slowHost = `Tess${width}`
    const untimedHost = `Una${width}`
    await openPandoria(page, slowHost, { kind: 'turn_based', per_move_secs: 86400, bank_secs: 259200 })
    await openPandoria(page, untimedHost, { kind: 'none' })
    await page.goto('/')
    const open = page.getByTestId('open-games')
    const row = (host: string) => open.locator('li.row').filter({ hasText: host }).first()
    await expect(row(slowHost).getByTestId('table-clock')).toContainText('Turn-based')
    await expect(row(untimedHost).getByTestId('table-clock')).toContainText('No clock')
    await filtersInView(page)

    await page.getByTestId('filter-clock').selectOption('turn_based')
    await expect(open.getByText(untimedHost)).toHaveCount(0)
    await expect(row(slowHost)).toBeVisible()
    for (const tag of await open.getByTestId('table-clock').allTextContents()) expect(tag).toContain('Turn-based')
    await page.getByTestId('lobby-filters').scrollIntoViewIfNeeded()
    await page.getByTestId('lobby-filters').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENS}/lobby-filters-${width}.png`, fullPage: width > 400 })

    await page.getByTestId('filter-clock').selectOption('none')
    await expect(open.getByText(slowHost)).toHaveCount(0)
    await expect(row(untimedHost)).toBeVisible()
    await filtersInView(page)

    // A signed-in person's seat shows their rating in the table's game (a newcomer's 1000);
    // a guest's seat none.
    const rated = `Rhea${width}`
    await signUp(page, rated, 'a long enough password')
    const spoken = await page.request.put('/api/account/settings', { data: { languages: ['es', 'it'], email: null, turn_mail: false } })
    expect(spoken.status()).toBe(200)
    const table = await openPandoria(page, rated, { kind: 'none' })
    const held = await page.request.post('/api/account/seats', { data: { seats: [{ game: table.id, token: table.token }] } })
    expect(held.status()).toBe(200)
    await page.reload()
    await page.getByTestId('filter-clock').selectOption('none')
    await expect(row(rated).getByTestId('seat-rating')).toHaveText('1000')
    await expect(row(rated).getByTestId('seat-languages')).toHaveText('ES IT')
    await expect(row(untimedHost).getByTestId('seat-rating')).toHaveCount(0)
    await row(rated).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENS}/lobby-rating-${width}.png` })

    // The language filter keeps the tables where a seated person speaks it.
    await page.getByTestId('filter-language').selectOption('it')
    await expect(row(rated)).toBeVisible()
    await expect(open.getByText(untimedHost)).toHaveCount(0)
    await page.getByTestId('filter-language').selectOption('ja')
    await expect(open.getByText(rated)).toHaveCount(0)
    await filtersInView(page)
  })
}
