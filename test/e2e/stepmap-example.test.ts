import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { CODEX, ensureHarness } from './harness-install.js'

// The step-map example with the real Codex: examples/stepmap.test.ts run in a child `vitest` (the
// examples' own config, the built package) with Codex installed, so its implement state runs the
// harness on the committed cassette and checks the session's transcript. Then the built CLI's
// `evidence validate` reads every document the run left. (The example's map with a failing
// verifier is in test/unit/describe-step-map.test.ts: it needs no harness.)
const ROOT = resolve(import.meta.dirname, '..', '..')
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const BIN = join(ROOT, 'bin', 'vitest-harness.js')

interface Assertion {
  ancestorTitles: string[]
  title: string
  status: string
  failureMessages: string[]
}

async function runExample(out: string): Promise<Assertion[]> {
  const report = join(out, 'report.json')
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
  try {
    await promisify(execFile)(process.execPath, [VITEST, 'run', '--config', 'examples/vitest.config.ts', 'examples/stepmap.test.ts', '--reporter=json', `--outputFile=${report}`], {
      cwd: ROOT,
      env: { ...clean, VITEST_HARNESS_DEMO_OUT: out, VITEST_HARNESS_REQUIRE_HARNESS: '1' },
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    if (typeof (error as { code?: unknown }).code !== 'number') throw error
  }
  return (JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] }).testResults.flatMap((module) => module.assertionResults)
}

let out = ''
let tests: Assertion[] = []

beforeAll(async () => {
  ensureHarness(CODEX)
  out = mkdtempSync(join(tmpdir(), 'vh-stepmap-example-'))
  tests = await runExample(out)
}, 600_000)

describe('the step-map example, with the real Codex', () => {
  it('runs every step: Codex on the replayed cassette, the trace check of its transcript, the unit suite', () => {
    expect(tests.map((test) => [test.ancestorTitles.slice(1).join(' > '), test.title.split(' — ')[0], test.status])).toEqual([
      ['implement', '0: llm', 'passed'],
      ['implement', '1: command', 'passed'],
      ['verify', '0: command', 'passed'],
      ['verify', '1: operator', 'todo'],
      ['', 'holds evidence documents the AEP engine accepts', 'passed'],
    ])
  })

  it('leaves the transcript, the step context, and evidence documents the built CLI accepts', async () => {
    const run = join(out, 'stepmap', 'run')
    // Only the run's products: the harness's scratch home and the example's bin live under the OS temp dir.
    expect(readdirSync(join(out, 'stepmap')).sort()).toEqual(['repo', 'run'])
    expect(readdirSync(run).sort()).toEqual(['evidence', 'step-context.json', 'trace-implement.yaml', 'transcripts'])
    expect(readdirSync(join(run, 'transcripts'))).toEqual(['implement-0-1.jsonl'])
    expect(JSON.parse(readFileSync(join(run, 'step-context.json'), 'utf8'))).toMatchObject({ format: 'aep.drive-step-context/1', state: 'implement', step_index: 0, attempt: 1 })
    const trace = readFileSync(join(run, 'trace-implement.yaml'), 'utf8')
    expect(trace).toContain('kind: trace_conformance')
    expect(trace).toContain('status: passed')
    const documents = [join(run, 'trace-implement.yaml'), ...readdirSync(join(run, 'evidence')).map((name) => join(run, 'evidence', name))]
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'evidence', 'validate', ...documents], { cwd: ROOT })
    expect(stdout.trim().split('\n')).toEqual(documents.map((document) => `${document}: 1 record — 1 accepted, 0 refused`))
  })
})
