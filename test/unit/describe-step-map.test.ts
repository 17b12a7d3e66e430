import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { validateEvidenceText } from '../../src/evidence/intake.js'

// describeStepMap driven for real: the fixture suite in test/fixtures/stepmap-suite/ runs in a child
// `vitest` with the JSON reporter, and its tests are read back by title.
const ROOT = resolve(import.meta.dirname, '..', '..')
const CONFIG = join(ROOT, 'test', 'fixtures', 'stepmap-suite', 'vitest.config.ts')
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

interface Assertion {
  ancestorTitles: string[]
  title: string
  status: string
  failureMessages: string[]
  meta?: { vitestHarness?: { step?: { status: string; evidence: string[]; attempts: number } } }
}

let runDirectory = ''
let tests: Assertion[] = []
let example: Assertion[] = []

beforeAll(async () => {
  runDirectory = mkdtempSync(join(tmpdir(), 'vh-stepmap-run-'))
  const output = join(runDirectory, 'report.json')
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
  try {
    await promisify(execFile)(process.execPath, [VITEST, 'run', '--config', CONFIG, '--reporter=json', `--outputFile=${output}`], { cwd: ROOT, env: { ...clean, VH_STEPMAP_RUN: runDirectory }, maxBuffer: 32 * 1024 * 1024 })
  } catch (error) {
    // The suite fails on purpose (a red verifier, a dead one).
    if (typeof (error as { code?: unknown }).code !== 'number') throw error
  }
  const report = JSON.parse(readFileSync(output, 'utf8')) as { testResults: { name: string; assertionResults: Assertion[] }[] }
  tests = report.testResults.filter((file) => file.name.endsWith('steps.test.ts')).flatMap((file) => file.assertionResults)
  example = report.testResults.filter((file) => file.name.endsWith('example-broken.test.ts')).flatMap((file) => file.assertionResults)
}, 120_000)

function find(title: string): Assertion {
  const found = tests.find((test) => test.title.includes(title))
  if (!found) throw new Error(`no test titled ${title}: ${tests.map((test) => test.title).join(' | ')}`)
  return found
}

describe('describeStepMap', () => {
  it('is one describe per state in workflow order, one test per step', () => {
    expect(tests.map((test) => [test.ancestorTitles.slice(1).join(' > '), test.title.split(' — ')[0]])).toEqual([
      ['build', '0: command'],
      ['build', '1: command'],
      ['build', '2: operator'],
      ['check', '0: command'],
      ['check', '1: command'],
      ['check', '2: command'],
    ])
    expect(tests[0]?.ancestorTitles[0]).toBe('step map fixture/suite (demo/flow/1)')
  })

  it('passes a green verifier and mints its test_result into the run directory', () => {
    expect(find('the suite is green').status).toBe('passed')
    const record = readFileSync(join(runDirectory, 'evidence', 'build-0-1.yaml'), 'utf8')
    expect(validateEvidenceText(record, { now: Date.now() }).accepted).toEqual([1])
  })

  it('fails a red verifier with the command’s output, and still mints the failing record', () => {
    const red = find('the suite is red')
    expect(red.status).toBe('failed')
    expect(red.failureMessages.join('\n')).toContain('not ok 2 subtracts: expected 2, got 3')
    expect(red.failureMessages.join('\n')).toContain('the verifier said no')
    expect(readFileSync(join(runDirectory, 'evidence', 'build-1-1.yaml'), 'utf8')).toContain('failed: 1')
  })

  it('makes an operator step a todo carrying its prompt', () => {
    const operator = find('approve the change')
    expect(operator.status).toBe('todo')
    expect(operator.title).toContain('a person is owed: Read the diff and approve it.')
  })

  it('passes a step whose verifier wrote a valid record, and records what it left in task meta', () => {
    const trace = find('the trace check')
    expect(trace.status).toBe('passed')
    expect(trace.meta?.vitestHarness?.step).toMatchObject({ status: 'passed', evidence: [join(runDirectory, 'trace.yaml')], attempts: 1 })
  })

  it('fails a verifier that never produced a verdict after its retries, and skips what the stopped run never attempted', () => {
    const dead = find('a verifier that dies')
    expect(dead.status).toBe('failed')
    expect(dead.failureMessages.join('\n')).toContain('no verdict after 2 attempt(s) (retry budget 1)')
    expect(readFileSync(join(runDirectory, 'count.txt'), 'utf8')).toBe('attempt\nattempt\n')
    expect(find('never attempted').status).toBe('skipped')
  })
})

describe('describeStepMap on the example’s map, with a wrong module', () => {
  it('fails the unit suite’s step with node --test’s own output, and still mints the failing test_result', () => {
    const suite = example.find((test) => test.title.startsWith('0: command — The unit suite'))
    expect(suite?.status).toBe('failed')
    const message = suite?.failureMessages.join('\n') ?? ''
    expect(message).toContain('the verifier said no: `node --test test/` exited 1')
    expect(message).toMatch(/not ok \d+ - adds two numbers/)
    const record = readFileSync(join(runDirectory, 'broken-run', 'evidence', 'verify-0-1.yaml'), 'utf8')
    expect(record).toContain('failed: 1')
    expect(validateEvidenceText(record, { now: Date.now() }).accepted).toEqual([1])
    expect(example.find((test) => test.title.includes('Look at the change'))?.status).toBe('todo')
  })
})
