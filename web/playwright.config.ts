// Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium; scripts/web-setup
// --browser installs it) against a real `tabletop serve` on a loopback port with a fresh
// SQLite file. TABLETOP_BIN picks the server binary (scripts/test passes the one its cargo
// test built).
import { defineConfig } from '@playwright/test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CORRECTED_URL, PORT, correctedValley } from './e2e/servers.ts'

const binary = process.env.TABLETOP_BIN ?? '../target/release/tabletop'
const scratch = mkdtempSync(join(tmpdir(), 'tabletop-e2e-'))
const database = join(scratch, 'e2e.db')
const corrected = join(scratch, 'valley-corrected.toml')
writeFileSync(corrected, correctedValley('../data/valley.toml'))

export default defineConfig({
  testDir: 'e2e',
  // Whole games are played by clicking, against bots: minutes, not seconds.
  timeout: 15 * 60_000,
  expect: { timeout: 20_000 },
  // Two cores: the server, its bots and one browser at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // A gone person's seat may be handed to a bot after 2 s (e2e/tables.spec.ts), not 120,
      // and a clock may be seconds long (e2e/clocks.spec.ts), not a minute at least. Bots
      // playing people keep a short pace: each of their moves arrives on its own, as it does
      // for a person, without making long games slow.
      command: `${binary} serve --addr 127.0.0.1:${PORT} --db sqlite://${database} --bot-pace-ms 0 --bot-pace-with-people-ms 50 --hand-over-after-secs 2 --shortest-clock-secs 1`,
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${binary} serve --addr ${new URL(CORRECTED_URL).host} --db sqlite://${join(scratch, 'corrected.db')} --bot-pace-ms 0 --bot-pace-with-people-ms 0 --data valley=${corrected}`,
      url: `${CORRECTED_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
