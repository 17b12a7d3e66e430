import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, result, start } from '../helpers/trace.js'

// `vitest-harness check … | head -c1`: the reader leaves after one byte. The exit code must still
// be the verdict's (0 conformant, 1 gap, 3 unknown) — never 1 from a stack trace on EPIPE.
const ROOT = resolve(import.meta.dirname, '..', '..')
const ENTRY = join(ROOT, 'test', 'fixtures', 'commands', 'vitest-harness-from-source.ts')
// Named by URL: the children run in a folder outside the project, where `tsx` would not resolve.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href

let dir = ''

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-epipe-'))
  // Enough rows that the report is far larger than a pipe's buffer: it is written after the reader left.
  const rows = Array.from({ length: 1500 }, (_, index) => `  - id: ran-the-suite-${String(index).padStart(4, '0')}\n    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}\n`)
  writeFileSync(join(dir, 'spec.yaml'), `format: trace-spec/1\nid: cli/epipe\nexpectations:\n${rows.join('')}`)
  writeFileSync(join(dir, 'gap-spec.yaml'), `format: trace-spec/1\nid: cli/epipe-gap\nexpectations:\n${rows.join('').replace('tool.called: {tool: Bash', 'tool.absent: {tool: Bash')}`)
  writeFileSync(join(dir, 'absent-spec.yaml'), `format: trace-spec/1\nid: cli/epipe-absent\nexpectations:\n${rows.join('').replaceAll('tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}', 'tool.absent: {tool: Edit}')}`)
  writeFileSync(join(dir, 'ok.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), ended(), closed(4)]))
  writeFileSync(join(dir, 'open.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1')]))
}, 30_000)

interface PipedRun {
  code: number | null
  signal: NodeJS.Signals | null
  read: number
  stderr: string
}

/** Spawns the CLI with a reader that closes its end after `keep` bytes (0: before anything arrives). */
function runIntoClosingReader(argv: string[], keep: number): Promise<PipedRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', TSX, ENTRY, ...argv], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } })
    let read = 0
    let stderr = ''
    if (keep === 0) child.stdout.destroy()
    else
      child.stdout.on('data', (chunk: Buffer) => {
        read += Math.min(chunk.length, keep - read)
        if (read >= keep) child.stdout.destroy()
      })
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
    child.on('error', fail)
    child.on('close', (code, signal) => done({ code, signal, read, stderr }))
  })
}

describe('a stdout whose reader leaves early', () => {
  it.each([
    ['a conformant run', 'spec.yaml', 'ok.jsonl', 0],
    ['a run with a gap', 'gap-spec.yaml', 'ok.jsonl', 1],
    ['an undecided run', 'absent-spec.yaml', 'open.jsonl', 3],
  ])('check on %s exits with the verdict’s code and prints no stack (head -c1)', async (_, spec, transcript, verdict) => {
    const run = await runIntoClosingReader(['check', '--spec', spec, '--transcript', transcript], 1)
    expect(run.read).toBe(1)
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: verdict, signal: null, stderr: '' })
  }, 60_000)

  it('check exits 0 on a conformant run when the reader is gone before the first byte', async () => {
    const run = await runIntoClosingReader(['check', '--spec', 'spec.yaml', '--transcript', 'ok.jsonl', '--format', 'json'], 0)
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: 0, signal: null, stderr: '' })
  }, 60_000)

  it('inspect exits 0 with no stack', async () => {
    const run = await runIntoClosingReader(['inspect', '--transcript', 'ok.jsonl'], 1)
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  }, 60_000)
})
