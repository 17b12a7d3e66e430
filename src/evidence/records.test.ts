import { describe, expect, it } from 'vitest'
import type { TraceReport } from '../trace/report-types.js'
import { contractResult, contractResultLine, contractResultRecord } from './contract-result.js'
import { renderEvidenceDocument } from './document.js'
import { EvidenceError } from './errors.js'
import { testResultRecord } from './test-result.js'
import { traceConformancePassed, traceConformanceRecord } from './trace-conformance.js'

const SPEC_DIGEST = 'a'.repeat(64)
const TRANSCRIPT_DIGEST = 'b'.repeat(64)

function report(overrides: Partial<TraceReport>, rows: [id: string, verdict: 'ok' | 'gap' | 'unknown', severity?: 'gate' | 'advisory'][]): TraceReport {
  const expectations = rows.map(([id, verdict, severity = 'gate']) => ({
    id,
    statement: null,
    kind: 'tool.called',
    severity,
    outcome: verdict === 'unknown' ? { outcome: 'undecidable' as const, reason: 'no_requests' } : { outcome: verdict, events: [1], note: 'n' },
    verdict,
  }))
  const count = (verdict: string, severity?: string): number => expectations.filter((row) => row.verdict === verdict && (severity === undefined || row.severity === severity)).length
  const gating = expectations.filter((row) => row.severity === 'gate')
  return {
    format: 'trace-report/1',
    spec_id: 'demo/spec',
    spec_title: null,
    spec_digest: SPEC_DIGEST,
    transcript_digest: TRANSCRIPT_DIGEST,
    adapter: { name: 'metaharness/event-stream', written_against: ['metaharness.event/1'] },
    redacted: false,
    advisory_overrides: [],
    summary: { total: rows.length, ok: count('ok'), gap: count('gap'), unknown: count('unknown'), advisory_gap: count('gap', 'advisory'), advisory_unknown: count('unknown', 'advisory') },
    verdict: gating.some((row) => row.verdict === 'gap') ? 'gap' : gating.some((row) => row.verdict === 'unknown') ? 'unknown' : 'ok',
    expectations,
    ...overrides,
  }
}

describe('trace_conformance', () => {
  it('maps ok → passed, gap → failed, unknown → inconclusive; only a clean pass is `passed` as a fact', () => {
    const ok = traceConformanceRecord(report({}, [['a', 'ok'], ['b', 'ok']]), 0)
    const gap = traceConformanceRecord(report({}, [['a', 'gap'], ['b', 'unknown']]), 0)
    const unknown = traceConformanceRecord(report({}, [['a', 'ok'], ['b', 'unknown']]), 0)
    const advisoryGap = traceConformanceRecord(report({}, [['a', 'ok'], ['b', 'gap', 'advisory']]), 0)
    expect([ok.status, gap.status, unknown.status, advisoryGap.status]).toEqual(['passed', 'failed', 'inconclusive', 'passed'])
    expect([ok, gap, unknown, advisoryGap].map(traceConformancePassed)).toEqual([true, false, false, false])
    expect(gap.gapped_expectations).toEqual(['a'])
    expect(advisoryGap.expectations_gapped).toBe(1)
  })

  it('writes the fields in upstream order and leaves out the empty ones', () => {
    const plain = traceConformanceRecord(report({}, [['a', 'ok']]), 1788220800000)
    expect(Object.keys(JSON.parse(JSON.stringify(plain)))).toEqual(['kind', 'specification', 'spec_digest', 'transcript_digest', 'status', 'expectations_total', 'expectations_gapped', 'expectations_unknown', 'adapter', 'observed_at', 'producer'])
    const full = traceConformanceRecord(report({ advisory_overrides: ['b'] }, [['a', 'ok'], ['b', 'gap', 'advisory']]), 7, { command: 'c', inputs: ['s', 't'] })
    expect(Object.keys(JSON.parse(JSON.stringify(full)))).toEqual([
      'kind', 'specification', 'spec_digest', 'transcript_digest', 'status', 'expectations_total', 'expectations_gapped', 'expectations_unknown',
      'advisory_overrides', 'adapter', 'gapped_expectations', 'observed_at', 'producer', 'provenance',
    ])
    expect(full.provenance).toEqual({ command: 'c', inputs: ['s', 't'] })
  })

  it('labels the adapter with the versions it was written against, or its bare name', () => {
    expect(traceConformanceRecord(report({}, [['a', 'ok']]), 0).adapter).toBe('metaharness/event-stream (written against metaharness.event/1)')
    expect(traceConformanceRecord(report({ adapter: { name: 'x', written_against: [] } }, [['a', 'ok']]), 0).adapter).toBe('x')
    expect(traceConformanceRecord(report({ adapter: { name: 'claude-code/stream-json', written_against: ['2.1.238', '2.1.239'] } }, [['a', 'ok']]), 0).adapter).toBe('claude-code/stream-json (written against 2.1.238, 2.1.239)')
  })

  it.each([
    [{ spec_digest: 'billing/v3' }, /spec_digest "billing\/v3" is not a digest: expected hexadecimal/],
    [{ spec_digest: 'ABCDEF0123456789' }, /lower case/],
    [{ spec_digest: 'abc' }, /expected 16 to 64 hexadecimal characters, found 3/],
    [{ transcript_digest: 'a'.repeat(16) }, /transcript_digest .* expected 64 hexadecimal characters, found 16/],
  ])('refuses a report whose digest is not a digest (%j)', (overrides, message) => {
    expect(() => traceConformanceRecord(report(overrides, [['a', 'ok']]), 0)).toThrow(message)
  })

  it('renders one record as a list of one, in YAML and in pretty JSON', () => {
    const record = traceConformanceRecord(report({}, [['a', 'gap']]), 5, { command: 'vitest-harness evidence --spec s --transcript t', inputs: ['s', 't'] })
    expect(renderEvidenceDocument([record], 'yaml')).toMatch(/^- kind: trace_conformance\n {2}specification: demo\/spec\n[\s\S]*\n {2}gapped_expectations:\n {2}- a\n {2}observed_at: 5\n[\s\S]*\n {4}inputs:\n {4}- s\n {4}- t\n$/)
    const json = renderEvidenceDocument([record], 'json')
    expect(json.startsWith('[\n  {\n    "kind": "trace_conformance",\n')).toBe(true)
    expect(json.endsWith('\n  }\n]\n')).toBe(true)
    expect(JSON.parse(json)).toEqual([JSON.parse(JSON.stringify(record))])
  })
})

