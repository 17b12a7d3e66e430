import { isUtf8 } from 'node:buffer'
import { existsSync } from 'node:fs'
import { z } from 'zod'
import { RecorderError } from '../errors.js'
import { isJsonValue, tryParseJson, type JsonValue } from './json.js'
import { Redactor } from './redact.js'
import { encodeSseFrame, parseSseFrame } from './sse.js'
import { WIRE_NAMES, type WireName } from './wire.js'
import { INPUT_LIMITS } from '../../src/util/read-input.js'
import { readRecorderInput } from './read-input.js'

/** The first line's format tag; a reader refuses any other. */
export const CASSETTE_FORMAT = 'vitest-harness.cassette/2'

/** The previous tag: no end markers, so a cut file could not be told from a whole one. Refused. */
export const CASSETTE_FORMAT_V1 = 'vitest-harness.cassette/1'

/** Where the bytes came from. Never relabelled: a scripted answer is not a vendor's. */
export type Provenance = 'provider_emulated' | 'vendor_live' | 'synthetic'

/** One SSE frame: its event name (`null` on data-only wires), its data, when it was sent. */
export interface CassetteFrame {
  readonly event: string | null
  /** The data as JSON, when writing it back compactly gives the recorded bytes. */
  readonly data?: JsonValue
  /** The data as text, when it is not JSON or not compact JSON. */
  readonly dataText?: string
  /** The frame's exact bytes, when they are not the canonical `event:`/`data:` encoding. */
  readonly raw?: string
  /** The frame's exact bytes, when they are not valid UTF-8 (stored as base64). */
  readonly rawBytes?: Uint8Array
  /** Milliseconds after the response head, for recorded pacing. */
  readonly atMs?: number
}

export interface CassetteRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** The decoded JSON body; `bodyText` when the body was not JSON; neither when empty. */
  readonly body?: JsonValue
  readonly bodyText?: string
}

export interface CassetteResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** A streamed answer, frame by frame. */
  readonly frames?: readonly CassetteFrame[]
  /** A whole answer, as JSON when compact re-encoding gives the bytes, else as text. */
  readonly body?: JsonValue
  readonly bodyText?: string
  /** A whole answer whose bytes are not valid UTF-8 (stored as base64). */
  readonly bodyRaw?: Uint8Array
}

export interface Interaction {
  readonly wire: WireName
  readonly request: CassetteRequest
  readonly response: CassetteResponse
}

/** What the header line holds: known before the first interaction, so a recorder can append. */
export interface CassetteHeader {
  readonly provenance: Provenance
  /** `vitest-harness <version>` of the tool that wrote it. */
  readonly tool: string
  readonly scenario?: string
}

/** What a writer takes: the header and the interactions. */
export interface CassetteContent extends CassetteHeader {
  readonly interactions: readonly Interaction[]
}

export interface Cassette extends CassetteContent {
  /** The wire every interaction speaks, or `mixed` (derived from the interactions). */
  readonly wire: WireName | 'mixed'
}

/** Request headers worth reviewing; credential headers among them are redacted. */
export const REQUEST_HEADER_ALLOW_LIST: readonly string[] = ['accept', 'content-type', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'openai-organization', 'openai-project']

/** Response headers replayed with the answer. */
export const RESPONSE_HEADER_ALLOW_LIST: readonly string[] = ['content-type', 'retry-after', 'x-should-retry', 'x-request-id', 'request-id', 'set-cookie']

export function filterHeaders(headers: Readonly<Record<string, string | string[] | number | undefined>>, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of allowed) {
    const value = headers[name]
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return out
}

