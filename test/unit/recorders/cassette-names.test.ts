import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseScenario, readCassette, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'
import { NAMES, NESTED } from './fixtures/names-project/names.js'

// Through the real plugin and `provider` fixture in a Vitest run of its own: tests whose names
// differ only in case, punctuation or script (or in suite nesting, or not at all) record into different cassettes,
// so none overwrites another and each replays its own.
const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const PROJECT = resolve(import.meta.dirname, 'fixtures', 'names-project')
let upstream: Provider

beforeAll(async () => {
  upstream = await startProvider({ scenario: parseScenario({ scenario: 'vendor', turns: [{ text: 'scripted' }] }), env: {} })
})
afterAll(() => upstream.close())

// Asynchronous: the fake upstream lives in this process and must keep answering.
async function runProject(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', PROJECT], { cwd: PROJECT, env: { PATH: process.env['PATH'] ?? '', ...env } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const status = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit))
  return { status, output }
}

describe('cassette names keep the test’s identity', () => {
  const cassettes = scratchDir()
  const folder = join(cassettes, 'names.spec')

  it('records each of the names into its own cassette', async () => {
    const run = await runProject({ VH_CASSETTES_DIR: cassettes, VH_UPSTREAM: upstream.origin, VITEST_HARNESS_MODE: 'record' })
    expect(run.status, run.output).toBe(0)
    const files = readdirSync(folder).filter((name) => name.endsWith('.cassette.jsonl'))
    expect(files).toHaveLength(NAMES.length + 3)
    // Each holds its own test's one request, nothing of another's.
    const asked = files.map((file) => readCassette(join(folder, file)).interactions.map((interaction) => (interaction.request.body as { messages: { content: string }[] }).messages[0]?.content))
    expect(asked.map((contents) => contents.length)).toEqual(files.map(() => 1))
    expect(asked.flat().sort()).toEqual([...NAMES, `${NESTED.suite} > ${NESTED.name}`, 'twice #1', 'twice #2'].sort())
    // Readable where the name is Latin, and all of them `<slug>-<10 hex>`; no lock or temp file left.
    expect(files).toEqual(expect.arrayContaining([expect.stringMatching(/^reads-the-readme-[0-9a-f]{10}\.cassette\.jsonl$/)]))
    for (const file of files) expect(file).toMatch(/^[a-z0-9-]+-[0-9a-f]{10}\.cassette\.jsonl$/)
    expect(readdirSync(folder).filter((name) => !name.endsWith('.cassette.jsonl'))).toEqual([])
  }, 60_000)

  it('replays each test from its own cassette', async () => {
    const run = await runProject({ VH_CASSETTES_DIR: cassettes, VITEST_HARNESS_MODE: 'replay' })
    expect(run.status, run.output).toBe(0)
    expect(run.output).toContain(`${NAMES.length + 3} passed`)
  }, 60_000)
})
