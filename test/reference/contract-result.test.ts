import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO, SOURCE_ALIASES, runFixtureSuite, type ReportedTest } from '../helpers/run-suite.js'
import { referenceFile } from './paths.js'

// The example contract, run as `npm run demo` runs it (against this checkout's sources), and its
// contract_result line held against the line `metaharness conformance b10x --contract` printed.
const reference = readFileSync(referenceFile('metaharness', 'contract', 'contract-result-b10x.json'), 'utf8')
let tests: Map<string, ReportedTest>
let line = ''

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'vh-demo-out-'))
  tests = await runFixtureSuite(join(REPO, 'examples'), {
    include: ['b10x.contract.test.ts'],
    env: { VITEST_HARNESS_DEMO_OUT: out },
    alias: SOURCE_ALIASES,
  })
  line = readFileSync(join(out, 'contracts', 'b10x.contract-result.json'), 'utf8')
}, 120_000)

describe('the b10x example contract', () => {
  it('passes: every vector and row passes, and only the reasoned hook-input gap is skipped', () => {
    const states = [...tests].map(([name, test]) => [name, test.state])
    expect(states.filter(([, state]) => state === 'failed')).toEqual([])
    expect(states.filter(([, state]) => state === 'skipped')).toEqual([['b10x contract > checklist > a recorded hook-input vector', 'skipped']])
    expect(states.filter(([name]) => /^b10x contract > C\d/.test(name as string))).toHaveLength(7)
  })

  it('writes a contract_result line shaped exactly as upstream: same keys, same order, compact, one trailing newline', () => {
    expect(line.endsWith('}\n')).toBe(true)
    expect(line.indexOf('\n')).toBe(line.length - 1)
    expect(reference.endsWith('}\n')).toBe(true)
    const ours = JSON.parse(line) as Record<string, unknown>
    const theirs = JSON.parse(reference) as Record<string, unknown>
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    expect(line).toBe(`${JSON.stringify(ours)}\n`)
    for (const key of Object.keys(theirs)) expect(typeof ours[key], key).toBe(typeof theirs[key])
    expect(ours).toEqual({ breaking_changes: 0, checked: 7, consumer: 'metaharness.event/1', failed: 0, kind: 'contract_result', provider: 'b10x 0.12.1' })
  })

  it('is byte-identical to the reference, whose provider string is ours too', () => {
    expect(Buffer.from(line).equals(Buffer.from(reference))).toBe(true)
  })
})
