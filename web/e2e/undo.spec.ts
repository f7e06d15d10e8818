// Issue 27's undo in a real Chromium against the real server: in each game a person makes
// decisions from the list of actions until one may be taken back (a decision that revealed
// nothing, with no other seat acting since), takes it back with the Undo button, and finds
// the position, the turn and the log as they were before it, with the undo in the log.
import { expect, test, type Page } from '@playwright/test'
import { awaitTurn, createFromLobby, probe, screenshot, seeded } from './table'

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
    await screenshot(page, `undo-taken-${setup.game}`)
    // The game goes on from there.
    await listOneMove(page, random)
  })
}
