/**
 * Field-level differences between two JSON values, named by JSON path (`$.usage.input_tokens`,
 * `$.items[2]`): what a byte comparison cannot say. Objects are compared key by key, arrays index
 * by index, everything else by value.
 */

export type JsonDifference =
  | { kind: 'changed'; path: string; expected: unknown; actual: unknown }
  | { kind: 'added'; path: string; actual: unknown }
  | { kind: 'removed'; path: string; expected: unknown }

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `$.key`, or `$["odd key"]` for a key that is not an identifier. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function collect(expected: unknown, actual: unknown, path: string, out: JsonDifference[], limit: number): void {
  if (out.length >= limit) return
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const shared = Math.min(expected.length, actual.length)
    for (let i = 0; i < shared; i++) collect(expected[i], actual[i], childPath(path, i), out, limit)
    for (let i = shared; i < expected.length && out.length < limit; i++) out.push({ kind: 'removed', path: childPath(path, i), expected: expected[i] })
    for (let i = shared; i < actual.length && out.length < limit; i++) out.push({ kind: 'added', path: childPath(path, i), actual: actual[i] })
    return
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    for (const key of Object.keys(expected)) {
      if (out.length >= limit) return
      const child = childPath(path, key)
      if (!Object.hasOwn(actual, key)) out.push({ kind: 'removed', path: child, expected: expected[key] })
      else collect(expected[key], actual[key], child, out, limit)
    }
    for (const key of Object.keys(actual)) {
      if (out.length >= limit) return
      if (!Object.hasOwn(expected, key)) out.push({ kind: 'added', path: childPath(path, key), actual: actual[key] })
    }
    return
  }
  if (!Object.is(expected, actual) && !(typeof expected === 'bigint' && expected === actual)) out.push({ kind: 'changed', path, expected, actual })
}

/** Every difference between two JSON values, in document order (at most `limit`). Empty: equal. */
export function diffJson(expected: unknown, actual: unknown, options: { limit?: number; root?: string } = {}): JsonDifference[] {
  const out: JsonDifference[] = []
  collect(expected, actual, options.root ?? '$', out, options.limit ?? Number.POSITIVE_INFINITY)
  return out
}

/** A value as a difference line prints it: its JSON, cut to `max` characters. */
export function showJsonValue(value: unknown, max = 200): string {
  let text: string
  try {
    text = typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** `$.usage.input_tokens: expected 42, got 43`, or `… : missing (expected 42)` / `… : unexpected 43`. */
export function describeJsonDifference(difference: JsonDifference): string {
  switch (difference.kind) {
    case 'changed':
      return `${difference.path}: expected ${showJsonValue(difference.expected)}, got ${showJsonValue(difference.actual)}`
    case 'removed':
      return `${difference.path}: missing (expected ${showJsonValue(difference.expected)})`
    case 'added':
      return `${difference.path}: unexpected ${showJsonValue(difference.actual)}`
  }
}
