// Passkeys (docs/web.md, "Passkeys") with Chromium's virtual authenticator, driven through
// the DevTools protocol: Ada creates her account with a passkey (no password at all), signs
// out, and signs in again with it without typing her name. A browser whose authenticator
// holds no passkey of the site stays signed out, and one opened at 127.0.0.1 (no site)
// is told where passkeys work. On her page her passkeys are listed, and the only one cannot
// be removed; she adds a passkey made by a second authenticator (the first already holds
// one of hers), removes the first, and with the second she deletes her passkey-only
// account.
//
// The server has no --public-url, so it makes passkeys for `localhost`: this spec opens the
// site at http://localhost:PORT, not at 127.0.0.1 as the others do (an IP address can have
// no passkeys).
import { expect, test, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import { PORT } from './servers'
import { SCREENS } from './table'

const SITE = `http://localhost:${PORT}`
/** The address the other specs use: no domain, so no passkeys there. */
const BY_IP = `http://127.0.0.1:${PORT}`

interface Authenticator {
  cdp: CDPSession
  id: string
}

/** A platform authenticator (this device's screen lock) that keeps passkeys and always verifies the person. */
async function addAuthenticator(page: Page, cdp?: CDPSession): Promise<Authenticator> {
  const session = cdp ?? (await page.context().newCDPSession(page))
  if (!cdp) await session.send('WebAuthn.enable')
  const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp: session, id: authenticatorId }
}

async function storedPasskeys(authenticator: Authenticator) {
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator.id })
  return credentials
}

/** A new browser (sharing nothing with the others) at `base`, with its own empty authenticator. */
async function newBrowser(context: BrowserContext, base: string): Promise<{ page: Page; authenticator: Authenticator }> {
  const page = await context.newPage()
  const authenticator = await addAuthenticator(page)
  await page.goto(`${base}/`)
  return { page, authenticator }
}

/** Nothing in the open sign-in form sticks out of it or the window, and the page does not scroll sideways. */
async function expectFits(page: Page, what: string): Promise<void> {
  const form = page.getByTestId('account-form')
  const around = await form.boundingBox()
  const viewport = page.viewportSize()
  expect(around && viewport, what).toBeTruthy()
  if (!around || !viewport) return
  expect(around.x, what).toBeGreaterThanOrEqual(0)
  expect(around.x + around.width, what).toBeLessThanOrEqual(viewport.width)
  for (const control of await form.locator('input, button, p').all()) {
    const box = await control.boundingBox()
    if (!box) continue
    const at = `${what} at ${viewport.width} px: ${JSON.stringify(box)} in ${JSON.stringify(around)}`
    expect(box.x, at).toBeGreaterThanOrEqual(around.x - 0.5)
    expect(box.x + box.width, at).toBeLessThanOrEqual(around.x + around.width + 0.5)
  }
  const sideways = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    form: (() => {
      const dialog = document.querySelector('[data-testid="account-form"]')
      return dialog ? dialog.scrollWidth - dialog.clientWidth : 0
    })(),
  }))
  expect(sideways, `${what}: nothing scrolls sideways`).toEqual({ page: 0, form: 0 })
}

