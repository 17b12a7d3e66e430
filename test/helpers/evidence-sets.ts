import { renderEvidenceDocument } from '../../src/evidence/document.js'
import type { EvidenceSetFile } from '../../src/evidence/set-manifest.js'
import { testResultRecord } from '../../src/evidence/test-result.js'
import { traceConformanceRecord } from '../../src/evidence/trace-conformance.js'
import type { TraceReport } from '../../src/trace/report-types.js'

const OBSERVED_AT = 1_700_000_000_000

function report(label: string, verdict: 'ok' | 'gap'): TraceReport {
  return {
    format: 'trace-report/1',
    spec_id: `${label}/spec`,
    spec_title: null,
    spec_digest: 'c'.repeat(64),
    transcript_digest: 'd'.repeat(64),
    adapter: { name: 'metaharness/event-stream', written_against: ['metaharness.event/1'] },
    redacted: false,
    advisory_overrides: [],
    summary: { total: 1, ok: verdict === 'ok' ? 1 : 0, gap: verdict === 'gap' ? 1 : 0, unknown: 0, advisory_gap: 0, advisory_unknown: 0 },
    verdict,
    expectations: [{ id: 'row', statement: null, kind: 'order', severity: 'gate', outcome: { outcome: verdict, events: [1], note: 'n' }, verdict }],
  }
}

/**
 * COUNT real evidence documents whose bytes name `label`, so the set a folder holds tells which
 * writer wrote it: by index mod 3, a failed `trace_conformance`, a passed one, a `test_result`.
 */
export function evidenceSetDocuments(label: string, count: number): EvidenceSetFile[] {
  return Array.from({ length: count }, (_, index) => {
    const stem = `${label}-${String(index).padStart(3, '0')}.0123abcd`
    if (index % 3 === 2) {
      return { name: `test_result.${stem}.evidence.yaml`, bytes: renderEvidenceDocument([testResultRecord({ suite: 'unit', passed: 1, failed: 0, skipped: 0, selector: `${label}/${index}.test.ts` }, OBSERVED_AT)], 'yaml') }
    }
    return { name: `trace_conformance.${stem}.evidence.yaml`, bytes: renderEvidenceDocument([traceConformanceRecord(report(label, index % 3 === 0 ? 'gap' : 'ok'), OBSERVED_AT)], 'yaml') }
  })
}
