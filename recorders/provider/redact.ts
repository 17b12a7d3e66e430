import { setOwn, type JsonValue } from './json.js'

/** Headers whose values are credentials: kept by name and length, never by value. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'x-api-key', 'api-key', 'cookie', 'set-cookie', 'proxy-authorization', 'openai-organization', 'openai-project']

/** Key shapes redacted wherever they appear in a body, on top of the configured patterns. */
export const DEFAULT_SECRET_PATTERNS: readonly RegExp[] = [/sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g]

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

/** Replaces secrets on the way to disk. One instance is applied on every write path. */
export class Redactor {
  private readonly patterns: RegExp[]

  constructor(patterns: readonly (RegExp | string)[] = []) {
    this.patterns = [...DEFAULT_SECRET_PATTERNS, ...patterns].map(globalPattern)
  }

  text(value: string): string {
    let out = value
    for (const pattern of this.patterns) {
      pattern.lastIndex = 0
      out = out.replace(pattern, (match) => redactionPlaceholder(match.length))
    }
    return out
  }

  json(value: JsonValue): JsonValue {
    if (typeof value === 'string') return this.text(value)
    if (Array.isArray(value)) return value.map((item) => this.json(item))
    if (value !== null && typeof value === 'object') {
      const out: { [key: string]: JsonValue } = {}
      for (const [key, item] of Object.entries(value)) setOwn(out, this.text(key), this.json(item))
      return out
    }
    return value
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
  for (const name of ['authorization', 'x-api-key', 'api-key']) {
    const value = headers[name]
    const text = Array.isArray(value) ? value.join(', ') : value
    if (typeof text === 'string') return { header: name, present: true, length: text.length }
  }
  return { header: null, present: false, length: 0 }
}
