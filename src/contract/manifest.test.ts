import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadVectorManifest, vectorFile, VectorManifestError } from './manifest.js'

// A vector is data a contributor sends: its manifest names files the contract reads and quotes,
// so it may name only files inside its own folder.
function vectorFolder(record: string, events = 'loop.expected.jsonl'): string {
  const root = mkdtempSync(join(tmpdir(), 'vh-manifest-'))
  const dir = join(root, 'b10x', 'escape')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(root, 'outside.jsonl'), '{"secret":true}\n')
  writeFileSync(join(dir, 'loop.jsonl'), '')
  writeFileSync(join(dir, 'loop.expected.jsonl'), '')
  writeFileSync(
    join(dir, 'vector.yaml'),
    `id: escape\ntier: c2\nkind: replay\nadapter: b10x\nprovenance: synthetic\ninputs:\n  record: ${JSON.stringify(record)}\n  seam: {run: golden}\nexpected:\n  events: ${JSON.stringify(events)}\n`,
  )
  return dir
}

function refusal(load: () => unknown): VectorManifestError {
  try {
    load()
  } catch (error) {
    if (error instanceof VectorManifestError) return error
    throw error
  }
  throw new Error('the manifest was accepted')
}

describe('vector manifest paths', () => {
  it('accepts a file inside the folder', () => {
    const dir = vectorFolder('loop.jsonl')
    expect(vectorFile(loadVectorManifest(dir), 'loop.jsonl')).toBe(join(dir, 'loop.jsonl'))
  })

  it.each([
    ['a climb out with ..', '../../../../etc/passwd', 'inputs.record', /climbs out/],
    ['a climb hidden in the middle', 'sub/../../outside.jsonl', 'inputs.record', /climbs out/],
    ['an absolute path', '/etc/passwd', 'inputs.record', /absolute path/],
  ])('refuses %s, naming the manifest and the key', (_, record, key, reason) => {
    const dir = vectorFolder(record)
    const error = refusal(() => loadVectorManifest(dir))
    expect({ code: error.code, file: error.file, path: error.path }).toEqual({ code: 'VH_VECTOR_PATH', file: join(dir, 'vector.yaml'), path: key })
    expect(error.message).toMatch(reason)
  })

  it('refuses a symlink that leads outside the folder, by the key that names it', () => {
    const dir = vectorFolder('loop.jsonl', 'linked.jsonl')
    symlinkSync(join(dir, '..', '..', 'outside.jsonl'), join(dir, 'linked.jsonl'))
    const error = refusal(() => loadVectorManifest(dir))
    expect({ code: error.code, path: error.path }).toEqual({ code: 'VH_VECTOR_PATH', path: 'expected.events' })
    expect(error.message).toMatch(/is a symlink to .*outside\.jsonl, outside the vector's folder/)
  })

  it('accepts a symlink that stays inside the folder', () => {
    const dir = vectorFolder('alias.jsonl')
    symlinkSync('loop.jsonl', join(dir, 'alias.jsonl'))
    expect(loadVectorManifest(dir).kind).toBe('replay')
  })

  it('refuses the same escape when a caller asks vectorFile directly', () => {
    const vector = loadVectorManifest(vectorFolder('loop.jsonl'))
    expect(refusal(() => vectorFile(vector, '../../outside.jsonl')).code).toBe('VH_VECTOR_PATH')
  })
})
