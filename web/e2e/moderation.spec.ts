// Reports and moderation (issue 55; docs/web.md, "Reports and moderation"), on a server of
// its own whose database the admin command changes: Ben insults Ada at their table; Ada
// reports his message from the chat; Mo, made a moderator with `tabletop admin moderator
// add`, finds the report with the message in his queue and mutes Ben for an hour; Ben's
// table says why and until when, his message is refused, and his page lists it; the audit
// log has the action. On a laptop.
import { expect, test } from '@playwright/test'
import { createAdaAndBen, holdSeat, SCREENS, signUp, WIDTHS } from './table'
import { admin, freePort, startServer, type OwnServer } from './servers'

const LAPTOP = WIDTHS[1]
const PASSWORD = 'a long passphrase'

let server: OwnServer

test.beforeAll(async () => {
  server = await startServer(await freePort(), ['--bot-pace-with-people-ms', '0'])
})

test.afterAll(async () => {
  await server.stop()
})

test('Ada reports Ben with a chat message; a moderator mutes Ben, who sees why and until when', async ({ browser }) => {
  const contexts = await Promise.all([0, 1, 2].map(() => browser.newContext({ viewport: LAPTOP, baseURL: server.url })))
  const [ada, ben, mo] = await Promise.all(contexts.map((c) => c.newPage()))
  const created = await createAdaAndBen(ada)
  await holdSeat(ada, created, 0)
  await signUp(ada, 'Ada', PASSWORD)
  await holdSeat(ben, created, 1)
  await signUp(ben, 'Ben', PASSWORD)
  await mo.goto('/')
  await signUp(mo, 'Mo', PASSWORD)
  expect(admin(server.database, ['moderator', 'add', 'Mo'])).toContain('Mo is a moderator now')

  await Promise.all([ada.goto(`/#/game/${created.id}`), ben.goto(`/#/game/${created.id}`)])
  const input = ben.getByTestId('chat-input')
  await input.fill('you play like a rock')
  await input.press('Enter')
  await expect(input).toHaveValue('')
  const run = ada.locator('[data-testid="chat-run"][data-author="seat-1"]')
  await expect(run).toContainText('you play like a rock')

  // Ada reports his message from the chat.
  await run.getByTestId('chat-name').click()
  const menu = ada.getByTestId('chat-menu')
  await menu.getByTestId('report-open').click()
  await menu.getByTestId('report-reason').selectOption('abuse')
  await menu.getByTestId('report-text').fill('He insults me at every move.')
  await menu.getByTestId('report-send').click()
  await expect(menu.getByTestId('report-sent')).toBeVisible()

  // Mo's queue has it, with the message; he mutes Ben for an hour.
  await mo.goto('/#/moderation')
  const report = mo.getByTestId('queued-report').first()
  await expect(report).toContainText('Ada reports Ben')
  await expect(report.getByTestId('evidence')).toContainText('you play like a rock')
  await expect(report).toContainText('He insults me at every move.')
  await report.getByTestId('moderate-action').selectOption('mute')
  await report.getByTestId('moderate-minutes').fill('60')
  await report.getByTestId('moderate-reason').fill('Insults at the table.')
  await mo.screenshot({ path: `${SCREENS}/moderation-queue.png`, fullPage: true })
  await report.getByTestId('moderate-send').click()
  await expect(mo.getByTestId('queue-empty')).toBeVisible()
  await expect(mo.getByTestId('log-entry').first()).toContainText('Mute chat')
  await expect(mo.getByTestId('log-entry').first()).toContainText('Insults at the table.')

  // Ben reads why and until when at his table; his next message is refused, and says so.
  await ben.reload()
  const notice = ben.getByTestId('standing-notice')
  await expect(notice).toContainText('A moderator muted your chat until')
  await expect(notice).toContainText('Insults at the table.')
  await input.fill('sorry')
  await input.press('Enter')
  await expect(ben.getByTestId('chat-refusal')).toContainText('muted your chat')
  await ben.screenshot({ path: `${SCREENS}/muted-notice.png` })
  // His page lists it; Ada's says where her report stands.
  await ben.getByTestId('account-name').click()
  await ben.getByTestId('my-profile').click()
  await expect(ben.getByTestId('my-action')).toContainText('Insults at the table.')
  await ada.getByTestId('account-name').click()
  await ada.getByTestId('my-profile').click()
  await expect(ada.getByTestId('my-report')).toHaveAttribute('data-state', 'acted')
  await Promise.all(contexts.map((c) => c.close()))
})
