import { z } from 'zod'
import { traceSpecDocumentSchema, traceSpecSchemaRegistry } from './schema.js'

/** Where the package ships the generated schema, relative to its root. */
export const TRACE_SPEC_SCHEMA_FILE = 'schemas/trace-spec-1.schema.json'

/** The `$id` editors see; the schema is also reachable as `vitest-harness/trace-spec.schema.json`. */
export const TRACE_SPEC_SCHEMA_ID = 'https://unpkg.com/vitest-harness/schemas/trace-spec-1.schema.json'

/**
 * The JSON Schema (draft 2020-12) of a `trace-spec/1` document, generated from the same zod schema
 * the reader parses with, so an editor completes exactly what the checker accepts. The shipped
 * file is this value; a test fails when the two differ.
 */
export function traceSpecJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(traceSpecDocumentSchema, { target: 'draft-2020-12', io: 'input', metadata: traceSpecSchemaRegistry }) as Record<string, unknown>
  const { $schema, ...rest } = generated
  return { $schema, $id: TRACE_SPEC_SCHEMA_ID, ...rest }
}

/** The shipped file's exact text: two-space JSON and a trailing newline. */
export function traceSpecJsonSchemaText(): string {
  return `${JSON.stringify(traceSpecJsonSchema(), null, 2)}\n`
}
