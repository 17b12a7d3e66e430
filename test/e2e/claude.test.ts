import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/provider/cassette.js'
import { CLAUDE_CODE, installedProgram } from './harness-install.js'
import { E2E_ROOT, freshDir, keepTranscripts, minimalPath, runAgainstProvider, type HarnessRun } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { isCi } from '../../src/util/ci.js'

// The real `claude -p … --output-format stream-json --verbose` (2.1.328) on the Messages wire,
// pointed at the loopback provider with ANTHROPIC_BASE_URL and a placeholder key: a scripted
// two-turn run (Read a file, then answer), recorded to a cassette, then replayed twice.
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'claude')
const PROMPT = 'Read README.md and tell me what it says.'

const claude = installedProgram(CLAUDE_CODE)

/** Claude's Read takes an absolute path, so the scenario names the fixed workspace. */
function writeScenario(work: string): string {
  const path = join(E2E_ROOT, 'claude', 'claude-read-then-answer.json')
  mkdirSync(join(E2E_ROOT, 'claude'), { recursive: true })
  writeFileSync(
    path,
    JSON.stringify({
      scenario: 'claude-read-then-answer',
      turns: [
        { tool_calls: [{ name: 'Read', arguments: { file_path: join(work, 'README.md') } }], usage: { input_tokens: 42, output_tokens: 8, cached_tokens: 7 } },
        { text: 'The file says: hello harness', usage: { input_tokens: 60, output_tokens: 4, cached_tokens: 7 } },
      ],
      // Side requests that declare no tools (titles, quota checks) get a short answer.
      untooled: { text: 'ok' },
    }),
  )
  return path
}

async function runClaude(serveArgs: string[], label: string): Promise<HarnessRun> {
  const home = freshDir('claude', 'home')
  const config = join(home, 'config')
  mkdirSync(config, { recursive: true })
  const work = join(E2E_ROOT, 'claude', 'work')
  writeFileSync(join(work, 'README.md'), 'hello harness\n')
  return runAgainstProvider({
    serveArgs,
    requestLog: join(E2E_ROOT, 'claude', `${label}.requests.jsonl`),
    sessionDir: join(config, 'projects'),
    launchFor: (baseUrl) => ({
      program: claude(),
      // Root may not skip permissions: the one tool the run needs is allowed by name.
      args: ['-p', PROMPT, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read', '--model', 'claude-sonnet-4-5'],
      env: {
        PATH: minimalPath(),
        HOME: home,
        CLAUDE_CONFIG_DIR: config,
        ANTHROPIC_BASE_URL: baseUrl.replace(/\/v1$/, ''),
        ANTHROPIC_API_KEY: 'placeholder-not-a-key',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      cwd: work,
    }),
  })
}

function lines(run: HarnessRun): Record<string, unknown>[] {
  return run.launch.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('claude -p --output-format stream-json against the loopback provider (Messages wire)', () => {
  it('completes a scripted two-turn run with one tool call, records it, and replays it twice to the same output', async () => {
    const work = freshDir('claude', 'work')
    const scenario = writeScenario(work)
    const cassette = join(E2E_ROOT, 'claude', 'claude.cassette.jsonl')
    const recorded = await runClaude(['--scenario', scenario, '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.launch.exitCode, recorded.launch.stderr).toBe(0)
    expect(recorded.requests.length).toBeGreaterThanOrEqual(2)
    expect(recorded.requests.every((entry) => entry['wire'] === 'anthropic-messages' && entry['status'] === 200)).toBe(true)
    const toolResult = lines(recorded).find((line) => line['type'] === 'user')
    expect(JSON.stringify(toolResult)).toContain('hello harness')
    expect(lines(recorded).at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'The file says: hello harness' })
    expect(recorded.session, 'a session file under CLAUDE_CONFIG_DIR/projects').toBeDefined()

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'anthropic-messages', provenance: 'provider_emulated', scenario: 'claude-read-then-answer' })
    expect(stored.interactions.length).toBe(recorded.requests.length)
    expect(readFileSync(cassette, 'utf8')).not.toContain('placeholder-not-a-key')

    const first = await runClaude(['--cassette', cassette], 'replay-1')
    const second = await runClaude(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.launch.exitCode, replay.launch.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(recorded.requests.map(() => 'replayed'))
    }
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(second.launch.stdout))
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(recorded.launch.stdout))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('claude', label, { 'stream.jsonl': run.launch.stdout, 'session.jsonl': run.session, 'launch.json': `${JSON.stringify(run.launch.record, null, 2)}\n` })
    }
    keepTranscripts('claude', '.', { 'claude.cassette.jsonl': readFileSync(cassette, 'utf8') })
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      mkdirSync(FIXTURES, { recursive: true })
      // Only the stream: the session file carries Claude Code's own prompt text, which stays out of the repository.
      writeFileSync(join(FIXTURES, 'stream.jsonl'), normaliseHarnessOutput(first.launch.stdout))
    }
    if (existsSync(join(FIXTURES, 'stream.jsonl'))) {
      expect(normaliseHarnessOutput(first.launch.stdout)).toBe(readFileSync(join(FIXTURES, 'stream.jsonl'), 'utf8'))
    }
  })
})