/** A raw frame as a cassette stores it: readable when the canonical encoding gives its bytes back. */
export function frameFromRaw(raw: string, atMs?: number): CassetteFrame {
  const { event, data } = parseSseFrame(raw)
  const timing = atMs === undefined ? {} : { atMs }
  if (encodeSseFrame(event, data) !== raw) return { event: event ?? null, raw, ...timing }
  const json = tryParseJson(data)
  if (json !== undefined && JSON.stringify(json) === data) return { event: event ?? null, data: json, ...timing }
  return { event: event ?? null, dataText: data, ...timing }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** A raw frame's bytes as a cassette stores them: as text when they are UTF-8, else byte for byte. */
export function frameFromBytes(bytes: Uint8Array, atMs?: number): CassetteFrame {
  const buffer = asBuffer(bytes)
  if (isUtf8(buffer)) return frameFromRaw(buffer.toString('utf8'), atMs)
  // The event name is for a reader only; replay writes the bytes.
  const { event } = parseSseFrame(buffer.toString('utf8'))
  return { event: event ?? null, rawBytes: Buffer.from(buffer), ...(atMs === undefined ? {} : { atMs }) }
}

/** The text a frame is replayed as; a frame kept as bytes (not UTF-8) is shown decoded, lossily: see `frameBuffer`. */
export function frameBytes(frame: CassetteFrame): string {
  if (frame.rawBytes !== undefined) return asBuffer(frame.rawBytes).toString('utf8')
  if (frame.raw !== undefined) return frame.raw
  const data = frame.data !== undefined ? JSON.stringify(frame.data) : (frame.dataText ?? '')
  return encodeSseFrame(frame.event ?? undefined, data)
}

/** The exact bytes a frame is replayed as. */
export function frameBuffer(frame: CassetteFrame): Buffer {
  return frame.rawBytes !== undefined ? Buffer.from(frame.rawBytes) : Buffer.from(frameBytes(frame), 'utf8')
}

/** A whole body as a cassette stores it: JSON when compact re-encoding gives its bytes back. */
export function bodyFromText(text: string): { body: JsonValue } | { bodyText: string } {
  const json = tryParseJson(text)
  if (json !== undefined && JSON.stringify(json) === text) return { body: json }
  return { bodyText: text }
}

/** A whole body's bytes as a cassette stores them: as text when they are UTF-8, else byte for byte. */
export function bodyFromBuffer(bytes: Uint8Array): { body: JsonValue } | { bodyText: string } | { bodyRaw: Uint8Array } {
  const buffer = asBuffer(bytes)
  return isUtf8(buffer) ? bodyFromText(buffer.toString('utf8')) : { bodyRaw: Buffer.from(buffer) }
}

/** The text a body is replayed as; a body kept as bytes (not UTF-8) is shown decoded, lossily: see `bodyBuffer`. */
export function bodyBytes(response: CassetteResponse): string {
  if (response.bodyRaw !== undefined) return asBuffer(response.bodyRaw).toString('utf8')
  if (response.body !== undefined) return JSON.stringify(response.body)
  return response.bodyText ?? ''
}

/** The exact bytes a whole body is replayed as. */
export function bodyBuffer(response: CassetteResponse): Buffer {
  return response.bodyRaw !== undefined ? Buffer.from(response.bodyRaw) : Buffer.from(bodyBytes(response), 'utf8')
}

// ---- writing ----

function sortedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** Bytes that are not UTF-8 pass the redactor through their latin1 view: one character per byte, so the rest stays as it was. */
function redactedBase64(redactor: Redactor, bytes: Uint8Array): string {
  return Buffer.from(redactor.text(asBuffer(bytes).toString('latin1')), 'latin1').toString('base64')
}

/** The header line, with its `\n`. */
export function cassetteHeaderLine(header: CassetteHeader): string {
  const line: Record<string, string> = { cassette: CASSETTE_FORMAT, provenance: header.provenance, tool: header.tool }
  if (header.scenario !== undefined) line['scenario'] = header.scenario
  return `${JSON.stringify(line)}\n`
}

/**
 * One interaction's lines, numbered `number`, ending with its `{"end":number}` marker. Every string
 * passes the redactor here, so no write path can skip it.
 */
export function interactionLines(interaction: Interaction, number: number, redactor: Redactor = new Redactor()): string {
  const { request, response } = interaction
  const lines: string[] = []
  lines.push(JSON.stringify({ interaction: number, wire: interaction.wire, method: request.method, path: request.path, headers: sortedHeaders(redactor.headers(request.headers)) }))
  if (request.body !== undefined) lines.push(JSON.stringify({ request: redactor.json(request.body) }))
  else if (request.bodyText !== undefined) lines.push(JSON.stringify({ request_text: redactor.text(request.bodyText) }))
  lines.push(JSON.stringify({ response: response.status, headers: sortedHeaders(redactor.headers(response.headers)) }))
  for (const frame of response.frames ?? []) {
    const line: Record<string, JsonValue> = { frame: frame.event === null ? null : redactor.text(frame.event) }
    if (frame.rawBytes !== undefined) line['raw_base64'] = redactedBase64(redactor, frame.rawBytes)
    else if (frame.raw !== undefined) line['raw'] = redactor.text(frame.raw)
    else if (frame.data !== undefined) line['data'] = redactor.json(frame.data)
    else line['data_text'] = redactor.text(frame.dataText ?? '')
    if (frame.atMs !== undefined) line['at'] = frame.atMs
    lines.push(JSON.stringify(line))
  }
  if (response.bodyRaw !== undefined) lines.push(JSON.stringify({ body_base64: redactedBase64(redactor, response.bodyRaw) }))
  else if (response.body !== undefined) lines.push(JSON.stringify({ body: redactor.json(response.body) }))
  else if (response.bodyText !== undefined) lines.push(JSON.stringify({ body_text: redactor.text(response.bodyText) }))
  lines.push(JSON.stringify({ end: number }))
  return `${lines.join('\n')}\n`
}

/** The last line: how many interactions the file holds. A file without it was cut short. */
export function completeLine(count: number): string {
  return `${JSON.stringify({ complete: count })}\n`
}

/** The cassette's text: one JSON object per line, each naming its kind by its first key. A `wire` given is not written: readers derive it. */
export function serializeCassette(cassette: CassetteContent | Cassette, redactor: Redactor = new Redactor()): string {
  let text = cassetteHeaderLine(cassette)
  cassette.interactions.forEach((interaction, index) => (text += interactionLines(interaction, index + 1, redactor)))
  return text + completeLine(cassette.interactions.length)
}

// ---- reading ----

// Checked, then passed through untouched: a rebuilt copy could lose keys such as `__proto__`.
const json = z.custom<JsonValue>(isJsonValue, { message: 'not JSON data' })
const headerMap = z.record(z.string(), z.string())
const wireName = z.enum(WIRE_NAMES)
const base64 = z.string().regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'not base64')

