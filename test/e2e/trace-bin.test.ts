import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// `check` and `inspect` through the built bin, on the example's own spec and transcript.
const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'vitest-harness.js')
const SPEC = join(ROOT, 'examples', 'trace', 'b10x-fix.trace.yaml')
const TRANSCRIPT = join(ROOT, 'examples', 'trace', 'b10x-fix.jsonl')

const run = (args: string[], input?: string) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', ...(input === undefined ? {} : { input }), maxBuffer: 64 * 1024 * 1024 })

describe('vitest-harness check and inspect, built', () => {
  it('exits 3 when a gating row cannot be decided, and 0 once it is downgraded', () => {
    const undecided = run(['check', '--spec', SPEC, '--transcript', TRANSCRIPT])
    expect(undecided.status).toBe(3)
    expect(undecided.stdout).toContain('unk       thinking-was-billed')
    const downgraded = run(['check', '--spec', SPEC, '--transcript', TRANSCRIPT, '--advisory', 'thinking-was-billed', '--format', 'json'])
    expect(downgraded.status).toBe(0)
    expect(JSON.parse(downgraded.stdout)).toMatchObject({ format: 'trace-report/1', verdict: 'ok', advisory_overrides: ['thinking-was-billed'] })
  })

  it('exits 1 on a gap read from stdin, and 1 (as upstream) with the refused line for a transcript that is not one', () => {
    const edited = run(['check', '--spec', SPEC, '--transcript', '-', '--advisory', 'thinking-was-billed'], readEditedTranscript())
    expect(edited.status).toBe(1)
    expect(edited.stdout).toContain('gap       left-the-tests-alone')
    const refused = run(['check', '--spec', SPEC, '--transcript', '-'], 'not a transcript\n')
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/^error: - is not a transcript this build can read as claude-code\/stream-json — 1 refusal\(s\):\nTRACE-ADAPT-001 at line\[1\]: line 1 is not JSON: .+\n$/)
  })

  it('prints the census and exits 0', () => {
    const census = run(['inspect', '--transcript', TRANSCRIPT])
    expect(census.status).toBe(0)
    expect(census.stdout).toContain('tool         run: 2 call(s), 1 error(s)')
    expect(census.stdout).toContain('closure      closed by stream.closed (completed)')
  })
})

/** The example run, with the fix edited into a test file instead: `left-the-tests-alone` gaps. */
function readEditedTranscript(): string {
  return readFileSync(TRANSCRIPT, 'utf8').replace('"subjects":["file:src/slugify.ts"]', '"subjects":["file:tests/slugify.test.ts"]')
}
