import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { sha256Hex } from '../events/digest.js'
import type { TraceReport } from '../trace/report-types.js'
import { checkTranscriptFile } from '../trace/check/check.js'
import { readSpec } from '../trace/spec/read.js'

/**
 * `check`, `inspect` and `evidence` read any transcript format: Codex `exec --json` and pi are
 * converted by their adapters; what the trace reader reads itself is read as it is.
 */

let dir = ''

const SPEC = `format: trace-spec/1
id: cli/any-format
expectations:
  - id: ran-the-suite
    expect: {tool.called: {operations: [shell], subject: {exact: "proc:npm"}}}
  - id: no-edit
    expect: {tool.absent: {operations: [file.edit, file.write]}}
`

// `codex exec --json` stdout: one shell call running the suite, an answer, then turn.completed last (closed).
const EXEC = [
  { type: 'thread.started', thread_id: 'T1' },
  { type: 'turn.started' },
  { type: 'item.started', item: { id: 'item_0', type: 'command_execution', command: "bash -lc 'npm test'", aggregated_output: '', exit_code: null, status: 'in_progress' } },
  { type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: "bash -lc 'npm test'", aggregated_output: 'ok', exit_code: 0, status: 'completed' } },
  { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'done' } },
  { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } },
]
  .map((line) => JSON.stringify(line))
  .join('\n')
  .concat('\n')

// The same run, cut before turn.completed: no record proves it ended.
const EXEC_OPEN = EXEC.split('\n').slice(0, 5).join('\n').concat('\n')

const piHeader = JSON.stringify({ type: 'session', version: 3, id: 'S', timestamp: '2026-08-01T00:00:00.000Z', cwd: '/w' })
const piUser = (text: string) => JSON.stringify({ type: 'message', id: 'm', parentId: null, timestamp: '2026-08-01T00:00:01.000Z', message: { role: 'user', content: text } })

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-any-format-'))
  writeFileSync(join(dir, 'spec.yaml'), SPEC)
  writeFileSync(join(dir, 'exec.jsonl'), EXEC)
  writeFileSync(join(dir, 'exec-open.jsonl'), EXEC_OPEN)
  mkdirSync(join(dir, 'sessions', 'a'), { recursive: true })
  writeFileSync(join(dir, 'sessions', 'a', 'one.jsonl'), `${piHeader}\n${piUser('hi')}\n`)
  writeFileSync(join(dir, 'sessions', 'b.jsonl'), `${piHeader}\n${piUser('again')}\n`)
  mkdirSync(join(dir, 'corrupt'))
  writeFileSync(join(dir, 'corrupt', 'a.jsonl'), `${piHeader}\n{"type":"mess\n${piUser('hi')}\n`)
  mkdirSync(join(dir, 'empty'))
})

const json = (stdout: string) => JSON.parse(stdout) as TraceReport
const rows = (report: TraceReport) => report.expectations.map((row) => [row.id, row.verdict, row.outcome])

