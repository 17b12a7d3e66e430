import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderEvidenceDocument } from '../../src/evidence/document.js'
import { TRACE_CHECKER, traceConformancePassed, traceConformanceRecord } from '../../src/evidence/trace-conformance.js'
import { DEFAULT_VERIFIERS } from '../../src/evidence/verifiers.js'
import { checkTranscriptText } from '../../src/trace/check/check.js'
import { reportExitCode } from '../../src/trace/check/report.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { runCli } from '../helpers/cli.js'
import { call, closed, ended, metaharness, result, start, streamJson } from '../helpers/trace.js'

/**
 * `check` and `evidence` as upstream pins them: one test per assertion of beyond10x/aep's
 * `crates/edge/aep-cli/tests/trace_cli.rs` and `crates/observe/trace-spec/tests/evidence.rs`,
 * named after the upstream test. Upstream's fixtures (a real plugin-eval run) are not ours to
 * copy; each stands here as a small transcript of the same shape (Claude Code stream-json with
 * Bash calls, closed by its `result` record; a closed `metaharness.event/1` driven step).
 */

const SESSION = 's-upstream-1'
const TRANSCRIPT = streamJson([
  { type: 'system', subtype: 'init', session_id: SESSION, model: 'claude-sonnet-5', permissionMode: 'dontAsk', apiKeySource: 'none', tools: ['Bash', 'Read'], mcp_servers: [] },
  { type: 'assistant', session_id: SESSION, message: { id: 'm-1', model: 'claude-sonnet-5', usage: { input_tokens: 10, output_tokens: 4 }, content: [{ type: 'tool_use', id: 't-1', name: 'Bash', input: { command: 'npm test' } }] } },
  { type: 'user', session_id: SESSION, message: { content: [{ type: 'tool_result', tool_use_id: 't-1', content: 'ok' }] } },
  { type: 'assistant', session_id: SESSION, message: { id: 'm-2', model: 'claude-sonnet-5', usage: { input_tokens: 12, output_tokens: 3 }, content: [{ type: 'text', text: 'The suite passes.' }] } },
  { type: 'result', subtype: 'success', session_id: SESSION, is_error: false, num_turns: 2, permission_denials: [] },
])

/** The eval's own specification: what the run did. */
const SPEC = `format: trace-spec/1
id: planning-plugin/eval
expectations:
  - id: ran-the-suite
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: never-wrote
    expect: {tool.absent: {tool: Write}}
`

const FORBIDS_BASH = 'format: trace-spec/1\nid: trace-cli/forbids-bash\nexpectations:\n  - id: nothing-shelled-out\n    expect:\n      tool.absent:\n        tool: Bash\n'

const UNDECIDABLE = 'format: trace-spec/1\nid: trace-evidence/undecidable\nexpectations:\n  - id: a-tool-this-run-never-called\n    expect:\n      tool.result:\n        tool: NoSuchToolExistsHere\n        result:\n          userModified: {equals: false}\n'

const EVENT_STREAM = metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }, { operations: ['shell'] }), result('c-1'), ended(), closed(4)])
const DRIVEN_SPEC = 'format: trace-spec/1\nid: driven-step\nexpectations:\n  - id: ran-the-suite\n    expect: {tool.called: {operations: [shell]}}\n'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-upstream-verbs-'))
  writeFileSync(join(dir, 'expectations.trace.yaml'), SPEC)
  writeFileSync(join(dir, 'plugin-eval.jsonl'), TRANSCRIPT)
  writeFileSync(join(dir, 'forbids-bash.trace.yaml'), FORBIDS_BASH)
  writeFileSync(join(dir, 'driven.jsonl'), EVENT_STREAM)
  writeFileSync(join(dir, 'driven-step.trace.yaml'), DRIVEN_SPEC)
  writeFileSync(join(dir, 'notes.md'), '# notes\n\nnothing here is a transcript\n')
})

const aep = (...argv: string[]) => runCli(argv, { cwd: dir })
const evidenceOf = (...extra: string[]) => aep('evidence', '--spec', 'expectations.trace.yaml', '--transcript', 'plugin-eval.jsonl', '--observed-at', '2026-08-21', ...extra)

