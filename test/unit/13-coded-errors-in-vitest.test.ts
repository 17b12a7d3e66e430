import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO, repoImport } from '../helpers/run-suite.js'
import { call, closed, ended, metaharness, result, start } from '../helpers/trace.js'

// Issue 13 item 8: inside Vitest, a missing or unreadable input reads as the CLI's refusal — a
// code, the file, a sentence — and Vitest prints no stack frames into the package under it. Each
// case is a file of a fixture project run by a real `vitest` child under the plugin; what is
// asserted is what that run printed.

const SPEC = `{ id: 'errors/x', expectations: [{ id: 'ran', expect: { 'tool.called': { tool: 'Bash' } } }] }`
const HEAD = `
import { fileURLToPath } from 'node:url'
const here = (name) => fileURLToPath(new URL(name, import.meta.url))
`
const FILES: Record<string, string> = {
  'spec-missing.test.ts': `${HEAD}import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
describeTraceSpec(here('absent.trace.yaml'), here('run.jsonl'))
`,
  'spec-folder.test.ts': `${HEAD}import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
describeTraceSpec(here('a-folder'), here('run.jsonl'))
`,
  'transcript-missing.test.ts': `${HEAD}import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
import { spec } from ${repoImport('src', 'trace', 'spec', 'builder.ts')}
describeTraceSpec(spec(${SPEC}), here('absent.jsonl'), { name: 'missing transcript' })
`,
  'matcher-missing.test.ts': `${HEAD}import { expect, test } from 'vitest'
import { spec } from ${repoImport('src', 'trace', 'spec', 'builder.ts')}
test('matcher on a missing transcript', () => { expect(here('absent.jsonl')).toSatisfyTraceSpec(spec(${SPEC})) })
`,
  'fleet-empty.test.ts': `${HEAD}import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
import { spec } from ${repoImport('src', 'trace', 'spec', 'builder.ts')}
describeTraceSpec(spec(${SPEC}), { glob: here('runs-*.jsonl') })
`,
  'inline-refused.test.ts': `${HEAD}import { expect, test } from 'vitest'
test('an inline expectation with a misspelt kind', () => { expect(here('run.jsonl')).toSatisfyExpectation({ 'tool.caled': { tool: 'Bash' } }) })
`,
  'cassette-missing.test.ts': `import { test } from ${repoImport('src', 'public', 'setup.ts')}
test('replays a cassette nobody recorded', async ({ provider }) => { await fetch(provider.baseUrl) })
`,
  'gap.test.ts': `${HEAD}import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
import { spec } from ${repoImport('src', 'trace', 'spec', 'builder.ts')}
describeTraceSpec(spec({ id: 'errors/gap', expectations: [{ id: 'no-bash', expect: { 'tool.absent': { tool: 'Bash' } } }] }), here('run.jsonl'))
`,
  'stepmap-missing.test.ts': `${HEAD}import { describeStepMap } from ${repoImport('src', 'vitest', 'describe-step-map.ts')}
describeStepMap(here('absent.steps.yaml'), { workflow: here('absent.workflow.yaml'), runDirectory: here('run') })
`,
}

let output = ''
let root = ''

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vh-coded-errors-'))
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(root, name), text)
  mkdirSync(join(root, 'a-folder'))
  writeFileSync(join(root, 'run.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), ended(), closed(4)]))
  writeFileSync(
    join(root, 'vitest.config.ts'),
    `import { harness } from ${repoImport('src', 'vitest', 'plugin.ts')}\nexport default { plugins: [harness({ provider: { mode: 'replay' } })], test: { include: ['*.test.ts'] } }\n`,
  )
  // The child must not believe it is one of this run's workers, nor run under CI's rules.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST' && key !== 'CI'))
  const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', root], { cwd: root, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8' })
  output = `${run.stdout}\n${run.stderr}`
  expect(run.status, output).toBe(1)
}, 120_000)

/** The block Vitest printed for one failure: from its FAIL header to the next separator. */
function failure(header: string): string {
  const start = output.indexOf(` FAIL  ${header}`)
  expect(start, `no failure "${header}" in:\n${output}`).toBeGreaterThanOrEqual(0)
  const end = output.indexOf('⎯⎯⎯', start)
  return output.slice(start, end < 0 ? undefined : end)
}

describe('a refused input inside Vitest', () => {
  it.each([
    ['spec-missing.test.ts [ spec-missing.test.ts ]', 'InputError: VH_INPUT_MISSING at {root}/absent.trace.yaml: cannot read the specification: no such file'],
    ['spec-folder.test.ts [ spec-folder.test.ts ]', 'InputError: VH_INPUT_NOT_A_FILE at {root}/a-folder: cannot read the specification: it is a directory, not a file'],
    ['transcript-missing.test.ts > missing transcript > ran', 'TranscriptError: VH_TRANSCRIPT_MISSING at {root}/absent.jsonl: cannot read the transcript: no such file or directory'],
    ['matcher-missing.test.ts > matcher on a missing transcript', 'TranscriptError: VH_TRANSCRIPT_MISSING at {root}/absent.jsonl: cannot read the transcript: no such file or directory'],
    ['stepmap-missing.test.ts [ stepmap-missing.test.ts ]', 'VH_INPUT_MISSING at {root}/absent.steps.yaml: cannot read the step map'],
    ['cassette-missing.test.ts > replays a cassette nobody recorded', 'ProviderControlError: [vitest-harness] VH_CASSETTE_MISSING: the cassette '],
    ['fleet-empty.test.ts [ fleet-empty.test.ts ]', 'TranscriptError: VH_FLEET_EMPTY at {root}/runs-*.jsonl: names no transcript: no file matches it'],
    ['inline-refused.test.ts > an inline expectation with a misspelt kind', 'TraceSpecError: the inline expectation is not a trace-spec/1 specification — 1 refusal(s):\nTRACE-SPEC-002 at document: unknown variant `tool.caled` (did you mean `tool.called`?)'],
  ])('%s: code, path and sentence, and no stack frame into the package', (header, line) => {
    const block = failure(header)
    expect(block).toContain(line.replaceAll('{root}', root))
    // Vitest prints each frame as `❯ <file>:<line>:<column>`; none may point into the package's code.
    expect(block).not.toMatch(/❯ .*(\/src\/|\/dist\/|\/matchers\/|\/recorders\/)/)
    expect(block).not.toContain('ENOENT')
  })

  it('a gap is a verdict, printed as its row with no stack frame into the package either', () => {
    const block = failure('gap.test.ts > errors/gap against run.jsonl > no-bash')
    expect(block).toContain('TraceExpectationError: gap no-bash (tool.absent)')
    expect(block).not.toMatch(/❯ .*(\/src\/|\/dist\/|\/matchers\/)/)
  })

  it('names the cassette file it looked for', () => {
    expect(failure('cassette-missing.test.ts > replays a cassette nobody recorded')).toMatch(new RegExp(`the cassette ${root}/test/cassettes/cassette-missing\\.test/replays-a-cassette-nobody-recorded-[0-9a-f]{10}\\.cassette\\.jsonl does not exist`))
  })
})
