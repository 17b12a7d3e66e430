import { z } from 'zod'
import { TRACE_REPORT_FORMAT, type TraceReport } from '../trace/report-types.js'
import { ReportInputError } from './errors.js'

// A `trace-report/1` handed to `report` comes from a file: read, not trusted.
const count = z.number().int().nonnegative()
const verdict = z.enum(['ok', 'gap', 'unknown'])
const traceReportSchema = z.object({
  format: z.literal(TRACE_REPORT_FORMAT),
  spec_id: z.string(),
  spec_title: z.string().nullable(),
  spec_digest: z.string(),
  transcript_digest: z.string(),
  adapter: z.object({ name: z.string(), written_against: z.array(z.string()) }),
  redacted: z.boolean(),
  advisory_overrides: z.array(z.string()),
  summary: z.object({ total: count, ok: count, gap: count, unknown: count, advisory_gap: count, advisory_unknown: count }),
  verdict,
  expectations: z.array(
    z.object({
      id: z.string(),
      statement: z.string().nullable(),
      kind: z.string(),
      severity: z.enum(['gate', 'advisory']),
      outcome: z.union([
        z.object({ outcome: z.enum(['ok', 'gap']), events: z.array(count), note: z.string() }),
        z.object({ outcome: z.literal('undecidable'), reason: z.string() }).passthrough(),
      ]),
      verdict,
    }),
  ),
})

/** Reads a `trace-report/1` document; a refusal names the first field that does not fit. */
export function readTraceReport(text: string, file: string): TraceReport {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ReportInputError('VH_REPORT_NOT_JSON', file, 'document', `not JSON: ${(error as Error).message}`)
  }
  const parsed = traceReportSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue ? ['$', ...issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))].join('') : '$'
    throw new ReportInputError('VH_REPORT_NOT_TRACE_REPORT', file, path, `not a trace-report/1 document: ${issue?.message ?? 'does not fit'}`)
  }
  return parsed.data as TraceReport
}
