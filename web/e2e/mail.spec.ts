// Settings and "it is your turn" e-mail (docs/web.md, "Settings and turn e-mail";
// docs/server.md, "Mail"). The test runs an SMTP server of its own (smtp-server, every mail
// read back with mailparser) and a `tabletop serve` that sends to it, whose --public-url is
// its own address. Bo signs up, lists the languages he speaks (Spanish first), gives an
// address and asks for turn e-mail on his page; Ada makes a turn-based table from the
// lobby and invites him; he takes his seat, then leaves the table. When Ada's moves make it
// his turn, exactly one mail reaches him, in Spanish, with the table's link; the link opens
// his seat, signed in, on his turn. His next turn within the hour sends nothing. The
// unsubscribe link's page stops the mail, and his settings say so.
import { expect, test, type Page } from '@playwright/test'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import type { Account } from '../src/generated/server/Account'
import type { AccountSeat } from '../src/generated/server/AccountSeat'
import type { AccountSettingsView } from '../src/generated/server/AccountSettingsView'
import type { Kinds } from '../src/generated/server/Kinds'
import type { Profile } from '../src/generated/server/Profile'
import { freePort, startServer, type OwnServer } from './servers'
import { awaitTurn, createFromLobby, moveUntilTurnOf, probe, SCREENS, seatRow, seeded, signUp, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS
const PASSWORD = 'a long passphrase'

/** A mail as the SMTP server received it: who the envelope was for, and the mail itself. */
interface Received {
  to: string[]
  mail: ParsedMail
}

const received: Received[] = []
let smtp: SMTPServer
let server: OwnServer

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail })
          done()
        })
        .catch((error: unknown) => done(error instanceof Error ? error : new Error(String(error))))
    },
  })
  await new Promise<void>((done) => smtp.listen(0, '127.0.0.1', () => done()))
  const smtpPort = (smtp.server.address() as AddressInfo).port
  const port = await freePort()
  server = await startServer(port, [
    '--smtp-host', '127.0.0.1',
    '--smtp-port', String(smtpPort),
    '--smtp-security', 'none',
    '--smtp-from', 'Tabletop <turns@tabletop.test>',
    '--public-url', `http://127.0.0.1:${port}`,
  ])
})

test.afterAll(async () => {
  await server?.stop()
  await new Promise<void>((done) => (smtp ? smtp.close(() => done()) : done()))
})

async function me(page: Page): Promise<Account> {
  return (await (await page.request.get('/api/account')).json()) as Account
}

async function settingsOf(page: Page): Promise<AccountSettingsView> {
  const response = await page.request.get('/api/account/settings')
  expect(response.ok(), await response.text()).toBeTruthy()
  return (await response.json()) as AccountSettingsView
}

