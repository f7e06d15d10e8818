// What the engine and the server define reaches the client generated (src/generated/: ts-rs
// types, the component tables as JSON, constants.ts), never parsed again or copied by hand:
// this fails when a TOML parser, a read of a data file or a copy of a generated constant
// comes back into the client's sources.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const SRC = fileURLToPath(new URL('..', import.meta.url))
const GENERATED = join(SRC, 'generated')
const PACKAGE = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>

/** Every source file of the client outside src/generated, with its text. */
function sources(dir = SRC): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (path === GENERATED) return []
    if (statSync(path).isDirectory()) return sources(path)
    if (!/\.(ts|svelte|js|mjs)$/.test(name) || path === fileURLToPath(import.meta.url)) return []
    return [{ path: relative(SRC, path), text: readFileSync(path, 'utf8') }]
  })
}

/** The constants of src/generated/constants.ts: each name with the text of its value. */
function generatedConstants(): { name: string; value: string }[] {
  const text = readFileSync(join(GENERATED, 'constants.ts'), 'utf8')
  return [...text.matchAll(/^export const (\w+)(?::[^=]+)? = ([^\n]+(?:\n(?: {2}[^\n]*))*)/gm)].map((m) => ({
    name: m[1],
    value: m[2],
  }))
}

describe('the client takes what Rust defines from src/generated', () => {
  const files = sources()

  test('it has no TOML parser and reads no data file', () => {
    for (const deps of [PACKAGE.dependencies, PACKAGE.devDependencies]) expect(Object.keys(deps ?? {})).not.toContain('smol-toml')
    for (const { path, text } of files) {
      // The code without its comments, which may name a data file.
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
      expect(code, path).not.toMatch(/from ['"](smol-toml|@iarna\/toml|toml)['"]/)
      expect(code, path).not.toMatch(/data\/\w+\.toml/)
    }
  })

  test('no generated constant is declared again or its value copied', () => {
    const constants = generatedConstants()
    expect(constants.map((c) => c.name)).toContain('MAX_CHAT_CHARS')
    for (const { name, value } of constants) {
      const declared = new RegExp(`\\b(const|let|var)\\s+${name}\\b`)
      // A list's items as written in the client's style ('gold', 'ruby', …).
      const items = /^\[(.+)\]$/.exec(value.trim())?.[1]
      for (const { path, text } of files) {
        expect(text, `${path} declares ${name}`).not.toMatch(declared)
        if (items) expect(text.includes(items), `${path} copies ${name}`).toBe(false)
      }
    }
  })
})
