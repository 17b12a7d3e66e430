import type { z } from 'zod'
import { EVENT_FORMAT, type EventName } from './format.js'
import { JsonNumber, formatRustF64 } from './float.js'
import { formatJsonNumber, compareCodePoints, quoteJsonString, writeSortedJson } from './json.js'
import { isFloatSchema, payloadSchemas } from './schema.js'
import type { CloseReason, Emission } from './types.js'

/** Prints one value; `inline`, when present, gives the same as code over a local (for codegen). */
type WriteValue = ((value: unknown) => string) & { inline?: (local: string, ref: (helper: unknown) => string) => string }

function withInline(write: (value: unknown) => string, inline: NonNullable<WriteValue['inline']>): WriteValue {
  return Object.assign(write, { inline })
}

interface FieldWriter {
  readonly key: string
  readonly prefix: string
  readonly write: WriteValue
  /** Left out of the line entirely when this says so (upstream's `skip_serializing_if`). */
  readonly skip: ((value: unknown) => boolean) | undefined
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null
const isEmptyList = (value: unknown): boolean =>
  value === undefined || value === null || (Array.isArray(value) && value.length === 0)

// The only payload fields upstream omits instead of writing `null` (notes §1.1).
export const SKIPPED_FIELDS: Partial<Record<EventName, Record<string, (value: unknown) => boolean>>> = {
  'session.started': { available_operations: isAbsent },
  'tool.requested': { operations: isEmptyList, subjects: isEmptyList },
}

function definitionOf(schema: z.ZodType): { type: string; [key: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string } } })._zod.def
}

function compileObjectFields(
  shape: Record<string, z.ZodType>,
  skips: Record<string, (value: unknown) => boolean> = {},
): FieldWriter[] {
  return Object.entries(shape).map(([key, schema]) => {
    const optional = definitionOf(schema).type === 'optional'
    return {
      key,
      prefix: `${JSON.stringify(key)}:`,
      write: compileValue(schema),
      skip: skips[key] ?? (optional ? (value: unknown) => value === undefined : undefined),
    }
  })
}

/**
 * Generates the straight-line function that prints an object's fields in order: the writer runs
 * once per event, so it is compiled once per shape instead of interpreting the field table.
 */
function generateFieldsWriter(fields: readonly FieldWriter[], first: boolean): (record: Record<string, unknown>) => string {
  const helpers: unknown[] = []
  const ref = (helper: unknown): string => {
    helpers.push(helper)
    return `h[${helpers.length - 1}]`
  }
  let body = `let o = ''; let c = ${first ? 'false' : 'true'};\n`
  // Whether a field is certainly written before this one: then its comma is known when compiling.
  let certain = !first
  for (const field of fields) {
    const value = field.write.inline ? field.write.inline('v', ref) : `${ref(field.write)}(v)`
    const prefix = certain ? JSON.stringify(`,${field.prefix}`) : `(c ? ${JSON.stringify(`,${field.prefix}`)} : ${JSON.stringify(field.prefix)})`
    const emit = `o += ${prefix} + ${value};${certain ? '' : ' c = true;'}`
    body += `{ const v = r[${JSON.stringify(field.key)}]; ${field.skip ? `if (!${ref(field.skip)}(v)) { ${emit} }` : emit} }\n`
    if (!field.skip) certain = true
  }
  body += 'return o;'
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from our own schema keys only.
  return new Function('h', `return function writeFields(r) {\n${body}\n}`)(helpers) as (record: Record<string, unknown>) => string
}