const headerLine = z.strictObject({
  cassette: z.literal(CASSETTE_FORMAT),
  provenance: z.enum(['provider_emulated', 'vendor_live', 'synthetic']),
  tool: z.string(),
  scenario: z.string().optional(),
})
const interactionLine = z.strictObject({ interaction: z.number().int().positive(), wire: wireName, method: z.string(), path: z.string().startsWith('/'), headers: headerMap })
const requestLine = z.strictObject({ request: json })
const requestTextLine = z.strictObject({ request_text: z.string() })
const responseLine = z.strictObject({ response: z.number().int().min(100).max(599), headers: headerMap })
const frameLine = z.strictObject({
  frame: z.string().nullable(),
  data: json.optional(),
  data_text: z.string().optional(),
  raw: z.string().optional(),
  raw_base64: base64.optional(),
  at: z.number().nonnegative().optional(),
})
const bodyLine = z.strictObject({ body: json })
const bodyTextLine = z.strictObject({ body_text: z.string() })
const bodyBase64Line = z.strictObject({ body_base64: base64 })
const endLine = z.strictObject({ end: z.number().int().positive() })
const completeLineSchema = z.strictObject({ complete: z.number().int().nonnegative() })

interface Building {
  wire: WireName
  request: { method: string; path: string; headers: Record<string, string>; body?: JsonValue; bodyText?: string }
  response?: { status: number; headers: Record<string, string>; frames?: CassetteFrame[]; body?: JsonValue; bodyText?: string; bodyRaw?: Uint8Array }
}

