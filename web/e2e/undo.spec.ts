// Issue 27's undo in a real Chromium against the real server: in each game a person makes
// decisions from the list of actions until one may be taken back (a decision that revealed
// nothing, with no other seat acting since), takes it back with the Undo button, and finds
// the position, the turn and the log as they were before it, with the undo in the log.
// And at a phone's, a laptop's and a desktop's width, the Undo button is where a person
// finds it: inside the page's width, reachable by scrolling as a person would, and clickable.
import { expect, test, type Page } from '@playwright/test'
import { awaitTurn, createFromLobby, probe, SCREENS, screenshot, seeded } from './table'

/** Takes one legal action from the list beside the board (the keyboard's way to act). */
async function listOneMove(page: Page, random: () => number): Promise<void> {
  const before = (await probe(page))?.seq ?? 0
  const actions = page.getByTestId('legal-list').locator('button.action')
  const count = await actions.count()
  expect(count, 'the seat to move has legal actions').toBeGreaterThan(0)
  await actions.nth(Math.floor(random() * count)).click()
  await page.waitForFunction((seq) => { const t = window.__tabletop; return !!t && !t.busy && t.seq > seq }, before)
}

/** Decides until the Undo button is offered; false if the game ended first. */
async function decideUntilUndoable(page: Page, random: () => number): Promise<boolean> {
  for (let decisions = 0; decisions < 200; decisions++) {
    if (!(await awaitTurn(page))) return false
    await listOneMove(page, random)
    if (await page.getByTestId('undo').isVisible()) return true
  }
  return false
}

const GAMES = [
  { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] },
  { game: 'valley', players: 2, seats: ['me', 'bot:easy'] },
  { game: 'pandoria', players: 2, seats: ['me', 'bot:easy'] },
]

for (const setup of GAMES) {
  test(`a misclick in ${setup.game} is taken back with Undo`, async ({ page }) => {
    await createFromLobby(page, setup)
    const random = seeded(27)
    expect(await decideUntilUndoable(page, random), 'some decision may be taken back').toBe(true)
    const before = await probe(page)
    if (!before) throw new Error('no table state')
    const movesBefore = await page.getByTestId('log').locator('li[data-seq]:not([data-testid])').count()
    // The header counts the moves that stand, as the log lists them.
    await expect(page.getByTestId('move-count')).toHaveText(`Move ${movesBefore}`)
    await screenshot(page, `undo-offered-${setup.game}`)
    await page.getByTestId('undo').click()
    // A new version (an undo is a step of its own), still this seat's turn.
    await page.waitForFunction((seq) => (window.__tabletop?.seq ?? 0) > seq, before.seq)
    const after = await probe(page)
    expect(after?.seq).toBe(before.seq + 1)
    expect(after?.toMove).toBe(after?.seat)
    const log = page.getByTestId('log')
    await expect(log.getByTestId('undo-entry')).toHaveCount(1)
    await expect(log.locator('li[data-seq]:not([data-testid])')).toHaveCount(movesBefore - 1)
    // One step more, one move fewer: the header says the move that was taken back is gone.
    await expect(page.getByTestId('move-count')).toHaveText(`Move ${movesBefore - 1}`)
    await screenshot(page, `undo-taken-${setup.game}`)
    // The game goes on from there.
    await listOneMove(page, random)
  })
}

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'desktop', width: 1920, height: 1080 },
]

for (const viewport of WIDTHS) {
  test(`Undo is within reach on a ${viewport.name} (${viewport.width}×${viewport.height})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await createFromLobby(page, { game: 'valley', players: 2, seats: ['me', 'bot:easy'] })
    expect(await decideUntilUndoable(page, seeded(7)), 'some decision may be taken back').toBe(true)
    const undo = page.getByTestId('undo')
    // On a phone the side column is under the board: a person scrolls down to it.
    await undo.scrollIntoViewIfNeeded()
    await expect(undo).toBeInViewport()
    const box = await undo.boundingBox()
    if (!box) throw new Error('the Undo button has no box')
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
    // Nothing wider than the screen pushes it sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    await page.screenshot({ path: `${SCREENS}/undo-${viewport.name}.png` })
    const before = (await probe(page))?.seq ?? 0
    // A short timeout: a covered button fails here, rather than waiting for the test's.
    await undo.click({ timeout: 10_000 })
    await page.waitForFunction((seq) => (window.__tabletop?.seq ?? 0) > seq, before)
    await expect(page.getByTestId('log').getByTestId('undo-entry')).toHaveCount(1)
  })
}
