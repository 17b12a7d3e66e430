import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { normaliseHarnessOptions } from '../../../src/vitest/defaults.js'
import { harness } from '../../../src/vitest/plugin.js'
import { cassettePathFor } from '../../../src/vitest/fixtures.js'
import { parseScenario, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'
import { SECRETS } from '../../helpers/secrets.js'

// The plugin in a real Vitest run of a user's project (a child process): globalSetup starts the
// provider, the `provider` fixture gives each test a cassette, a miss fails the test.
const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const PROJECT = resolve(import.meta.dirname, 'fixtures', 'plugin-project')
let upstream: Provider

beforeAll(async () => {
  upstream = await startProvider({ scenario: parseScenario({ scenario: 'vendor', turns: [{ text: 'scripted hello' }] }), env: {} })
})
afterAll(() => upstream.close())

interface JsonReport {
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[]
}

// Asynchronous on purpose: the fake upstream lives in this process and must keep answering.
async function runProject(env: Record<string, string>): Promise<{ status: number | null; report: JsonReport | undefined; output: string }> {
  const out = join(scratchDir(), 'report.json')
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', PROJECT, '--reporter=json', `--outputFile=${out}`], {
    cwd: PROJECT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const status = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit))
  return { status, report: existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as JsonReport) : undefined, output }
}

function results(report: JsonReport | undefined): Record<string, { status: string; failureMessages: string[] }> {
  return Object.fromEntries((report?.testResults[0]?.assertionResults ?? []).map((result) => [result.title, result]))
}

// The cassette of `chat > answers from its cassette`, as the fixture names it.
function answers(cassettes: string): string {
  const file = { name: 'provider.spec.ts', filepath: join(PROJECT, 'provider.spec.ts') }
  return cassettePathFor(cassettes, { name: 'answers from its cassette', file, suite: { name: 'chat', file, suite: file as never } })
}

describe('harness() in a Vitest run', () => {
  const cassettes = scratchDir()

  it('records each test into its own cassette', async () => {
    const run = await runProject({ VH_CASSETTES_DIR: cassettes, VH_UPSTREAM: upstream.origin, VITEST_HARNESS_MODE: 'record' })
    expect(run.status, run.output).toBe(0)
    expect(existsSync(answers(cassettes)), run.output).toBe(true)
  }, 60_000)

  it('keeps the key out of the cassette', () => {
    expect(readFileSync(answers(cassettes), 'utf8')).not.toContain(SECRETS.bearer)
  })

  it('replays them, and a request that misses its cassette fails that test with the nearest request and the JSON path', async () => {
    const run = await runProject({ VH_CASSETTES_DIR: cassettes, VH_VARIANT: 'again' })
    expect(run.status).toBe(1)
    const byTitle = results(run.report)
    expect(byTitle['answers from its cassette']?.status).toBe('passed')
    const failed = byTitle['asks something else the second time']
    expect(failed?.status).toBe('failed')
    expect(failed?.failureMessages.join('\n')).toContain('missed the cassette')
    expect(failed?.failureMessages.join('\n')).toContain('the nearest recorded request is interaction 1, which differs at $.messages[0].content: recorded "hello", received "hello again"')
  }, 60_000)

  it('refuses to record when CI is set', async () => {
    const run = await runProject({ VH_CASSETTES_DIR: cassettes, VH_UPSTREAM: upstream.origin, VITEST_HARNESS_MODE: 'record', CI: 'true' })
    expect(run.status).not.toBe(0)
    expect(run.output).toContain('mode record is refused because CI is set')
  }, 60_000)
})

describe('harness(options)', () => {
  it('returns only its own config entries: the global setup, the setup file, the provided options', () => {
    const plugin = harness({ provider: { cassettesDir: 'cassettes' } })
    const config = (plugin.config as () => { test: { globalSetup: string[]; setupFiles: string[]; provide: Record<string, unknown> } })()
    expect(Object.keys(config)).toEqual(['test'])
    expect(config.test.globalSetup).toEqual([expect.stringMatching(/src\/vitest\/global-setup\.(ts|js)$/)])
    expect(config.test.setupFiles).toEqual([expect.stringMatching(/src\/public\/setup\.(ts|js)$/)])
    expect(config.test.provide['vitestHarnessOptions']).toMatchObject({ provider: { cassettesDir: 'cassettes', mode: null, exhausted: 'repeat-last' } })
    const none = (harness({ provider: false }).config as () => { test: { globalSetup: string[] } })()
    expect(none.test.globalSetup).toEqual([])
  })

  it('normalises once and refuses bad values, quoting them', () => {
    expect(() => normaliseHarnessOptions({ provider: { mode: 'wild' as never } })).toThrow('harness({ provider.mode }) must be one of replay, record, auto, passthrough; got "wild"')
    expect(() => normaliseHarnessOptions({ provider: { redact: ['('] } })).toThrow('provider.redact[0]')
    expect(() => normaliseHarnessOptions({ provider: { cassettesDir: '' } })).toThrow('a non-empty string')
  })

  it('names a cassette after the test file, its suites and the test, plus a hash of the names as written', () => {
    const file = { name: 'test/chat.test.ts', filepath: '/p/test/chat.test.ts' }
    const suite = { name: 'Chat API', file, suite: file as never }
    const path = cassettePathFor('/c', { name: 'streams a tool call!', file, suite })
    expect(path).toMatch(/^\/c\/test\/chat\.test\/chat-api-streams-a-tool-call-[0-9a-f]{10}\.cassette\.jsonl$/)
    // Deterministic: the same names give the same file; the absolute path of the checkout takes no part.
    const moved = { name: 'test/chat.test.ts', filepath: '/elsewhere/test/chat.test.ts' }
    expect(cassettePathFor('/c', { name: 'streams a tool call!', file: moved, suite: { name: 'Chat API', file: moved, suite: moved as never } })).toBe(path)
    expect(cassettePathFor('/c', { name: 'streams a tool call?', file, suite })).not.toBe(path)
  })
})
