// The passkey ceremonies short of a real authenticator (Chromium's virtual one runs them
// whole: e2e/passkeys.spec.ts): feature detection, what the browser's refusals become, the
// requests each ceremony sends, and the sentences people read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PasskeyChallenge } from '../generated/server/PasskeyChallenge'
import { ApiError } from './api'
import { i18n } from './i18n.svelte'
import {
  addPasskey,
  browserWebAuthn,
  fromBrowser,
  makeCredential,
  passkeyConfirmation,
  passkeyProblem,
  passkeysSupported,
  PasskeyError,
  signInWithPasskey,
  signUpWithPasskey,
  siteOf,
  useCredential,
  worksAt,
  type PasskeyScope,
  type WebAuthn,
} from './passkeys'

const registration: PasskeyChallenge = {
  ceremony: 'c1',
  options: { publicKey: { rp: { id: 'localhost', name: 'Tabletop' }, challenge: 'AAAA', user: { name: 'Ana' } } },
}
const request: PasskeyChallenge = { ceremony: 'c2', options: { publicKey: { rpId: 'localhost', challenge: 'BBBB', allowCredentials: [] } } }

/** A browser whose authenticator answers (or throws) as told, and remembers what it was asked. */
function fakeBrowser(answer: () => Promise<unknown>, host = 'localhost') {
  const asked: { create: unknown[]; get: unknown[] } = { create: [], get: [] }
  const client: WebAuthn = {
    host,
    parseCreationOptions: (options) => ({ parsed: options }) as unknown as PublicKeyCredentialCreationOptions,
    parseRequestOptions: (options) => ({ parsed: options }) as unknown as PublicKeyCredentialRequestOptions,
    create: async (options) => {
      asked.create.push(options.publicKey)
      await answer()
      return { toJSON: () => ({ id: 'made', type: 'public-key' }) }
    },
    get: async (options) => {
      asked.get.push(options.publicKey)
      await answer()
      return { toJSON: () => ({ id: 'used', type: 'public-key' }) }
    },
  }
  return { client, asked }
}

const answers = () => Promise.resolve(null)
const cancels = () => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))

describe('feature detection', () => {
  const full = (): PasskeyScope => ({
    isSecureContext: true,
    location: { hostname: 'play.test' },
    navigator: { credentials: { create: () => Promise.resolve(null), get: () => Promise.resolve(null) } },
    PublicKeyCredential: {
      parseCreationOptionsFromJSON: (o) => o as unknown as PublicKeyCredentialCreationOptions,
      parseRequestOptionsFromJSON: (o) => o as unknown as PublicKeyCredentialRequestOptions,
      prototype: { toJSON: () => ({}) },
    },
  })

  it('offers passkeys where WebAuthn has its JSON helpers, in a secure context', () => {
    expect(passkeysSupported(full())).toBe(true)
    expect(browserWebAuthn(full())?.host).toBe('play.test')
  })

  it('offers none without WebAuthn, its JSON helpers, toJSON or a secure context', () => {
    expect(passkeysSupported({})).toBe(false)
    // Node, as the tests run: no PublicKeyCredential.
    expect(passkeysSupported()).toBe(false)
    expect(passkeysSupported({ ...full(), isSecureContext: false })).toBe(false)
    expect(passkeysSupported({ ...full(), navigator: {} })).toBe(false)
    expect(passkeysSupported({ ...full(), PublicKeyCredential: undefined })).toBe(false)
    const older = full()
    delete older.PublicKeyCredential?.parseCreationOptionsFromJSON
    expect(passkeysSupported(older)).toBe(false)
    const noJson = full()
    if (noJson.PublicKeyCredential) noJson.PublicKeyCredential.prototype = {}
    expect(passkeysSupported(noJson)).toBe(false)
  })
})

