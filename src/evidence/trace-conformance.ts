import type { RowVerdict, TraceReport } from '../trace/report-types.js'
import { EvidenceError } from './errors.js'
import { compactProvenance } from './provenance.js'
import type { EvidenceProvenance, TraceConformanceRecord, VerificationStatus, VerifierProducer } from './types.js'

/** The only producer a trace check stamps: a constant, so no caller can name itself the verifier. */
export const TRACE_CHECKER: VerifierProducer = Object.freeze({ producer: 'verifier', verifier: 'trace-checker' })

/** ok → passed, gap → failed, unknown → inconclusive: "nobody found out" is not a failure, nor a pass. */
export function evidenceStatus(verdict: RowVerdict): VerificationStatus {
  switch (verdict) {
    case 'ok':
      return 'passed'
    case 'gap':
      return 'failed'
    case 'unknown':
      return 'inconclusive'
  }
}

/** `name`, or `name (written against a, b)` — which reader produced the verdict is part of it. */
export function adapterLabel(adapter: TraceReport['adapter']): string {
  return adapter.written_against.length === 0 ? adapter.name : `${adapter.name} (written against ${adapter.written_against.join(', ')})`
}

function checkDigest(field: string, value: string, min: number, max: number, hint: string): void {
  let reason: string | undefined
  if (/[A-Z]/.test(value)) reason = 'digests are written in lower case, so one value has one spelling'
  else if (!/^[0-9a-f]*$/.test(value)) reason = hint
  else if (value.length < min || value.length > max) reason = `expected ${min === max ? min : `${min} to ${max}`} hexadecimal characters, found ${value.length}`
  if (reason) throw new EvidenceError('VH_EVIDENCE_RECORD', `the report's ${field} ${JSON.stringify(value)} is not a digest: ${reason}`)
}

/**
 * The `trace_conformance` record a check report mints, exactly as `aep observe trace evidence`
 * builds it: the verdict, the three counts over every row (advisory included), the ids of the
 * gapped rows in document order and the digest pair — never the rows themselves, whose citations
 * quote the transcript. Throws `VH_EVIDENCE_RECORD` when a digest in the report is not a digest.
 */
export function traceConformanceRecord(report: TraceReport, observedAt: number, provenance?: EvidenceProvenance): TraceConformanceRecord {
  checkDigest('spec_digest', report.spec_digest, 16, 64, 'expected hexadecimal; a name such as `billing/v3` is not a digest')
  checkDigest('transcript_digest', report.transcript_digest, 64, 64, 'expected hexadecimal; a file path is not a digest')
  const gapped = report.expectations.filter((row) => row.verdict === 'gap').map((row) => row.id)
  return {
    kind: 'trace_conformance',
    specification: report.spec_id,
    spec_digest: report.spec_digest,
    transcript_digest: report.transcript_digest,
    status: evidenceStatus(report.verdict),
    expectations_total: report.summary.total,
    expectations_gapped: report.summary.gap,
    expectations_unknown: report.summary.unknown,
    advisory_overrides: report.advisory_overrides.length > 0 ? [...report.advisory_overrides] : undefined,
    adapter: adapterLabel(report.adapter),
    gapped_expectations: gapped.length > 0 ? gapped : undefined,
    observed_at: observedAt,
    producer: TRACE_CHECKER,
    provenance: compactProvenance(provenance),
  }
}

/**
 * The `trace_conformance.passed` fact: passed and nothing gapped. An advisory gap or an
 * `--advisory` downgrade leaves the status `passed` and this fact false.
 */
export function traceConformancePassed(record: TraceConformanceRecord): boolean {
  return record.status === 'passed' && record.expectations_gapped === 0
}

/** The canonical command that reproduces a record through this package's CLI (`--from` only when one was named). */
export function traceEvidenceCommand(specPath: string, transcriptPath: string, advisory: readonly string[], from?: string): string {
  const format = from === undefined ? '' : ` --from ${from}`
  return [`vitest-harness evidence --spec ${specPath} --transcript ${transcriptPath}${format}`, ...advisory.map((id) => ` --advisory ${id}`)].join('')
}
