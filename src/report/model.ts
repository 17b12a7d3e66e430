/**
 * The report's data model: what the HTML page shows, built from a run's IR and, where a check ran,
 * its `trace-report/1`. The page is a pure view of this object (embedded as JSON), so every test of
 * what the page says can be a test of this model. Timeline positions are IR indices: the indices a
 * verdict cites.
 */

import type { AdapterRef } from '../trace/ir/types.js'
import type { RowVerdict, Severity } from '../trace/report-types.js'

/** The format tag of the embedded data. */
export const REPORT_DATA_FORMAT = 'vitest-harness.report/1'

/** A piece of transcript text, cut at the report's limit with its full size kept. */
export interface Clip {
  text: string
  /** UTF-8 bytes of the whole text. */
  bytes: number
  truncated: boolean
}

interface EntryBase {
  /** IR index. */
  i: number
  /** 1-based line of the transcript the reader read. */
  line: number
  at: string | null
}

export interface SessionView {
  harnessVersion: string | null
  model: string | null
  cwd: string | null
  permissionMode: string | null
  tools: string[] | null
}

export type TimelineEntry = EntryBase &
  (
    | { kind: 'session'; session: SessionView }
    | { kind: 'text'; text: Clip }
    | { kind: 'thinking'; text: Clip }
    | { kind: 'injection'; text: Clip }
    | { kind: 'call'; name: string; callId: string | null; args: Clip; result: number | null }
    | { kind: 'result'; callId: string | null; isError: boolean | null; content: Clip; call: number | null }
    | { kind: 'outcome'; fields: Record<string, string | number | boolean | null> }
    | { kind: 'opaque'; type: string | null; subtype: string | null; digest: string }
    | { kind: 'rate_limit'; status: string | null; window: string | null }
    | { kind: 'thinking_estimate'; tokens: number | null }
  )

export type TimelineKind = TimelineEntry['kind']

/** One API request's usage, and the IR index it arrived after (null: before any event). */
export interface RequestView {
  line: number
  requestId: string | null
  model: string | null
  inputTokens: number | null
  outputTokens: number | null
  cacheReadInputTokens: number | null
  cacheCreationInputTokens: number | null
  afterEvent: number | null
}

export interface UsageTotals {
  requests: number
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  /** The run's own total cost where its terminal record states one. */
  costUsd: number | null
}

export interface ExpectationView {
  id: string
  statement: string | null
  kind: string
  severity: Severity
  verdict: RowVerdict
  /** IR indices the row cites (for an unknown row, the events its reason names). */
  events: number[]
  /** What the checker said: the note of ok/gap, the reason sentence of unknown. */
  explanation: string
  /** The reason code of an unknown row. */
  reason: string | null
}

export interface CheckView {
  specId: string
  specTitle: string | null
  specDigest: string
  verdict: RowVerdict
  summary: { total: number; ok: number; gap: number; unknown: number }
  expectations: ExpectationView[]
}

/** One conformance vector's result; a failure's first line names the JSON path and both values where bytes were compared. */
export interface VectorView {
  id: string
  tier: string
  status: 'pass' | 'fail' | 'warn'
  /** The first line of the detail: for a byte comparison, the fields by JSON path with expected and observed values. */
  firstDifference: string | null
  /** The rest of the detail (upstream's line), or empty. */
  detail: string
}

export interface ContractView {
  adapter: string
  provider: string
  vectors: VectorView[]
  /** Checklist rows the run left unmet. */
  unmet: string[]
}

/** One request the loopback provider answered (or did not), as its request log recorded it. */
export interface ProviderRequestView {
  seq: number
  method: string
  path: string
  model: string | null
  stream: boolean
  tools: string[]
  outcome: string
  matched: boolean
  status: number
  /** For a miss: the nearest recorded interaction and the JSON path where the request differs from it. */
  nearest: number | null
  differsAt: string | null
}

export interface ProviderLogView {
  source: string
  requests: ProviderRequestView[]
}

export interface ReportData {
  format: typeof REPORT_DATA_FORMAT
  title: string
  /** The transcript as the user named it. */
  source: string | null
  transcriptDigest: string | null
  adapter: AdapterRef | null
  session: SessionView | null
  /** Nothing states this is the whole run when null. */
  closure: string | null
  events: TimelineEntry[]
  requests: RequestView[]
  totals: UsageTotals
  check: CheckView | null
  contract: ContractView | null
  provider: ProviderLogView | null
}
