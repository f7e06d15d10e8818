// Chat at the table (docs/server.md, "Chat") in three browsers against the real server:
// Ada and Ben seated, and a spectator. What anyone writes shows as text, never as markup;
// the spectators' channel does not reach the seats during the game; Ben mutes Ada for
// himself alone, and it holds after a reload; a message over 500 characters is not sent;
// a phone-sized spectator who scrolled away, and a seat who folded the chat, are told of a
// new message; a flood is refused at the input, keeping its text. Then the end of a game
// and the replay viewer.
import { expect, test, type Page } from '@playwright/test'
import type { ChatMessage } from '../src/generated/server/ChatMessage'
import { awaitTurn, clickOneMove, createAdaAgainstEasyBot, createAdaAndBen, createFromLobby, holdSeat, probe, SCREENS, seeded, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS

/** The chat's messages as this page shows them. */
const messages = (page: Page) => page.getByTestId('chat-messages').getByTestId('chat-message')

/** Writes `text` in the chat and waits for its echo (the field empties once it is back). */
async function write(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('chat-input')
  await input.fill(text)
  await input.press('Enter')
  await expect(input).toHaveValue('')
  await expect(messages(page).filter({ hasText: text.slice(0, 20) }).last()).toBeVisible()
}

test('two seats and a spectator talk at the table: text stays text, channels and mutes hold', async ({ browser }) => {
  const adaContext = await browser.newContext({ viewport: LAPTOP })
  const benContext = await browser.newContext({ viewport: LAPTOP })
  const watchContext = await browser.newContext({ viewport: LAPTOP })
  const ada = await adaContext.newPage()
  const ben = await benContext.newPage()
  const watcher = await watchContext.newPage()
  const created = await createAdaAndBen(ada)
  await holdSeat(ada, created, 0)
  await holdSeat(ben, created, 1)
  await Promise.all([
    ada.goto(`/#/game/${created.id}`),
    ben.goto(`/#/game/${created.id}`),
    watcher.goto(`/#/game/${created.id}?watch`),
  ])

  // Each input says who reads it.
  await expect(ada.getByTestId('chat-input')).toHaveAttribute('placeholder', /spectators read it too/)
  await expect(watcher.getByTestId('chat-input')).toHaveAttribute('placeholder', /players read it after the game/)
  await expect(ada.getByTestId('chat-messages')).toContainText('Nothing said yet.')

  // Ada writes markup: everyone reads the brackets, nobody gets an element.
  const markup = `<b>hi</b> good luck, Ben! <img src=x onerror="document.title='pwned'">`
  await write(ada, markup)
  for (const page of [ben, watcher]) {
    const shown = messages(page).filter({ hasText: '<b>hi</b>' })
    await expect(shown).toHaveText(markup)
    await expect(page.getByTestId('chat').locator('b, img')).toHaveCount(0)
    await expect(page.locator('[data-testid="chat-run"][data-author="seat-0"]')).toContainText('Ada')
  }
  expect(await ben.title()).not.toBe('pwned')
  // Her own message is hers: no menu to mute herself.
  await expect(ada.locator('[data-testid="chat-run"][data-author="seat-0"]').getByTestId('chat-name')).toHaveCount(0)

  // The spectator writes to the spectators: they see it, marked as theirs.
  await write(watcher, 'Go Ada! Take the Boat')
  const theirs = watcher.locator('[data-testid="chat-run"][data-channel="spectators"]')
  await expect(theirs).toContainText('Go Ada! Take the Boat')
  await expect(theirs.getByTestId('chat-spectators-tag')).toBeVisible()
  // Ben answers; once both seats have his message, the spectator's would have come before it.
  await write(ben, 'Thanks, you too.\nMay the best player win.')
  await expect(messages(ada).filter({ hasText: 'Thanks, you too.' })).toBeVisible()
  await expect(messages(watcher).filter({ hasText: 'Thanks, you too.' })).toBeVisible()
  for (const seat of [ada, ben]) {
    await expect(seat.getByTestId('chat-messages')).not.toContainText('Go Ada!')
    await expect(seat.locator('[data-channel="spectators"][data-testid="chat-run"]')).toHaveCount(0)
  }

  // Ben mutes Ada, for himself: her messages hide, a line says so and can undo it.
  await ben.locator('[data-testid="chat-run"][data-author="seat-0"]').first().getByTestId('chat-name').click()
  await expect(ben.getByTestId('chat-menu')).toContainText('Mute Ada')
  await ben.getByTestId('chat').screenshot({ path: `${SCREENS}/chat-menu.png` })
  await ben.getByTestId('chat-mute').click()
  await expect(ben.locator('[data-testid="chat-message"][data-author="seat-0"]')).toHaveCount(0)
  const hidden = ben.locator('[data-testid="chat-hidden"][data-author="seat-0"]')
  await expect(hidden).toHaveText(/Ada is muted: 1 message hidden/)
  // Her next message: the spectator reads it, Ben does not (his hidden count says it came).
  await write(ada, 'Still there, Ben?')
  await expect(messages(watcher).filter({ hasText: 'Still there, Ben?' })).toBeVisible()
  await expect(hidden).toHaveText(/Ada is muted: 2 messages hidden/)
  await expect(ben.getByTestId('chat-messages')).not.toContainText('Still there')
  // Remembered for this table in this browser.
  await ben.reload()
  await expect(ben.locator('[data-testid="chat-hidden"][data-author="seat-0"]')).toHaveText(/2 messages hidden/)
  await expect(ben.locator('[data-testid="chat-message"][data-author="seat-0"]')).toHaveCount(0)
  await expect(messages(ben).filter({ hasText: 'Thanks, you too.' })).toBeVisible()

  // docs/screens/chat.png: the spectator's chat at a laptop's size (both channels).
  await watcher.getByTestId('chat').scrollIntoViewIfNeeded()
  await watcher.getByTestId('chat-input').fill('Nice opening')
  await watcher.screenshot({ path: `${SCREENS}/chat.png` })
  await watcher.getByTestId('chat-input').fill('')
  await ben.getByTestId('chat').scrollIntoViewIfNeeded()
  await ben.screenshot({ path: `${SCREENS}/chat-muted.png` })

  // Over 500 characters: counted, marked, and not sent, Enter or not; the text stays.
  const long = 'x'.repeat(501)
  const adaInput = ada.getByTestId('chat-input')
  await adaInput.fill(long)
  await expect(ada.getByTestId('chat-count')).toHaveText('501/500')
  await expect(ada.getByTestId('chat-too-long')).toBeVisible()
  await expect(ada.getByTestId('chat-send')).toBeDisabled()
  await adaInput.press('Enter')
  await expect(adaInput).toHaveValue(long)
  await adaInput.press('Backspace')
  await expect(ada.getByTestId('chat-send')).toBeEnabled()
  await adaInput.fill('')

  // A phone-sized spectator scrolled to the board is told of a new message, and taken to it.
  await watcher.setViewportSize(PHONE)
  await watcher.evaluate(() => window.scrollTo(0, 0))
  await expect(watcher.getByTestId('chat-unread')).toBeHidden()
  // A long word wraps inside the message instead of widening the page.
  await write(ada, `Your move, Ben. Take your time: ${'https://example.org/'.padEnd(90, 'abcdefghij')}`)
  const unread = watcher.getByTestId('chat-unread')
  await expect(unread).toHaveText(/1 new message/)
  await watcher.screenshot({ path: `${SCREENS}/chat-phone-unread.png` })
  await unread.click()
  await expect(messages(watcher).filter({ hasText: 'Your move, Ben.' })).toBeInViewport()
  await expect(unread).toBeHidden()
  const width = await watcher.evaluate(() => document.documentElement.scrollWidth)
  expect(width, 'the phone page is no wider than the window').toBeLessThanOrEqual(PHONE.width)
  const list = await watcher.getByTestId('chat-messages').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }))
  expect(list.scroll, 'the messages are no wider than their list').toBeLessThanOrEqual(list.client)
  await watcher.screenshot({ path: `${SCREENS}/chat-phone.png` })

  // Folded away, the chat still tells of what comes: in its header and at the window's corner.
  const adaChat = ada.locator('details', { has: ada.getByTestId('chat') })
  await adaChat.locator('summary').click()
  await expect(ada.getByTestId('chat-messages')).toBeHidden()
  await write(ben, 'See you next turn.')
  await expect(adaChat.locator('summary')).toContainText('1 new')
  await ada.getByTestId('chat-unread').click()
  await expect(messages(ada).filter({ hasText: 'See you next turn.' })).toBeInViewport()
  await expect(ada.getByTestId('chat-unread')).toBeHidden()
  await expect(adaChat.locator('summary')).not.toContainText('new')

  // A flood: the server refuses past its burst; the refusal shows at the input, whose text stays.
  const input = watcher.getByTestId('chat-input')
  const refusal = watcher.getByTestId('chat-refusal')
  let tries = 0
  while (tries < 12 && !(await refusal.isVisible())) {
    tries += 1
    await input.fill(`flood ${tries}`)
    await input.press('Enter')
    await expect.poll(async () => (await refusal.isVisible()) || (await input.inputValue()) === '').toBe(true)
  }
  await expect(refusal).toHaveAttribute('data-kind', 'rate_limited')
  await expect(refusal).toContainText('Too many requests')
  await expect(input).toHaveValue(`flood ${tries}`)
  // The table's own banners stay for the game.
  await expect(watcher.getByTestId('banner-error')).toHaveCount(0)

  await Promise.all([adaContext.close(), benContext.close(), watchContext.close()])
})

