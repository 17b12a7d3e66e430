import { JsonNumber } from '../../src/events/float.js'

/** A parsed JSON object (numbers may be `JsonNumber`s where the lexeme must survive). */
export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JsonNumber)
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined
}

export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined
}

/**
 * serde_json's `as_u64`: a non-negative integer, nothing else. A value beyond 2^53 stays a
 * `JsonNumber` so the writer prints every digit.
 */
export function asU64(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined
  if (value instanceof JsonNumber) return /^[0-9]+$/.test(value.text) ? (value as unknown as number) : undefined
  return undefined
}

/** serde_json's `as_i64`. */
export function asI64(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined
  if (value instanceof JsonNumber) return /^-?[0-9]+$/.test(value.text) ? (value as unknown as number) : undefined
  return undefined
}

/** serde_json's `as_f64`: any number. */
export function asF64(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (value instanceof JsonNumber) return value.value
  return undefined
}

/** The strings of a list, or null when the field is not a list (absent is "did not say"). */
export function stringList(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null
}

// The ISO text of the minute last formatted: records of one run share minutes, and only the
// seconds and milliseconds change between them, so most instants need no Date at all.
let minuteStart = Number.NaN
let minutePrefix = ''

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0')
}

/** A millisecond epoch as an ISO instant; the vendor wrote a number, the envelope wants a string. */
export function millisToIso(value: unknown): string | undefined {
  const ms = asF64(value)
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined
  const offset = ms - minuteStart
  if (Number.isInteger(ms) && offset >= 0 && offset < 60_000) {
    return `${minutePrefix}${pad(Math.floor(offset / 1000), 2)}.${pad(offset % 1000, 3)}Z`
  }
  const iso = new Date(ms).toISOString()
  if (Number.isInteger(ms)) {
    minuteStart = ms - (((ms % 60_000) + 60_000) % 60_000)
    minutePrefix = iso.slice(0, iso.length - 'ss.sssZ'.length)
  }
  return iso
}