describe('test_result', () => {
  it('writes suite, counts, optional duration and selector, and the test runner as producer', () => {
    const record = testResultRecord({ suite: 'unit', passed: 3, failed: 1, skipped: 2, durationMs: 12.6, selector: 'test/a.test.ts' }, 9)
    expect(renderEvidenceDocument([record], 'yaml')).toBe(
      ['- kind: test_result', '  suite: unit', '  passed: 3', '  failed: 1', '  skipped: 2', '  duration_ms: 13', '  selector: test/a.test.ts', '  observed_at: 9', '  producer:', '    producer: verifier', '    verifier: test-runner', ''].join('\n'),
    )
  })

  it('never records a run in which nothing passed or failed, nor a suite name the engine refuses', () => {
    expect(() => testResultRecord({ suite: 'unit', passed: 0, failed: 0, skipped: 4 }, 0)).toThrow(/no test ran to a result/)
    expect(() => testResultRecord({ suite: 'Unit Tests', passed: 1, failed: 0, skipped: 0 }, 0)).toThrow(/kebab-case/)
    expect(() => testResultRecord({ suite: 'unit', passed: -1, failed: 2, skipped: 0 }, 0)).toThrow(EvidenceError)
  })
})

describe('contract_result', () => {
  const vectors = [
    { tier: 'c1', passed: true },
    { tier: 'c2', passed: false },
    { tier: 'c2', passed: true },
    { tier: 'c3', passed: false },
  ]

  it('counts breaking changes among red C1/C2 vectors only', () => {
    expect(contractResult(vectors, 'b10x 0.12.1')).toEqual({ kind: 'contract_result', checked: 4, failed: 2, breaking_changes: 1, consumer: 'metaharness.event/1', provider: 'b10x 0.12.1' })
  })

  it('prints the line compact with sorted keys and a newline', () => {
    expect(contractResultLine(contractResult(vectors, 'b10x 0.12.1'))).toBe('{"breaking_changes":1,"checked":4,"consumer":"metaharness.event/1","failed":2,"kind":"contract_result","provider":"b10x 0.12.1"}\n')
  })

  it('mints the evidence form in upstream field order, and refuses a contract that checked nothing', () => {
    const record = contractResultRecord(contractResult(vectors, 'b10x 0.12.1'), 3, { command: 'x', digest: 'd', inputs: ['r.json'] })
    expect(Object.keys(JSON.parse(JSON.stringify(record)))).toEqual(['kind', 'checked', 'failed', 'breaking_changes', 'consumer', 'provider', 'observed_at', 'producer', 'provenance'])
    expect(record.producer).toEqual({ producer: 'verifier', verifier: 'contract-runner' })
    expect(() => contractResultRecord(contractResult([], 'b10x 0.12.1'), 0)).toThrow(/checked nothing/)
    expect(() => contractResultRecord({ ...contractResult(vectors, 'p'), breaking_changes: 3 }, 0)).toThrow(/3 breaking change\(s\) out of 2 failure\(s\)/)
  })
})
