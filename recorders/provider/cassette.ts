import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { writeFileAtomic } from '../../src/util/atomic-write.js'
import { RecorderError } from '../errors.js'
import { isJsonValue, tryParseJson, type JsonValue } from './json.js'
import { Redactor } from './redact.js'
import { encodeSseFrame, parseSseFrame } from './sse.js'
import { WIRE_NAMES, type WireName } from './wire.js'

/** The first line's format tag; a reader refuses any other. */
export const CASSETTE_FORMAT = 'vitest-harness.cassette/1'

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
}

export interface Interaction {
  readonly wire: WireName
  readonly request: CassetteRequest
  readonly response: CassetteResponse
}

export interface Cassette {
  readonly wire: WireName | 'mixed'
  readonly provenance: Provenance
  /** `vitest-harness <version>` of the tool that wrote it. */
  readonly tool: string
  readonly scenario?: string
  readonly interactions: readonly Interaction[]
}

/** Request headers worth reviewing; credential headers among them are redacted. */
export const REQUEST_HEADER_ALLOW_LIST: readonly string[] = ['accept', 'content-type', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'authorization', 'x-api-key', 'api-key', 'cookie', 'openai-organization', 'openai-project']

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

/** The exact bytes a frame is replayed as. */
export function frameBytes(frame: CassetteFrame): string {
  if (frame.raw !== undefined) return frame.raw
  const data = frame.data !== undefined ? JSON.stringify(frame.data) : (frame.dataText ?? '')
  return encodeSseFrame(frame.event ?? undefined, data)
}

/** A whole body as a cassette stores it: JSON when compact re-encoding gives its bytes back. */
export function bodyFromText(text: string): { body: JsonValue } | { bodyText: string } {
  const json = tryParseJson(text)
  if (json !== undefined && JSON.stringify(json) === text) return { body: json }
  return { bodyText: text }
}

export function bodyBytes(response: CassetteResponse): string {
  if (response.body !== undefined) return JSON.stringify(response.body)
  return response.bodyText ?? ''
}

// ---- writing ----

function sortedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/**
 * The cassette's text: one JSON object per line, each naming its kind by its first key. Every
 * string passes the redactor here, so no write path can skip it.
 */
export function serializeCassette(cassette: Cassette, redactor: Redactor = new Redactor()): string {
  const lines: string[] = []
  const header: Record<string, string> = { cassette: CASSETTE_FORMAT, wire: cassette.wire, provenance: cassette.provenance, tool: cassette.tool }
  if (cassette.scenario !== undefined) header['scenario'] = cassette.scenario
  lines.push(JSON.stringify(header))
  cassette.interactions.forEach((interaction, index) => {
    const { request, response } = interaction
    lines.push(JSON.stringify({ interaction: index + 1, wire: interaction.wire, method: request.method, path: request.path, headers: sortedHeaders(redactor.headers(request.headers)) }))
    if (request.body !== undefined) lines.push(JSON.stringify({ request: redactor.json(request.body) }))
    else if (request.bodyText !== undefined) lines.push(JSON.stringify({ request_text: redactor.text(request.bodyText) }))
    lines.push(JSON.stringify({ response: response.status, headers: sortedHeaders(redactor.headers(response.headers)) }))
    for (const frame of response.frames ?? []) {
      const line: Record<string, JsonValue> = { frame: frame.event === null ? null : redactor.text(frame.event) }
      if (frame.raw !== undefined) line['raw'] = redactor.text(frame.raw)
      else if (frame.data !== undefined) line['data'] = redactor.json(frame.data)
      else line['data_text'] = redactor.text(frame.dataText ?? '')
      if (frame.atMs !== undefined) line['at'] = frame.atMs
      lines.push(JSON.stringify(line))
    }
    if (response.body !== undefined) lines.push(JSON.stringify({ body: redactor.json(response.body) }))
    else if (response.bodyText !== undefined) lines.push(JSON.stringify({ body_text: redactor.text(response.bodyText) }))
  })
  return `${lines.join('\n')}\n`
}

/** Writes a cassette so a reader sees the old file or the new one, never half of either. */
export function writeCassette(path: string, cassette: Cassette, redactor: Redactor = new Redactor()): void {
  const text = serializeCassette(cassette, redactor)
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return
  writeFileAtomic(path, text)
}

// ---- reading ----

