// The servers the browser tests run against; playwright.config.ts starts both. A test that
// needs other flags (e2e/mail.spec.ts: an SMTP server, --public-url) starts its own.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The server every test plays on, with the shipped component data. */
export const PORT = Number(process.env.E2E_PORT ?? 18765)

/**
 * A second server whose Valley of the Kings games play on corrected component data
 * (`tabletop serve --data valley=FILE`), so that a test sees the browser draw a game's
 * cards from the data the game plays on, not from the data the client was built with.
 */
export const CORRECTED_URL = `http://127.0.0.1:${PORT + 1}`

/** The cost of every base starter card in that corrected data (the shipped data's is 0). */
export const CORRECTED_STARTER_COST = 7

/** That corrected data: the shipped file with a cost written on each base starter card. */
export function correctedValley(shippedFile: string): string {
  let text = readFileSync(shippedFile, 'utf8')
  for (const name of ['Shabti', 'Urn', 'Box of Food', 'Offering Table']) {
    const line = `name = "${name}"\n`
    if (!text.includes(line)) throw new Error(`${shippedFile} has no card ${name}`)
    text = text.replace(line, `${line}cost = ${CORRECTED_STARTER_COST}\n`)
  }
  return text
}

/** The server binary every test runs (scripts/test passes the one its cargo test built). */
export const BINARY = process.env.TABLETOP_BIN ?? '../target/release/tabletop'

/** A TCP port on the loopback free now (the system's choice), for a server a test starts itself. */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((done, fail) => probe.once('error', fail).listen(0, '127.0.0.1', done))
  const { port } = probe.address() as AddressInfo
  await new Promise((done) => probe.close(done))
  return port
}

/** A `tabletop serve` a test started itself: its address, and how to stop it. */
export interface OwnServer {
  url: string
  /** Its database's URL (for `tabletop admin … --db`). */
  database: string
  stop(): Promise<void>
}

/** Runs `tabletop admin ARGS --db DATABASE` (on the server machine, beside the running server): its output. */
export function admin(database: string, args: string[]): string {
  return execFileSync(BINARY, ['admin', ...args, '--db', database], { encoding: 'utf8' })
}

/**
 * Starts `tabletop serve` on `port` of the loopback with a fresh SQLite file and `flags`
 * (those a test needs beyond playwright.config.ts's servers: `--smtp-host`, `--public-url`
 * naming its own address…), and waits until it answers `/healthz`.
 */
export async function startServer(port: number, flags: string[]): Promise<OwnServer> {
  const database = join(mkdtempSync(join(tmpdir(), 'tabletop-e2e-own-')), 'own.db')
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--db', `sqlite://${database}`, '--bot-pace-ms', '0', ...flags]
  const child = spawn(BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`${BINARY} ${args.join(' ')} exited with ${child.exitCode}: ${stderr}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, database: `sqlite://${database}`, stop }
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  await stop()
  throw new Error(`${BINARY} did not answer ${url}/healthz within a minute: ${stderr}`)
}
