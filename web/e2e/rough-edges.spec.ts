// Issue 28, part 4: rough edges a new user met (layout, texts, emblems).
import { expect, test, type Page } from '@playwright/test'
import { awaitTurn, createFromLobby, probe, screenshot, WIDTHS } from './table'

/** The page is no wider than its window (nothing sticks out sideways). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }))
  expect(scroll, `page width ${scroll} within window ${inner}`).toBeLessThanOrEqual(inner)
}

test('the invitation link and its Copy button stay inside their panel at every width', async ({ page }) => {
  await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'human', 'bot:easy'] })
  const invite = page.getByTestId('invite').first()
  await expect(invite).toBeVisible()
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await invite.scrollIntoViewIfNeeded()
    // The invitation itself, and the side panel ("Players") it sits in.
    const own = await invite.boundingBox()
    const panel = await invite.locator('xpath=ancestor::details[1]').boundingBox()
    const button = await invite.getByRole('button').boundingBox()
    expect(own && panel && own.x + own.width <= panel.x + panel.width + 0.5, `invitation ${JSON.stringify(own)} in ${JSON.stringify(panel)}`).toBeTruthy()
    expect(panel && button).toBeTruthy()
    if (!panel || !button) continue
    const at = `at ${size.width} px: button ${JSON.stringify(button)} panel ${JSON.stringify(panel)}`
    for (const box of [own, panel]) {
      if (!box) continue
      expect(button.x, at).toBeGreaterThanOrEqual(box.x - 0.5)
      expect(button.y, at).toBeGreaterThanOrEqual(box.y - 0.5)
      expect(button.x + button.width, at).toBeLessThanOrEqual(box.x + box.width + 0.5)
      expect(button.y + button.height, at).toBeLessThanOrEqual(box.y + box.height + 0.5)
    }
    await expectNoSidewaysScroll(page)
    await screenshot(page, `rough-invite-${size.width}`, 'invite')
  }
})

/** The page's scroll height and the bottom of what it shows (its top-level boxes, in page px). */
async function heights(page: Page): Promise<{ scroll: number; content: number; inner: number }> {
  return page.evaluate(() => {
    let content = 0
    for (const child of Array.from(document.body.children)) {
      const box = child.getBoundingClientRect()
      if (box.width > 0 && box.height > 0) content = Math.max(content, box.bottom + window.scrollY)
    }
    return { scroll: document.documentElement.scrollHeight, content, inner: window.innerHeight }
  })
}

test('a finished game leaves no blank page under its content, on a laptop and on a phone', async ({ page }) => {
  const id = await createFromLobby(page, { game: 'valdora', players: 3, seats: ['bot:easy', 'bot:easy', 'bot:easy'] })
  await page.waitForFunction(() => window.__tabletop?.status === 'over', null, { timeout: 300_000, polling: 250 })
  await expect(page.getByTestId('end-screen')).toBeVisible()
  for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    // Open afresh too: the log of a finished game loads whole.
    for (const fresh of [false, true]) {
      if (fresh) {
        await page.goto(`/#/game/${id}`)
        await expect(page.getByTestId('end-screen')).toBeVisible()
      }
      const h = await heights(page)
      const at = `at ${size.width} px (${fresh ? 'opened afresh' : 'played'}): ${JSON.stringify(h)}`
      expect(h.scroll, at).toBeLessThanOrEqual(Math.max(h.content, h.inner) * 1.2)
    }
    await screenshot(page, `rough-finished-${size.width}`)
  }
})

const WAITING: Record<string, RegExp> = {
  en: /Waiting for players/,
  es: /Esperando jugadores/,
  it: /In attesa di giocatori/,
  ja: /プレイヤーを待っています/,
}
const TURN_WORDS = /Your turn|Te toca|Il tuo turno|Tocca a te|あなたのターン|あなたの番|Movement/

test('before a game starts, each board says it waits for players, in all four languages', async ({ page }) => {
  for (const game of [
    { game: 'valdora', players: 3 },
    { game: 'valley', players: 2 },
    { game: 'pandoria', players: 2 },
  ]) {
    await createFromLobby(page, { ...game, seats: ['me', 'human', ...Array(game.players - 2).fill('bot:easy')] })
    const board = page.getByTestId('board')
    for (const [language, words] of Object.entries(WAITING)) {
      await page.getByTestId('language').selectOption(language)
      await expect(board.getByTestId('board-waiting'), `${game.game} in ${language}`).toHaveText(words)
      await expect(board.getByTestId('board-waiting')).not.toHaveText(TURN_WORDS)
    }
    await screenshot(page, `rough-waiting-${game.game}`)
    await page.getByTestId('language').selectOption('en')
  }
})

test("Valley of the Kings' board header is in the page's language (Italian, Japanese)", async ({ page }) => {
  await createFromLobby(page, { game: 'valley', players: 2, seats: ['me', 'bot:easy'] })
  const header = page.locator('[data-testid="board"] header h2')
  await expect(header).toHaveText(/Valley of the Kings/)
  for (const [language, title] of [['it', 'La Valle dei Re'], ['ja', '王家の谷']]) {
    await page.getByTestId('language').selectOption(language ?? 'en')
    await expect(header).toContainText(title ?? '')
    await expect(header).not.toContainText('Valley of the Kings')
    await screenshot(page, `rough-valley-header-${language}`)
  }
})

