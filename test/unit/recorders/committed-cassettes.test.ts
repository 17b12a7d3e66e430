import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette, serializeCassette } from '../../../recorders/index.js'

// Every cassette the repository ships (examples/, test/) is the current format, whole, and in the
// writer's own layout, so replay reads it and `auto` appends to it without rewriting it.
const ROOT = resolve(import.meta.dirname, '..', '..', '..')

function cassettesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name.startsWith('.')) return []
    if (statSync(path).isDirectory()) return cassettesUnder(path)
    return name.endsWith('.cassette.jsonl') ? [path] : []
  })
}

describe('committed cassettes', () => {
  const files = ['examples', 'test'].flatMap((dir) => cassettesUnder(join(ROOT, dir)))

  it('exist (the step-map example replays one)', () => {
    expect(files.map((file) => relative(ROOT, file))).toContain('examples/stepmap-repo/cassettes/implement-0.cassette.jsonl')
  })

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s reads whole and is written as the writer writes it', (_name, file) => {
    const cassette = readCassette(file)
    expect(cassette.interactions.length).toBeGreaterThan(0)
    expect(serializeCassette(cassette)).toBe(readFileSync(file, 'utf8'))
  })
})