/** The page's document is no wider than its window. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
  expect(scroll, `${what}: page width ${scroll} within the window's ${inner}`).toBeLessThanOrEqual(inner)
}

test('Bo sets his languages and turn e-mail, gets one mail in Spanish when it is his turn, opens his seat from it and unsubscribes', async ({
  browser,
}) => {
  const [adaContext, boContext] = await Promise.all([
    browser.newContext({ baseURL: server.url, viewport: LAPTOP }),
    browser.newContext({ baseURL: server.url, viewport: LAPTOP }),
  ])
  const ada = await adaContext.newPage()
  const bo = await boContext.newPage()
  const stamp = Date.now() % 100_000
  const [adaName, boName] = [`Ada ${stamp}`, `Bo ${stamp}`]
  const address = `bo.${stamp}@tabletop.test`
  await ada.goto('/')
  await signUp(ada, adaName, PASSWORD)
  await bo.goto('/')
  await signUp(bo, boName, PASSWORD)
  const boId = (await me(bo)).id

  // His page, from the account menu: the settings card, his alone.
  await bo.getByTestId('account-name').click()
  await bo.getByTestId('my-profile').click()
  await expect(bo.getByTestId('profile-name')).toHaveText(boName)
  const card = bo.getByTestId('account-settings')
  await expect(card).toBeVisible()
  await expect(card.getByTestId('settings-no-languages')).toBeVisible()
  await expect(bo.getByTestId('profile-languages')).toHaveCount(0)
  const turnMail = card.getByTestId('settings-turn-mail')
  await expect(turnMail).toBeDisabled()
  await expect(card.getByTestId('settings-turn-mail-why')).toHaveAttribute('data-why', 'no_address')
  await expect(card.getByTestId('settings-save')).toBeDisabled()

  // Languages: added, reordered (Spanish first), one removed.
  const add = async (tag: string) => {
    await card.getByTestId('settings-add-language').selectOption(tag)
    await card.getByTestId('settings-add').click()
  }
  await add('en')
  await add('es')
  await add('it')
  const languages = card.getByTestId('settings-language')
  await expect(languages).toHaveText([/English/, /Spanish\s*Español/, /Italian\s*Italiano/])
  await card.getByRole('button', { name: 'Move Spanish up' }).click()
  // The focus stays on the language moved.
  await expect(card.getByRole('button', { name: 'Move Spanish down' })).toBeFocused()
  await card.getByRole('button', { name: 'Remove Italian' }).click()
  await expect(languages).toHaveText([/Spanish/, /English/])
  await expect(languages.first()).toContainText('first')
  await expect(card.getByTestId('settings-add-language').locator('option[value="es"]')).toHaveCount(0)
  await expect(card.getByTestId('settings-state')).toHaveAttribute('data-state', 'changed')

  // A bad address is refused at its field, and nothing is stored.
  await card.getByTestId('settings-email').fill('bo@')
  await expect(turnMail).toBeEnabled()
  await turnMail.check()
  await card.getByTestId('settings-save').click()
  const problem = card.getByTestId('settings-problem')
  await expect(problem).toHaveAttribute('data-field', 'email')
  await expect(problem).toHaveText('That is not an e-mail address: nothing was saved.')
  await expect(card.getByTestId('settings-email')).toHaveAttribute('aria-invalid', 'true')
  await card.screenshot({ path: `${SCREENS}/settings-refused.png` })
  expect(await settingsOf(bo)).toEqual({ languages: [], email: null, turn_mail: false, mail_available: true })

  // The right one: saved.
  await card.getByTestId('settings-email').fill(address)
  await expect(problem).toHaveCount(0)
  await card.getByTestId('settings-save').click()
  await expect(card.getByTestId('settings-state')).toHaveAttribute('data-state', 'saved')
  await expect(card.getByTestId('settings-state')).toHaveText('Saved')
  await expect(card.getByTestId('settings-save')).toBeDisabled()
  expect(await settingsOf(bo)).toEqual({ languages: ['es', 'en'], email: address, turn_mail: true, mail_available: true })
  // Under his name, his languages in the reader's language.
  await expect(bo.getByTestId('profile-languages')).toHaveText('Speaks Spanish and English')
  await bo.evaluate(() => window.scrollTo(0, 0))
  await bo.screenshot({ path: `${SCREENS}/settings.png`, fullPage: true })
  await card.screenshot({ path: `${SCREENS}/settings-card.png` })
  await bo.setViewportSize(PHONE)
  await expectNoSidewaysScroll(bo, 'his page at 390 px')
  const box = await card.boundingBox()
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width + 0.5, 'the settings card inside the window at 390 px').toBe(true)
  await card.screenshot({ path: `${SCREENS}/settings-phone.png` })
  await bo.setViewportSize(LAPTOP)
  await expectNoSidewaysScroll(bo, 'his page at 1366 px')

  // Anyone sees his languages, never his address or his settings.
  await ada.goto(`/#/player/${boId}`)
  await expect(ada.getByTestId('profile-name')).toHaveText(boName)
  await expect(ada.getByTestId('profile-languages')).toHaveText('Speaks Spanish and English')
  await expect(ada.getByTestId('account-settings')).toHaveCount(0)
  const publicPage = await (await ada.request.get(`/api/accounts/${boId}`)).text()
  expect((JSON.parse(publicPage) as Profile).languages).toEqual(['es', 'en'])
  expect(publicPage).not.toContain(address)

  // Ada's turn-based Pandoria table for two, from the lobby: she sits at seat 0 (who
  // starts), seat 1 is kept for a friend.
  const kinds = (await (await ada.request.get('/api/games/kinds')).json()) as Kinds
  const preset = kinds.clocks.presets.findIndex((clock) => clock.kind === 'turn_based')
  expect(preset).toBeGreaterThanOrEqual(0)
  const id = await createFromLobby(ada, { game: 'pandoria', players: 2, seats: ['me', 'human'], name: adaName, clock: String(preset) })
  const invite = ada.locator('[data-testid="invite"][data-seat="1"]')
  await expect(invite).toBeVisible()
  const link = /https?:\/\/\S+#\/join\/\S+/.exec((await invite.textContent()) ?? '')?.[0]
  expect(link, 'the invitation shows its link').toBeTruthy()

  // Bo follows the invitation signed in: the seat is his account's. Then he leaves the table.
  await bo.goto(link ?? '')
  await bo.locator('input[name=name]').fill(boName)
  await bo.getByTestId('join').click()
  await expect.poll(async () => (await probe(bo))?.seat).toBe(1)
  await expect
    .poll(async () => ((await (await bo.request.get('/api/account/seats')).json()) as AccountSeat[]).map((s) => s.game.id))
    .toContain(id)
  await bo.goto(`/#/player/${boId}`)
  await expect(bo.getByTestId('account-settings')).toBeVisible()
  const boAtAda = seatRow(ada, 1).getByTestId('presence')
  await expect(boAtAda).toHaveAttribute('data-state', 'offline')
  expect(received, 'no mail while it is not his turn').toHaveLength(0)

  // Ada moves until it is Bo's turn: one mail, in Spanish, with the table's link.
  const random = seeded(41)
  await moveUntilTurnOf(ada, 1, random)
  await expect.poll(() => received.length, { message: 'the turn mail arrives', timeout: 30_000 }).toBe(1)
  const [{ to, mail }] = received
  expect(to).toEqual([address])
  expect(mail.subject).toBe('Te toca en Pandoria')
  const text = mail.text ?? ''
  expect(text).toContain(`Hola, ${boName}:`)
  expect(text).toContain('Es tu turno en tu mesa de Pandoria.')
  const tableLink = `${server.url}/#/game/${id}`
  expect(text).toContain(`Abre la mesa: ${tableLink}`)
  const unsubscribe = new RegExp(`${server.url.replace(/[.:/]/g, '\\$&')}/api/mail/unsubscribe\\?key=[0-9a-f]{64}`).exec(text)?.[0]
  expect(unsubscribe, 'the mail links the unsubscribe page').toBeTruthy()
  // RFC 8058's one-click unsubscribe (mailparser keeps List-* headers' lines as they came).
  const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line ?? ''
  expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${unsubscribe}>`)
  expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')

  // The link, opened in a new tab of his browser, is his seat, signed in, on his turn.
  const fromMail = await boContext.newPage()
  await fromMail.goto(tableLink)
  await expect(fromMail.getByTestId('account-name')).toHaveText(boName)
  await expect.poll(async () => (await probe(fromMail))?.seat).toBe(1)
  await expect(seatRow(fromMail, 1).locator('.tag.you')).toBeVisible()
  expect(await awaitTurn(fromMail, 30_000)).toBe(true)
  await expect(fromMail.getByTestId('board').locator('[data-legal="true"]').first()).toBeVisible()
  await fromMail.screenshot({ path: `${SCREENS}/mail-table-link.png` })

  // He plays his turn and closes the tab; Ada plays hers until it is his again: within the
  // hour, no second mail.
  await moveUntilTurnOf(fromMail, 0, random)
  await fromMail.close()
  await expect(boAtAda).toHaveAttribute('data-state', 'offline')
  await moveUntilTurnOf(ada, 1, random)
  await ada.waitForTimeout(5_000)
  expect(received, 'one mail an hour per table').toHaveLength(1)

  // The unsubscribe link: a page with one button; the button stops the mail.
  await bo.goto(unsubscribe ?? '')
  await expect(bo.locator('body')).toContainText('¿Dejar de recibir los correos que te avisan de que es tu turno?')
  expect((await settingsOf(bo)).turn_mail, 'opening the page changes nothing').toBe(true)
  await bo.screenshot({ path: `${SCREENS}/mail-unsubscribe.png` })
  await bo.getByRole('button', { name: 'Dejar de recibirlos' }).click()
  await expect(bo.locator('body')).toContainText('Hecho: no recibirás más correos de turno.')
  await bo.goto(`/#/player/${boId}`)
  const after = bo.getByTestId('account-settings')
  await expect(after.getByTestId('settings-email')).toHaveValue(address)
  await expect(after.getByTestId('settings-turn-mail')).toBeEnabled()
  await expect(after.getByTestId('settings-turn-mail')).not.toBeChecked()
  expect(await settingsOf(bo)).toEqual({ languages: ['es', 'en'], email: address, turn_mail: false, mail_available: true })
})

test('a server that sends no mail offers no turn e-mail, and says why', async ({ page }) => {
  await page.goto('/')
  await signUp(page, `Cy ${Date.now() % 100_000}`, PASSWORD)
  await page.getByTestId('account-name').click()
  await page.getByTestId('my-profile').click()
  const card = page.getByTestId('account-settings')
  await card.getByTestId('settings-email').fill('cy@tabletop.test')
  await expect(card.getByTestId('settings-turn-mail')).toBeDisabled()
  await expect(card.getByTestId('settings-turn-mail-why')).toHaveAttribute('data-why', 'no_mail')
  await expect(card.getByTestId('settings-turn-mail-why')).toHaveText('This server sends no e-mail, so turn e-mail cannot be switched on.')
  // The address alone is saved.
  await card.getByTestId('settings-save').click()
  await expect(card.getByTestId('settings-state')).toHaveAttribute('data-state', 'saved')
  expect(await settingsOf(page)).toEqual({ languages: [], email: 'cy@tabletop.test', turn_mail: false, mail_available: false })
  // In Japanese, the languages are named in Japanese, on the card and under the name.
  await page.getByTestId('language').selectOption('ja')
  await card.getByTestId('settings-add-language').selectOption('es')
  await card.getByTestId('settings-add').click()
  await expect(card.getByTestId('settings-language')).toHaveText([/スペイン語\s*Español/])
  await card.getByTestId('settings-save').click()
  await expect(card.getByTestId('settings-state')).toHaveText('保存しました')
  await expect(page.getByTestId('profile-languages')).toHaveText('話せる言語：スペイン語')
  await card.screenshot({ path: `${SCREENS}/settings-ja.png` })
  await page.getByTestId('language').selectOption('en')
})
