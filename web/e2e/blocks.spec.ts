// Blocks (issue 55; docs/web.md, "Blocks"): Ada and Ben, signed in, talk at a table; Ben
// blocks Ada from her page, and back at the table her messages are gone, before and
// after the block, while his own still show to him; she reads his no longer either. His
// own page lists her with "Unblock". On a phone and a laptop.
import { expect, test, type Page } from '@playwright/test'
import { createAdaAndBen, holdSeat, SCREENS, signUp, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS
const PASSWORD = 'a long passphrase'

const messages = (page: Page) => page.getByTestId('chat-messages').getByTestId('chat-message')

async function write(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('chat-input')
  await input.fill(text)
  await input.press('Enter')
  await expect(input).toHaveValue('')
  await expect(messages(page).filter({ hasText: text })).toBeVisible()
}

for (const [label, viewport] of [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const) {
  test(`Ben blocks Ada and no longer sees her chat (${label})`, async ({ browser }) => {
    const [adaContext, benContext] = await Promise.all([browser.newContext({ viewport }), browser.newContext({ viewport })])
    const ada = await adaContext.newPage()
    const ben = await benContext.newPage()
    const stamp = `${viewport.width % 1000}${Date.now() % 10_000}`
    const [adaName, benName] = [`Ada${stamp}`, `Ben${stamp}`]
    const created = await createAdaAndBen(ada)
    await holdSeat(ada, created, 0)
    await signUp(ada, adaName, PASSWORD)
    await holdSeat(ben, created, 1)
    await signUp(ben, benName, PASSWORD)
    const adaAccount = (await (await ada.request.get('/api/account')).json()) as { id: string }
    await Promise.all([ada.goto(`/#/game/${created.id}`), ben.goto(`/#/game/${created.id}`)])
    await write(ada, 'Hello Ben, good luck')
    await expect(messages(ben).filter({ hasText: 'Hello Ben, good luck' })).toBeVisible()

    // Ben blocks Ada from her page: it says what that does, and offers to undo it.
    await ben.goto(`/#/player/${adaAccount.id}`)
    const block = ben.getByTestId('block')
    await expect(block).toHaveText(new RegExp(`Block ${adaName}`))
    await block.click()
    await expect(ben.getByTestId('block-done')).toContainText(`You blocked ${adaName}`)
    await expect(ben.getByTestId('unblock')).toBeVisible()
    await ben.screenshot({ path: `${SCREENS}/blocked-${viewport.width}.png` })

    // Back at the table: her message is gone, and so is the next one.
    await ben.goto(`/#/game/${created.id}`)
    await write(ben, 'Anyone there?')
    await expect(ben.getByTestId('chat-messages')).not.toContainText('Hello Ben')
    await write(ada, 'Did you see my move?')
    // Ada does not read Ben's message; once her own is back, his would have come before it.
    await expect(ada.getByTestId('chat-messages')).not.toContainText('Anyone there?')
    await write(ben, 'Quiet table')
    await expect(ben.getByTestId('chat-messages')).not.toContainText('Did you see my move?')
    await expect(ben.getByTestId('chat-messages')).not.toContainText('Hello Ben')

    // His own page lists her, with "Unblock".
    await ben.goto('/')
    await ben.getByTestId('account-name').click()
    await ben.getByTestId('my-profile').click()
    const listed = ben.getByTestId('blocked-item')
    await expect(listed).toContainText(adaName)
    await listed.scrollIntoViewIfNeeded()
    await ben.getByTestId('blocked-list').screenshot({ path: `${SCREENS}/blocked-list-${viewport.width}.png` })
    await adaContext.close()
    await benContext.close()
  })
}
