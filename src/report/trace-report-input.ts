import { traceReportSchema } from '../trace/report-schema.js'
import type { TraceReport } from '../trace/report-types.js'
import { ReportInputError } from './errors.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

/** Reads a `trace-report/1` document; a refusal names the first field that does not fit. */
export function readTraceReport(text: string, file: string): TraceReport {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ReportInputError('VH_REPORT_NOT_JSON', file, 'document', `not JSON: ${describeJsonSyntaxError(error)}`)
  }
  const parsed = traceReportSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue ? ['$', ...issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))].join('') : '$'
    throw new ReportInputError('VH_REPORT_NOT_TRACE_REPORT', file, path, `not a trace-report/1 document: ${issue?.message ?? 'does not fit'}`)
  }
  return parsed.data as TraceReport
}