test('the provisional-data notice in Spanish quotes no English README heading', async ({ page }) => {
  await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] })
  const notice = page.getByTestId('banner-provisional')
  await expect(notice).toBeVisible()
  await expect(notice).toContainText('Component data: what is provisional')
  await page.getByTestId('language').selectOption('es')
  await expect(notice).toContainText('Datos provisionales')
  const text = (await notice.textContent()) ?? ''
  expect(text).toContain('README')
  expect(text).not.toMatch(/Component data|what is provisional/)
})

test("the lobby's game choice shows a different emblem for each of the three games", async ({ page }) => {
  await page.goto('/')
  const form = page.getByTestId('new-game')
  const emblem = form.getByTestId('emblem')
  const drawn = new Map<string, string>()
  for (const game of ['valdora', 'valley', 'pandoria']) {
    await form.locator('select[name=game]').selectOption(game)
    await expect(emblem).toHaveAttribute('data-game', game)
    // What the emblem draws: its picture and its letter, if any.
    drawn.set(game, await emblem.evaluate((e) => `${e.innerHTML.replace(/<!--[^]*?-->/g, '')}|${e.textContent?.trim() ?? ''}`))
  }
  await screenshot(page, 'rough-emblems')
  expect(new Set(drawn.values()).size, JSON.stringify([...drawn])).toBe(3)
  // No letter shared by two games (Valdora and Valley of the Kings both begin with V).
  const letters = [...drawn.values()].map((d) => d.split('|')[1]).filter((l) => l)
  expect(new Set(letters).size).toBe(letters.length)
})

// A 2-player Valley of the Kings game (random play, seed 9) that ended 23 to 23, decided by
// the tie-break: fewer cards in the tomb (15 against 16).
const TIED_RECORD = 'e2e/fixtures/valley-tie-record.json'

test('the end screen names each tie-break and says when it decided a rank', async ({ page }) => {
  await page.goto('/#/replay')
  await page.getByTestId('record-file').setInputFiles(TIED_RECORD)
  const viewer = page.getByTestId('replay')
  await viewer.getByTestId('to-end').click()
  const end = page.getByTestId('end-screen')
  await expect(end).toBeVisible()
  // The tie-break row says what it compares, as people count it (15 cards, not -15).
  const row = end.locator('tr.tiebreak')
  await expect(row.locator('th')).toHaveText('Cards in the tomb (fewer wins)')
  await expect(row.locator('td')).toHaveText(['15', '16'])
  const notes = end.getByTestId('tie-note')
  await expect(notes).toHaveCount(2)
  await expect(notes.first()).toContainText('Cards in the tomb (fewer wins) decided: ahead of')
  await expect(notes.first()).toContainText('(15 to 16)')
  await screenshot(page, 'rough-tiebreak', 'end-screen')
})

test('the replay steps by turn and by move, jumps to a move from the log, and plays a game through in seconds', async ({ page }) => {
  await page.goto('/#/replay')
  await page.getByTestId('record-file').setInputFiles(TIED_RECORD)
  const viewer = page.getByTestId('replay')
  const position = viewer.getByTestId('position')
  await expect(position).toContainText('0')
  const at = async () => Number(/(\d+)/.exec((await position.textContent()) ?? '')?.[1])
  // A turn is several moves in Valley (purchases, actions, the end of the play): one step.
  await viewer.getByTestId('turn-forward').click()
  const firstTurn = await at()
  expect(firstTurn).toBeGreaterThan(1)
  await viewer.getByTestId('step-forward').click()
  expect(await at()).toBe(firstTurn + 1)
  await viewer.getByTestId('turn-back').click()
  expect(await at()).toBe(firstTurn)
  // Jump from the log: the move numbers of the moves so far are buttons.
  await viewer.getByTestId('turn-forward').click()
  await viewer.getByTestId('turn-forward').click()
  const jumps = page.getByTestId('log-jump')
  await jumps.last().click()
  expect(await at()).toBe(1)
  // At the top speed the whole game plays to its end screen within a minute.
  await viewer.locator('select').last().selectOption('64')
  await viewer.getByRole('button', { name: 'Play' }).click()
  await expect(page.getByTestId('end-screen')).toBeVisible({ timeout: 60_000 })
})

