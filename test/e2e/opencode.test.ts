import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/provider/cassette.js'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { ensureHarness, OPENCODE } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, expectRunAsPlanned, keepTranscripts, runDeclaredLaunch, type DeclaredRun } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { isCi } from '../../src/util/ci.js'

// The real `opencode run --format json` (1.18.18) on the Chat Completions wire, launched from its
// declaration (an OpenAI-compatible provider in a scratch OPENCODE_CONFIG_DIR, models.dev fetch and
// plugin installs off, any other outbound request sent to a dead loopback proxy): a scripted run
// (read a file, run a shell command, answer) plus opencode's own title request, recorded to a
// cassette, then replayed twice. Its session is also exported (`opencode export`), a second form.
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'opencode')
const PROMPT = 'Read README.md and tell me what it says.'

let opencode = ''
beforeAll(() => {
  opencode = ensureHarness(OPENCODE)
}, 600_000)

/** opencode's read takes an absolute path, so the scenario names the fixed workspace. */
function writeScenario(workspace: string): string {
  const path = join(E2E_ROOT, 'opencode', 'opencode-read-then-shell.json')
  writeFileSync(
    path,
    JSON.stringify({
      scenario: 'opencode-read-then-shell',
      turns: [
        { tool_calls: [{ name: 'read', arguments: { filePath: join(workspace, 'README.md') } }], usage: { input_tokens: 42, output_tokens: 8, cached_tokens: 7 } },
        { tool_calls: [{ name: 'bash', arguments: { command: 'wc -c README.md', description: 'Count the bytes of README.md' } }], usage: { input_tokens: 50, output_tokens: 8, cached_tokens: 7 } },
        { text: 'The file says: hello harness', usage: { input_tokens: 60, output_tokens: 4, cached_tokens: 7 } },
      ],
      // opencode's title request declares no tools: it gets a short title.
      untooled: { text: 'Reading README.md' },
    }),
  )
  return path
}

async function runOpencode(serveArgs: string[], label: string): Promise<DeclaredRun & { exported: string }> {
  const workspace = freshDir('opencode', 'work')
  writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
  const run = await runDeclaredLaunch({ launch: OPENCODE, program: opencode, wire: 'openai-chat', serveArgs, label, prompt: PROMPT, workspace, scratch: freshDir('opencode', 'root') })
  // The session as `opencode export` prints it, from the same scratch data dir (no provider needed).
  const session = /"sessionID":"(ses_[0-9A-Za-z]+)"/.exec(run.result.stdout)?.[1]
  expect(session, 'the run printed its session id').toBeDefined()
  const exported = await execa(opencode, ['export', session as string], { cwd: workspace, env: run.result.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 120_000 })
  expect(exported.exitCode, exported.stderr).toBe(0)
  return { ...run, exported: exported.stdout.endsWith('\n') ? exported.stdout : `${exported.stdout}\n` }
}

function lines(text: string): Record<string, unknown>[] {
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('opencode run --format json against the loopback provider (Chat Completions wire), launched from its declaration', () => {
  it('completes a scripted read-then-shell run, records it with its title request, and replays it twice to the same output', async () => {
    mkdirSync(join(E2E_ROOT, 'opencode'), { recursive: true })
    const scenario = writeScenario(join(E2E_ROOT, 'opencode', 'work'))
    const cassette = join(E2E_ROOT, 'opencode', 'opencode.cassette.jsonl')
    const recorded = await runOpencode(['--scenario', scenario, '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.result.exitCode, recorded.result.stderr).toBe(0)
    // What ran is what the declaration plans (the planner test/fixtures/launch-vectors/opencode/c1-opencode-launch checks).
    expectRunAsPlanned(recorded, OPENCODE, { prompt: PROMPT, workspace: join(E2E_ROOT, 'opencode', 'work'), wire: 'openai-chat' })
    // The title request (no tools) and the three model turns. opencode sends the title request
    // and the first turn at once, so which of those two the provider logs first is a race: they are
    // compared as a pair, the later turns in order.
    const rows = recorded.requests.map((entry) => [entry['path'], (entry['tool_names'] as string[]).length > 0, entry['outcome'], entry['status']] as const)
    const concurrent = rows.slice(0, 2).sort((a, b) => Number(a[1]) - Number(b[1]))
    expect([...concurrent, ...rows.slice(2)]).toEqual([
      ['/v1/chat/completions', false, 'recorded', 200],
      ['/v1/chat/completions', true, 'recorded', 200],
      ['/v1/chat/completions', true, 'recorded', 200],
      ['/v1/chat/completions', true, 'recorded', 200],
    ])
    const tools = lines(recorded.result.stdout).flatMap((event) => (event['type'] === 'tool_use' ? [event['part'] as { tool: string; state: { status: string; output: string } }] : []))
    expect(tools.map((part) => [part.tool, part.state.status])).toEqual([
      ['read', 'completed'],
      ['bash', 'completed'],
    ])
    expect(tools[0]?.state.output).toContain('1: hello harness')
    expect(tools[1]?.state.output).toBe('14 README.md\n')
    expect(recorded.result.stdout).toContain('"text":"The file says: hello harness"')
    expect(recorded.exported).toContain('"title": "Reading README.md"')
    expect(recorded.result.conversionError).toBeUndefined()
    expect(recorded.result.stdoutEvents.at(-1)?.event).toBe('stream.closed')

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'openai-chat', provenance: 'provider_emulated', scenario: 'opencode-read-then-shell' })
    expect(stored.interactions).toHaveLength(4)
    // The key reached opencode through `{env:…}`: neither the cassette nor its config, database or logs hold it.
    expect(readFileSync(cassette, 'utf8')).not.toContain(LOOPBACK_PLACEHOLDER_KEY)
    for (const file of filesUnder(recorded.result.scratch)) expect(readFileSync(file).includes(LOOPBACK_PLACEHOLDER_KEY), file).toBe(false)
    // Offline: nothing was fetched into an npm cache or installed into the config dir.
    expect(filesUnder(join(recorded.result.scratch, 'home')).filter((file) => file.includes('.npm'))).toEqual([])
    expect(filesUnder(join(recorded.result.scratch, 'opencode')).filter((file) => file.includes('node_modules'))).toEqual([])

    const first = await runOpencode(['--cassette', cassette], 'replay-1')
    const second = await runOpencode(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.result.exitCode, replay.result.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(['replayed', 'replayed', 'replayed', 'replayed'])
    }
    const normalised = (run: DeclaredRun): string => normaliseHarnessOutput(run.result.stdout, E2E_ROOT, OPENCODE.normalised)
    expect(normalised(first)).toBe(normalised(second))
    expect(normalised(first)).toBe(normalised(recorded))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('opencode', label, { 'run.jsonl': run.result.stdout, 'export.json': run.exported })
    }
    keepTranscripts('opencode', '.', { 'opencode.cassette.jsonl': readFileSync(cassette, 'utf8') })
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      mkdirSync(FIXTURES, { recursive: true })
      writeFileSync(join(FIXTURES, 'run.jsonl'), normalised(first))
    }
  })
})
