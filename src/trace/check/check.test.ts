import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findAdapter } from '../../../adapters/registry.js'
import { call, closed, ended, metaharness, result, rowOf, start, text } from '../../../test/helpers/trace.js'
import { loadVectorManifest, vectorFile } from '../../contract/manifest.js'
import { seamFromInput } from '../../contract/seam.js'
import { splitTextLines } from '../../events/lines.js'
import { EventStreamWriter } from '../../events/write.js'
import type { Emission } from '../../events/types.js'
import { TraceAdvisoryError, TraceTranscriptError } from '../errors.js'
import { readSpec } from '../spec/read.js'
import { checkEvents, checkTranscriptText } from './check.js'
import { reportToText, verdictSentence } from './render.js'
import { redactReport, reportExitCode } from './report.js'

const SPEC = readSpec(`format: trace-spec/1
id: unit/report
title: A small run
expectations:
  - id: ran-the-tests
    statement: the suite ran
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: never-edited
    expect: {tool.absent: {tool: Edit}}
  - id: cheap
    severity: advisory
    expect: {cost.total: {at_most_usd: 0.01}}
  - id: used-the-cache
    expect: {cache.used: {equals: true}}
`)

const RUN = metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), text('done'), ended({ usage: null }), closed(5)])

describe('the report', () => {
  const report = checkTranscriptText(SPEC, RUN)

  it('folds the gating rows: a gating unknown with no gating gap is unknown (exit 3); an advisory gap gates nothing', () => {
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['ran-the-tests', 'ok'],
      ['never-edited', 'ok'],
      ['cheap', 'gap'],
      ['used-the-cache', 'unknown'],
    ])
    expect(report.summary).toEqual({ total: 4, ok: 2, gap: 1, unknown: 1, advisory_gap: 1, advisory_unknown: 0 })
    expect(report.verdict).toBe('unknown')
    expect(reportExitCode(report)).toBe(3)
  })

  it("prints trace-report/1 with upstream's field order and flattened reasons", () => {
    expect(Object.keys(report)).toEqual(['format', 'spec_id', 'spec_title', 'spec_digest', 'transcript_digest', 'adapter', 'redacted', 'advisory_overrides', 'summary', 'verdict', 'expectations'])
    expect(Object.keys(report.expectations[0] as object)).toEqual(['id', 'statement', 'kind', 'severity', 'outcome', 'verdict'])
    expect(JSON.stringify(report.expectations[3]?.outcome)).toBe('{"outcome":"undecidable","reason":"field_absent","field":"usage"}')
    expect(report.transcript_digest).toBe(createHash('sha256').update(RUN).digest('hex'))
    expect(report.spec_digest).toBe(SPEC.digest)
  })

  it('renders one row per expectation, advisory rows marked, the digests and the footer', () => {
    const lines = reportToText(report).split('\n')
    expect(lines[0]).toBe(`unit/report against transcript sha256:${report.transcript_digest.slice(0, 12)}… — 2 ok, 1 gap, 1 unk`)
    expect(lines[1]).toBe('  A small run')
    expect(lines[2]).toBe('  ok        ran-the-tests   Bash(command ~ "npm test") called 1 time(s), at least 1 at event 1')
    expect(lines[4]).toBe('  gap (adv) cheap           cost = $0.2500, at most 0.01 at event 4')
    expect(lines[5]).toBe('  unk       used-the-cache  this transcript records no `usage`')
    expect(lines[6]).toBe(`spec sha256:${SPEC.digest.slice(0, 12)}…  adapter metaharness/event-stream`)
    expect(lines[7]).toContain('`--redact` replaces them with digests')
    expect(verdictSentence(report)).toBe('undecided: nothing was contradicted and 1 expectation(s) could not be judged from this transcript — somebody should look at the format, not at the agent (exit 3)')
  })

  it('redacts notes to digests, keeping the events, the reasons and both content digests', () => {
    const redacted = redactReport(report)
    expect(redacted.redacted).toBe(true)
    expect(redacted.expectations[0]?.outcome).toEqual({
      outcome: 'ok',
      events: [1],
      note: `sha256:${createHash('sha256').update('Bash(command ~ "npm test") called 1 time(s), at least 1').digest('hex').slice(0, 12)}`,
    })
    expect(redacted.expectations[3]?.outcome).toEqual(report.expectations[3]?.outcome)
    expect(JSON.stringify(redacted)).not.toContain('npm test')
    expect(reportToText(redacted)).toContain('note: redacted — every citation is an event index and a digest')
  })

  it('maps an unknown to a gap for a row that declares on_unknown: gap', () => {
    const row = rowOf('{cache.used: {equals: true}}', RUN, { extra: '    on_unknown: gap\n' })
    expect(row.outcome).toMatchObject({ outcome: 'undecidable', reason: 'field_absent' })
    expect(row.verdict).toBe('gap')
  })
})

