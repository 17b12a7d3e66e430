import { describeOutcome, type Outcome } from '../trace/check/outcome.js'
import type { ExpectationRow } from '../trace/report-types.js'
import { escapeForTerminal } from '../util/terminal-text.js'

/** The events a row cites, or none for a reason or a whole-run fact. */
export function citedEvents(row: ExpectationRow): number[] {
  return row.outcome.outcome === 'undecidable' ? [] : (row.outcome as { events: number[] }).events
}

/** `gap ran-the-suite — the suite ran` then the note and the events, as a failure should read. */
export function describeRow(row: ExpectationRow): string {
  const verdict = row.verdict === 'unknown' ? 'unknown' : row.verdict
  const statement = row.statement === null ? '' : ` — ${row.statement}`
  const lines = [`${verdict} ${row.id} (${row.kind})${statement}`, `  ${describeOutcome(row.outcome as Outcome)}`]
  const events = citedEvents(row)
  if (events.length > 0) lines.push(`  cited IR events: ${events.join(', ')}`)
  // Vitest prints this on the terminal; the note quotes the transcript.
  return escapeForTerminal(lines.join('\n'))
}

/** Thrown by a trace test whose expectation did not hold (a gap, or an unknown that gates). */
export class TraceExpectationError extends Error {
  readonly code = 'VH_TRACE_EXPECTATION'

  constructor(readonly row: ExpectationRow) {
    super(describeRow(row))
    this.name = 'TraceExpectationError'
  }
}
