// The table in a real browser (Chromium through playwright-core, skipped where there is
// none): for every position, clicking each `[data-legal]` target and then each `[data-choice]`
// sends exactly the legal actions, each once; a placement preview shows exactly the legal
// placements from the chosen cell, rotates with R and places the ghost shown.
import { chromium, type Browser, type Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action } from '../../generated/pandoria/Action'
import { doublePlacements } from './targets'
import { FIXTURES, POSITIONS } from './testdata/positions'

const CHROMIUM = '/usr/bin/chromium'
let server: ViteDevServer | undefined
let browser: Browser | undefined
let wide: Page | undefined
let narrow: Page | undefined

/** A page of the harness at a viewport size, loaded once; positions switch in place. */
async function harness(width: number, height: number): Promise<Page | undefined> {
  if (!browser || !server) return undefined
  const base = server.resolvedUrls?.local[0] ?? ''
  const page = await browser.newPage({ viewport: { width, height } })
  const url = `${base}src/games/pandoria/testdata/harness.html`
  await page.goto(url)
  // The dev server may reload the page once while it optimizes dependencies.
  await page.waitForLoadState('networkidle')
  await page.goto(url)
  await page.waitForSelector('.pandoria')
  return page
}

beforeAll(async () => {
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  } catch (error) {
    // CI installs Chromium first (scripts/web-setup --browser): there, no browser is a failure.
    if (process.env.CI) throw error
    browser = undefined
    return
  }
  // No HMR socket: nothing may reload the page while the tests click through it.
  server = await createServer({ server: { port: 0, host: '127.0.0.1', ws: false }, logLevel: 'error' })
  await server.listen()
  wide = await harness(1280, 800)
  narrow = await harness(390, 844)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A canonical JSON of an action (the server's key order is not the client's). */
function canonical(action: Action): string {
  return JSON.stringify(Object.fromEntries(Object.entries(action).sort(([a], [b]) => a.localeCompare(b))))
}

async function show(page: Page, position: string, lang: string) {
  await page.evaluate(([name, language]) => window.show(name, language), [position, lang])
  await page.waitForSelector('.pandoria')
}

async function sent(page: Page): Promise<Action[]> {
  return page.evaluate(() => window.sent)
}

/**
 * Clicks a target in the page as a player would, only faster than a driven click: it is
 * scrolled into view and must be the element found at its centre (nothing covers it), then
 * it is clicked; if that opens a choice, each choice is taken in turn, reopening the target.
 * Returns the hit-test failure, if any.
 */
async function clickThrough(page: Page, key: string): Promise<string | null> {
  return page.evaluate(async (target) => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
    const selector = `[data-legal="true"][data-target="${target}"]`
    const element = document.querySelector(selector)
    if (!element) return `${target}: not drawn`
    element.scrollIntoView({ block: 'center', inline: 'center' })
    const box = element.getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    if (!hit || !element.contains(hit)) return `${target}: covered by ${hit?.outerHTML.slice(0, 80)}`
    const before = window.sent.length
    for (let i = 0; ; i++) {
      document.querySelector(selector)?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
      await settle()
      if (i === 0 && window.sent.length > before) return null
      const choice = document.querySelector<HTMLButtonElement>(`[data-testid="choice"] [data-choice="${i}"]`)
      if (!choice) {
        document.querySelector<HTMLButtonElement>('[data-testid="choice"] .close')?.click()
        await settle()
        return i === 0 ? `${target}: neither sent nor offered a choice` : null
      }
      choice.click()
      await settle()
    }
  }, key)
}

/**
 * Every shared fixture is clicked through; of this module's own positions, those with fewer
 * than 60 actions (the long placement lists add time, not cases: the fixtures have them).
 */
function clickedThrough(name: string, actions: number): boolean {
  return FIXTURES.some((f) => f.name === name) || actions < 60
}

describe.each(POSITIONS.map((p) => [p.name, p] as const))('in a browser, position %s', (name, position) => {
  const reach = it.runIf(clickedThrough(name, position.legal.length))
  reach('reaches every legal action by a click and a choice', async (context) => {
    const page = wide
    if (!page) return context.skip()
    await show(page, name, 'en')
    const keys = await page.$$eval('[data-legal="true"]', (all) => all.map((e) => e.getAttribute('data-target') ?? ''))
    // The first target with real input events, the others in the page (clickThrough).
    if (keys.length) {
      await page.click(`[data-legal="true"][data-target="${keys[0]}"]`, { timeout: 2000 })
      await page.keyboard.press('Escape')
      await page.evaluate(() => (window.sent = []))
    }
    for (const key of keys) expect(await clickThrough(page, key)).toBeNull()
    const got = (await sent(page)).map(canonical).sort()
    expect(got).toEqual(position.legal.map(canonical).sort())
  }, 60_000)

  const placements = doublePlacements(position.legal, position.view)
  it.runIf(placements.length > 0)('previews exactly the legal placements of a chosen cell', async (context) => {
    const page = narrow
    if (!page) return context.skip()
    await show(page, name, 'ja')
    const at = placements[placements.length - 1].at
    const fromCell = placements.filter((p) => p.at === at)
    await page.click(`[data-legal="true"][data-target="cell:${at}"]`)
    const previewed: Action[] = JSON.parse((await page.getAttribute('.pandoria', 'data-placements')) ?? '[]')
    expect(previewed.map(canonical).sort()).toEqual(fromCell.map(canonical).sort())
    expect(await page.locator('[data-testid="ghost"]').count()).toBe(fromCell.length)
    // The popover offers the same placements as choices.
    const offered = await page.locator('[data-testid="choice"] [data-choice]').count()
    expect(offered).toBeGreaterThanOrEqual(fromCell.length)
    // R turns the ghost to the next placement; ✓ on the ghost places the one shown.
    const shown = async () => page.getAttribute('.ghost.current', 'data-placement')
    const first = await shown()
    await page.keyboard.press('r')
    if (fromCell.length > 1) expect(await shown()).not.toBe(first)
    const chosen = await shown()
    await page.click('.ghost.current .half.second')
    expect((await sent(page)).map(canonical)).toEqual([canonical(JSON.parse(chosen ?? '{}'))])
    expect(await page.getAttribute('.pandoria', 'data-placements')).toBe('[]')
  }, 60_000)
})
