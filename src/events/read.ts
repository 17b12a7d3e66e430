import { createReadStream } from 'node:fs'
import type { z } from 'zod'
import type { EventReadDiagnostic } from './errors.js'
import { EventReadError } from './errors.js'
import { EVENT_FORMAT, isEventName } from './format.js'
import { isBlank, splitLineBatches, splitTextLines, type RawLine, type SplitOptions } from './lines.js'
import { payloadSchemas } from './schema.js'
import type { EventLine } from './types.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

export type EventReadResult =
  | { readonly ok: true; readonly line: number; readonly event: EventLine; readonly raw: string }
  | { readonly ok: false; readonly diagnostic: EventReadDiagnostic }

function toPointer(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '' : `/${path.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`
}

function refuse(code: EventReadDiagnostic['code'], line: number, message: string, pointer?: string): EventReadResult {
  return { ok: false, diagnostic: pointer === undefined ? { code, line, message } : { code, line, pointer, message } }
}

function firstIssue(error: z.ZodError): { pointer: string; message: string } {
  const issue = error.issues[0]
  if (!issue) return { pointer: '', message: 'invalid' }
  return { pointer: toPointer(issue.path), message: issue.message }
}

/**
 * Reads one decoded line: strict on the envelope, the `format` tag and the event name; lenient on
 * unknown fields, which are dropped. Blank lines are the caller's business (they emit nothing).
 */
export function readEventLine(text: string, lineNumber: number): EventReadResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return refuse('NOT_JSON', lineNumber, `line ${lineNumber} is not JSON: ${describeJsonSyntaxError(error)}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return refuse('NOT_AN_OBJECT', lineNumber, `line ${lineNumber} is not a JSON object`)
  }
  const record = parsed as Record<string, unknown>
  const format = record['format']
  if (format !== EVENT_FORMAT) {
    return refuse(
      'UNKNOWN_FORMAT',
      lineNumber,
      format === undefined
        ? `missing format tag, expected ${JSON.stringify(EVENT_FORMAT)}`
        : `unknown format tag ${JSON.stringify(format)}, expected ${JSON.stringify(EVENT_FORMAT)}`,
      '/format',
    )
  }
  const name = record['event']
  if (typeof name !== 'string') {
    return refuse('MALFORMED', lineNumber, 'malformed event line: missing field `event`', '/event')
  }
  if (!isEventName(name)) {
    return refuse('UNKNOWN_NAME', lineNumber, `unknown event name ${JSON.stringify(name)}`, '/event')
  }
  const seq = record['seq']
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
    return refuse('MALFORMED', lineNumber, `malformed ${name}: \`seq\` must be an unsigned integer`, '/seq')
  }
  const run = record['run']
  if (typeof run !== 'string') {
    return refuse('MALFORMED', lineNumber, `malformed ${name}: \`run\` must be a string`, '/run')
  }
  const at = record['at']
  if (at !== undefined && at !== null && typeof at !== 'string') {
    return refuse('MALFORMED', lineNumber, `malformed ${name}: \`at\` must be a string`, '/at')
  }
  const payload = payloadSchemas[name].safeParse(record)
  if (!payload.success) {
    const issue = firstIssue(payload.error)
    return refuse('MALFORMED', lineNumber, `malformed ${name}: ${issue.pointer || '/'}: ${issue.message}`, issue.pointer)
  }
  const event = { format: EVENT_FORMAT, seq, run, ...(typeof at === 'string' ? { at } : {}), event: name, ...payload.data }
  return { ok: true, line: lineNumber, event: event as EventLine, raw: text }
}

function readRawLine(raw: RawLine): EventReadResult | undefined {
  if (raw.overLimitBytes !== undefined) {
    return refuse('LINE_TOO_LONG', raw.number, `line ${raw.number} is ${raw.overLimitBytes} bytes, over the reader's limit`)
  }
  const text = raw.text
  if (text === undefined) return refuse('NOT_UTF8', raw.number, `line ${raw.number} is not UTF-8`)
  if (isBlank(text)) return undefined
  return readEventLine(text, raw.number)
}

/** Reads a stream line by line, yielding each event or each refusal; memory is one line. */
export async function* readEventStream(
  source: AsyncIterable<Uint8Array | string>,
  options: SplitOptions = {},
): AsyncGenerator<EventReadResult> {
  for await (const batch of splitLineBatches(source, options)) {
    for (const raw of batch) {
      const result = readRawLine(raw)
      if (result) yield result
    }
  }
}

/** Reads a file as a stream of results. */
export function readEventFile(path: string, options: SplitOptions = {}): AsyncGenerator<EventReadResult> {
  return readEventStream(createReadStream(path), options)
}

/** Reads text in memory: every event, and every refusal collected (nothing thrown). */
export function readEventText(text: string): { events: EventLine[]; diagnostics: EventReadDiagnostic[] } {
  const events: EventLine[] = []
  const diagnostics: EventReadDiagnostic[] = []
  splitTextLines(text).forEach((line, index) => {
    if (isBlank(line)) return
    const result = readEventLine(line, index + 1)
    if (result.ok) events.push(result.event)
    else diagnostics.push(result.diagnostic)
  })
  return { events, diagnostics }
}

/** Reads text in memory and throws the first refusal as an `EventReadError`. */
export function readEventTextOrThrow(text: string, source?: string): EventLine[] {
  const { events, diagnostics } = readEventText(text)
  const first = diagnostics[0]
  if (first) throw new EventReadError(first, source)
  return events
}
