import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { repoImport, runFixtureSuite, type ReportedTest } from '../helpers/run-suite.js'
import { tree } from '../helpers/tree.js'
import { B10X_CONTRACT_VECTORS as SEVEN, copyVectors } from '../helpers/vectors.js'

// Generated suites run in-process through Vitest's node API over a temporary fixture tree, and
// the assertions read the test states a reporter would see.

const DESCRIBE_HARNESS = repoImport('src', 'contract', 'describe-harness.ts')

// Folders and files are named relative to the fixture file itself.
function suiteFile(body: string): string {
  return [
    "import { fileURLToPath } from 'node:url'",
    "import { expect, it } from 'vitest'",
    `import { describeHarness } from ${DESCRIBE_HARNESS}`,
    'const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))',
    body,
    '',
  ].join('\n')
}

let root = ''
let tests: Map<string, ReportedTest>
let mutatedLine = 0

function test(name: string): ReportedTest {
  const found = tests.get(name)
  if (!found) throw new Error(`no test named ${JSON.stringify(name)}; the run has ${[...tests.keys()].join('\n')}`)
  return found
}

beforeAll(async () => {
  root = tree({
    'pristine.test.ts': suiteFile(
      `describeHarness('b10x', { name: 'pristine', vectors: here('pristine'), only: ${JSON.stringify(SEVEN)}, contractResultFile: here('out/pristine.json') })`,
    ),
    'mutated.test.ts': suiteFile(
      `describeHarness('b10x', { name: 'mutated', vectors: here('mutated'), only: ${JSON.stringify(SEVEN)}, contractResultFile: here('out/mutated.json') })`,
    ),
    'off-pin.test.ts': suiteFile(`describeHarness('b10x', { name: 'off-pin', vectors: here('off-pin'), only: ${JSON.stringify(SEVEN)} }, ({ check }) => {
  it('a test of my own, inside the same suite', async () => {
    expect((await check('golden-loop-record')).outcome.passed).toBe(true)
  })
})`),
    'missing-row.test.ts': suiteFile(`describeHarness('b10x', {
  name: 'missing-row',
  vectors: here('pristine'),
  only: ${JSON.stringify(SEVEN)},
  obligations: {
    launch: { filled: ['c1-observe-launch', 'c1-never-written'] },
    recordedWire: { filled: ['golden-loop-record'] },
    hookInput: { gap: '' },
    versionPair: { filled: ['c1-observe-launch'] },
  },
})`),
    'scripted.test.ts': suiteFile(`describeHarness('scripted', { name: 'scripted' })`),
  })
  copyVectors('b10x', SEVEN, join(root, 'pristine'))
  const mutated = copyVectors('b10x', SEVEN, join(root, 'mutated'))
  const offPin = copyVectors('b10x', SEVEN, join(root, 'off-pin'))
  writeFileSync(join(offPin, 'golden-version-pair', 'version.txt'), 'b10x-harness 0.9.1\n')
  // One byte of one expected file: the call id of the tool.result line, `call_vh_040` → `call_vh_041`.
  const expected = join(mutated, 'provider-emulated-budget-stop', 'loop.expected.jsonl')
  const lines = readFileSync(expected, 'utf8').split('\n')
  mutatedLine = lines.findIndex((line) => line.includes('"event":"tool.result"')) + 1
  expect(mutatedLine).toBeGreaterThan(0)
  lines[mutatedLine - 1] = (lines[mutatedLine - 1] as string).replace('call_vh_040', 'call_vh_041')
  writeFileSync(expected, lines.join('\n'))
  tests = await runFixtureSuite(root)
}, 120_000)

describe('describeHarness over the b10x vectors', () => {
  it('builds one passing test per vector, grouped by tier', () => {
    expect([...tests.keys()].filter((name) => name.startsWith('pristine > C'))).toEqual([
      'pristine > C1 launch > c1-observe-launch',
      'pristine > C2 replay > golden-loop-record',
      'pristine > C2 replay > provider-emulated-unpublished-tool',
      'pristine > C2 replay > provider-emulated-approval-denied',
      'pristine > C2 replay > provider-emulated-budget-stop',
      'pristine > C2 replay > provider-emulated-cancellation',
      'pristine > C2 version pair > golden-version-pair',
    ])
    for (const [name, reported] of tests) if (name.startsWith('pristine > ')) expect(reported.state, name).toMatch(/passed|skipped/)
  })

  it("attaches each vector's outcome to the task meta for the evidence reporter", () => {
    expect(test('pristine > C1 launch > c1-observe-launch').meta).toEqual({
      vitestHarness: {
        vector: {
          contract: expect.stringMatching(/^pristine · .*pristine$/),
          adapter: 'b10x',
          provider: 'b10x 0.12.1',
          vectorIds: SEVEN,
          outcome: { id: 'c1-observe-launch', tier: 'c1', passed: true, detail: '' },
          observedAt: expect.any(Number),
        },
      },
    })
    expect(test('pristine > checklist > at least one launch vector').meta).toEqual({})
  })

  it('writes the contract_result line once every vector has run', () => {
    expect(readFileSync(join(root, 'out', 'pristine.json'), 'utf8')).toBe(
      '{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
    )
  })

  it('shows the hook-input gap as a skipped test carrying its reason, never a pass', () => {
    const row = test('pristine > checklist > a recorded hook-input vector')
    expect(row.state).toBe('skipped')
    expect(row.note).toBe(
      "gap: not applicable: b10x is an observe-only direct-provider adapter and has no hook or decision seam; inventing hook input would contradict the adapter's boundary",
    )
  })

  it('tests every command the declaration refuses', () => {
    expect(test('pristine > capabilities > refuses tool.decide with UNSUPPORTED_CONTROL').state).toBe('passed')
    expect(test('pristine > capabilities > the declaration is consistent with itself and its vectors').state).toBe('passed')
    expect(tests.has('pristine > capabilities > refuses halt with UNSUPPORTED_CONTROL')).toBe(false)
  })
})