describe("the browser's refusals", () => {
  it('takes a cancelled or timed-out dialog for no error', () => {
    expect(fromBrowser(new DOMException('no', 'NotAllowedError'))).toBeNull()
    expect(fromBrowser(new DOMException('no', 'AbortError'))).toBeNull()
  })

  it('names the others', () => {
    expect(fromBrowser(new DOMException('excluded', 'InvalidStateError'))?.kind).toBe('exists')
    const address = fromBrowser(new DOMException('rp id', 'SecurityError'), 'localhost')
    expect([address?.kind, address?.site]).toEqual(['address', 'localhost'])
    expect(fromBrowser(new DOMException('alg', 'NotSupportedError'))?.kind).toBe('unsupported')
    expect(fromBrowser(new TypeError('bad options'))?.kind).toBe('failed')
    expect(fromBrowser('strange')?.kind).toBe('failed')
  })

  it('knows which pages a site’s passkeys work on', () => {
    expect(worksAt('localhost', 'localhost')).toBe(true)
    expect(worksAt('play.test', 'eu.play.test')).toBe(true)
    expect(worksAt('Play.Test', 'play.test')).toBe(true)
    expect(worksAt('localhost', '127.0.0.1')).toBe(false)
    expect(worksAt('play.test', 'notplay.test')).toBe(false)
    expect(siteOf(registration.options.publicKey)).toBe('localhost')
    expect(siteOf(request.options.publicKey)).toBe('localhost')
    expect(siteOf({ challenge: 'x' })).toBeNull()
    expect(siteOf('nothing')).toBeNull()
  })
})

describe('the ceremonies in the browser', () => {
  it("hands the server's options to the browser and answers its credential as JSON", async () => {
    const { client, asked } = fakeBrowser(answers)
    expect(await makeCredential(registration, client)).toEqual({ ceremony: 'c1', credential: { id: 'made', type: 'public-key' } })
    expect(asked.create).toEqual([{ parsed: registration.options.publicKey }])
    expect(await useCredential(request, client)).toEqual({ ceremony: 'c2', credential: { id: 'used', type: 'public-key' } })
    expect(asked.get).toEqual([{ parsed: request.options.publicKey }])
  })

  it('answers null when the person cancels', async () => {
    const { client } = fakeBrowser(cancels)
    expect(await makeCredential(registration, client)).toBeNull()
    expect(await useCredential(request, client)).toBeNull()
  })

  it('says which address passkeys work at, without asking the browser, on another address', async () => {
    const { client, asked } = fakeBrowser(answers, '127.0.0.1')
    const refused = await useCredential(request, client).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PasskeyError)
    expect(refused).toMatchObject({ kind: 'address', site: 'localhost' })
    expect(asked.get).toEqual([])
  })

  it('refuses without WebAuthn', async () => {
    await expect(makeCredential(registration, null)).rejects.toMatchObject({ kind: 'unsupported' })
    await expect(signInWithPasskey(null)).rejects.toMatchObject({ kind: 'unsupported' })
  })

  it('turns an excluded credential into "already holds one"', async () => {
    const { client } = fakeBrowser(() => Promise.reject(new DOMException('excluded', 'InvalidStateError')))
    await expect(makeCredential(registration, client)).rejects.toMatchObject({ kind: 'exists' })
  })
})

