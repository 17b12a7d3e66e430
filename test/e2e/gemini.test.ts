import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { planGeminiLaunch } from '../../adapters/gemini/adapter.js'
import { launchHarness, type LaunchHarnessResult } from '../../adapters/launch/launch-harness.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import { ensureHarnessBinary } from '../../adapters/launch/harness-cache.js'
import { readCassette } from '../../recorders/provider/cassette.js'
import type { Emission } from '../../src/events/types.js'
import { checkEventStream } from '../../src/trace/check/check.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { readSpecFile } from '../../src/trace/spec/read.js'
import { isCi } from '../../src/util/ci.js'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { E2E_ROOT, filesUnder, freshDir, keepTranscripts } from './harness-run.js'
import { normaliseHarnessOutput } from './normalise.js'
import { startServe } from './serve-process.js'

// The real `gemini -p … --output-format stream-json --yolo` (0.61.0) on the Gemini wire, launched
// from its declaration (adapters/gemini/launch.ts): pointed at the loopback provider with
// GOOGLE_GEMINI_BASE_URL and a placeholder GEMINI_API_KEY. A scripted run — read_file, then
// run_shell_command, then the answer — recorded to a cassette, then replayed twice. Offline: the
// only server it talks to is ours on 127.0.0.1.
const FIXTURES = resolve(import.meta.dirname, 'fixtures', 'gemini')
const READ_BEFORE_ANSWER = resolve(import.meta.dirname, 'fixtures', 'read-before-answer.trace.yaml')
const NO_SHELL = resolve(import.meta.dirname, 'fixtures', 'no-shell.trace.yaml')
const PROMPT = 'Read README.md, then run one shell command, and tell me what the file says.'
const MODEL = 'gemini-2.5-flash'
const LAUNCH = findLaunch('gemini')
const WORK = join(E2E_ROOT, 'gemini', 'work')

let gemini = ''
beforeAll(() => {
  if (!LAUNCH) throw new Error('no launch declaration for gemini')
  gemini = ensureHarnessBinary(LAUNCH)
}, 600_000)

function writeScenario(): string {
  const path = join(E2E_ROOT, 'gemini', 'gemini-read-shell-answer.json')
  mkdirSync(join(E2E_ROOT, 'gemini'), { recursive: true })
  writeFileSync(
    path,
    JSON.stringify({
      scenario: 'gemini-read-shell-answer',
      turns: [
        { tool_calls: [{ name: 'read_file', arguments: { file_path: 'README.md' } }], usage: { input_tokens: 42, output_tokens: 8, cached_tokens: 7 } },
        { tool_calls: [{ name: 'run_shell_command', arguments: { command: 'echo shell-ran', description: 'one shell call' } }], usage: { input_tokens: 50, output_tokens: 8, cached_tokens: 7 } },
        { text: 'The file says: hello harness', usage: { input_tokens: 60, output_tokens: 4, cached_tokens: 7 } },
      ],
    }),
  )
  return path
}

interface GeminiRun {
  readonly launch: LaunchHarnessResult
  readonly requests: Record<string, unknown>[]
  readonly session: string | undefined
}

/** One launch from the declaration, at fixed paths (the session context names them), against a fresh provider. */
async function runGemini(serveArgs: string[], label: string): Promise<GeminiRun> {
  const requestLog = join(E2E_ROOT, 'gemini', `${label}.requests.jsonl`)
  rmSync(requestLog, { force: true })
  const scratch = freshDir('gemini', 'root')
  const served = await startServe([...serveArgs, '--record-requests', requestLog], { PATH: process.env['PATH'] ?? '' })
  let launch: LaunchHarnessResult
  try {
    launch = await launchHarness(LAUNCH as NonNullable<typeof LAUNCH>, { prompt: PROMPT, workspace: WORK, provider: { baseUrl: served.baseUrl, wire: 'gemini' }, model: MODEL, scratch, program: gemini, timeoutMs: 240_000 })
  } finally {
    await served.stop()
  }
  const requests = existsSync(requestLog) ? readFileSync(requestLog, 'utf8').trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []
  const sessionFile = filesUnder(join(scratch, 'home', '.gemini', 'tmp')).find((path) => /\/chats\/session-[^/]+\.jsonl$/.test(path))
  return { launch, requests, session: sessionFile ? readFileSync(sessionFile, 'utf8') : undefined }
}

