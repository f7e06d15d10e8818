// Hints (issue 29) in a real Chromium against the real server: a table created with
// "Allow hints" against bots; on the person's turn the Hint button asks what the hard bot
// would do, and the answer shows on the board (a ring with rank and value on each hinted
// target), in a list beside it, and as a line in the log. At a phone's and a laptop's width.
import { expect, test } from '@playwright/test'
import { awaitTurn, createFromLobby, probe, screenshot, SCREENS } from './table'

const WIDTHS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]

for (const viewport of WIDTHS) {
  test(`a hint shows its targets with their values on a ${viewport.name}`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'], hints: true })
    await expect(page.getByTestId('hints-on')).toBeVisible()
    expect(await awaitTurn(page), 'the person gets a turn').toBe(true)
    const before = await probe(page)
    const ask = page.getByTestId('hint')
    await ask.scrollIntoViewIfNeeded()
    await ask.click()

    // The list: one to three actions, best first, each with a percentage.
    const list = page.getByTestId('hint-list').locator('li')
    await expect(list.first()).toBeVisible({ timeout: 60_000 })
    const count = await list.count()
    expect(count).toBeGreaterThanOrEqual(1)
    expect(count).toBeLessThanOrEqual(3)
    for (let i = 0; i < count; i++) await expect(list.nth(i)).toContainText(/\d+\s?%/)

    // The board: the hinted targets ringed, the bot's own choice ranked first and brought
    // into view for the seat that asked (a phone's board scrolls on its own).
    const marks = page.getByTestId('hint-mark')
    const best = page.locator('[data-testid="hint-mark"][data-rank="1"]')
    await expect(best).toHaveCount(1)
    await expect(best).toBeInViewport()
    await expect(marks.first()).toContainText(/\d+\s?%/)
    // Each ring surrounds a legal target of the board.
    for (const key of await marks.evaluateAll((all) => all.map((m) => m.getAttribute('data-hint-target') ?? ''))) {
      await expect(page.locator(`[data-target="${key}"][data-legal="true"]`).first()).toBeAttached()
    }

    // The log: the seat asked, with the actions and values; the game did not move.
    await expect(page.getByTestId('log')).toContainText(/asked for a hint: .+\d+\s?%/)
    expect((await probe(page))?.seq).toBe(before?.seq)
    // One hint per position: asked already.
    await expect(ask).toBeDisabled()

    // docs/screens/hints-*.png: the bot's choice on the board, then the list.
    await screenshot(page, `hints-${viewport.name}`)
    await best.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENS}/hints-${viewport.name}-board.png` })
    await screenshot(page, `hints-${viewport.name}-list`, 'hint-list')
  })
}

// Valley and Pandoria mark their targets with their own boards' `targetOf`: the hinted
// targets must be rings around legal targets there too (a laptop's width).
for (const game of ['valley', 'pandoria'] as const) {
  test(`a hint rings legal targets on the ${game} board`, async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 768 })
    await createFromLobby(page, { game, players: 2, seats: ['me', 'bot:easy'], hints: true })
    expect(await awaitTurn(page), 'the person gets a turn').toBe(true)
    await page.getByTestId('hint').click()
    await expect(page.getByTestId('hint-list').locator('li').first()).toBeVisible({ timeout: 60_000 })
    const best = page.locator('[data-testid="hint-mark"][data-rank="1"]')
    await expect(best).toHaveCount(1)
    await expect(best).toContainText(/\d+\s?%/)
    const marks = page.getByTestId('hint-mark')
    for (const key of await marks.evaluateAll((all) => all.map((m) => m.getAttribute('data-hint-target') ?? ''))) {
      await expect(page.locator(`[data-target="${key}"][data-legal="true"]`).first()).toBeAttached()
    }
    await best.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENS}/hints-${game}.png` })
  })
}
