/**
 * `trace-report/1`, the report `aep observe trace check --format json` prints (notes/aep.md §1.6).
 * Field names and spellings are upstream's; the checker builds it and the evidence reporter
 * mints `trace_conformance` records from it.
 */

/** A row's verdict; text renderings print `unknown` as `unk`. */
export type RowVerdict = 'ok' | 'gap' | 'unknown'

/** `gate` rows decide the report's verdict; `advisory` rows are reported and never gate. */
export type Severity = 'gate' | 'advisory'

/** What the checker found for one expectation, citing IR event indices. */
export type ExpectationOutcome =
  | { outcome: 'ok' | 'gap'; events: number[]; note: string }
  /** Undecidable: `reason` plus that reason's own fields, flattened (e.g. `field`, `selector`). */
  | ({ outcome: 'undecidable'; reason: string } & Record<string, unknown>)

export interface ExpectationRow {
  id: string
  statement: string | null
  /** The expectation kind, e.g. `tool.called`. */
  kind: string
  severity: Severity
  outcome: ExpectationOutcome
  verdict: RowVerdict
}

export interface TraceReportAdapter {
  /** e.g. `metaharness/event-stream`, `claude-code/stream-json`. */
  name: string
  written_against: string[]
}

/** The format tag of a trace report. */
export const TRACE_REPORT_FORMAT = 'trace-report/1'

export interface TraceReport {
  format: typeof TRACE_REPORT_FORMAT
  spec_id: string
  spec_title: string | null
  /** sha256 of the key-sorted compact JSON of the validated spec model. */
  spec_digest: string
  /** sha256 of the transcript file's bytes. */
  transcript_digest: string
  adapter: TraceReportAdapter
  redacted: boolean
  /** Expectation ids downgraded to advisory with `--advisory`. */
  advisory_overrides: string[]
  summary: { total: number; ok: number; gap: number; unknown: number; advisory_gap: number; advisory_unknown: number }
  /** Over gating rows: any gap → gap, else any unknown → unknown, else ok. */
  verdict: RowVerdict
  expectations: ExpectationRow[]
}