describe('--advisory', () => {
  it('downgrades the named rows, records them, and leaves the digest as authored', () => {
    const report = checkTranscriptText(SPEC, RUN, { advisory: ['used-the-cache'] })
    expect(report.expectations[3]?.severity).toBe('advisory')
    expect(report.advisory_overrides).toEqual(['used-the-cache'])
    expect(report.verdict).toBe('ok')
    expect(report.spec_digest).toBe(SPEC.digest)
    expect(verdictSentence(report)).toBe('conformant: every gating expectation holds; 2 advisory or undecidable row(s) are reported and gate nothing (exit 0)')
    expect(reportToText(report)).toContain('note: downgraded to advisory on the command line: used-the-cache — the specification\'s digest is the document as authored')
  })

  it('refuses ids the specification does not declare, with upstream’s sentence', () => {
    expect(() => checkTranscriptText(SPEC, RUN, { advisory: ['zeta', 'used-the-cache', 'alpha'] })).toThrowError(
      new TraceAdvisoryError(['alpha', 'zeta'], 'unit/report'),
    )
    expect(new TraceAdvisoryError(['alpha', 'zeta'], 'unit/report').message).toBe(
      '--advisory names 2 expectation(s) `unit/report` does not declare: alpha, zeta. A downgrade that matched nothing would relax nothing while looking as though it had',
    )
  })
})

describe('what the checker is safe against', () => {
  it('cannot be hung by a regex that backtracks catastrophically on a backtracking engine', () => {
    const poison = `${'a'.repeat(200_000)}!`
    const transcript = metaharness([call('c-1', 'Bash', { command: poison }), result('c-1'), ended(), closed(3)])
    // (a+)+$ over 200,000 a's then '!' is exponential for backtracking; RE2 answers in one pass.
    const row = rowOf('{tool.absent: {tool: Bash, args: {command: {regex: "(a+)+$"}}}}', transcript)
    expect(row.verdict).toBe('ok')
    expect(rowOf('{tool.called: {tool: Bash, args: {command: {regex: "^(a|aa)+!$"}}}}', transcript).verdict).toBe('ok')
  })

  it('refuses a transcript with every bad line listed, wrapped as upstream words it', () => {
    try {
      checkTranscriptText(SPEC, 'nope\n{"type":"result"}\n[\n', { source: 'run.jsonl' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(TraceTranscriptError)
      expect((error as Error).message.split('\n')[0]).toBe('run.jsonl is not a transcript this build can read as claude-code/stream-json — 2 refusal(s):')
      expect((error as TraceTranscriptError).refusals.map((refusal) => refusal.location)).toEqual(['line[1]', 'line[3]'])
    }
  })

  it('correlates a result to its call when the result came first, and ignores a second result', () => {
    const transcript = metaharness([result('c-1', { is_error: true }), call('c-1', 'Bash', {}), result('c-1', { is_error: false }), closed(3)])
    expect(rowOf('{tool.failed: {tool: Bash, count: {exactly: 1}}}', transcript).outcome).toMatchObject({ outcome: 'ok', events: [0] })
  })
})

describe('checkEvents: events an adapter produced, through the same reader', () => {
  const emissions: Emission[] = [
    { event: 'session.started', adapter: 'b10x', adapter_class: 'direct_provider', transcript: {}, hermetic: { mode: 'strict', decisions: 'observe' }, offered_tools: ['file_write'] },
    { event: 'tool.requested', call_id: 'c-1', name: 'file_write', input: { path: 'src/a.rs' }, operations: ['file.write'], subjects: ['file:src/a.rs'], decision_required: false, seam: 'none' },
    { event: 'tool.result', call_id: 'c-1', is_error: false },
    { event: 'session.ended', is_error: false, census: { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} } },
  ]

  it('gives the report checking the written stream gives, digest included', () => {
    const spec = readSpec(`format: trace-spec/1
id: unit/events
expectations:
  - id: wrote-source
    expect: {tool.called: {operations: [file.write], subject: {glob: "file:src/*"}}}
  - id: clean
    expect: {result: {is_error: false}}
`)
    const writer = new EventStreamWriter('golden')
    const written = emissions.map((emission) => writer.write(emission)).join('')
    const fromEvents = checkEvents(spec, emissions, { run: 'golden' })
    expect(fromEvents).toEqual(checkTranscriptText(spec, written))
    expect(fromEvents.verdict).toBe('ok')
    expect(fromEvents.transcript_digest).toBe(createHash('sha256').update(written).digest('hex'))
  })

  it("checks a b10x loop record through the adapter's projector as its replayed file would be checked", () => {
    const adapter = findAdapter('b10x')
    if (!adapter) throw new Error('the b10x adapter is not registered')
    const vector = loadVectorManifest(fileURLToPath(new URL('../../../vectors/b10x/golden-loop-record', import.meta.url)))
    if (vector.kind !== 'replay') throw new Error('the golden loop is a replay vector')
    const seam = seamFromInput(vector.inputs.seam)
    const projector = adapter.createProjector(seam)
    const loop = readFileSync(vectorFile(vector, vector.inputs.record), 'utf8')
    const emissions = [...splitTextLines(loop).flatMap((line, index) => projector.pushLine(line, index + 1)), ...projector.finish()]
    const spec = readSpec(`format: trace-spec/1
id: unit/b10x
expectations:
  - id: read-a-file
    expect: {tool.called: {tool: file_read, subject: {exact: "file:NOTES.md"}}}
  - id: finished
    expect: {result: {is_error: false}}
  - id: never-wrote
    expect: {tool.absent: {tools: [file_write, file_edit]}}
`)
    const report = checkEvents(spec, emissions, { run: seam.run })
    expect(report).toEqual(checkTranscriptText(spec, readFileSync(vectorFile(vector, vector.expected.events))))
    expect(report.expectations.map((row) => row.verdict)).toEqual(['ok', 'ok', 'unknown'])
    // A replay carries no stream.closed: an absence stays undecided, never a pass nobody earned.
    expect(report.expectations[2]?.outcome).toMatchObject({ reason: 'stream_not_closed' })
  })
})
