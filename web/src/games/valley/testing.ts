// Test helpers: every valley position the tests know — the shared fixtures
// (web/fixtures/valley-*.json) and this module's generated positions — typed as the
// server sends them.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Action } from '../../generated/valley/Action'
import type { Event } from '../../generated/valley/Event'
import type { View } from '../../generated/valley/View'
import type { Fixture } from '../fixture'

export type Position = Fixture<View, Action, Event>

const here = dirname(fileURLToPath(import.meta.url))
const fixtures = join(here, '../../../fixtures')

export function fixturePositions(): Position[] {
  return readdirSync(fixtures)
    .filter((f) => /^valley-.*\.json$/.test(f))
    .sort()
    .map((f) => ({ ...(JSON.parse(readFileSync(join(fixtures, f), 'utf8')) as Position), name: f }))
}

export function generatedPositions(): Position[] {
  return JSON.parse(readFileSync(join(here, 'positions.generated.json'), 'utf8')) as Position[]
}

export function allPositions(): Position[] {
  return [...fixturePositions(), ...generatedPositions()]
}

/** A key of a catalogue message that leaked into a sentence, or a placeholder left open. */
export function looksRaw(text: string): boolean {
  return (
    text.trim() === '' ||
    /\{\{|\}\}/.test(text) ||
    /\bvalley:/.test(text) ||
    /\b(event|action|text|ui|prompt|card|set|slot|kind|category|field)\.[a-z_]+/.test(text)
  )
}
