import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect } from 'vitest'
import { detectTranscriptFile, readTranscriptAsEvents } from '../../adapters/transcript/read.js'
import { sha256Hex } from '../../src/events/digest.js'
import type { Emission } from '../../src/events/types.js'
import { checkEventStream, checkTranscriptFile } from '../../src/trace/check/check.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { readSpec, readSpecFile } from '../../src/trace/spec/read.js'

/**
 * The real Codex and Claude Code runs of the e2e suite (a scripted "read README.md, then answer"),
 * read from their stdout stream and their session file, converted to `metaharness.event/1` and
 * judged by two trace specs of our own. Shared by the e2e suite (the raw transcripts of every run)
 * and the unit suite (the committed normalised copies), so `npm test` keeps the checks covered.
 */

const FIXTURES = resolve(import.meta.dirname, '..', 'e2e', 'fixtures')

/** "The file was read before the answer": three rows, each `ok` where the run ended after its answer (else the answer row is unknown). */
export const READ_BEFORE_ANSWER = resolve(FIXTURES, 'read-before-answer.trace.yaml')
/** "No shell": a gap where the scripted run used one (Codex's `cat`). */
export const NO_SHELL = resolve(FIXTURES, 'no-shell.trace.yaml')

/** "Every read of README.md came back with content": `ok` only on a stream that proves it closed. */
const EVERY_READ_RETURNED_CONTENT = `format: trace-spec/1
id: e2e/every-read-returned-content
expectations:
  - id: every-read-returned-content
    expect: {tool.result_bytes: {tools: [Read], operations: [file.read, shell], subject: {glob: "file:*README.md"}, bytes: {at_least: 1}, per: each}}
`

/** One transcript a scripted run leaves, and what each harness did in it. */
export interface HarnessTranscript {
  readonly harness: 'codex' | 'claude' | 'pi' | 'opencode' | 'gemini' | 'qwen'
  /** The file name under the run's folder (and under `test/e2e/fixtures/<harness>/` where committed). */
  readonly file: string
  /** The format `detect` must pick. */
  readonly format: string
  /** The one call the run made: the read. */
  readonly read: { readonly name: string; readonly operations: readonly string[]; readonly subjectProgram?: string }
  /** The shell call the run made after the read, when its scenario scripted one (pi, opencode). */
  readonly shell?: { readonly name: string; readonly subjectProgram: string }
  /** What "no shell" decides: a gap on the shell read, `ok` on a closed stream without one, unknown on an open one. */
  readonly noShell: 'gap' | 'ok' | 'unknown'
  /** Whether the stream proves the run ended. */
  readonly closed: boolean
  /** Whether a terminal record follows the answer where the stream proves no closure: then the last text is the final answer. */
  readonly ended?: boolean
}

