// Passkeys (WebAuthn; docs/web.md, "Passkeys"): signing up or in with one, adding one to
// the signed-in account, and confirming a deletion with one. Each ceremony is the server's
// options (`…/start`) handed to the browser's `navigator.credentials`, and the browser's
// answer as JSON (`…/finish`, or the deletion's `passkey`). A person who closes the
// browser's dialog cancelled: the ceremonies answer null, and nothing is said.
import type { Account } from '../generated/server/Account'
import type { PasskeyChallenge } from '../generated/server/PasskeyChallenge'
import type { PasskeyFinish } from '../generated/server/PasskeyFinish'
import { api, ApiError, type ProblemKind } from './api'
import { t } from './i18n.svelte'
import { problemLabel } from './labels'

/** A credential the browser made or used, as it is sent to the server. */
export interface BrowserCredential {
  toJSON(): unknown
}

/** The browser's WebAuthn with its JSON helpers, or a stand-in (the tests'). */
export interface WebAuthn {
  /** The host name the page is open at (a passkey works only for its site). */
  readonly host: string
  parseCreationOptions(options: PublicKeyCredentialCreationOptionsJSON): PublicKeyCredentialCreationOptions
  parseRequestOptions(options: PublicKeyCredentialRequestOptionsJSON): PublicKeyCredentialRequestOptions
  create(options: CredentialCreationOptions): Promise<BrowserCredential | null>
  get(options: CredentialRequestOptions): Promise<BrowserCredential | null>
}

/** What feature detection looks at: `globalThis` in a browser. */
export interface PasskeyScope {
  isSecureContext?: boolean
  location?: { hostname: string }
  navigator?: { credentials?: Pick<CredentialsContainer, 'create' | 'get'> }
  PublicKeyCredential?: {
    parseCreationOptionsFromJSON?: (options: PublicKeyCredentialCreationOptionsJSON) => PublicKeyCredentialCreationOptions
    parseRequestOptionsFromJSON?: (options: PublicKeyCredentialRequestOptionsJSON) => PublicKeyCredentialRequestOptions
    prototype?: { toJSON?: unknown }
  }
}

function hasToJSON(value: unknown): value is BrowserCredential {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>).toJSON === 'function'
}

/**
 * The browser's WebAuthn when it can make and use passkeys with the JSON helpers
 * (`PublicKeyCredential.parseCreationOptionsFromJSON`, `…RequestOptionsFromJSON`,
 * `toJSON`), in a secure context (HTTPS, or localhost); else null: no passkey buttons.
 */
export function browserWebAuthn(scope: PasskeyScope = globalThis): WebAuthn | null {
  const type = scope.PublicKeyCredential
  const credentials = scope.navigator?.credentials
  const parseCreation = type?.parseCreationOptionsFromJSON
  const parseRequest = type?.parseRequestOptionsFromJSON
  if (scope.isSecureContext === false || !credentials || typeof credentials.create !== 'function' || typeof credentials.get !== 'function') {
    return null
  }
  if (typeof parseCreation !== 'function' || typeof parseRequest !== 'function' || typeof type?.prototype?.toJSON !== 'function') {
    return null
  }
  return {
    host: scope.location?.hostname ?? '',
    parseCreationOptions: (options) => parseCreation.call(type, options),
    parseRequestOptions: (options) => parseRequest.call(type, options),
    create: async (options) => {
      const made = await credentials.create(options)
      return hasToJSON(made) ? made : null
    },
    get: async (options) => {
      const used = await credentials.get(options)
      return hasToJSON(used) ? used : null
    },
  }
}

/** Whether this browser can make and use passkeys (the passkey buttons are shown). */
export function passkeysSupported(scope: PasskeyScope = globalThis): boolean {
  return browserWebAuthn(scope) !== null
}

/** Why a passkey ceremony failed in the browser (the server's refusals are `ApiError`s). */
export type PasskeyErrorKind =
  /** This browser cannot make or use passkeys. */
  | 'unsupported'
  /** Passkeys are not for this address (`site`: the one they are for, when known). */
  | 'address'
  /** This device holds a passkey of the account already. */
  | 'exists'
  /** The authenticator failed otherwise. */
  | 'failed'

export class PasskeyError extends Error {
  readonly kind: PasskeyErrorKind
  readonly site: string | null

  constructor(kind: PasskeyErrorKind, message: string, site: string | null = null) {
    super(message)
    this.kind = kind
    this.site = site
  }
}

/** The name of a thrown DOMException (or Error), '' for anything else. */
function errorName(error: unknown): string {
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return error.name
  return error instanceof Error ? error.name : ''
}

/**
 * A browser's refusal as a PasskeyError; null when the person cancelled (or let the
 * dialog time out: WebAuthn tells the two apart from nothing else), which is no error.
 */
export function fromBrowser(error: unknown, site: string | null = null): PasskeyError | null {
  const message = error instanceof Error ? error.message : String(error)
  switch (errorName(error)) {
    case 'NotAllowedError':
    case 'AbortError':
      return null
    case 'InvalidStateError':
      return new PasskeyError('exists', message)
    case 'SecurityError':
      return new PasskeyError('address', message, site)
    case 'NotSupportedError':
      return new PasskeyError('unsupported', message)
    default:
      return new PasskeyError('failed', message)
  }
}

