import { RecorderError } from '../errors.js'
import { isJsonObject, setOwn, type JsonValue } from './json.js'
import type { WireName } from './wire.js'

/** Headers whose values are credentials: kept by name and length, never by value. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'set-cookie', 'proxy-authorization', 'openai-organization', 'openai-project']

/** The request headers a client sends its own credential in, in the order `credentialOf` reports them. */
export const REQUEST_CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'proxy-authorization', 'cookie']

/**
 * Top-level request body fields each wire declares as credentials. The vendors' own APIs take
 * none (the key travels in a header), but OpenAI-compatible gateways accept `api_key` in the body.
 */
export const CREDENTIAL_BODY_FIELDS: Readonly<Record<WireName, readonly string[]>> = {
  'openai-responses': ['api_key'],
  'openai-chat': ['api_key'],
  'anthropic-messages': ['api_key'],
  gemini: [],
}

/** Shorter values are not redacted as literals (they would blank ordinary text); they are still redacted by header name. */
export const MIN_LITERAL_SECRET_LENGTH = 8
const MAX_SEEN_VALUES = 4096
const MAX_SEEN_BYTES = 4 * 1024 * 1024

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Every credential value a run has seen in a request, shared by every redactor of that run: a key
 * an upstream echoes (in an error body, an SSE frame, a kept header) is replaced wherever it is
 * written, in any scope. Bounded: past its budget a new value is refused, never silently forgotten.
 */
export class SeenCredentials {
  private readonly values = new Set<string>()
  private bytes = 0
  private matcher: RegExp | undefined

  /** Learns a credential header's or field's value, and the bare token behind a `Bearer`/`Basic` scheme or in a cookie pair. */
  learn(value: string): void {
    // The hot path: the same key on every request of a run.
    if (this.values.has(value)) return
    const parts = [value]
    const scheme = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value.trim())
    if (scheme) parts.push(scheme[1] as string)
    if (value.includes('=')) for (const pair of value.split(/[;,]/)) parts.push(pair.trim(), pair.slice(pair.indexOf('=') + 1).trim())
    for (const part of parts) this.add(part)
  }

  private add(value: string): void {
    if (value.length < MIN_LITERAL_SECRET_LENGTH || this.values.has(value)) return
    if (this.values.size >= MAX_SEEN_VALUES || this.bytes + value.length > MAX_SEEN_BYTES) {
      throw new RecorderError('VH_CREDENTIALS_OVERFLOW', `the provider has seen ${this.values.size} distinct credential values and keeps no more; a request with a new one is refused so none reaches disk unredacted`, { location: 'credentials' })
    }
    this.values.add(value)
    this.bytes += value.length
    this.matcher = undefined
  }

  get size(): number {
    return this.values.size
  }

  /** The text with every seen value replaced by its placeholder (longest first, so a whole header goes before its token). */
  replace(text: string): string {
    if (this.values.size === 0) return text
    this.matcher ??= new RegExp([...this.values].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g')
    this.matcher.lastIndex = 0
    return text.replace(this.matcher, (match) => redactionPlaceholder(match.length))
  }
}

/** Learns every credential a request carries: its credential headers, and the body fields its wire declares. */
export function learnCredentials(seen: SeenCredentials, headers: Readonly<Record<string, string | string[] | undefined>>, wire: WireName | undefined, body: JsonValue | undefined): void {
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers[name]
    if (typeof value === 'string') seen.learn(value)
    else if (Array.isArray(value)) for (const item of value) seen.learn(item)
  }
  if (wire === undefined || !isJsonObject(body)) return
  for (const field of CREDENTIAL_BODY_FIELDS[wire]) {
    const value = body[field]
    if (typeof value === 'string') seen.learn(value)
  }
}

/** Query parameters that carry a credential: Gemini's API key (`?key=`). */
const CREDENTIAL_QUERY_PARAMETERS = ['key']

