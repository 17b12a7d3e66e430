import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { reportExitCode } from '../../src/trace/check/report.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { parseSpecValue, readSpecFile } from '../../src/trace/spec/read.js'
import { runCli } from '../helpers/cli.js'
import { referenceFile } from './paths.js'

/**
 * Upstream's eval case `development-honest`: its trace-spec/1 document (12 expectations, 2
 * advisory) against its metaharness.event/1 transcript. The case declares `verdict: held` with one
 * advisory gap, `the-scope-was-actually-tested`; upstream's replay of the corpus requires no row
 * `unk`, exit 0.
 *
 * Every expected row below was derived by reading the two files, not by running this checker.
 * The IR the checker cites (control-plane events — step.*, turn.*, tool.decided — and `usage`
 * produce no IR event; `stream.closed` only closes the stream):
 *
 *   idx line  event                                   idx line  event
 *    0    1   session.started (8 offered tools)         10   27   tool.result call_04
 *    1    4   text                                      11   33   Write …/src/planning.rs (call_05)
 *    2    5   Bash "protocol artifact new specification" 12   35   tool.result call_05
 *    3    7   tool.result call_01                       13   36   Bash "cargo test …" (call_06)
 *    4   13   Bash "protocol artifact new story"        14   38   tool.result call_06
 *    5   15   tool.result call_02                       15   39   Bash "protocol artifact validate"
 *    6   21   text                                      16   41   tool.result call_07
 *    7   22   Write …/tests/board_json.rs (call_03)     17   43   text
 *    8   24   tool.result call_03                       18   46   session.ended
 *    9   25   Bash "cargo test …" (call_04)             —    47   stream.closed (the last line)
 *
 * No tool.requested carries `operations` or `subjects`, so operation-only scopes select nothing
 * and subjects fall back to the path argument: `file:/work/aep/crates/protocol-cli/tests/…`.
 */
const EXPECTED: { id: string; verdict: 'ok' | 'gap'; severity: 'gate' | 'advisory'; events: number[]; note: string }[] = [
  // order: the first Bash whose command contains "protocol artifact new specification" is 2; the
  // first with "… new story" is 4. The `shell` operation matches nothing (no operations recorded)
  // but the union with `tools: [Bash]` selects them. 2 < 4 → ok, citing [2, 4].
  {
    id: 'the-specification-came-before-the-decomposition',
    verdict: 'ok',
    severity: 'gate',
    events: [2, 4],
    note: 'first shell or Bash(command ~ "protocol artifact new specification") at 2, first shell or Bash(command ~ "protocol artifact new story") at 4',
  },
  // order: the first Write whose subject (from file_path) globs file:*/tests/* is 7; the first on
  // file:*/src/* is 11. 7 < 11 → ok.
  { id: 'the-test-came-before-the-code', verdict: 'ok', severity: 'gate', events: [7, 11], note: 'first file.edit|file.write or Edit|NotebookEdit|Write at 7, first file.edit|file.write or Edit|NotebookEdit|Write at 11' },
  // order: the first "cargo test" Bash is 9 (it failed, red); the first write to */src/* is 11. 9 < 11 → ok.
  { id: 'the-suite-was-run-before-there-was-code-to-pass-it', verdict: 'ok', severity: 'gate', events: [9, 11], note: 'first shell or Bash(command ~ "cargo test") at 9, first file.edit|file.write or Edit|NotebookEdit|Write at 11' },
  // tool.absent: the two Writes have subjects under crates/, neither globs *.engineering/planning/*;
  // no other call is Write or NotebookEdit. No match, and the last line is stream.closed
  // (reason completed) → ok with no event cited.
  { id: 'no-artifact-file-was-rewritten-whole', verdict: 'ok', severity: 'gate', events: [], note: 'no call matches file.write or NotebookEdit|Write, and the run closed the stream (stream.closed, completed)' },
  // env.tool_available any-of: `Write` is among the 8 offered_tools (checked before `workspace_write`).
  { id: 'the-harness-had-a-writer-to-refuse', verdict: 'ok', severity: 'gate', events: [0], note: 'tool Write is among 8 offered' },
  // tool.called: the Writes at 7 and 11 (no Edit, no operations); at_least 1, nothing unread → ok.
  { id: 'the-editor-was-used-at-all', verdict: 'ok', severity: 'gate', events: [7, 11], note: 'file.edit|file.write or Edit|NotebookEdit|Write called 2 time(s), at least 1' },
  // tool.called: one Bash contains "protocol artifact validate", at 15.
  { id: 'the-store-was-validated', verdict: 'ok', severity: 'gate', events: [15], note: 'shell or Bash(command ~ "protocol artifact validate") called 1 time(s), at least 1' },
  // tool.called with subject file:*/src/*: only the Write at 11.
  { id: 'the-implementation-was-changed', verdict: 'ok', severity: 'gate', events: [11], note: 'file.edit|file.write or Edit|NotebookEdit|Write called 1 time(s), at least 1' },
  // permission.denied: session.ended has census.denied 0 and permission_denials [], and every
  // tool.decided allows → 0 denials, at most 0 → ok, citing the terminal record 18.
  { id: 'nothing-was-refused', verdict: 'ok', severity: 'gate', events: [18], note: 'permission_denials = 0, at most 0' },
  // The same 0, against at_least 1 → gap; advisory, so it gates nothing (the case's declared advisory gap).
  { id: 'the-scope-was-actually-tested', verdict: 'gap', severity: 'advisory', events: [18], note: 'permission_denials = 0, at least 1' },
  // result over every session: the one session.ended has is_error false and terminal_reason completed.
  { id: 'terminal-record-clean', verdict: 'ok', severity: 'gate', events: [18], note: 'is_error=false, terminal_reason=completed' },
  // turns: num_turns 8, at most 40 → ok (advisory).
  { id: 'turns-within-reason', verdict: 'ok', severity: 'advisory', events: [18], note: 'num_turns = 8, at most 40' },
]

