import { describeOutcome, type Outcome } from '../trace/check/outcome.js'
import type { ExpectationRow, TraceReport } from '../trace/report-types.js'
import type { CheckView, ExpectationView } from './model.js'

/** The fields of an undecidable outcome that name IR events (`call_event`, `events`…). */
const EVENT_FIELDS = ['event', 'call_event', 'result_event', 'outcome_event', 'limit_event'] as const

/** The events a row points at: its citations, or the events its unknown reason names. */
export function citedEvents(row: ExpectationRow): number[] {
  const outcome = row.outcome
  const cited = new Set<number>()
  const events = outcome['events']
  if (Array.isArray(events)) for (const event of events) if (Number.isInteger(event)) cited.add(event as number)
  if (outcome.outcome === 'undecidable') {
    for (const field of EVENT_FIELDS) {
      const value = outcome[field]
      if (Number.isInteger(value)) cited.add(value as number)
    }
  }
  return [...cited].sort((a, b) => a - b)
}

function expectationView(row: ExpectationRow): ExpectationView {
  const outcome = row.outcome
  return {
    id: row.id,
    statement: row.statement,
    kind: row.kind,
    severity: row.severity,
    verdict: row.verdict,
    events: citedEvents(row),
    explanation: describeOutcome(outcome as Outcome),
    reason: outcome.outcome === 'undecidable' ? outcome.reason : null,
  }
}

/** A `trace-report/1` as the page shows it. */
export function checkView(report: TraceReport): CheckView {
  const { summary } = report
  return {
    specId: report.spec_id,
    specTitle: report.spec_title,
    specDigest: report.spec_digest,
    verdict: report.verdict,
    summary: { total: summary.total, ok: summary.ok, gap: summary.gap, unknown: summary.unknown },
    expectations: report.expectations.map(expectationView),
  }
}