function corrupt(source: string, line: number, message: string): RecorderError {
  return new RecorderError('VH_CASSETTE_CORRUPT', `${source}:${line}: ${message}`, { location: `${source}:${line}` })
}

function truncated(source: string, line: number, message: string): RecorderError {
  return new RecorderError('VH_CASSETTE_TRUNCATED', `${source}:${line}: ${message}. The recording was cut short (a killed write, a partial copy); re-record it.`, { location: `${source}:${line}` })
}

function parseLine<T>(schema: z.ZodType<T>, value: unknown, source: string, line: number, what: string): T {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
    throw corrupt(source, line, `not a valid ${what} line${where}: ${issue?.message ?? 'malformed'}`)
  }
  return result.data
}

/**
 * Reads a cassette's text. Any line that is not one of the kinds, or comes out of order, is refused
 * with the file and the one-based line number (`VH_CASSETTE_CORRUPT`); a file that stops before its
 * `complete` line, or mid-line, is refused as `VH_CASSETTE_TRUNCATED`: it never replays as whole.
 */
export function parseCassette(text: string, source = 'cassette'): Cassette {
  if (text === '') throw truncated(source, 1, 'the file is empty; a cassette starts with its header line')
  const lines = text.split('\n')
  if (lines[lines.length - 1] !== '') throw truncated(source, lines.length, 'the last line has no newline: the file ends mid-line')
  lines.pop()
  let header: z.infer<typeof headerLine> | undefined
  const interactions: Interaction[] = []
  let current: Building | undefined
  let complete: number | undefined
  lines.forEach((raw, index) => {
    const number = index + 1
    if (raw.trim() === '') return
    if (complete !== undefined) throw corrupt(source, number, 'nothing may follow the {"complete":…} line')
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      throw corrupt(source, number, 'not JSON')
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt(source, number, 'not a JSON object')
    const kind = Object.keys(value)[0]
    if (!header) {
      if (kind !== 'cassette') throw corrupt(source, number, `the first line must be the header {"cassette":"${CASSETTE_FORMAT}",…}`)
      if ((value as { cassette?: unknown }).cassette === CASSETTE_FORMAT_V1) {
        throw new RecorderError('VH_CASSETTE_OUTDATED', `${source}:${number}: the cassette is ${CASSETTE_FORMAT_V1}, which has no end markers, so a cut copy cannot be told from a whole one. Re-record it (VITEST_HARNESS_MODE=record), or migrate it to ${CASSETTE_FORMAT} if you know it is complete.`, { location: `${source}:${number}` })
      }
      header = parseLine(headerLine, value, source, number, 'header')
      return
    }
    switch (kind) {
      case 'interaction': {
        if (current) throw corrupt(source, number, `interaction ${interactions.length + 1} has no {"end":${interactions.length + 1}} line before the next interaction`)
        const line = parseLine(interactionLine, value, source, number, 'interaction')
        if (line.interaction !== interactions.length + 1) throw corrupt(source, number, `interaction ${line.interaction} is out of order; expected ${interactions.length + 1}`)
        current = { wire: line.wire, request: { method: line.method, path: line.path, headers: line.headers } }
        return
      }
      case 'request':
      case 'request_text': {
        if (!current || current.response || current.request.body !== undefined || current.request.bodyText !== undefined) throw corrupt(source, number, 'a request body must follow its interaction line')
        if (kind === 'request') current.request.body = parseLine(requestLine, value, source, number, 'request').request
        else current.request.bodyText = parseLine(requestTextLine, value, source, number, 'request_text').request_text
        return
      }
      case 'response': {
        if (!current || current.response) throw corrupt(source, number, 'a response line must follow an interaction')
        const line = parseLine(responseLine, value, source, number, 'response')
        current.response = { status: line.response, headers: line.headers }
        return
      }
      case 'frame': {
        const response = current?.response
        if (!response || response.body !== undefined || response.bodyText !== undefined || response.bodyRaw !== undefined) throw corrupt(source, number, 'a frame must follow a response line')
        const line = parseLine(frameLine, value, source, number, 'frame')
        const forms = [line.data !== undefined, line.data_text !== undefined, line.raw !== undefined, line.raw_base64 !== undefined].filter(Boolean).length
        if (forms !== 1) throw corrupt(source, number, 'a frame holds exactly one of data, data_text, raw, raw_base64')
        const frame: CassetteFrame = {
          event: line.frame,
          ...(line.data !== undefined ? { data: line.data } : {}),
          ...(line.data_text !== undefined ? { dataText: line.data_text } : {}),
          ...(line.raw !== undefined ? { raw: line.raw } : {}),
          ...(line.raw_base64 !== undefined ? { rawBytes: Buffer.from(line.raw_base64, 'base64') } : {}),
          ...(line.at !== undefined ? { atMs: line.at } : {}),
        }
        ;(response.frames ??= []).push(frame)
        return
      }
      case 'body':
      case 'body_text':
      case 'body_base64': {
        const response = current?.response
        if (!response || response.frames || response.body !== undefined || response.bodyText !== undefined || response.bodyRaw !== undefined) throw corrupt(source, number, 'a body must follow a response line, once, without frames')
        if (kind === 'body') response.body = parseLine(bodyLine, value, source, number, 'body').body
        else if (kind === 'body_text') response.bodyText = parseLine(bodyTextLine, value, source, number, 'body_text').body_text
        else response.bodyRaw = Buffer.from(parseLine(bodyBase64Line, value, source, number, 'body_base64').body_base64, 'base64')
        return
      }
      case 'end': {
        const line = parseLine(endLine, value, source, number, 'end')
        if (!current) throw corrupt(source, number, 'an end line must close an interaction')
        if (line.end !== interactions.length + 1) throw corrupt(source, number, `the end line names interaction ${line.end}; the open one is ${interactions.length + 1}`)
        if (!current.response) throw corrupt(source, number, `interaction ${line.end} has no response line`)
        interactions.push(current as Interaction)
        current = undefined
        return
      }
      case 'complete': {
        const line = parseLine(completeLineSchema, value, source, number, 'complete')
        if (current) throw corrupt(source, number, `interaction ${interactions.length + 1} has no end line before the complete line`)
        if (line.complete !== interactions.length) throw corrupt(source, number, `the complete line counts ${line.complete} interaction(s); the file holds ${interactions.length}`)
        complete = line.complete
        return
      }
      default:
        throw corrupt(source, number, `unknown line kind ${JSON.stringify(kind)}`)
    }
  })
  if (!header) throw truncated(source, lines.length + 1, 'the file ends before its header line')
  if (complete === undefined) {
    const open = current ? `interaction ${interactions.length + 1} has no end line` : `the last whole interaction is ${interactions.length}`
    throw truncated(source, lines.length + 1, `the file ends without its {"complete":…} line (${open})`)
  }
  return { wire: cassetteWire(interactions), provenance: header.provenance, tool: header.tool, ...(header.scenario !== undefined ? { scenario: header.scenario } : {}), interactions }
}

/** Reads a cassette file; a missing file is `VH_CASSETTE_MISSING`, a bad line `VH_CASSETTE_CORRUPT`. */
export function readCassette(path: string): Cassette {
  if (!existsSync(path)) {
    throw new RecorderError('VH_CASSETTE_MISSING', `the cassette ${path} does not exist. Record it first (VITEST_HARNESS_MODE=record with an upstream, or a scenario), or check the path.`, { location: path })
  }
  return parseCassette(readRecorderInput(path, 'cassette', INPUT_LIMITS.cassette), path)
}

/** The header's wire: the one every interaction speaks, or `mixed`. */
export function cassetteWire(interactions: readonly Interaction[], fallback: WireName | 'mixed' = 'mixed'): WireName | 'mixed' {
  const wires = new Set(interactions.map((interaction) => interaction.wire))
  if (wires.size === 1) return [...wires][0] as WireName
  return wires.size === 0 ? fallback : 'mixed'
}