describe('trace_cli.rs', () => {
  it('the_record_the_checker_writes_is_one_the_engine_accepts', async () => {
    const minted = await evidenceOf('--out', 'trace.yaml')
    expect(minted.code).toBe(0)
    expect(minted.stdout).toContain('passed')
    const document = readFileSync(join(dir, 'trace.yaml'), 'utf8')
    expect(document.startsWith('- kind: trace_conformance\n')).toBe(true)
    expect(document).toContain('verifier: trace-checker')
    expect(document).not.toContain('producer: agent')
    expect(document).toContain('spec_digest:')
    expect(document).toContain('transcript_digest:')
    // The engine's intake (`aep govern evaluate --evidence`) accepts it.
    expect((await aep('evidence', 'validate', '--now', '2026-08-22', 'trace.yaml')).code).toBe(0)
  })

  it('the_json_rendering_is_read_by_the_same_loader_as_the_yaml_one', async () => {
    const minted = await evidenceOf('--format', 'json', '--out', 'trace.json')
    expect(minted.code).toBe(0)
    const document = readFileSync(join(dir, 'trace.json'), 'utf8')
    expect(document.trimStart().startsWith('[')).toBe(true)
    expect(document.endsWith('\n')).toBe(true)
    expect((await aep('evidence', 'validate', '--now', '2026-08-22', 'trace.json')).code).toBe(0)
  })

  it('a_run_that_gapped_is_written_down_rather_than_exited_on', async () => {
    expect((await aep('check', '--spec', 'forbids-bash.trace.yaml', '--transcript', 'plugin-eval.jsonl')).code).toBe(1)
    const minted = await aep('evidence', '--spec', 'forbids-bash.trace.yaml', '--transcript', 'plugin-eval.jsonl')
    expect(minted.code).toBe(0)
    expect(minted.stdout).toContain('status: failed')
    expect(minted.stdout).toContain('nothing-shelled-out')
  })

  it('a_driven_event_stream_is_checked_with_the_same_arguments_as_a_recorded_transcript', async () => {
    const checked = await aep('check', '--spec', 'driven-step.trace.yaml', '--transcript', 'driven.jsonl')
    expect(checked.code).toBe(0)
    expect(checked.stdout).toContain('adapter metaharness/event-stream')
    const minted = await aep('evidence', '--spec', 'driven-step.trace.yaml', '--transcript', 'driven.jsonl', '--out', 'driven.yaml')
    expect(minted.code).toBe(0)
    const document = readFileSync(join(dir, 'driven.yaml'), 'utf8')
    expect(document.startsWith('- kind: trace_conformance\n')).toBe(true)
    expect(document).toContain('transcript_digest:')
  })

  it('a_file_that_is_neither_wire_is_refused_with_the_format_it_was_read_as', async () => {
    const refused = await aep('check', '--spec', 'driven-step.trace.yaml', '--transcript', 'notes.md')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('claude-code/stream-json')
    expect(refused.stderr).toContain('TRACE-ADAPT-001')
  })

  it('a_downgrade_the_specification_does_not_declare_is_refused_by_the_evidence_verb_too', async () => {
    const refused = await evidenceOf('--advisory', 'no-such-expectation')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('no-such-expectation')
    expect(refused.stdout).toBe('')
    // And `check` refuses it the same way.
    const checked = await aep('check', '--spec', 'expectations.trace.yaml', '--transcript', 'plugin-eval.jsonl', '--advisory', 'no-such-expectation')
    expect(checked.code).toBe(1)
    expect(checked.stdout).toBe('')
  })

  it('the_provenance_command_is_the_canonical_grouped_spelling', async () => {
    // Whatever order the caller typed, the record's command is the one canonical spelling.
    const typed = await aep('evidence', '--observed-at', '2026-08-21', '--transcript', 'plugin-eval.jsonl', '--spec', 'expectations.trace.yaml')
    const canonical = await evidenceOf()
    const command = (document: string) => document.split('\n').find((line) => line.trim().startsWith('command: '))?.trim()
    expect(command(typed.stdout)).toBe('command: vitest-harness evidence --spec expectations.trace.yaml --transcript plugin-eval.jsonl')
    expect(typed.stdout).toBe(canonical.stdout)
  })
})