export const HARNESS_TRANSCRIPTS: readonly HarnessTranscript[] = [
  // `codex exec --json` stdout: the scripted exec_command ran `/bin/bash -lc 'cat README.md'`, an item of type command_execution.
  { harness: 'codex', file: 'exec.jsonl', format: 'codex/exec-json', read: { name: 'command_execution', operations: ['shell'], subjectProgram: 'proc:cat' }, noShell: 'gap', closed: true },
  // The rollout Codex wrote for the same run: the call as the model made it, `exec_command {"cmd":"cat README.md"}`; a rollout never proves closure.
  { harness: 'codex', file: 'rollout.jsonl', format: 'codex/rollout-jsonl', read: { name: 'exec_command', operations: ['shell'], subjectProgram: 'proc:cat' }, noShell: 'gap', closed: false, ended: true },
  // `claude -p … --output-format stream-json --verbose` stdout: one Read; the `result` record last closes it.
  { harness: 'claude', file: 'stream.jsonl', format: 'claude-code/stream-json', read: { name: 'Read', operations: ['file.read'] }, noShell: 'ok', closed: true },
  // Claude Code's own session file for the same run: the same Read, no record that proves the run ended.
  { harness: 'claude', file: 'session.jsonl', format: 'claude-session-jsonl', read: { name: 'Read', operations: ['file.read'] }, noShell: 'unknown', closed: false },
  // pi's session file (1.6.0, Messages wire; it opens with a system message, the prompt): `read` README.md, then `bash` `wc -c README.md`; a session file never proves closure, but the shell call is there to gap on.
  { harness: 'pi', file: 'session.jsonl', format: 'pi-session-jsonl', read: { name: 'read', operations: ['file.read'] }, shell: { name: 'bash', subjectProgram: 'proc:wc' }, noShell: 'gap', closed: false },
  // `opencode run --format json` stdout (1.18.18, Chat Completions wire): the same read and shell call; the last step_finish closes it.
  { harness: 'opencode', file: 'run.jsonl', format: 'opencode-run-json', read: { name: 'read', operations: ['file.read'] }, shell: { name: 'bash', subjectProgram: 'proc:wc' }, noShell: 'gap', closed: true },
  // `opencode export <session>` for the same run: the session document from opencode's database.
  { harness: 'opencode', file: 'export.json', format: 'opencode-export-json', read: { name: 'read', operations: ['file.read'] }, shell: { name: 'bash', subjectProgram: 'proc:wc' }, noShell: 'gap', closed: false },
  // Gemini CLI's session file (0.61.0, Gemini wire): `read_file` README.md, then `run_shell_command` `echo shell-ran`. Its stream-json
  // stdout is not here: 0.61 prints read_file's result as empty display text, so "the read returned content" is a gap there (gemini.test.ts checks that).
  { harness: 'gemini', file: 'session.jsonl', format: 'gemini-cli/session-jsonl', read: { name: 'read_file', operations: ['file.read'] }, shell: { name: 'run_shell_command', subjectProgram: 'proc:echo' }, noShell: 'gap', closed: false },
  // `qwen -p … --output-format stream-json --yolo` stdout (Qwen Code 0.24.4, Chat Completions wire): `read_file` README.md, then
  // `run_shell_command` `wc -c README.md`, then the answer; Claude Code's shape, closed by its `result`.
  { harness: 'qwen', file: 'stream.jsonl', format: 'qwen-code/stream-json', read: { name: 'read_file', operations: ['file.read'] }, shell: { name: 'run_shell_command', subjectProgram: 'proc:wc' }, noShell: 'gap', closed: true },
  // Qwen Code's session file for the same run; no end marker.
  { harness: 'qwen', file: 'session.jsonl', format: 'qwen-code/session-jsonl', read: { name: 'read_file', operations: ['file.read'] }, shell: { name: 'run_shell_command', subjectProgram: 'proc:wc' }, noShell: 'gap', closed: false },
]

async function convert(path: string, format: string): Promise<Emission[]> {
  const events: Emission[] = []
  for await (const event of readTranscriptAsEvents(path, { from: format, run: 'e2e' })) events.push(event)
  return events
}

const rowsOf = (report: TraceReport) => report.expectations.map((row) => [row.id, row.verdict])
const citedBy = (report: TraceReport, id: string): number[] => {
  const outcome = report.expectations.find((row) => row.id === id)?.outcome
  return outcome && 'events' in outcome && Array.isArray(outcome.events) ? (outcome.events as number[]) : []
}

/**
 * Converts one transcript with its adapter, checks both specs against the events, and asserts what
 * the scripted run did: one read of README.md (by the tool and operation the harness used),
 * its result, then the answer — in that order, by the events the checker cites — and "no shell"
 * deciding as the harness's read and the stream's closure say. The same file checked by path
 * (detected, as `vitest-harness check` reads it) gives the same rows, with the file's own digest.
 */