// Checked, then passed through untouched: a rebuilt copy could lose keys such as `__proto__`.
const json = z.custom<JsonValue>(isJsonValue, { message: 'not JSON data' })
const headerMap = z.record(z.string(), z.string())
const wireName = z.enum(WIRE_NAMES)

const headerLine = z.strictObject({
  cassette: z.literal(CASSETTE_FORMAT),
  wire: z.union([wireName, z.literal('mixed')]),
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
  at: z.number().nonnegative().optional(),
})
const bodyLine = z.strictObject({ body: json })
const bodyTextLine = z.strictObject({ body_text: z.string() })

interface Building {
  wire: WireName
  request: { method: string; path: string; headers: Record<string, string>; body?: JsonValue; bodyText?: string }
  response?: { status: number; headers: Record<string, string>; frames?: CassetteFrame[]; body?: JsonValue; bodyText?: string }
}

function corrupt(source: string, line: number, message: string): RecorderError {
  return new RecorderError('VH_CASSETTE_CORRUPT', `${source}:${line}: ${message}`, { location: `${source}:${line}` })
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
 * with the file and the one-based line number.
 */
export function parseCassette(text: string, source = 'cassette'): Cassette {
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  let header: z.infer<typeof headerLine> | undefined
  const interactions: Interaction[] = []
  let current: Building | undefined
  const finish = (line: number) => {
    if (!current) return
    if (!current.response) throw corrupt(source, line, `interaction ${interactions.length + 1} has no response line`)
    interactions.push(current as Interaction)
    current = undefined
  }
  lines.forEach((raw, index) => {
    const number = index + 1
    if (raw.trim() === '') return
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
      header = parseLine(headerLine, value, source, number, 'header')
      return
    }
    switch (kind) {
      case 'interaction': {
        finish(number)
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
        if (!current?.response || current.response.body !== undefined || current.response.bodyText !== undefined) throw corrupt(source, number, 'a frame must follow a response line')
        const line = parseLine(frameLine, value, source, number, 'frame')
        const forms = [line.data !== undefined, line.data_text !== undefined, line.raw !== undefined].filter(Boolean).length
        if (forms !== 1) throw corrupt(source, number, 'a frame holds exactly one of data, data_text, raw')
        const frame: CassetteFrame = {
          event: line.frame,
          ...(line.data !== undefined ? { data: line.data } : {}),
          ...(line.data_text !== undefined ? { dataText: line.data_text } : {}),
          ...(line.raw !== undefined ? { raw: line.raw } : {}),
          ...(line.at !== undefined ? { atMs: line.at } : {}),
        }
        ;(current.response.frames ??= []).push(frame)
        return
      }
      case 'body':
      case 'body_text': {
        if (!current?.response || current.response.frames || current.response.body !== undefined || current.response.bodyText !== undefined) throw corrupt(source, number, 'a body must follow a response line, once, without frames')
        if (kind === 'body') current.response.body = parseLine(bodyLine, value, source, number, 'body').body
        else current.response.bodyText = parseLine(bodyTextLine, value, source, number, 'body_text').body_text
        return
      }
      default:
        throw corrupt(source, number, `unknown line kind ${JSON.stringify(kind)}`)
    }
  })
  if (!header) throw corrupt(source, 1, 'the cassette is empty; it needs a header line')
  finish(lines.length)
  return { wire: header.wire, provenance: header.provenance, tool: header.tool, ...(header.scenario !== undefined ? { scenario: header.scenario } : {}), interactions }
}

/** Reads a cassette file; a missing file is `VH_CASSETTE_MISSING`, a bad line `VH_CASSETTE_CORRUPT`. */
export function readCassette(path: string): Cassette {
  if (!existsSync(path)) {
    throw new RecorderError('VH_CASSETTE_MISSING', `the cassette ${path} does not exist. Record it first (VITEST_HARNESS_MODE=record with an upstream, or a scenario), or check the path.`, { location: path })
  }
  return parseCassette(readFileSync(path, 'utf8'), path)
}

/** The header's wire: the one every interaction speaks, or `mixed`. */
export function cassetteWire(interactions: readonly Interaction[], fallback: WireName | 'mixed' = 'mixed'): WireName | 'mixed' {
  const wires = new Set(interactions.map((interaction) => interaction.wire))
  if (wires.size === 1) return [...wires][0] as WireName
  return wires.size === 0 ? fallback : 'mixed'
}
