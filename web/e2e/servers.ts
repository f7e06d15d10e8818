// The servers the browser tests run against; playwright.config.ts starts both.
import { readFileSync } from 'node:fs'

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
