import { z } from 'zod'
import { TRACE_REPORT_FORMAT } from './report-types.js'

// A `trace-report/1` read back from a file or from task meta is read, not trusted: one schema for
// every place that does (the `report` command, the evidence reporter).
const count = z.number().int().nonnegative()
const verdict = z.enum(['ok', 'gap', 'unknown'])

export const traceReportSchema = z.object({
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