describe('check reads any supported format', () => {
  it('detects Codex exec --json, converts it, and judges the conversion; the digest is the file’s, the adapter names the conversion', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--format', 'json'], { cwd: dir })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = json(run.stdout)
    expect(report.adapter).toEqual({ name: 'codex/exec-json via metaharness/event-stream', written_against: ['metaharness.event/1'] })
    expect(report.transcript_digest).toBe(sha256Hex(readFileSync(join(dir, 'exec.jsonl'))))
    // The call is event 2 of the converted stream (session start, turn start, call); turn.completed last closed it.
    expect(rows(report)).toEqual([
      ['ran-the-suite', 'ok', { outcome: 'ok', events: [1], note: expect.stringContaining('called 1 time(s)') as unknown }],
      ['no-edit', 'ok', { outcome: 'ok', events: [], note: expect.stringContaining('the run closed the stream (stream.closed, completed)') as unknown }],
    ])
  })

  it('judges exactly what `convert | check -` judges: same rows; only the digest and the adapter say what the file was', async () => {
    const converted = await runCli(['convert', 'exec.jsonl'], { cwd: dir })
    expect(converted.code).toBe(0)
    const piped = json((await runCli(['check', '--spec', 'spec.yaml', '--transcript', '-', '--format', 'json'], { cwd: dir, stdin: converted.stdout })).stdout)
    const direct = json((await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--format', 'json'], { cwd: dir })).stdout)
    expect(rows(direct)).toEqual(rows(piped))
    expect(piped.adapter.name).toBe('metaharness/event-stream')
    expect(piped.transcript_digest).toBe(sha256Hex(converted.stdout))
    expect(direct.transcript_digest).not.toBe(piped.transcript_digest)
  })

  it('detects the format of stdin from what it reads ahead, and digests the bytes it was given', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', '-', '--format', 'json'], { cwd: dir, stdin: EXEC })
    expect(run.code).toBe(0)
    const report = json(run.stdout)
    expect(report.adapter.name).toBe('codex/exec-json via metaharness/event-stream')
    expect(report.transcript_digest).toBe(sha256Hex(EXEC))
    expect(rows(report)).toEqual(rows(json((await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--format', 'json'], { cwd: dir })).stdout)))
  })

  it('--from overrides detection: read as stream-json, the exec stream is opaque lines, as upstream would read it; the CLI refuses a read that read nothing', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--from', 'claude-code/stream-json', '--format', 'json'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('VH_NOTHING_READ')
    // The library reports it as upstream's checker does: every event unread, every absence unknown.
    const report = await checkTranscriptFile(readSpec(SPEC), join(dir, 'exec.jsonl'), { from: 'claude-code/stream-json' })
    expect(report.adapter.name).toBe('claude-code/stream-json')
    expect(report.transcript_digest).toBe(sha256Hex(readFileSync(join(dir, 'exec.jsonl'))))
    expect(report.expectations[0]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'opaque_events', events: [0, 1, 2, 3, 4, 5] })
  })

  it('a conversion that proves no end leaves an absence undecided (exit 3)', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec-open.jsonl', '--format', 'json'], { cwd: dir })
    expect(run.code).toBe(3)
    expect(json(run.stdout).expectations[1]?.outcome).toEqual({ outcome: 'undecidable', reason: 'stream_not_closed', markers: ['stream.closed', 'hermetic.stream_complete'] })
  })

  it('reads a directory by Reef’s rules, digesting its files in the order they are read', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'sessions', '--format', 'json'], { cwd: dir })
    const report = json(run.stdout)
    expect(report.adapter.name).toBe('pi-session-jsonl via metaharness/event-stream')
    // Python Path order: a/one.jsonl before b.jsonl.
    const bytes = Buffer.concat([readFileSync(join(dir, 'sessions', 'a', 'one.jsonl')), readFileSync(join(dir, 'sessions', 'b.jsonl'))])
    expect(report.transcript_digest).toBe(sha256Hex(bytes))
    // Nobody ran the suite in these sessions.
    expect(report.expectations[0]).toMatchObject({ id: 'ran-the-suite', verdict: 'gap' })
    expect(run.code).toBe(1)
  })

  it('refuses what the adapter refuses, with exit 1 (upstream: an unreadable transcript), the trace code and the file and line', async () => {
    const corrupt = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'corrupt'], { cwd: dir })
    expect(corrupt.code).toBe(1)
    expect(corrupt.stdout).toBe('')
    expect(corrupt.stderr).toBe(
      `error: corrupt is not a transcript this build can read as pi-session-jsonl — 1 refusal(s):\nTRACE-ADAPT-001 at line[2]: ${join(dir, 'corrupt', 'a.jsonl')}: the line is not JSON, and only a torn last line is tolerated (VH_TRANSCRIPT_CORRUPT_LINE)\n`,
    )
    const empty = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'empty'], { cwd: dir })
    expect(empty).toMatchObject({ code: 1, stderr: expect.stringContaining('TRACE-ADAPT-002 at transcript: the directory') as unknown })
  })

  it('refuses an unknown --from as a usage error naming the formats', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--from', 'codex'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_USAGE: --from names no transcript format: "codex"; the formats are .*codex\/exec-json/)
  })
})

describe('inspect and evidence read any supported format', () => {
  it('inspect converts too, and names the conversion', async () => {
    const run = await runCli(['inspect', '--transcript', 'exec.jsonl', '--format', 'json'], { cwd: dir })
    expect(run.code).toBe(0)
    const census = JSON.parse(run.stdout) as { adapter: { name: string }; transcript_digest: string; tool_traffic: Record<string, { calls: number }>; closure: unknown }
    expect(census.adapter.name).toBe('codex/exec-json via metaharness/event-stream')
    expect(census.transcript_digest).toBe(sha256Hex(readFileSync(join(dir, 'exec.jsonl'))))
    expect(census.tool_traffic).toEqual({ command_execution: { calls: 1, errors: 0, results: 1, input_bytes: expect.any(Number) as unknown, result_bytes: 2 } })
    expect(census.closure).toMatchObject({ witness: 'closing_event', reason: 'completed' })
  })

  it('evidence mints the record of the converted check: the file’s digest, the conversion as adapter, --from in the command', async () => {
    const run = await runCli(['evidence', '--spec', 'spec.yaml', '--transcript', 'exec.jsonl', '--from', 'codex/exec-json', '--format', 'json', '--observed-at', '2026-08-01'], { cwd: dir })
    expect(run.code).toBe(0)
    const [record] = JSON.parse(run.stdout) as [Record<string, unknown>]
    expect(record).toMatchObject({
      kind: 'trace_conformance',
      status: 'passed',
      transcript_digest: sha256Hex(readFileSync(join(dir, 'exec.jsonl'))),
      adapter: 'codex/exec-json via metaharness/event-stream (written against metaharness.event/1)',
      provenance: { command: 'vitest-harness evidence --spec spec.yaml --transcript exec.jsonl --from codex/exec-json', inputs: ['spec.yaml', 'exec.jsonl'] },
    })
    // The record it mints passes the engine's intake.
    writeFileSync(join(dir, 'record.json'), run.stdout)
    expect(await runCli(['evidence', 'validate', '--now', '2026-09-01', 'record.json'], { cwd: dir })).toMatchObject({ code: 0 })
  })
})