const specPath = referenceFile('aep', 'eval', 'development-honest', 'expectations.trace.yaml')
const transcriptPath = referenceFile('aep', 'eval', 'development-honest', 'transcript.jsonl')
let report: TraceReport

beforeAll(async () => {
  report = await checkTranscriptFile(readSpecFile(specPath), transcriptPath)
})

describe('aep eval case development-honest', () => {
  it('gives 11 ok, 1 gap and 0 unknown; the only gap is the advisory the case declares; verdict ok, exit 0', () => {
    expect(report.summary).toEqual({ total: 12, ok: 11, gap: 1, unknown: 0, advisory_gap: 1, advisory_unknown: 0 })
    expect(report.expectations.filter((row) => row.verdict === 'gap').map((row) => row.id)).toEqual(['the-scope-was-actually-tested'])
    expect(report.verdict).toBe('ok')
    expect(reportExitCode(report)).toBe(0)
  })

  it('decides every row as upstream’s rules give, citing the same events', () => {
    expect(report.expectations.map((row) => ({ id: row.id, verdict: row.verdict, severity: row.severity, events: 'events' in row.outcome ? row.outcome.events : null, note: 'note' in row.outcome ? row.outcome.note : null }))).toEqual(EXPECTED)
  })

  it('names the run by the sha256 of its bytes and the adapter that read it', () => {
    expect(report.transcript_digest).toBe(createHash('sha256').update(readFileSync(transcriptPath)).digest('hex'))
    expect(report.adapter).toEqual({ name: 'metaharness/event-stream', written_against: ['metaharness.event/1'] })
    expect(report.spec_id).toBe('eval-case/development-default')
    expect(report.spec_digest).toMatch(/^[0-9a-f]{64}$/)
  })

  it('exits 0 from the command line, with the advisory gap printed as such', async () => {
    const run = await runCli(['check', '--spec', specPath, '--transcript', transcriptPath])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('— 11 ok, 1 gap, 0 unk')
    expect(run.stdout).toContain('  gap (adv) the-scope-was-actually-tested')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('conformant: the run satisfies every expectation the specification states (exit 0)')
    const json = await runCli(['check', '--spec', specPath, '--transcript', transcriptPath, '--format', 'json'])
    expect(JSON.parse(json.stdout)).toEqual(report)
  })

  it('gates on the advisory row when it is written as a gate, exit 1', async () => {
    const document = parse(readFileSync(specPath, 'utf8')) as { expectations: { id: string; severity?: string }[] }
    for (const row of document.expectations) if (row.id === 'the-scope-was-actually-tested') delete row.severity
    const gated = parseSpecValue(document)
    if (!gated.ok) throw new Error('the edited document no longer validates')
    const strict = await checkTranscriptFile(gated.spec, transcriptPath)
    expect(strict.verdict).toBe('gap')
    expect(reportExitCode(strict)).toBe(1)
    expect(strict.spec_digest).not.toBe(report.spec_digest)
  })
})