/** Learns the credentials a request's query (`?alt=sse&key=…`, or empty) carries. */
export function learnQueryCredentials(seen: SeenCredentials, query: string): void {
  if (query === '') return
  const parameters = new URLSearchParams(query)
  for (const name of CREDENTIAL_QUERY_PARAMETERS) for (const value of parameters.getAll(name)) seen.learn(value)
}

/** Key shapes redacted wherever they appear in a body, on top of the configured patterns. */
export const DEFAULT_SECRET_PATTERNS: readonly RegExp[] = [/sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g, /AIza[0-9A-Za-z_-]{35}/g]

/**
 * A placeholder exactly as long as the secret it replaces, so presence and length survive and a
 * redacted JSON string stays the same size: `[REDACTED***]` from 10 characters up, `*` below.
 */
export function redactionPlaceholder(length: number): string {
  if (length < 10) return '*'.repeat(length)
  return `[REDACTED${'*'.repeat(length - 10)}]`
}

function globalPattern(pattern: RegExp | string): RegExp {
  if (typeof pattern === 'string') return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')
  return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`)
}

/** Replaces secrets on the way to disk: seen credential values, key shapes, configured patterns. One instance is applied on every write path. */
export class Redactor {
  private readonly patterns: RegExp[]

  constructor(
    patterns: readonly (RegExp | string)[] = [],
    /** The run's seen credentials; shared between the redactors of one provider. */
    readonly seen: SeenCredentials = new SeenCredentials(),
  ) {
    this.patterns = [...DEFAULT_SECRET_PATTERNS, ...patterns].map(globalPattern)
  }

  text(value: string): string {
    let out = this.seen.replace(value)
    for (const pattern of this.patterns) {
      pattern.lastIndex = 0
      out = out.replace(pattern, (match) => redactionPlaceholder(match.length))
    }
    return out
  }

  /**
   * A copy of `value` with every string and key redacted. Iterative, with an explicit stack: a body
   * nested 100k levels deep (which JSON.parse accepts) must not overflow the call stack on the way to disk.
   */
  json(value: JsonValue): JsonValue {
    const leaf = (item: JsonValue): JsonValue | undefined => (typeof item === 'string' ? this.text(item) : item === null || typeof item !== 'object' ? item : undefined)
    const first = leaf(value)
    if (first !== undefined) return first
    const root: JsonValue = Array.isArray(value) ? [] : {}
    // Each entry: a source container and the copy its children are written into.
    const stack: Array<{ from: JsonValue; to: JsonValue }> = [{ from: value, to: root }]
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const { from, to } = next
      const entries: Array<[string | number, JsonValue]> = Array.isArray(from) ? from.map((item, index) => [index, item]) : Object.entries(from as { [key: string]: JsonValue })
      for (const [key, item] of entries) {
        let copy = leaf(item)
        if (copy === undefined) {
          copy = Array.isArray(item) ? [] : {}
          stack.push({ from: item, to: copy })
        }
        if (Array.isArray(to)) to[key as number] = copy
        else setOwn(to as { [key: string]: JsonValue }, this.text(key as string), copy)
      }
    }
    return root
  }

  /** Credential headers become their placeholder; every other value passes the patterns. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(headers)) {
      out[name] = CREDENTIAL_HEADERS.includes(name.toLowerCase()) ? redactionPlaceholder(value.length) : this.text(value)
    }
    return out
  }
}

/** Which credential header a request carried and how long it was — never its value. */
export function credentialOf(headers: Readonly<Record<string, string | string[] | undefined>>): { header: string | null; present: boolean; length: number } {
  for (const name of REQUEST_CREDENTIAL_HEADERS) {
    const value = headers[name]
    const text = Array.isArray(value) ? value.join(', ') : value
    if (typeof text === 'string') return { header: name, present: true, length: text.length }
  }
  return { header: null, present: false, length: 0 }
}
