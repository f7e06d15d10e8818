// Quick play: Ada and Ben, in two browsers that share nothing, each choose two-player
// Pandoria with the same clock and press "Play now"; the lobby lists Ada's seek with its
// clock while she waits, and both land at the same table, each in their own seat, which
// the lobby then lists with its clock. On a phone, a laptop and a wide screen, with every
// quick-play control inside the viewport.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { probe, SCREENS } from './table'

/** Fails unless every visible control of the quick-play panel lies within the viewport's width. */
async function controlsInView(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0
  const boxes = await page
    .getByTestId('quick-play')
    .locator('select, input, button')
    .evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).offsetParent !== null).map((n) => n.getBoundingClientRect().toJSON() as DOMRect))
  expect(boxes.length).toBeGreaterThan(3)
  for (const box of boxes) {
    expect(box.left).toBeGreaterThanOrEqual(0)
    expect(box.right).toBeLessThanOrEqual(width)
  }
}

async function choose(page: Page, name: string, clock: string): Promise<void> {
  await page.goto('/')
  const form = page.getByTestId('quick-play')
  await form.locator('select[name=game]').selectOption('pandoria')
  await form.locator('select[name=players]').selectOption('2')
  await form.locator('select[name=clock]').selectOption(clock)
  await form.locator('input[name=name]').fill(name)
  await controlsInView(page)
}

async function person(browser: Browser, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } })
  return context.newPage()
}

for (const [label, width, height, clock] of [
  ['a phone', 390, 844, '1'],
  ['a laptop', 1366, 768, '2'],
  ['a wide screen', 1920, 1080, '3'],
] as const) {
  test(`Ada and Ben press Play now for two-player Pandoria and sit at one table (${label})`, async ({ browser }) => {
    const ada = await person(browser, width, height)
    const ben = await person(browser, width, height)
    await choose(ada, 'Ada', clock)
    const clockText = (await ada.getByTestId('quick-play').locator('select[name=clock] option:checked').textContent())?.trim() ?? ''
    await ada.getByTestId('play-now').click()
    await expect(ada.getByTestId('seeking')).toContainText('Looking for players')
    await expect(ada.getByTestId('seeking')).toContainText(clockText)

    await choose(ben, 'Ben', clock)
    // Ben's lobby lists Ada's seek, with its clock.
    const listed = ben.getByTestId('open-seek').filter({ hasText: 'Ada' })
    await expect(listed).toBeVisible()
    await expect(listed.getByTestId('seek-clock')).toHaveText(clockText)
    await ada.screenshot({ path: `${SCREENS}/quick-play-waiting-${width}.png`, fullPage: width > 400 })
    await ben.screenshot({ path: `${SCREENS}/quick-play-list-${width}.png`, fullPage: width > 400 })
    await ben.getByTestId('play-now').click()

    await ada.waitForURL(/#\/game\/[a-z0-9]+$/)
    await ben.waitForURL(/#\/game\/[a-z0-9]+$/)
    expect(ada.url()).toBe(ben.url())
    await expect.poll(async () => typeof (await probe(ada))?.seat).toBe('number')
    await expect.poll(async () => typeof (await probe(ben))?.seat).toBe('number')
    const seats = [(await probe(ada))?.seat, (await probe(ben))?.seat]
    expect(new Set(seats)).toEqual(new Set([0, 1]))
    // Back in the lobby, their table is listed with its clock (the newest first).
    await ada.goto('/')
    await expect(ada.getByTestId('running-games').getByTestId('table-clock').first()).toHaveText(clockText)
    await ada.context().close()
    await ben.context().close()
  })
}
