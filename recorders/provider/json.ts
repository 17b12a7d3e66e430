import { createHash } from 'node:crypto'

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** Compact JSON with object keys sorted by code point: the one encoding identity is hashed on. */
export function canonicalJson(value: JsonValue): string {
  // An explicit stack: a body nested thousands deep must not exhaust the call stack.
  let out = ''
  const stack: ({ text: string } | { value: JsonValue })[] = [{ value }]
  while (stack.length > 0) {
    const step = stack.pop() as { text: string } | { value: JsonValue }
    if ('text' in step) {
      out += step.text
      continue
    }
    const current = step.value
    if (current === null || typeof current !== 'object') {
      out += JSON.stringify(current)
      continue
    }
    if (Array.isArray(current)) {
      out += '['
      stack.push({ text: ']' })
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i] as JsonValue })
        if (i > 0) stack.push({ text: ',' })
      }
      continue
    }
    const keys = Object.keys(current).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    out += '{'
    stack.push({ text: '}' })
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      stack.push({ value: current[key] as JsonValue })
      stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` })
    }
  }
  return out
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Parses JSON text, or says it is not JSON (`undefined`), without throwing. */
export function tryParseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return undefined
  }
}

export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Sets an own property, even `__proto__` (a plain assignment would set the prototype and drop the key). */
export function setOwn(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/** Whether a value is JSON data (what JSON.parse can return). */
export function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isJsonValue)
  if (typeof value === 'object') return Object.values(value).every(isJsonValue)
  return false
}