describe('the ceremonies with the server', () => {
  let sent: { path: string; method: string; body: unknown }[]
  let replies: Map<string, { status: number; body: unknown }>

  beforeEach(() => {
    sent = []
    replies = new Map([
      ['/api/account/passkey/register/start', { status: 200, body: registration }],
      ['/api/account/passkey/register/finish', { status: 201, body: { id: 'acc1', name: 'Ana' } }],
      ['/api/account/passkey/sign-in/start', { status: 200, body: request }],
      ['/api/account/passkey/sign-in/finish', { status: 200, body: { id: 'acc1', name: 'Ana' } }],
    ])
    vi.stubGlobal('fetch', (path: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      sent.push({ path, method: init?.method ?? 'GET', body })
      const reply = replies.get(path) ?? { status: 404, body: { kind: 'not_found', message: path } }
      return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status }))
    })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('signs up: the name starts it, the new credential finishes it', async () => {
    const { client } = fakeBrowser(answers)
    expect(await signUpWithPasskey('Ana', client)).toEqual({ id: 'acc1', name: 'Ana' })
    expect(sent).toEqual([
      { path: '/api/account/passkey/register/start', method: 'POST', body: { name: 'Ana' } },
      { path: '/api/account/passkey/register/finish', method: 'POST', body: { ceremony: 'c1', credential: { id: 'made', type: 'public-key' } } },
    ])
  })

  it('sends no finish when the person cancels', async () => {
    const { client } = fakeBrowser(cancels)
    expect(await signUpWithPasskey('Ana', client)).toBeNull()
    expect(await signInWithPasskey(client)).toBeNull()
    expect(await addPasskey(client)).toBe(false)
    expect(await passkeyConfirmation(client)).toBeNull()
    expect(sent.map((s) => s.path)).toEqual([
      '/api/account/passkey/register/start',
      '/api/account/passkey/sign-in/start',
      '/api/account/passkey/register/start',
      '/api/account/passkey/sign-in/start',
    ])
  })

  it('signs in naming no account, adds a passkey without a name, confirms with one', async () => {
    const { client } = fakeBrowser(answers)
    expect(await signInWithPasskey(client)).toEqual({ id: 'acc1', name: 'Ana' })
    expect(await addPasskey(client)).toBe(true)
    expect(await passkeyConfirmation(client)).toEqual({ ceremony: 'c2', credential: { id: 'used', type: 'public-key' } })
    expect(sent.map((s) => [s.path, s.body])).toEqual([
      ['/api/account/passkey/sign-in/start', undefined],
      ['/api/account/passkey/sign-in/finish', { ceremony: 'c2', credential: { id: 'used', type: 'public-key' } }],
      ['/api/account/passkey/register/start', {}],
      ['/api/account/passkey/register/finish', { ceremony: 'c1', credential: { id: 'made', type: 'public-key' } }],
      ['/api/account/passkey/sign-in/start', undefined],
    ])
  })

  it("passes the server's refusals on, asking the browser nothing", async () => {
    replies.set('/api/account/passkey/register/start', { status: 409, body: { kind: 'name_taken', message: 'taken' } })
    const { client, asked } = fakeBrowser(answers)
    await expect(signUpWithPasskey('Bo', client)).rejects.toMatchObject({ kind: 'name_taken' })
    expect(asked.create).toEqual([])
  })
})

describe('what people read', () => {
  afterEach(() => {
    i18n.lang = 'en'
  })

  it('says each failure in words, passkey words where the server’s would mislead', () => {
    i18n.lang = 'en'
    const read = (error: unknown) => passkeyProblem(error)
    expect(read(new ApiError('forbidden', 'no passkeys here', 403))).toEqual({ kind: 'address', text: 'Passkeys are not available at this address.' })
    expect(read(new PasskeyError('address', 'rp', 'localhost')).text).toBe(
      'Passkeys are not available at this address: open the site at localhost to use them.',
    )
    expect(read(new ApiError('bad_credentials', 'unverified', 401)).text).toBe('This passkey could not be verified. Was its account deleted?')
    expect(read(new ApiError('stale', 'expired', 409)).text).toBe('That took too long: try again.')
    expect(read(new ApiError('name_taken', 'taken', 409))).toEqual({ kind: 'name_taken', text: 'That name has an account already' })
    expect(read(new PasskeyError('exists', 'excluded')).text).toBe('This device already holds a passkey for this account.')
    expect(read(new PasskeyError('unsupported', 'none')).text).toBe('This browser cannot use passkeys.')
    expect(read(new Error('odd')).kind).toBe('failed')
    i18n.lang = 'ja'
    expect(read(new ApiError('bad_credentials', 'unverified', 401)).text).toBe('このパスキーを確認できませんでした。アカウントが削除されていませんか？')
  })
})