// The seats read the spectators' channel once the game is over, and the replay viewer shows
// what had been said by the move it shows. Ada against an easy bot: she speaks, plays a move,
// a spectator speaks after it, then she leaves and the bots finish the game (Pandoria's
// beginner game: about 150 moves, half of a Valley of the Kings game's).
test("the seats read the spectators at the end, and the replay shows what was said by each move", async ({ browser }) => {
  const adaContext = await browser.newContext({ viewport: LAPTOP })
  const watchContext = await browser.newContext({ viewport: LAPTOP })
  const ada = await adaContext.newPage()
  const watcher = await watchContext.newPage()
  const created = await createAdaAgainstEasyBot(ada)
  await holdSeat(ada, created, 0, 'pandoria')
  await Promise.all([ada.goto(`/#/game/${created.id}`), watcher.goto(`/#/game/${created.id}?watch`)])

  await write(ada, 'Good luck, bot.')
  expect(await awaitTurn(ada), 'Ada gets a turn').toBe(true)
  const played = await clickOneMove(ada, seeded(7))
  await expect.poll(async () => (await probe(watcher))?.seq ?? 0).toBeGreaterThan(played)
  await write(watcher, 'Bold move, Ada.')
  // During the game Ada does not read it.
  await expect(ada.getByTestId('chat-messages')).not.toContainText('Bold move')

  await ada.getByTestId('leave').click()
  await ada.getByTestId('confirm-leave').getByTestId('confirm-leave-confirm').click()
  await expect(ada.getByTestId('end-screen')).toBeVisible({ timeout: 60_000 })
  // The game is over: the spectators' messages reach the seat, marked as theirs.
  const revealed = ada.locator('[data-testid="chat-run"][data-channel="spectators"]')
  await expect(revealed).toContainText('Bold move, Ada.')
  await expect(revealed.getByTestId('chat-spectators-tag')).toBeVisible()

  const said = (await (await watcher.request.get(`/api/games/${created.id}/chat`)).json()) as ChatMessage[]
  const hello = said.find((m) => m.text === 'Good luck, bot.')
  const bold = said.find((m) => m.text === 'Bold move, Ada.')
  expect(hello && bold && bold.seq > hello.seq, JSON.stringify(said)).toBe(true)
  if (!hello || !bold) return

  await watcher.goto(`/#/replay/${created.id}`)
  const viewer = watcher.getByTestId('replay')
  const chat = viewer.getByTestId('chat-messages')
  const slider = viewer.getByTestId('slider')
  await expect(viewer.getByTestId('position')).toBeVisible()
  await slider.fill(String(hello.seq))
  await expect(chat).toContainText('Good luck, bot.')
  await expect(chat).not.toContainText('Bold move')
  await slider.fill(String(bold.seq - 1))
  await expect(chat).not.toContainText('Bold move')
  await slider.fill(String(bold.seq))
  await expect(chat).toContainText('Bold move, Ada.')
  await expect(viewer.locator('[data-testid="chat-run"][data-channel="spectators"]')).toContainText('Bold move, Ada.')
  // Read-only: no input, nothing to mute.
  await expect(viewer.getByTestId('chat-input')).toHaveCount(0)
  await expect(viewer.getByTestId('chat-name')).toHaveCount(0)
  await viewer.getByTestId('chat').scrollIntoViewIfNeeded()
  await watcher.screenshot({ path: `${SCREENS}/chat-replay.png` })

  await Promise.all([adaContext.close(), watchContext.close()])
})