/** Whether a passkey of relying party `site` works on a page at `host` (the site or a subdomain). */
export function worksAt(site: string, host: string): boolean {
  const h = host.toLowerCase()
  const s = site.toLowerCase()
  return h === s || h.endsWith(`.${s}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** The site (relying party id) the server's options are for, if they name it. */
export function siteOf(publicKey: unknown): string | null {
  if (!isObject(publicKey)) return null
  if (typeof publicKey.rpId === 'string') return publicKey.rpId
  const rp = publicKey.rp
  return isObject(rp) && typeof rp.id === 'string' ? rp.id : null
}

/**
 * The challenge's `publicKey` options, once it is sure they can work here: an options
 * object, for a site this page is at (else the browser would refuse with a bare
 * SecurityError; this says which address passkeys work at).
 */
function optionsFor(challenge: PasskeyChallenge, host: string): Record<string, unknown> {
  const publicKey = challenge.options.publicKey
  if (!isObject(publicKey)) throw new PasskeyError('failed', 'the server sent no publicKey options')
  const site = siteOf(publicKey)
  if (site !== null && host !== '' && !worksAt(site, host)) {
    throw new PasskeyError('address', `passkeys are made for ${site}, not ${host}`, site)
  }
  return publicKey
}

function need(client: WebAuthn | null): WebAuthn {
  if (!client) throw new PasskeyError('unsupported', 'this browser cannot make or use passkeys')
  return client
}

/** Asks the browser to make a passkey for `challenge`: its answer, or null (cancelled). */
export async function makeCredential(challenge: PasskeyChallenge, client: WebAuthn | null): Promise<PasskeyFinish | null> {
  const webauthn = need(client)
  const publicKey = optionsFor(challenge, webauthn.host)
  let made: BrowserCredential | null
  try {
    // The options are WebAuthn's JSON form as webauthn-rs writes it.
    made = await webauthn.create({ publicKey: webauthn.parseCreationOptions(publicKey as unknown as PublicKeyCredentialCreationOptionsJSON) })
  } catch (error) {
    const refused = fromBrowser(error, siteOf(publicKey))
    if (refused) throw refused
    return null
  }
  return made ? { ceremony: challenge.ceremony, credential: made.toJSON() } : null
}

/** Asks the browser to sign `challenge` with one of the site's passkeys: its answer, or null (cancelled). */
export async function useCredential(challenge: PasskeyChallenge, client: WebAuthn | null): Promise<PasskeyFinish | null> {
  const webauthn = need(client)
  const publicKey = optionsFor(challenge, webauthn.host)
  let used: BrowserCredential | null
  try {
    used = await webauthn.get({ publicKey: webauthn.parseRequestOptions(publicKey as unknown as PublicKeyCredentialRequestOptionsJSON) })
  } catch (error) {
    const refused = fromBrowser(error, siteOf(publicKey))
    if (refused) throw refused
    return null
  }
  return used ? { ceremony: challenge.ceremony, credential: used.toJSON() } : null
}

/**
 * Creates the account `name` with a new passkey (and signs in to it): the account, or null
 * when the person cancelled. `name_taken`, `malformed` (not a name) come from the server.
 */
export async function signUpWithPasskey(name: string, client: WebAuthn | null = browserWebAuthn()): Promise<Account | null> {
  need(client)
  const answer = await makeCredential(await api.passkeyRegisterStart({ name }), client)
  return answer ? api.passkeyRegisterFinish(answer) : null
}

/** Signs in with one of the site's passkeys, naming no account: the account, or null (cancelled). */
export async function signInWithPasskey(client: WebAuthn | null = browserWebAuthn()): Promise<Account | null> {
  need(client)
  const answer = await useCredential(await api.passkeySignInStart(), client)
  return answer ? api.passkeySignIn(answer) : null
}

/** Adds a new passkey to the signed-in account: true once added, false when cancelled. */
export async function addPasskey(client: WebAuthn | null = browserWebAuthn()): Promise<boolean> {
  need(client)
  const answer = await makeCredential(await api.passkeyRegisterStart({}), client)
  if (!answer) return false
  await api.passkeyRegisterFinish(answer)
  return true
}

/**
 * A passkey's answer to a fresh sign-in ceremony, to confirm a deletion with
 * (`Deletion.passkey`); null when the person cancelled.
 */
export async function passkeyConfirmation(client: WebAuthn | null = browserWebAuthn()): Promise<PasskeyFinish | null> {
  need(client)
  return useCredential(await api.passkeySignInStart(), client)
}

/** A failed ceremony as the person reads it: `kind` (for tests and styles) and the sentence. */
export interface PasskeyProblem {
  kind: PasskeyErrorKind | ProblemKind
  text: string
}

/** Says why a passkey ceremony failed, in the current language. */
export function passkeyProblem(error: unknown): PasskeyProblem {
  if (error instanceof PasskeyError) {
    if (error.kind === 'address') {
      return { kind: 'address', text: error.site ? t('passkey.addressAt', { site: error.site }) : t('passkey.address') }
    }
    return { kind: error.kind, text: t(`passkey.${error.kind}`) }
  }
  if (error instanceof ApiError) {
    switch (error.kind) {
      // The server has no passkeys for this address (an IP address is no site).
      case 'forbidden':
        return { kind: 'address', text: t('passkey.address') }
      case 'bad_credentials':
        return { kind: error.kind, text: t('passkey.unverified') }
      case 'stale':
        return { kind: error.kind, text: t('passkey.stale') }
      default:
        return { kind: error.kind, text: problemLabel(error.kind) }
    }
  }
  return { kind: 'failed', text: t('passkey.failed') }
}

/** When a passkey was added or last used, as a date in the reader's language: "7 Dec 2026". */
export function passkeyDate(ms: number, lang: string): string {
  return new Intl.DateTimeFormat([lang], { dateStyle: 'medium' }).format(new Date(ms))
}
