import { TraceSpecError } from '../errors.js'
import type { TraceSpec } from './model.js'
import { SPEC_FORMAT } from './model.js'
import { parseSpecValue } from './read.js'
import type { TraceSpecDocument } from './schema.js'

/** A specification written in code: the document form, with `format` filled in for you. */
export type SpecInput = Omit<TraceSpecDocument, 'format'> & { format?: typeof SPEC_FORMAT }

/**
 * Builds a validated `trace-spec/1` specification in code. The input is the document form a YAML
 * file would hold, fully typed (each kind's parameters complete in an editor), and it goes through
 * the same validation as a file: a defect throws a `TraceSpecError` carrying every refusal.
 *
 * @example
 * const s = spec({
 *   id: 'my-harness/smoke',
 *   expectations: [
 *     { id: 'the-suite-ran', expect: { 'tool.called': { tool: 'Bash', args: { command: { contains: 'npm test' } } } } },
 *     { id: 'nothing-refused', expect: { 'permission.denied': { count: { at_most: 0 } } } },
 *   ],
 * })
 */
export function spec(input: SpecInput): TraceSpec {
  const result = parseSpecValue({ format: SPEC_FORMAT, ...input })
  if (!result.ok) throw new TraceSpecError(result.refusals, `spec(${JSON.stringify(input.id)})`)
  return result.spec
}