test('the chat, its field and its Send button stay inside the panel and the window at 390, 1366 and 1920 px', async ({ page }) => {
  await createFromLobby(page, { game: 'valdora', players: 3, seats: ['me', 'bot:easy', 'bot:easy'] })
  await write(page, `A long word: ${'abcdefghij'.repeat(12)} and a short one.`)
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    const chat = page.getByTestId('chat')
    await chat.scrollIntoViewIfNeeded()
    const panel = await chat.boundingBox()
    expect(panel, 'the chat has a box').toBeTruthy()
    if (!panel) continue
    expect(panel.x, `at ${size.width} px`).toBeGreaterThanOrEqual(-0.5)
    expect(panel.x + panel.width, `at ${size.width} px`).toBeLessThanOrEqual(size.width + 0.5)
    for (const id of ['chat-messages', 'chat-input', 'chat-send']) {
      const box = await page.getByTestId(id).boundingBox()
      const at = `${id} at ${size.width} px: ${JSON.stringify(box)} in ${JSON.stringify(panel)}`
      expect(box, at).toBeTruthy()
      if (!box) continue
      expect(box.x, at).toBeGreaterThanOrEqual(panel.x - 0.5)
      expect(box.y, at).toBeGreaterThanOrEqual(panel.y - 0.5)
      expect(box.x + box.width, at).toBeLessThanOrEqual(panel.x + panel.width + 0.5)
      expect(box.y + box.height, at).toBeLessThanOrEqual(panel.y + panel.height + 0.5)
    }
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
    expect(scroll, `page width ${scroll} within window ${inner} at ${size.width} px`).toBeLessThanOrEqual(inner)
    await page.screenshot({ path: `test-results/screens/chat-width-${size.width}.png` })
  }
})
