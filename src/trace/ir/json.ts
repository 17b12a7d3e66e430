import { writeSortedJson } from '../../events/json.js'
import type { LoadedPlugin, McpServer } from './types.js'

/**
 * Reading transcript JSON leniently, one rule for both readers: a key that is absent, `null` or of
 * another type is absence (`null`), never zero or false. Unknown keys are ignored.
 */

export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The object under `key`, where there is one. */
export function objectAt(value: unknown, key: string): JsonObject | null {
  if (!isObject(value)) return null
  const found = value[key]
  return isObject(found) ? found : null
}

export function textAt(value: unknown, key: string): string | null {
  if (!isObject(value)) return null
  const found = value[key]
  return typeof found === 'string' ? found : null
}

/** A non-negative integer (serde's `as_u64`). */
export function u64At(value: unknown, key: string): number | null {
  if (!isObject(value)) return null
  const found = value[key]
  return typeof found === 'number' && Number.isInteger(found) && found >= 0 ? found : null
}

/** An integer (serde's `as_i64`). */
export function i64At(value: unknown, key: string): number | null {
  if (!isObject(value)) return null
  const found = value[key]
  return typeof found === 'number' && Number.isInteger(found) ? found : null
}

/** Any number (serde's `as_f64`). */
export function f64At(value: unknown, key: string): number | null {
  if (!isObject(value)) return null
  const found = value[key]
  return typeof found === 'number' ? found : null
}

export function boolAt(value: unknown, key: string): boolean | null {
  if (!isObject(value)) return null
  const found = value[key]
  return typeof found === 'boolean' ? found : null
}

/** A list's length, where the list is there (`[]` is 0, absent is `null`). */
export function countAt(value: unknown, key: string): number | null {
  if (!isObject(value)) return null
  const found = value[key]
  return Array.isArray(found) ? found.length : null
}

/** Key-sorted compact JSON, as serde_json prints a `Value`. */
export function compact(value: unknown): string {
  return writeSortedJson(value)
}

/** A name-ish entry: a string as itself, an object's `name`, anything else as its JSON. */
function nameOf(entry: unknown): string {
  if (typeof entry === 'string') return entry
  const name = textAt(entry, 'name')
  return name ?? compact(entry)
}

/** A list of names; an entry this build cannot name keeps its JSON rather than disappearing. */
export function namesAt(value: unknown, key: string): string[] | null {
  if (!isObject(value)) return null
  const found = value[key]
  return Array.isArray(found) ? found.map(nameOf) : null
}

export function pluginsAt(value: unknown): LoadedPlugin[] | null {
  if (!isObject(value)) return null
  const found = value['plugins']
  if (!Array.isArray(found)) return null
  return found.map((entry) => ({ name: nameOf(entry), version: textAt(entry, 'version'), source: textAt(entry, 'source'), path: textAt(entry, 'path') }))
}

export function mcpServersAt(value: unknown): McpServer[] | null {
  if (!isObject(value)) return null
  const found = value['mcp_servers']
  if (!Array.isArray(found)) return null
  return found.map((entry) => ({ name: nameOf(entry), status: textAt(entry, 'status') }))
}

/** The per-tool result fields a record carries beside its content (`tool_use_result`). */
export function resultFields(value: unknown): JsonObject {
  return objectAt(value, 'tool_use_result') ?? {}
}

/** Rust's `char::is_whitespace` over a whole line (no BOM, unlike JavaScript's `trim`). */
export function isBlankLine(text: string): boolean {
  // A record starts with `{`: answered without scanning.
  if (text.charCodeAt(0) === 123) return false
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(text)
}