function compileValue(schema: z.ZodType): WriteValue {
  const def = definitionOf(schema)
  switch (def.type) {
    case 'nullable':
    case 'default':
    case 'optional': {
      const inner = compileValue(def['innerType'] as z.ZodType)
      return withInline(
        (value) => (value === null || value === undefined ? 'null' : inner(value)),
        (local, ref) => `(${local} == null ? 'null' : ${inner.inline ? inner.inline(local, ref) : `${ref(inner)}(${local})`})`,
      )
    }
    case 'string':
    case 'enum':
    case 'literal':
      return withInline(
        (value) => (typeof value === 'string' ? quoteJsonString(value) : writeSortedJson(value)),
        (local, ref) => `(typeof ${local} === 'string' ? ${ref(quoteJsonString)}(${local}) : ${ref(writeSortedJson)}(${local}))`,
      )
    case 'number': {
      if (isFloatSchema(schema)) {
        const write = (value: unknown): string => formatRustF64(Number(value))
        return withInline(write, (local, ref) => `${ref(write)}(${local})`)
      }
      const write = (value: unknown): string => (value instanceof JsonNumber ? value.text : formatJsonNumber(Number(value)))
      // Small non-negative integers (every count and token figure) print without a call.
      return withInline(write, (local, ref) => `(typeof ${local} === 'number' && (${local} >>> 0) === ${local} ? '' + ${local} : ${ref(write)}(${local}))`)
    }
    case 'boolean':
      return withInline(
        (value) => (value ? 'true' : 'false'),
        (local) => `(${local} ? 'true' : 'false')`,
      )
    case 'array': {
      const element = compileValue(def['element'] as z.ZodType)
      return (value) => {
        if (!Array.isArray(value)) return writeSortedJson(value)
        let out = '['
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ','
          out += element(value[i])
        }
        return `${out}]`
      }
    }
    case 'record': {
      // Upstream maps are BTreeMaps: keys come out sorted.
      const entry = compileValue(def['valueType'] as z.ZodType) as (value: unknown) => string
      return (value) => {
        const record = (value ?? {}) as Record<string, unknown>
        const keys = Object.keys(record).sort(compareCodePoints)
        let out = '{'
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string
          if (i > 0) out += ','
          out += `${quoteJsonString(key)}:${entry(record[key])}`
        }
        return `${out}}`
      }
    }
    case 'object': {
      const write = generateFieldsWriter(compileObjectFields(def['shape'] as Record<string, z.ZodType>), true)
      return (value) => `{${write((value ?? {}) as Record<string, unknown>)}}`
    }
    case 'union': {
      const discriminator = def['discriminator'] as string
      const options = new Map<string, (record: Record<string, unknown>) => string>()
      for (const option of def['options'] as z.ZodType[]) {
        const shape = definitionOf(option)['shape'] as Record<string, z.ZodType>
        const tag = definitionOf(shape[discriminator] as z.ZodType)['values'] as string[]
        options.set(tag[0] as string, generateFieldsWriter(compileObjectFields(shape), true))
      }
      return (value) => {
        const record = (value ?? {}) as Record<string, unknown>
        const write = options.get(String(record[discriminator]))
        return write ? `{${write(record)}}` : writeSortedJson(value)
      }
    }
    default:
      return writeSortedJson
  }
}

/** Per event name: the `,"event":"<name>"` text and the payload writer, computed once. */
const payloadWriters = new Map<string, { readonly eventField: string; readonly writeFields: (record: Record<string, unknown>) => string }>(
  Object.entries(payloadSchemas).map(([name, schema]) => [
    name,
    {
      eventField: `,"event":${JSON.stringify(name)}`,
      writeFields: generateFieldsWriter(
        compileObjectFields(definitionOf(schema)['shape'] as Record<string, z.ZodType>, SKIPPED_FIELDS[name as EventName]),
        false,
      ),
    },
  ]),
)

const formatPrefix = `{"format":${JSON.stringify(EVENT_FORMAT)},"seq":`

/** `writeEventLine` with the run id already written as JSON (a writer writes it once, not per line). */
function writeLine(seq: number, runJson: string, emission: Emission): string {
  const writer = payloadWriters.get(emission.event)
  if (!writer) throw new TypeError(`cannot write an event named ${JSON.stringify(emission.event)}`)
  let out = `${formatPrefix}${seq},"run":${runJson}`
  if (typeof emission.at === 'string') out += `,"at":${quoteJsonString(emission.at)}`
  return `${out}${writer.eventField}${writer.writeFields(emission as Record<string, unknown>)}}\n`
}

/**
 * One canonical line: `format, seq, run, [at], event`, then the payload in upstream's declared
 * order, explicit `null` for absent options, and the trailing `\n`.
 */
export function writeEventLine(seq: number, run: string, emission: Emission): string {
  return writeLine(seq, JSON.stringify(run), emission)
}

/** Writes one run's stream: assigns `seq` from 1 in one place and closes the stream once. */
export class EventStreamWriter {
  private seq = 0
  private closed = false
  private readonly runJson: string

  constructor(readonly run: string) {
    this.runJson = JSON.stringify(run)
  }

  /** How many lines this writer has written. */
  get written(): number {
    return this.seq
  }

  write(emission: Emission): string {
    if (this.closed) throw new Error(`the stream for run ${JSON.stringify(this.run)} is already closed`)
    this.seq += 1
    return writeLine(this.seq, this.runJson, emission)
  }

  /** The `stream.closed` marker: last, counting the lines before it. Idempotent: a second call writes nothing. */
  close(reason: CloseReason): string {
    if (this.closed) return ''
    const line = this.write({ event: 'stream.closed', events: this.seq, reason, run_id: this.run })
    this.closed = true
    return line
  }
}
