import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { B10X_CONTRACT_VECTORS } from '../helpers/vectors.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'vitest-harness.js')
const GOLDEN = join(ROOT, 'vectors', 'b10x', 'golden-loop-record')

describe('the built bin', () => {
  it('answers --help and --version', () => {
    expect(execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' })).toContain('usage: vitest-harness <command>')
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(execFileSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' })).toBe(`vitest-harness ${version.version}\n`)
  })

  it('replays a vector byte for byte and exits 0', () => {
    const run = spawnSync(process.execPath, [BIN, 'replay', '--vector', GOLDEN], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'))
  })

  it('reads a large record from stdin and keeps every line', () => {
    const lines = Array.from({ length: 50_000 }, (_, index) => `{"kind":"text-delta","text":"line ${index}"}`)
    const run = spawnSync(process.execPath, [BIN, 'replay', '--adapter', 'b10x', '--run', 'big', '-'], {
      input: `${lines.join('\n')}\n`,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
    expect(run.status).toBe(0)
    const out = run.stdout.trimEnd().split('\n')
    expect(out).toHaveLength(50_000)
    expect(JSON.parse(out[49_999] as string)).toMatchObject({ seq: 50_000, text: 'line 49999' })
  })

  it('prints the b10x contract_result line and exits 0', () => {
    const run = spawnSync(process.execPath, [BIN, 'contract', 'b10x', '--contract', ...B10X_CONTRACT_VECTORS.flatMap((id) => ['--only', id])], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n')
  })

  it('drives the scripted fake vendor through every C3 vector', () => {
    const run = spawnSync(process.execPath, [BIN, 'contract', 'scripted'], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^\d+ vectors, 0 failed — no model, no network, no credential$/m)
  })

  it('exits 2 with `error: …` on stderr for unreadable input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-bin-'))
    writeFileSync(join(dir, 'unreadable.jsonl'), '')
    const run = spawnSync(process.execPath, [BIN, 'replay', '--adapter', 'b10x', join(dir, 'missing.jsonl')], { encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_INPUT_MISSING at .*missing\.jsonl: cannot read the record: no such file\n$/)
  })

  it('keeps the verdict’s exit code when stdout’s reader leaves early (`check … | head -c1`)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-bin-epipe-'))
    // Far more report than a pipe holds, so most of it is written after `head` has gone.
    const rows = Array.from({ length: 1500 }, (_, index) => `  - id: read-${index}\n    expect: {tool.called: {tool: file_read}}\n`).join('')
    writeFileSync(join(dir, 'spec.yaml'), `format: trace-spec/1\nid: bin/epipe\nexpectations:\n${rows}`)
    writeFileSync(join(dir, 'gap.yaml'), `format: trace-spec/1\nid: bin/epipe-gap\nexpectations:\n${rows.replaceAll('tool.called', 'tool.absent')}`)
    const transcript = join(GOLDEN, 'loop.expected.jsonl')
    const piped = (spec: string) => spawnSync('bash', ['-c', 'set -o pipefail; "$0" "$1" check --spec "$2" --transcript "$3" | head -c1 >/dev/null', process.execPath, BIN, spec, transcript], { encoding: 'utf8' })
    expect(piped(join(dir, 'spec.yaml'))).toMatchObject({ status: 0, stderr: '' })
    expect(piped(join(dir, 'gap.yaml'))).toMatchObject({ status: 1, stderr: '' })
  })
})