test('ending the play with gold in hand asks first, and a person can turn the question off', async ({ page }) => {
  await createFromLobby(page, { game: 'valley', players: 2, seats: ['me', 'bot:easy'] })
  await awaitTurn(page)
  // The first play menu: five starter cards in hand, so a card can be bought.
  const list = page.getByTestId('legal-list')
  await expect(list.getByRole('button', { name: /^Buy/ }).first()).toBeVisible()
  const seq = (await probe(page))?.seq
  await list.getByRole('button', { name: 'End play' }).click()
  const dialog = page.getByTestId('confirm-early-end')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('could still buy a card')
  await screenshot(page, 'rough-early-end')
  await dialog.getByTestId('confirm-early-end-cancel').click()
  await expect(dialog).toBeHidden()
  expect((await probe(page))?.seq).toBe(seq)
  // Asked again; this time end anyway and stop asking.
  await list.getByRole('button', { name: 'End play' }).click()
  await dialog.getByTestId('dont-ask-early-end').check()
  await dialog.getByTestId('confirm-early-end-confirm').click()
  await page.waitForFunction((before) => (window.__tabletop?.seq ?? 0) > (before ?? 0), seq)
  await expect(page.getByRole('checkbox', { name: 'Ask before I give up a free choice' })).not.toBeChecked()
  await awaitTurn(page)
  const next = (await probe(page))?.seq ?? 0
  const endPlay = list.getByRole('button', { name: 'End play' })
  if (await endPlay.isVisible()) {
    await endPlay.click()
    await expect(dialog).toBeHidden()
    await page.waitForFunction((before) => (window.__tabletop?.seq ?? 0) > before, next)
  }
})

test("Valley of the Kings on a laptop: the pyramid, the hand and the tomb fit 1366x768, and a card opens large to read", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await createFromLobby(page, { game: 'valley', players: 2, seats: ['me', 'bot:easy'] })
  await awaitTurn(page)
  const board = page.getByTestId('board')
  await board.locator('.valley').evaluate((e) => e.scrollIntoView({ block: 'start' }))
  const inView = async (what: string, box: { x: number; y: number; width: number; height: number } | null) => {
    expect(box, what).not.toBeNull()
    if (!box) return
    expect(box.x, what).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width, what).toBeLessThanOrEqual(1366)
    expect(box.y, what).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height, `${what}: bottom ${box.y + box.height} within 768`).toBeLessThanOrEqual(768)
  }
  await inView('the pyramid', await board.locator('.pyramid').first().boundingBox())
  const hand = board.locator('.hand [data-card]')
  expect(await hand.count()).toBeGreaterThan(0)
  for (const card of await hand.all()) await inView('a hand card', await card.boundingBox())
  await inView('your tomb', await board.locator('.tomb-area').boundingBox())
  await screenshot(page, 'valley-laptop')

  // A long press opens the card large, with all of its text (on touch too); it plays nothing.
  const seq = (await probe(page))?.seq
  const card = board.locator('.pyramid [data-card]').first()
  const box = await card.boundingBox()
  if (!box) throw new Error('no card in the pyramid')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.waitForTimeout(700)
  await page.mouse.up()
  const zoom = page.getByTestId('card-zoom')
  await expect(zoom).toBeVisible()
  const text = zoom.locator('.text')
  const fits = await text.evaluate((e) => e.scrollHeight <= e.clientHeight + 1)
  expect(fits, 'the whole text shows').toBe(true)
  await screenshot(page, 'valley-card-zoom')
  await zoom.getByTestId('card-zoom-close').click()
  await expect(zoom).toBeHidden()
  expect((await probe(page))?.seq).toBe(seq)
  // By touch: a long press with a finger (pointer events of type touch).
  const handCard = hand.first()
  await handCard.dispatchEvent('pointerdown', { pointerType: 'touch', button: 0, isPrimary: true, clientX: 1, clientY: 1 })
  await page.waitForTimeout(700)
  await handCard.dispatchEvent('pointerup', { pointerType: 'touch', button: 0, isPrimary: true, clientX: 1, clientY: 1 })
  await expect(zoom).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(zoom).toBeHidden()
})

test('on a phone every space and cell a finger must hit is at least 40 px (Valdora as drawn, Pandoria zoomed in)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const smallest = async (selector: string) =>
    page.locator(selector).evaluateAll((targets) =>
      Math.min(...targets.map((t) => {
        const box = t.getBoundingClientRect()
        return Math.min(box.width, box.height)
      })),
    )
  await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] })
  await awaitTurn(page)
  const spaces = '[data-testid="board"] svg.valley [data-legal="true"]'
  await expect(page.locator(spaces).first()).toBeVisible()
  expect(await smallest(spaces)).toBeGreaterThanOrEqual(40)
  await expectNoSidewaysScroll(page)
  await screenshot(page, 'valdora-phone-spaces', 'board')

  await createFromLobby(page, { game: 'pandoria', players: 2, seats: ['me', 'bot:easy'] })
  await awaitTurn(page)
  const cells = '[data-testid="board"] svg [data-legal="true"]'
  await expect(page.locator(cells).first()).toBeVisible()
  const zoomIn = page.getByRole('button', { name: 'Zoom in' })
  for (let press = 0; press < 5 && (await smallest(cells)) < 40; press++) await zoomIn.click()
  expect(await smallest(cells)).toBeGreaterThanOrEqual(40)
  await expectNoSidewaysScroll(page)
  await screenshot(page, 'pandoria-phone-zoomed', 'board')
})