export async function checkHarnessTranscript(transcript: HarnessTranscript, path: string): Promise<void> {
  expect(detectTranscriptFile(path)?.name, `${path} is detected as ${transcript.format}`).toBe(transcript.format)
  const events = await convert(path, transcript.format)

  // The run made the read (and, where scripted, one shell call after it), classified as the harness's tools imply.
  const calls = events.flatMap((event) => (event.event === 'tool.requested' ? [event] : []))
  expect(calls.map((call) => call.name)).toEqual([transcript.read.name, ...(transcript.shell ? [transcript.shell.name] : [])])
  const call = calls[0] as Extract<Emission, { event: 'tool.requested' }>
  expect(call.operations).toEqual(transcript.read.operations)
  expect(call.subjects?.some((subject) => /^file:.*README\.md$/.test(subject))).toBe(true)
  if (transcript.read.subjectProgram) expect(call.subjects).toContain(transcript.read.subjectProgram)
  if (transcript.shell) {
    const shell = calls[1] as Extract<Emission, { event: 'tool.requested' }>
    expect(shell.operations).toEqual(['shell'])
    expect(shell.subjects).toContain(transcript.shell.subjectProgram)
  }
  expect(events.at(-1)?.event === 'stream.closed').toBe(transcript.closed)

  // The last text is the final answer only where the run ended after it: the stream closed, or a terminal record followed.
  const answered = transcript.closed || transcript.ended === true
  const read = await checkEventStream(readSpecFile(READ_BEFORE_ANSWER), events, { run: 'e2e' })
  expect(rowsOf(read)).toEqual([
    ['the-readme-was-read', 'ok'],
    ['the-read-returned-content', 'ok'],
    ['the-answer-quotes-the-file', answered ? 'ok' : 'unknown'],
  ])
  expect(read.verdict).toBe(answered ? 'ok' : 'unknown')
  if (!answered) expect(read.expectations[2]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
  // "Every read came back with content" is a claim about the whole run: it holds only where the
  // stream says it closed; over a session file that never says so, more reads may have gone unwritten.
  const everyRead = (await checkEventStream(readSpec(EVERY_READ_RETURNED_CONTENT), events, { run: 'e2e' })).expectations[0]?.outcome
  expect(everyRead).toMatchObject(transcript.closed ? { outcome: 'ok' } : { outcome: 'undecidable', reason: 'stream_not_closed' })
  // Before the answer: the read call, then its result, then the final text (where it is proven final), by the IR events cited.
  const [readCall] = citedBy(read, 'the-readme-was-read')
  const [readResult] = citedBy(read, 'the-read-returned-content')
  const [answer] = citedBy(read, 'the-answer-quotes-the-file')
  expect(readCall).toBeTypeOf('number')
  expect(readCall as number).toBeLessThan(readResult as number)
  if (answered) expect(readResult as number).toBeLessThan(answer as number)

  const noShell = await checkEventStream(readSpecFile(NO_SHELL), events, { run: 'e2e' })
  const row = noShell.expectations[0]
  expect(row?.verdict).toBe(transcript.noShell)
  if (transcript.noShell === 'gap' && transcript.shell) {
    // The shell call that gapped is the scripted one, after the read came back and before the answer.
    expect(row?.outcome).toMatchObject({ outcome: 'gap' })
    const gapped = citedBy(noShell, 'no-shell')
    expect(gapped).toHaveLength(1)
    expect(gapped[0] as number).toBeGreaterThan(readResult as number)
    if (answered) expect(gapped[0] as number).toBeLessThan(answer as number)
  } else if (transcript.noShell === 'gap') {
    // The shell call that gapped is the read itself: reading with `cat` is running a shell.
    expect(row?.outcome).toMatchObject({ outcome: 'gap', events: [readCall] })
  } else if (transcript.noShell === 'unknown') {
    expect(row?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
  } else {
    expect(row?.outcome).toMatchObject({ outcome: 'ok', events: [] })
  }

  // By path, as `check` reads it: the same rows; the digest is the file's own.
  for (const [spec, report] of [
    [READ_BEFORE_ANSWER, read],
    [NO_SHELL, noShell],
  ] as const) {
    const byPath = await checkTranscriptFile(readSpecFile(spec), path)
    expect(rowsOf(byPath)).toEqual(rowsOf(report))
    expect(byPath.transcript_digest).toBe(sha256Hex(readFileSync(path)))
    // Claude stream-json goes to the trace reader as upstream reads it; every other format is converted.
    expect(byPath.adapter.name).toBe(transcript.format === 'claude-code/stream-json' ? 'claude-code/stream-json' : `${transcript.format} via metaharness/event-stream`)
  }
}
