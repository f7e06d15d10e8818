// Issue 28, parts 2 and 3: learning the game at the table — the rules panel in four
// languages, every offered action linked to its rule, and "why not?" on a target that is
// not legal now.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import type { Kinds } from '../src/generated/server/Kinds'
import { awaitTurn, createFromLobby, screenshot } from './table'

const LANGUAGES = ['en', 'es', 'it', 'ja']

/** The rule ids the server's game cites (its spec's numbered rules). */
async function ruleIds(request: APIRequestContext, game: string): Promise<string[]> {
  const kinds = (await (await request.get('/api/games/kinds')).json()) as Kinds
  const kind = kinds.games.find((k) => k.game === game)
  if (!kind) throw new Error(`no game ${game}`)
  return kind.rules
}

for (const game of ['valdora', 'valley', 'pandoria']) {
  test(`the ${game} rules panel holds every rule of the game in each of four languages`, async ({ page, request }) => {
    const ids = await ruleIds(request, game)
    expect(ids.length).toBeGreaterThan(10)
    const players = game === 'valdora' ? 3 : 2
    await createFromLobby(page, { game, players, seats: ['me', ...Array(players - 1).fill('bot:easy')] })
    await page.getByTestId('open-rules').click()
    const panel = page.getByTestId('rules-panel')
    await expect(panel).toBeVisible()
    for (const language of LANGUAGES) {
      await page.getByTestId('rules-close').click()
      await page.getByTestId('language').selectOption(language)
      await page.getByTestId('open-rules').click()
      await expect(panel.locator('[data-rule]').first()).toBeVisible()
      const shown = await panel.locator('[data-rule]').evaluateAll((rules) => rules.map((r) => r.getAttribute('data-rule')))
      expect(shown, `${game} in ${language}`).toEqual(ids)
      for (const text of await panel.locator('[data-rule] > span:last-child').allTextContents()) expect(text.trim()).not.toBe('')
      if (language === 'ja' || language === 'en') await screenshot(page, `rules-panel-${game}-${language}`)
    }
  })
}

/**
 * A board object of one kind (`space:`, `slot:`, `cell:`) that no legal action concerns now:
 * its key, with no legal target of that key anywhere (a map may draw a cell and, above it,
 * its target).
 */
async function notATarget(page: Page, kind: string): Promise<string> {
  const key = await page.getByTestId('board').evaluate((board, kind) => {
    const legal = new Set([...board.querySelectorAll('[data-legal="true"]')].map((e) => e.getAttribute('data-target')))
    const keys = [...board.querySelectorAll(`[data-target^="${kind}"]`)].map((e) => e.getAttribute('data-target'))
    return keys.find((k) => k !== null && !legal.has(k)) ?? null
  }, kind)
  if (key === null) throw new Error(`every ${kind} object is a target`)
  return key
}

for (const { game, players, kind, prefix, second } of [
  { game: 'valdora', players: 3, kind: 'space:', prefix: 'V-', second: 'es' },
  { game: 'valley', players: 2, kind: 'slot:', prefix: 'K-', second: 'ja' },
  { game: 'pandoria', players: 2, kind: 'cell:', prefix: 'P-', second: 'it' },
]) {
  test(`"why not?" on a ${game} target that is not legal says why with its rule, in English and ${second}`, async ({ page }) => {
    await createFromLobby(page, { game, players, seats: ['me', ...Array(players - 1).fill('bot:easy')] })
    await awaitTurn(page)
    const why = page.getByTestId('why')
    const reasons: string[] = []
    for (const language of ['en', second]) {
      await page.getByTestId('language').selectOption(language)
      const object = page.locator(`[data-testid="board"] [data-target="${await notATarget(page, kind)}"]`).first()
      await object.click({ force: true })
      await expect(why).toHaveAttribute('data-legal', 'false')
      // The answer is read where it opens, whatever room the window leaves below the object.
      await expect(why).toBeInViewport({ ratio: 0.9 })
      const rule = (await why.getAttribute('data-rule')) ?? ''
      expect(rule.startsWith(prefix), rule).toBe(true)
      const reason = (await why.getByTestId('why-reason').textContent()) ?? ''
      // A sentence of the catalogue, not the code it was looked up by.
      expect(reason.trim().length).toBeGreaterThan(8)
      expect(reason).not.toMatch(/^[a-z_]+$/)
      reasons.push(reason)
      if (language === second) await screenshot(page, `why-${game}-${language}`)
      // The rule link opens the rules panel at that rule.
      await why.getByTestId('why-rule').click()
      const panel = page.getByTestId('rules-panel')
      await expect(panel.locator(`[data-rule="${rule}"].focus`)).toBeInViewport()
      if (language === 'en' && game === 'valdora') await screenshot(page, 'why-rule-in-panel')
      await page.getByTestId('rules-close').click()
      await why.getByTestId('why-close').click()
      await expect(why).toBeHidden()
    }
    expect(reasons[0]).not.toBe(reasons[1])
  })
}