const OBSERVED = 0
const reportOf = (spec: string, advisory: string[] = []): TraceReport => checkTranscriptText(readSpec(spec), TRANSCRIPT, { advisory })

describe('evidence.rs', () => {
  it('the_record_carries_the_digest_pair_the_report_computed', () => {
    const checked = reportOf(SPEC)
    expect(checked.summary.gap).toBe(0)
    const record = traceConformanceRecord(checked, OBSERVED)
    expect(record.spec_digest).toBe(checked.spec_digest)
    expect(record.transcript_digest).toBe(checked.transcript_digest)
    expect(record.spec_digest).not.toBe(record.transcript_digest)
    expect(record.specification).toBe('planning-plugin/eval')
    expect(record.status).toBe('passed')
    expect(record.expectations_total).toBe(checked.summary.total)
    expect(record.expectations_gapped).toBe(0)
    expect(record.gapped_expectations ?? []).toEqual([])
    expect(record.adapter).toBe('claude-code/stream-json (written against 2.1.238)')
  })

  it('the_record_names_the_trace_checker_and_never_the_caller', () => {
    const record = traceConformanceRecord(reportOf(SPEC), OBSERVED)
    expect(record.producer).toEqual({ producer: 'verifier', verifier: 'trace-checker' })
    const document = JSON.stringify([record])
    expect(document).toContain('"verifier":"trace-checker"')
    expect(document).not.toContain('"producer":"agent"')
  })

  it('a_contradicted_run_is_written_down_rather_than_refused', () => {
    const checked = reportOf(FORBIDS_BASH)
    expect(checked.summary.gap).toBe(1)
    const record = traceConformanceRecord(checked, OBSERVED)
    expect(record.status).toBe('failed')
    expect(record.expectations_gapped).toBe(1)
    expect(record.gapped_expectations).toEqual(['nothing-shelled-out'])
    expect(traceConformancePassed(record)).toBe(false)
  })

  it('a_run_nobody_could_judge_is_inconclusive_and_not_failed', () => {
    const checked = reportOf(UNDECIDABLE)
    expect(checked.summary.unknown).toBe(1)
    expect(checked.summary.gap).toBe(0)
    expect(reportExitCode(checked)).toBe(3)
    const record = traceConformanceRecord(checked, OBSERVED)
    expect(record.status).toBe('inconclusive')
    expect(record.expectations_unknown).toBe(1)
    expect(traceConformancePassed(record)).toBe(false)
  })

  it('a_command_line_downgrade_is_recorded_and_does_not_make_the_record_pass', () => {
    const checked = reportOf(FORBIDS_BASH, ['nothing-shelled-out'])
    expect(reportExitCode(checked)).toBe(0)
    const record = traceConformanceRecord(checked, OBSERVED)
    expect(record.status).toBe('passed')
    expect(record.advisory_overrides).toEqual(['nothing-shelled-out'])
    expect(record.expectations_gapped).toBe(1)
    expect(traceConformancePassed(record)).toBe(false)
  })

  it('the_document_is_one_record_of_the_kind_the_protocol_declares', () => {
    const record = traceConformanceRecord(reportOf(SPEC), OBSERVED)
    const document = JSON.stringify([record])
    expect(document.startsWith('[{"kind":"trace_conformance",')).toBe(true)
    expect(document).toContain('"transcript_digest":')
    expect(document).not.toContain('"expectations":')
    expect(renderEvidenceDocument([record], 'json').trimStart().startsWith('[')).toBe(true)
  })

  it('a_report_whose_digests_are_not_digests_is_refused_rather_than_recorded', () => {
    const handMade: TraceReport = { ...reportOf(SPEC), spec_digest: 'not-a-digest' }
    expect(() => traceConformanceRecord(handMade, OBSERVED)).toThrowError(expect.objectContaining({ code: 'VH_EVIDENCE_RECORD' }) as Error)
  })

  it('the_producer_constant_is_the_class_the_evidence_kind_names', () => {
    expect(TRACE_CHECKER.producer).toBe('verifier')
    expect(DEFAULT_VERIFIERS.trace_conformance).toContain(TRACE_CHECKER.verifier)
  })
})
