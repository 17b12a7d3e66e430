import type { z } from 'zod'
import { EVENT_FORMAT } from './format.js'
import { JsonNumber, RustFloat } from './float.js'
import { compareCodePoints } from './json.js'
import { isFloatSchema, payloadSchemas } from './schema.js'
import type { Emission } from './types.js'
import { SKIPPED_FIELDS } from './write.js'

/**
 * An event as a reader of its canonical line would see it — `JSON.parse(writeEventLine(…))` —
 * built straight from the emission, so a checker can consume an adapter's events without the
 * writer printing them and `JSON.parse` reading them back. It walks the same schemas the writer
 * walks and applies the same rules (declared key order, explicit `null`, sorted maps and free
 * values, the listed skips, numbers as their printed text reads back). What it cannot reproduce
 * cheaply and certainly (a value the writer would print in a way that does not read back as
 * itself, a line that may be over a reader's byte limit) makes it answer `undefined`: the caller
 * then writes the line and reads it, so the answer is always the round trip's.
 */

/** Set when a value needs the writer's own bytes; the walk then stops at the next check. */
class NeedsLine extends Error {}
const NEEDS_LINE = new NeedsLine()

/** The walk's upper bound on the line's UTF-8 bytes: each UTF-16 unit prints in at most 6. */
let budget = 0
const spend = (bytes: number): void => {
  budget -= bytes
  if (budget < 0) throw NEEDS_LINE
}

type Normalise = (value: unknown) => unknown

function definitionOf(schema: z.ZodType): { type: string; [key: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string } } })._zod.def
}

/** What a number prints as in an integer field (or a free value), read back. */
function readBackNumber(value: number): number | null {
  if (!Number.isFinite(value)) return null
  // Safe integers print without a sign on zero; everything else prints as ryu's shortest round trip.
  return Object.is(value, -0) ? 0 : value
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  // `JSON.parse` makes `__proto__` an own key; assigning it would set the prototype instead.
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

/** `JSON.parse(writeSortedJson(value))`, without the text. */
function sortedValue(value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (typeof value) {
    case 'string':
      spend(6 * value.length + 2)
      return value
    case 'number':
      spend(32)
      return readBackNumber(value)
    case 'boolean':
      spend(5)
      return value
    case 'object':
      break
    default:
      // bigint, symbol, function: rare enough that the writer's own bytes decide.
      throw NEEDS_LINE
  }
  if (value instanceof JsonNumber) {
    spend(value.text.length)
    return Number(value.text)
  }
  if (value instanceof RustFloat) {
    spend(32)
    return Number.isFinite(value.value) ? value.value : null
  }
  if (Array.isArray(value)) {
    spend(2 + value.length)
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) out[i] = sortedValue(value[i])
    return out
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).filter((key) => record[key] !== undefined)
  keys.sort(compareCodePoints)
  spend(2)
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    spend(6 * key.length + 4)
    setKey(out, key, sortedValue(record[key]))
  }
  return out
}

interface FieldNormaliser {
  readonly key: string
  readonly normalise: Normalise
  readonly skip: ((value: unknown) => boolean) | undefined
}

function compileFields(shape: Record<string, z.ZodType>, skips: Record<string, (value: unknown) => boolean> = {}): FieldNormaliser[] {
  return Object.entries(shape).map(([key, schema]) => {
    const optional = definitionOf(schema).type === 'optional'
    return { key, normalise: compileValue(schema), skip: skips[key] ?? (optional ? (value: unknown) => value === undefined : undefined) }
  })
}

function fillFields(fields: readonly FieldNormaliser[], record: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const field of fields) {
    const value = record[field.key]
    if (field.skip !== undefined && field.skip(value)) continue
    spend(field.key.length + 4)
    out[field.key] = field.normalise(value)
  }
}