describe('one mutated byte of an expected file', () => {
  it('fails exactly that vector, with the first-difference detail', () => {
    const vectorTests = [...tests].filter(([name]) => /^mutated > C\d/.test(name))
    expect(vectorTests.filter(([, reported]) => reported.state === 'failed').map(([name]) => name)).toEqual([
      'mutated > C2 replay > provider-emulated-budget-stop',
    ])
    expect(vectorTests.filter(([, reported]) => reported.state === 'passed')).toHaveLength(6)
    const failure = test('mutated > C2 replay > provider-emulated-budget-stop')
    expect(failure.errors).toHaveLength(1)
    expect(failure.errors[0]?.message).toMatch(
      new RegExp(`^FAIL C2 provider-emulated-budget-stop — \\$\\.call_id: expected "call_vh_041", got "call_vh_040" \\(line ${mutatedLine}\\)\nline ${mutatedLine}: expected .*"call_vh_041".*, observed .*"call_vh_040".*$`),
    )
    // The reporter's diff holds both streams, the differing line marked.
    const diff = (failure.errors[0]?.diff ?? '').replace(/\u001b\[\d+m/g, '')
    expect(diff).toContain('- {"format":"metaharness.event/1","seq":3,"run":"golden","event":"tool.result","exit_code":null,"outcome_source":null,"call_id":"call_vh_041"')
    expect(diff).toContain('+ {"format":"metaharness.event/1","seq":3,"run":"golden","event":"tool.result","exit_code":null,"outcome_source":null,"call_id":"call_vh_040"')
    expect(failure.meta.vitestHarness?.vector?.outcome).toMatchObject({ passed: false, detail: expect.stringMatching(new RegExp(`^\\$\\.call_id: expected "call_vh_041", got "call_vh_040" \\(line ${mutatedLine}\\)\nline ${mutatedLine}: `)) })
  })

  it('makes the recorded-wire row unmet and counts the vector as breaking', () => {
    expect(test('mutated > checklist > a recorded transcript/rollout vector').errors[0]?.message).toMatch(
      /^a recorded transcript\/rollout vector: `provider-emulated-budget-stop` failed — \$\.call_id: expected "call_vh_041", got "call_vh_040" \(line \d+\)\nline \d+: /,
    )
    expect(readFileSync(join(root, 'out', 'mutated.json'), 'utf8')).toBe(
      '{"breaking_changes":1,"checked":7,"consumer":"metaharness.event/1","failed":1,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
    )
  })
})

describe('an off-pin banner', () => {
  it('passes with a warning annotation, never a failure', () => {
    const pair = test('off-pin > C2 version pair > golden-version-pair')
    expect(pair.state).toBe('passed')
    expect(pair.annotations.map((annotation) => [annotation.type, annotation.message])).toEqual([
      ['warning', 'warn C2 golden-version-pair — the binary that wrote the recording reported 0.9.1 and the adapter pins 0.12.1'],
    ])
    expect(pair.meta.vitestHarness?.vector?.outcome).toEqual({
      id: 'golden-version-pair',
      tier: 'c2',
      passed: true,
      detail: 'the binary that wrote the recording reported 0.9.1 and the adapter pins 0.12.1',
    })
    expect(test('off-pin > checklist > a golden-version-pair vector').state).toBe('passed')
  })

  it("runs the user's own tests inside the same suite", () => {
    expect(test('off-pin > a test of my own, inside the same suite').state).toBe('passed')
  })
})

describe('a checklist naming a vector that does not exist', () => {
  it('fails that row, naming the vector', () => {
    const row = test('missing-row > checklist > at least one launch vector')
    expect(row.state).toBe('failed')
    expect(row.errors[0]?.message).toBe('at least one launch vector: the declaration names `c1-never-written`, and the run has no such vector')
  })

  it('fails a row filled from the wrong tier and a gap with no reason', () => {
    expect(test('missing-row > checklist > a golden-version-pair vector').errors[0]?.message).toBe(
      'a golden-version-pair vector: `c1-observe-launch` is declared as C2 and the run reports it as C1',
    )
    const gap = test('missing-row > checklist > a recorded hook-input vector')
    expect(gap.state).toBe('failed')
    expect(gap.errors[0]?.message).toBe('a recorded hook-input vector: declared unfilled without saying why')
  })

  it('leaves the vectors themselves passing', () => {
    expect(test('missing-row > C1 launch > c1-observe-launch').state).toBe('passed')
  })
})

describe('describeHarness over the scripted control double', () => {
  it('runs its C3 control vectors and fills every checklist row', () => {
    const c3 = [...tests].filter(([name]) => name.startsWith('scripted > C3 control > '))
    expect(c3.length).toBeGreaterThanOrEqual(12)
    for (const [name, reported] of c3) expect(reported.state, name).toBe('passed')
    for (const owed of ['at least one launch vector', 'a recorded transcript/rollout vector', 'a recorded hook-input vector', 'a golden-version-pair vector']) {
      expect(test(`scripted > checklist > ${owed}`).state).toBe('passed')
    }
    expect(test('scripted > C1 launch > c1-observe-with-a-frame-is-refused').state).toBe('passed')
    expect(test('scripted > capabilities > refuses steer with UNSUPPORTED_CONTROL').state).toBe('passed')
  })

  it('writes no record when none was asked for', () => {
    expect(existsSync(join(root, 'out', 'off-pin.json'))).toBe(false)
  })
})
