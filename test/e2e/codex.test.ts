import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/provider/cassette.js'
import { CODEX, installedProgram } from './harness-install.js'
import { E2E_ROOT, freshDir, keepTranscripts, minimalPath, runAgainstProvider, type HarnessRun } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { isCi } from '../../src/util/ci.js'

// The real `codex exec --json` (0.169.0) on the Responses wire, pointed at the loopback provider
// with -c model_provider=…: a scripted two-turn run (read a file, then answer), recorded to a
// cassette, then replayed twice. Offline: the only server it talks to is ours on 127.0.0.1.
const SCENARIO = resolve(import.meta.dirname, 'scenarios', 'codex-read-then-answer.yaml')
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'codex')
const PROMPT = 'Read README.md and tell me what it says.'

const codex = installedProgram(CODEX)

async function runCodex(serveArgs: string[], label: string): Promise<HarnessRun> {
  const home = freshDir('codex', 'home')
  const work = freshDir('codex', 'work')
  writeFileSync(join(work, 'README.md'), 'hello harness\n')
  return runAgainstProvider({
    serveArgs,
    requestLog: join(E2E_ROOT, 'codex', `${label}.requests.jsonl`),
    sessionDir: join(home, 'sessions'),
    launchFor: (baseUrl) => ({
      program: codex(),
      args: [
        'exec', '--json', '--skip-git-repo-check',
        '-c', 'model_provider=vh',
        '-c', 'model_providers.vh.name="vitest-harness"',
        '-c', `model_providers.vh.base_url="${baseUrl}"`,
        '-c', 'model_providers.vh.wire_api="responses"',
        '-c', 'model_providers.vh.env_key="VH_PROVIDER_KEY"',
        '-m', 'vh-emulated',
        PROMPT,
      ],
      env: { PATH: minimalPath(), HOME: home, CODEX_HOME: home, VH_PROVIDER_KEY: 'placeholder-not-a-key' },
      cwd: work,
    }),
  })
}

function events(run: HarnessRun): Record<string, unknown>[] {
  return run.launch.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('codex exec --json against the loopback provider (Responses wire)', () => {
  it('completes a scripted two-turn run with one tool call, records it, and replays it twice to the same output', async () => {
    const cassette = join(E2E_ROOT, 'codex', 'codex.cassette.jsonl')
    const recorded = await runCodex(['--scenario', SCENARIO, '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.launch.exitCode, recorded.launch.stderr).toBe(0)
    expect(recorded.requests.map((entry) => [entry['wire'], entry['outcome'], entry['status']])).toEqual([
      ['openai-responses', 'recorded', 200],
      ['openai-responses', 'recorded', 200],
    ])
    const items = events(recorded).flatMap((event) => (event['type'] === 'item.completed' ? [event['item'] as Record<string, unknown>] : []))
    expect(items.find((item) => item['type'] === 'command_execution')).toMatchObject({ aggregated_output: 'hello harness\n', exit_code: 0, status: 'completed' })
    expect(items.find((item) => item['type'] === 'agent_message')).toMatchObject({ text: 'The file says: hello harness' })
    expect(recorded.session, 'a rollout under CODEX_HOME/sessions').toBeDefined()

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'openai-responses', provenance: 'provider_emulated', scenario: 'codex-read-then-answer' })
    expect(stored.interactions).toHaveLength(2)
    expect(readFileSync(cassette, 'utf8')).not.toContain('placeholder-not-a-key')

    const first = await runCodex(['--cassette', cassette], 'replay-1')
    const second = await runCodex(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.launch.exitCode, replay.launch.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(['replayed', 'replayed'])
    }
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(second.launch.stdout))
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(recorded.launch.stdout))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('codex', label, { 'exec.jsonl': run.launch.stdout, 'rollout.jsonl': run.session, 'launch.json': `${JSON.stringify(run.launch.record, null, 2)}\n` })
    }
    keepTranscripts('codex', '.', { 'codex.cassette.jsonl': readFileSync(cassette, 'utf8') })
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      keepFixtures(first)
    }
    if (existsSync(join(FIXTURES, 'exec.jsonl'))) {
      expect(normaliseHarnessOutput(first.launch.stdout)).toBe(readFileSync(join(FIXTURES, 'exec.jsonl'), 'utf8'))
    }
  })
})

function keepFixtures(run: HarnessRun): void {
  mkdirSync(FIXTURES, { recursive: true })
  writeFileSync(join(FIXTURES, 'exec.jsonl'), normaliseHarnessOutput(run.launch.stdout))
  if (run.session) writeFileSync(join(FIXTURES, 'rollout.jsonl'), normaliseHarnessOutput(run.session))
}
