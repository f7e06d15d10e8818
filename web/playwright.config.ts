// Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium; scripts/web-setup
// --browser installs it) against a real `tabletop serve` on a loopback port with a fresh
// SQLite file. TABLETOP_BIN picks the server binary (scripts/test passes the one its cargo
// test built).
import { defineConfig } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const port = Number(process.env.E2E_PORT ?? 18765)
const binary = process.env.TABLETOP_BIN ?? '../target/release/tabletop'
const database = join(mkdtempSync(join(tmpdir(), 'tabletop-e2e-')), 'e2e.db')

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
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `${binary} serve --addr 127.0.0.1:${port} --db sqlite://${database} --bot-pace-ms 0`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