function compileValue(schema: z.ZodType): Normalise {
  const def = definitionOf(schema)
  switch (def.type) {
    case 'nullable':
    case 'default':
    case 'optional': {
      const inner = compileValue(def['innerType'] as z.ZodType)
      return (value) => (value === null || value === undefined ? null : inner(value))
    }
    case 'string':
    case 'enum':
    case 'literal':
      return (value) => {
        if (typeof value !== 'string') return sortedValue(value)
        spend(6 * value.length + 2)
        return value
      }
    case 'number': {
      if (isFloatSchema(schema)) {
        // ryu's shortest digits read back as the same double (`-0.0` as -0); non-finite prints `null`.
        return (value) => {
          spend(32)
          const number = Number(value)
          return Number.isFinite(number) ? number : null
        }
      }
      return (value) => {
        spend(32)
        if (value instanceof JsonNumber) return Number(value.text)
        return readBackNumber(Number(value))
      }
    }
    case 'boolean':
      return (value) => {
        spend(5)
        return value ? true : false
      }
    case 'array': {
      const element = compileValue(def['element'] as z.ZodType)
      return (value) => {
        if (!Array.isArray(value)) return sortedValue(value)
        spend(2 + value.length)
        const out = new Array<unknown>(value.length)
        for (let i = 0; i < value.length; i++) out[i] = element(value[i])
        return out
      }
    }
    case 'record': {
      const entry = compileValue(def['valueType'] as z.ZodType)
      return (value) => {
        const record = (value ?? {}) as Record<string, unknown>
        const keys = Object.keys(record).sort(compareCodePoints)
        spend(2)
        const out: Record<string, unknown> = {}
        for (const key of keys) {
          spend(6 * key.length + 4)
          setKey(out, key, entry(record[key]))
        }
        return out
      }
    }
    case 'object': {
      const fields = compileFields(def['shape'] as Record<string, z.ZodType>)
      return (value) => {
        const out: Record<string, unknown> = {}
        fillFields(fields, (value ?? {}) as Record<string, unknown>, out)
        return out
      }
    }
    case 'union': {
      const discriminator = def['discriminator'] as string
      const options = new Map<string, FieldNormaliser[]>()
      for (const option of def['options'] as z.ZodType[]) {
        const shape = definitionOf(option)['shape'] as Record<string, z.ZodType>
        const tag = definitionOf(shape[discriminator] as z.ZodType)['values'] as string[]
        options.set(tag[0] as string, compileFields(shape))
      }
      return (value) => {
        const record = (value ?? {}) as Record<string, unknown>
        const fields = options.get(String(record[discriminator]))
        if (fields === undefined) return sortedValue(value)
        const out: Record<string, unknown> = {}
        fillFields(fields, record, out)
        return out
      }
    }
    default:
      return sortedValue
  }
}

/** The envelope's keys: a payload declaring one of them would make `JSON.parse` keep a duplicate. */
const ENVELOPE_KEYS = new Set(['format', 'seq', 'run', 'at', 'event'])

/** Per event name, the payload's fields; absent where the envelope and payload share a key. */
const payloadFields = new Map<string, FieldNormaliser[]>()
for (const [name, schema] of Object.entries(payloadSchemas)) {
  const shape = definitionOf(schema)['shape'] as Record<string, z.ZodType>
  if (Object.keys(shape).some((key) => ENVELOPE_KEYS.has(key))) continue
  payloadFields.set(name, compileFields(shape, SKIPPED_FIELDS[name as keyof typeof SKIPPED_FIELDS]))
}

/**
 * `JSON.parse` of the line `writeEventLine(seq, run, emission)` writes (without its newline), or
 * `undefined` when only the line itself can say: the value would not read back as itself, or the
 * line may be longer than `maxLineBytes`.
 */
export function canonicalEventObject(seq: number, run: string, emission: Emission, maxLineBytes: number): Record<string, unknown> | undefined {
  const fields = payloadFields.get(emission.event)
  if (fields === undefined) return undefined
  budget = maxLineBytes - 96 - 6 * run.length
  try {
    const out: Record<string, unknown> = { format: EVENT_FORMAT, seq, run }
    if (typeof emission.at === 'string') {
      spend(6 * emission.at.length + 8)
      out['at'] = emission.at
    }
    out['event'] = emission.event
    fillFields(fields, emission as Record<string, unknown>, out)
    return out
  } catch (error) {
    if (error === NEEDS_LINE) return undefined
    throw error
  }
}
