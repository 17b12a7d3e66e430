import { citedEvents } from '../report/check-view.js'
import { describeOutcome, type Outcome } from '../trace/check/outcome.js'
import type { ExpectationRow } from '../trace/report-types.js'
import { escapeForTerminal } from '../util/terminal-text.js'

// A gap over a long run can cite hundreds of calls; the failure names the first ones and says how
// many there are, and the report (JSON, evidence, trace page) keeps every one.
const MOST_EVENTS_SHOWN = 20
const MOST_NOTE_CHARACTERS = 400

/** `3, 9, 12`, or the first of many and how many there are in all. */
function eventList(events: readonly number[]): string {
  if (events.length <= MOST_EVENTS_SHOWN) return events.join(', ')
  return `${events.slice(0, MOST_EVENTS_SHOWN).join(', ')} … (${events.length} in all)`
}

/** The note as upstream wrote it, cut after a comma when it runs long (its list of events). */
function shortNote(note: string): string {
  if (note.length <= MOST_NOTE_CHARACTERS) return note
  const cut = note.lastIndexOf(',', MOST_NOTE_CHARACTERS)
  return `${note.slice(0, cut > 0 ? cut : MOST_NOTE_CHARACTERS)} … (cut here; the report holds the whole note)`
}

/**
 * `gap ran-the-suite — the suite ran` then the note and the events, as a failure should read;
 * `spelt` are the first cited events as lines (`#114 call bash {…}`), where the transcript was read for them.
 */
export function describeRow(row: ExpectationRow, spelt: readonly string[] = []): string {
  const verdict = row.verdict === 'unknown' ? 'unknown' : row.verdict
  const statement = row.statement === null ? '' : ` — ${row.statement}`
  const lines = [`${verdict} ${row.id} (${row.kind})${statement}`, `  ${shortNote(describeOutcome(row.outcome as Outcome))}`]
  const events = citedEvents(row)
  if (events.length > 0) lines.push(`  cited IR events: ${eventList(events)}`)
  for (const line of spelt) lines.push(`    ${line}`)
  // Vitest prints this on the terminal; the note and the events quote the transcript.
  return escapeForTerminal(lines.join('\n'))
}

/** Thrown by a trace test whose expectation did not hold (a gap, or an unknown that gates). */
export class TraceExpectationError extends Error {
  readonly code = 'VH_TRACE_EXPECTATION'

  constructor(
    readonly row: ExpectationRow,
    /** The first cited events, each as a line, where the transcript could be read for them. */
    readonly citedEventLines: readonly string[] = [],
  ) {
    super(describeRow(row, citedEventLines))
    this.name = 'TraceExpectationError'
  }
}
