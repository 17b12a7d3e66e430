import { z } from 'zod'
import { ReportInputError } from './errors.js'
import type { ProviderLogView, ProviderRequestView } from './model.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

// The provider's request log (`serve --record-requests`) comes from a file: read, not trusted.
const lineSchema = z.object({
  seq: z.number().int().nonnegative(),
  method: z.string(),
  path: z.string(),
  model: z.string().nullable(),
  stream: z.boolean(),
  tool_names: z.array(z.string()),
  outcome: z.enum(['replayed', 'recorded', 'proxied', 'scripted', 'miss', 'refused']),
  status: z.number().int(),
  nearest: z.number().int().optional(),
  differs_at: z.string().optional(),
})

const ANSWERED = new Set(['replayed', 'recorded', 'proxied', 'scripted'])

/** Reads a provider request log, one JSON object a line; a refusal names the line and the field. */
export function readProviderLog(text: string, file: string): ProviderLogView {
  const requests: ProviderRequestView[] = []
  // `serve --record-requests` writes a line per request it answered: a log with none is not one it wrote.
  if (text.trim() === '') throw new ReportInputError('VH_REPORT_NOT_REQUEST_LOG', file, 'document', 'the request log is empty: serve --record-requests writes one line per request, and none is here')
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return
    const location = `line ${index + 1}`
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (error) {
      throw new ReportInputError('VH_REPORT_NOT_JSON', file, location, `not JSON: ${describeJsonSyntaxError(error)}`)
    }
    const parsed = lineSchema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new ReportInputError('VH_REPORT_NOT_REQUEST_LOG', file, `${location}: $${(issue?.path ?? []).map((key) => `.${String(key)}`).join('')}`, `not a provider request log line: ${issue?.message ?? 'does not fit'}`)
    }
    const line = parsed.data
    requests.push({
      seq: line.seq,
      method: line.method,
      path: line.path,
      model: line.model,
      stream: line.stream,
      tools: line.tool_names,
      outcome: line.outcome,
      matched: ANSWERED.has(line.outcome),
      status: line.status,
      nearest: line.nearest ?? null,
      differsAt: line.differs_at ?? null,
    })
  })
  return { source: file, requests }
}