function lines(run: GeminiRun): Record<string, unknown>[] {
  return run.launch.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

const rowsOf = (report: TraceReport) => report.expectations.map((row) => [row.id, row.verdict])
const citedBy = (report: TraceReport, id: string): number[] => {
  const outcome = report.expectations.find((row) => row.id === id)?.outcome
  return outcome && 'events' in outcome && Array.isArray(outcome.events) ? (outcome.events as number[]) : []
}
const calls = (events: readonly Emission[]) => events.flatMap((event) => (event.event === 'tool.requested' ? [event] : []))

describe('gemini -p --output-format stream-json against the loopback provider (Gemini wire)', () => {
  it('completes a scripted read + shell run, records it, replays it twice to the same output, and its transcripts check', async () => {
    freshDir('gemini', 'work')
    writeFileSync(join(WORK, 'README.md'), 'hello harness\n')
    const scenario = writeScenario()
    const cassette = join(E2E_ROOT, 'gemini', 'gemini.cassette.jsonl')
    rmSync(cassette, { force: true })
    const recorded = await runGemini(['--scenario', scenario, '--cassette', cassette, '--mode', 'record'], 'record')
    expect(recorded.launch.exitCode, recorded.launch.stderr).toBe(0)
    // With --model given, all Gemini CLI 0.61 sends is the three model turns: no routing classifier,
    // countTokens, next-speaker check or loadCodeAssist.
    expect(recorded.requests.map((entry) => [entry['wire'], entry['path'], entry['stream'], entry['outcome'], entry['status']])).toEqual(
      Array.from({ length: 3 }, () => ['gemini', `/v1beta/models/${MODEL}:streamGenerateContent`, true, 'recorded', 200]),
    )
    const stdout = lines(recorded)
    expect(stdout.filter((line) => line['type'] === 'tool_use').map((line) => line['tool_name'])).toEqual(['read_file', 'run_shell_command'])
    expect(stdout.find((line) => line['type'] === 'tool_result' && String(line['tool_id']).startsWith('run_shell_command'))).toMatchObject({ status: 'success', output: 'shell-ran' })
    expect(stdout.at(-1)).toMatchObject({ type: 'result', status: 'success', stats: { tool_calls: 2 } })
    expect(recorded.session, 'a session file under GEMINI_CLI_HOME/.gemini/tmp/<project>/chats').toBeDefined()
    expect(recorded.session).toContain('"output":"hello harness\\n"')
    // What ran is the C1 plan (vectors/gemini/c1-headless-launch) for the same inputs, argv and environment.
    const plan = planGeminiLaunch({ program: gemini, baseUrl: `${recorded.launch.env['GOOGLE_GEMINI_BASE_URL'] ?? ''}/v1`, model: MODEL, workspace: WORK, scratch: recorded.launch.scratch, nodeBin: dirname(process.execPath), input: PROMPT })
    expect({ program: recorded.launch.program, args: recorded.launch.args, env: recorded.launch.env }).toEqual(plan)

    const stored = readCassette(cassette)
    expect(stored).toMatchObject({ wire: 'gemini', provenance: 'provider_emulated', scenario: 'gemini-read-shell-answer' })
    expect(stored.interactions).toHaveLength(3)
    // The placeholder key travels in x-goog-api-key; the cassette keeps its name and length only.
    const cassetteText = readFileSync(cassette, 'utf8')
    expect(cassetteText).not.toContain(LOOPBACK_PLACEHOLDER_KEY)
    expect(stored.interactions[0]?.request.headers['x-goog-api-key']).toMatch(/^\[REDACTED\**\]$/)

    const first = await runGemini(['--cassette', cassette], 'replay-1')
    const second = await runGemini(['--cassette', cassette], 'replay-2')
    for (const replay of [first, second]) {
      expect(replay.launch.exitCode, replay.launch.stderr).toBe(0)
      expect(replay.requests.map((entry) => entry['outcome'])).toEqual(['replayed', 'replayed', 'replayed'])
    }
    // Normalised: timestamps, the session uuid and duration_ms (see normalise.ts).
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(second.launch.stdout))
    expect(normaliseHarnessOutput(first.launch.stdout)).toBe(normaliseHarnessOutput(recorded.launch.stdout))

    for (const [label, run] of [['record', recorded], ['replay-1', first], ['replay-2', second]] as const) {
      keepTranscripts('gemini', label, { 'stream.jsonl': run.launch.stdout, 'session.jsonl': run.session })
    }
    if (process.env['VITEST_HARNESS_WRITE_FIXTURES'] === '1' && !isCi(process.env)) {
      mkdirSync(FIXTURES, { recursive: true })
      writeFileSync(join(FIXTURES, 'stream.jsonl'), normaliseHarnessOutput(first.launch.stdout))
      // The session file keeps its message ids (the reader reads each id once); only the scratch root is replaced.
      writeFileSync(join(FIXTURES, 'session.jsonl'), (first.session ?? '').split(E2E_ROOT).join('<e2e-root>'))
    }
    if (existsSync(join(FIXTURES, 'stream.jsonl'))) {
      expect(normaliseHarnessOutput(first.launch.stdout)).toBe(readFileSync(join(FIXTURES, 'stream.jsonl'), 'utf8'))
    }

    // Both transcripts, converted by the declaration's formats, judged by the shared e2e specs.
    for (const run of [recorded, first, second]) {
      const session = run.launch.events
      const stream = run.launch.stdoutEvents
      expect(calls(session).map((call) => [call.name, call.operations])).toEqual([
        ['read_file', ['file.read']],
        ['run_shell_command', ['shell']],
      ])
      expect(calls(stream).map((call) => call.name)).toEqual(['read_file', 'run_shell_command'])
      // The session file holds what the model saw (the file's bytes); it never proves closure, and no
      // terminal record follows its last text, so that text is not proven the run's final answer.
      const read = await checkEventStream(readSpecFile(READ_BEFORE_ANSWER), session, { run: 'e2e' })
      expect(rowsOf(read)).toEqual([
        ['the-readme-was-read', 'ok'],
        ['the-read-returned-content', 'ok'],
        ['the-answer-quotes-the-file', 'unknown'],
      ])
      expect(read.expectations[2]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
      // stream-json's tool_result.output is the CLI's display text, empty for read_file: the read is
      // there, its bytes are not, so "the read returned content" gaps on stdout alone.
      const readOnStdout = await checkEventStream(readSpecFile(READ_BEFORE_ANSWER), stream, { run: 'e2e' })
      expect(rowsOf(readOnStdout)).toEqual([
        ['the-readme-was-read', 'ok'],
        ['the-read-returned-content', 'gap'],
        ['the-answer-quotes-the-file', 'ok'],
      ])
      for (const [events, report] of [[session, read], [stream, readOnStdout]] as const) {
        // The gap cites one event: the shell call, two after the read call the read spec cites
        // (the read, its result, then the shell call), by the checker's own event numbers.
        const noShell = await checkEventStream(readSpecFile(NO_SHELL), events, { run: 'e2e' })
        expect(noShell.expectations[0]?.verdict).toBe('gap')
        const cited = citedBy(noShell, 'no-shell')
        const [readCall] = citedBy(report, 'the-readme-was-read')
        expect(cited).toHaveLength(1)
        expect((cited[0] as number) - (readCall as number)).toBe(2)
      }
    }
  })
})
