import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/index.js'
import { normaliseHarnessOptions } from '../../src/vitest/defaults.js'
import { REPO, repoImport } from '../helpers/run-suite.js'

// Issue 13 item 7: `harness({ provider: { scenario } })` records each test's cassette from a
// scenario — no upstream, no network — labelled provider_emulated with the scenario's name, and
// the recording then replays. Run for real: a fixture project under the plugin, in a child `vitest`.

const TEST = `import { expect } from 'vitest'
import { test } from ${repoImport('src', 'public', 'setup.ts')}
test('asks the scripted model', async ({ provider }) => {
  const response = await fetch(provider.baseUrl + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
  expect(await response.text()).toContain('the scripted answer')
})
`

let root = ''

function vitest(mode: string): { status: number | null; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST' && key !== 'CI'))
  const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', root], { cwd: root, env: { ...env, NO_COLOR: '1', VITEST_HARNESS_MODE: mode }, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` }
}

function cassettes(): string[] {
  const dir = join(root, 'test', 'cassettes', 'scripted.test')
  return readdirSync(dir).map((name) => join(dir, name))
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vh-plugin-scenario-'))
  mkdirSync(join(root, 'scenarios'))
  writeFileSync(join(root, 'scenarios', 'hello.yaml'), 'scenario: hello-scripted\nturns:\n  - text: "the scripted answer"\n')
  writeFileSync(join(root, 'scripted.test.ts'), TEST)
  writeFileSync(join(root, 'vitest.config.ts'), `import { harness } from ${repoImport('src', 'vitest', 'plugin.ts')}\nexport default { plugins: [harness({ provider: { scenario: 'scenarios/hello.yaml' } })], test: { include: ['*.test.ts'] } }\n`)
})

describe('harness({ provider: { scenario } })', () => {
  it('records each test’s cassette from the scenario, labelled provider_emulated with its name', () => {
    const recorded = vitest('record')
    expect(recorded.status, recorded.output).toBe(0)
    const [cassette, ...more] = cassettes()
    expect(more).toEqual([])
    const read = readCassette(cassette as string)
    expect(read.provenance).toBe('provider_emulated')
    expect(read.scenario).toBe('hello-scripted')
    expect(read.interactions).toHaveLength(1)
  }, 120_000)

  it('then replays what it recorded', () => {
    const replayed = vitest('replay')
    expect(replayed.status, replayed.output).toBe(0)
    expect(cassettes()).toHaveLength(1)
  }, 120_000)

  it('is an option like the others: a path, checked once', () => {
    expect(normaliseHarnessOptions({ provider: { scenario: 'scenarios/a.yaml' } }).provider).toMatchObject({ scenario: 'scenarios/a.yaml', upstream: null })
    expect(normaliseHarnessOptions({}).provider).toMatchObject({ scenario: null })
    expect(() => normaliseHarnessOptions({ provider: { scenario: '' } })).toThrow('harness({ provider.scenario }) must be a non-empty string; got ""')
  })
})
