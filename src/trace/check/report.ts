import { sha256Hex } from '../../events/digest.js'
import { EXIT } from '../../util/exit-codes.js'
import type { AdapterRef } from '../ir/types.js'
import type { TraceSpec } from '../spec/model.js'
import { TRACE_REPORT_FORMAT, type ExpectationRow, type RowVerdict, type TraceReport } from '../report-types.js'
import type { Outcome } from './outcome.js'

/** How many hex characters of a note's digest a redacted report shows. */
const REDACTED_PREFIX = 12

/** The verdict an outcome is, after the expectation's `on_unknown` policy. */
function rowVerdict(outcome: Outcome, onUnknown: 'unknown' | 'gap'): RowVerdict {
  if (outcome.outcome === 'undecidable') return onUnknown === 'gap' ? 'gap' : 'unknown'
  return outcome.outcome
}

/**
 * Assembles `trace-report/1` from one outcome per expectation, in document order: the rows, the
 * summary, and the verdict over the gating rows alone (any gap → `gap`, else any unknown →
 * `unknown`, else `ok`). Field order is upstream's, so `JSON.stringify(report, null, 2)` prints
 * what `serde_json::to_string_pretty` prints.
 */
export function buildReport(options: {
  spec: TraceSpec
  outcomes: Outcome[]
  transcriptDigest: string
  adapter: AdapterRef
  advisoryOverrides: string[]
}): TraceReport {
  const { spec, outcomes } = options
  const summary = { total: spec.expectations.length, ok: 0, gap: 0, unknown: 0, advisory_gap: 0, advisory_unknown: 0 }
  let verdict: RowVerdict = 'ok'
  const expectations: ExpectationRow[] = spec.expectations.map((expectation, index) => {
    const outcome = outcomes[index] as Outcome
    const row: ExpectationRow = {
      id: expectation.id,
      statement: expectation.statement,
      kind: expectation.kind.expect,
      severity: expectation.severity,
      outcome,
      verdict: rowVerdict(outcome, expectation.on_unknown),
    }
    const gates = expectation.severity === 'gate'
    if (row.verdict === 'ok') summary.ok += 1
    else if (row.verdict === 'gap') {
      summary.gap += 1
      if (gates) verdict = 'gap'
      else summary.advisory_gap += 1
    } else {
      summary.unknown += 1
      if (gates) {
        if (verdict === 'ok') verdict = 'unknown'
      } else summary.advisory_unknown += 1
    }
    return row
  })
  return {
    format: TRACE_REPORT_FORMAT,
    spec_id: spec.id,
    spec_title: spec.title,
    spec_digest: spec.digest,
    transcript_digest: options.transcriptDigest,
    adapter: { name: options.adapter.name, written_against: [...options.adapter.written_against] },
    redacted: false,
    advisory_overrides: [...options.advisoryOverrides],
    summary,
    verdict,
    expectations,
  }
}

/**
 * The same report with every transcript-derived note replaced by `sha256:` and the first twelve
 * hex of its digest. Event indices and both content digests stay, so every verdict remains
 * checkable by anyone holding the transcript; reasons name no payload and are kept.
 */
export function redactReport(report: TraceReport): TraceReport {
  return {
    ...report,
    redacted: true,
    expectations: report.expectations.map((row) => {
      const outcome = row.outcome
      if (outcome.outcome === 'undecidable') return row
      const note = `sha256:${sha256Hex(outcome.note).slice(0, REDACTED_PREFIX)}`
      return { ...row, outcome: { outcome: outcome.outcome, events: outcome.events, note } }
    }),
  }
}

/** 0 every gating expectation holds · 1 a gating gap · 3 no gap and a gating unknown. */
export function reportExitCode(report: TraceReport): typeof EXIT.OK | typeof EXIT.GAP | typeof EXIT.UNKNOWN {
  return report.verdict === 'ok' ? EXIT.OK : report.verdict === 'gap' ? EXIT.GAP : EXIT.UNKNOWN
}

/** Every gapped expectation's id, advisory rows included, in document order. */
export function gappedExpectations(report: TraceReport): string[] {
  return report.expectations.filter((row) => row.verdict === 'gap').map((row) => row.id)
}