test('a passkey-only account: signed up, signed in again without a name, a second passkey added, deleted with a passkey', async ({
  browser,
}) => {
  mkdirSync(SCREENS, { recursive: true })
  const context = await browser.newContext({ baseURL: SITE, viewport: { width: 1366, height: 768 } })
  const page = await context.newPage()
  const first = await addAuthenticator(page)
  await page.goto('/')

  // The sign-in form offers a passkey first, and one to create the account with.
  await page.getByTestId('sign-in').click()
  const form = page.getByTestId('account-form')
  await expect(form.getByTestId('passkey-sign-in')).toHaveText('Sign in with a passkey')
  await expect(form).toContainText('or with your name and password')
  await form.screenshot({ path: `${SCREENS}/passkeys.png` })
  await page.getByTestId('account-switch').click()
  await expect(form.getByTestId('passkey-sign-up')).toHaveText('Create account with a passkey')
  await form.screenshot({ path: `${SCREENS}/passkeys-sign-up.png` })

  // A phone: nothing scrolls sideways, in either form.
  await page.setViewportSize({ width: 390, height: 844 })
  await expectFits(page, 'the sign-up form')
  await page.getByTestId('account-switch').click()
  await expectFits(page, 'the sign-in form')
  await page.screenshot({ path: `${SCREENS}/passkeys-phone.png` })
  await page.getByTestId('account-switch').click()
  await page.setViewportSize({ width: 1366, height: 768 })

  // The passkey is made for a name: none typed, none made.
  await form.getByTestId('passkey-sign-up').click()
  await expect(form.getByTestId('passkey-problem')).toHaveText('Choose a name first: the passkey is made for it.')
  await expect(form.getByTestId('account-name-input')).toBeFocused()
  expect(await storedPasskeys(first)).toEqual([])

  // One name a run, as the server outlives tests.
  const name = `Ada ${Date.now() % 100_000}`
  await form.getByTestId('account-name-input').fill(name)
  await form.getByTestId('passkey-sign-up').click()
  await expect(page.getByTestId('account-name')).toHaveText(name)
  await expect(form).toBeHidden()
  const account = (await (await page.request.get('/api/account')).json()) as { id: string; name: string }
  expect(account.name).toBe(name)
  // The authenticator keeps a discoverable passkey for the site, for her account.
  const made = await storedPasskeys(first)
  expect(made).toHaveLength(1)
  expect(made[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })
  expect(made[0].userHandle).toBeTruthy()

  // The same name again is taken: said at the form, nothing made.
  const other = await browser.newContext({ baseURL: SITE })
  const again = await newBrowser(other, SITE)
  await again.page.getByTestId('sign-in').click()
  await again.page.getByTestId('account-switch').click()
  await again.page.getByTestId('account-name-input').fill(name.toUpperCase())
  await again.page.getByTestId('passkey-sign-up').click()
  await expect(again.page.getByTestId('passkey-problem')).toHaveText('That name has an account already')
  expect(await storedPasskeys(again.authenticator)).toEqual([])

  // Signed out, and back with the passkey alone: no name typed.
  await page.getByTestId('account-name').click()
  await page.getByTestId('sign-out').click()
  await expect(page.getByTestId('sign-in')).toBeVisible()
  await page.reload()
  await page.getByTestId('sign-in').click()
  await expect(form.getByTestId('account-name-input')).toHaveValue('')
  await form.getByTestId('passkey-sign-in').click()
  await expect(page.getByTestId('account-name')).toHaveText(name)
  await expect(form).toBeHidden()
  expect(((await (await page.request.get('/api/account')).json()) as { id: string }).id).toBe(account.id)

  // Another browser whose authenticator holds no passkey of the site: nothing to sign in
  // with, so it stays signed out (the browser's "no passkey" ends like a cancel: no error).
  await again.page.reload()
  await again.page.getByTestId('sign-in').click()
  const finishes: string[] = []
  again.page.on('request', (sent) => {
    if (sent.url().includes('/passkey/sign-in/finish')) finishes.push(sent.url())
  })
  const started = again.page.waitForResponse((answer) => answer.url().endsWith('/api/account/passkey/sign-in/start'))
  await again.page.getByTestId('passkey-sign-in').click()
  expect((await started).ok()).toBe(true)
  // The ceremony is over once the button is back (it is disabled while the browser asks).
  await expect(again.page.getByTestId('passkey-sign-in')).toBeEnabled()
  await expect(again.page.getByTestId('passkey-sign-in')).toHaveText('Sign in with a passkey')
  await expect(again.page.getByTestId('passkey-problem')).toHaveCount(0)
  await expect(again.page.getByTestId('account-form')).toBeVisible()
  expect(finishes, 'nothing to send the server').toEqual([])
  expect((await again.page.request.get('/api/account')).status()).toBe(401)

  // Opened at an IP address, it is told where passkeys work.
  await again.page.goto(`${BY_IP}/`)
  await again.page.getByTestId('sign-in').click()
  await again.page.getByTestId('passkey-sign-in').click()
  await expect(again.page.getByTestId('passkey-problem')).toHaveText(
    'Passkeys are not available at this address: open the site at localhost to use them.',
  )
  await again.page.screenshot({ path: `${SCREENS}/passkeys-address.png` })
  await other.close()

  // Her page: "Add a passkey". This device already holds one of hers: said so.
  await page.getByTestId('account-name').click()
  await page.getByTestId('my-profile').click()
  await expect(page.getByTestId('profile-name')).toHaveText(name)
  const panel = page.getByTestId('passkeys')
  await expect(panel).toContainText('Passkeys')
  // Her passkeys are listed: one, used to sign in today. It is her only way in: kept.
  const items = panel.getByTestId('passkey-item')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('last used')
  await items.first().getByTestId('passkey-remove').click()
  await expect(panel.getByTestId('passkey-remove-problem')).toHaveText(
    'This passkey is your only way to sign in: add another one first.',
  )
  await expect(items).toHaveCount(1)
  await panel.getByTestId('passkey-add').click()
  await expect(panel.getByTestId('passkey-add-problem')).toHaveText('This device already holds a passkey for this account.')
  expect(await storedPasskeys(first)).toHaveLength(1)

  // Another authenticator (a security key, say) in place of this one: a second passkey.
  await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id })
  const second = await addAuthenticator(page, first.cdp)
  await panel.getByTestId('passkey-add').click()
  await expect(panel.getByTestId('passkey-added')).toHaveText('Passkey added: next time, choose “Sign in with a passkey”.')
  await expect(panel.getByTestId('passkey-add-problem')).toHaveCount(0)
  await expect(panel.getByTestId('passkey-remove-problem')).toHaveCount(0)
  const added = await storedPasskeys(second)
  expect(added).toHaveLength(1)
  expect(added[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost', userHandle: made[0].userHandle })
  expect(added[0].credentialId).not.toBe(made[0].credentialId)
  await expect(items).toHaveCount(2)
  await expect(items.nth(1)).toContainText('not used to sign in yet')
  await page.getByTestId('passkeys').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENS}/passkeys-added.png` })
  // On a phone and a wide screen, each passkey and its Remove button lie inside the
  // window, and nothing scrolls sideways.
  for (const size of [
    { width: 390, height: 844 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size)
    for (const item of await items.all()) {
      await item.scrollIntoViewIfNeeded()
      for (const part of [item, item.getByTestId('passkey-remove')]) {
        const box = await part.boundingBox()
        expect(box, `a passkey at ${size.width} px`).toBeTruthy()
        if (!box) continue
        expect(box.x).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, `inside ${size.width} px`).toBeLessThanOrEqual(size.width + 0.5)
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
    await panel.screenshot({ path: `${SCREENS}/passkeys-list-${size.width}.png` })
  }
  await page.setViewportSize({ width: 1366, height: 768 })

  // The first device is gone: its passkey is removed, and the list says so.
  await items.first().getByTestId('passkey-remove').click()
  await expect(panel.getByTestId('passkey-removed')).toHaveText('Passkey removed: it no longer signs you in.')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('not used to sign in yet')
  const listed = (await (await page.request.get('/api/account/passkeys')).json()) as { id: string }[]
  expect(listed.map((p) => p.id)).toEqual([Buffer.from(added[0].credentialId, 'base64').toString('hex')])
  await page.screenshot({ path: `${SCREENS}/passkeys-removed.png` })

  // Her account has no password: the second passkey confirms its deletion.
  const deletion = page.getByTestId('delete-account')
  await deletion.getByTestId('delete-account-open').click()
  await expect(deletion.getByTestId('delete-account-passkey')).toHaveText('Confirm with a passkey')
  await deletion.scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SCREENS}/passkeys-delete.png` })
  await deletion.getByTestId('delete-account-passkey').click()
  await expect(page.getByTestId('account-deleted')).toContainText(`The account ${name} is deleted`)
  await expect(page.getByTestId('sign-in')).toBeVisible()
  expect((await page.request.get(`/api/accounts/${account.id}`)).status()).toBe(404)
  expect((await page.request.get('/api/account')).status()).toBe(401)

  // Its passkey is left on the device, but it signs nobody in now.
  await page.getByTestId('sign-in').click()
  await form.getByTestId('passkey-sign-in').click()
  await expect(form.getByTestId('passkey-problem')).toHaveText('This passkey could not be verified. Was its account deleted?')
  await expect(page.getByTestId('sign-in')).toBeVisible()
  await context.close()
})
