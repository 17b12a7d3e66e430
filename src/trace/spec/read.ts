import { isUtf8 } from 'node:buffer'
import { readYaml } from '../../util/yaml.js'
import { TraceSpecError, type TraceRefusal } from '../errors.js'
import { explainFirstIssue, explainIssue, renderPath } from './explain.js'
import type { TraceSpec } from './model.js'
import { traceSpecDocumentSchema } from './schema.js'
import { validateDocument } from './validate.js'
import { INPUT_LIMITS, readBoundedFile } from '../../util/read-input.js'

/** A specification, or every refusal that stopped one. */
export type SpecReadResult = { ok: true; spec: TraceSpec } | { ok: false; refusals: TraceRefusal[] }

function malformed(message: string): SpecReadResult {
  return { ok: false, refusals: [{ code: 'TRACE-SPEC-002', location: 'document', message }] }
}

/**
 * Validates a document already parsed from YAML or JSON (or written in code): the shape first
 * (`TRACE-SPEC-002`, one refusal), then every rule, accumulated.
 */
export function parseSpecValue(value: unknown): SpecReadResult {
  const shaped = traceSpecDocumentSchema.safeParse(value, { reportInput: true })
  if (!shaped.success) return malformed(explainFirstIssue(shaped.error, value))
  return validateDocument(shaped.data)
}

/** Reads `trace-spec/1` text (YAML, or JSON, which is YAML) into a specification or refusals. */
export function parseSpec(text: string): SpecReadResult {
  const read = readYaml(text)
  if (!read.ok) {
    const problem = read.problems[0] as (typeof read.problems)[number]
    return malformed(`${problem.message} at line ${problem.line} column ${problem.col} (${problem.code})`)
  }
  const shaped = traceSpecDocumentSchema.safeParse(read.value, { reportInput: true })
  if (shaped.success) return validateDocument(shaped.data)
  // Text has places: the refusal points at the line and column of what it names (an unknown kind or field: its key).
  const issue = explainIssue(shaped.error, read.value)
  const position = issue.keyPath ? read.positionOf(issue.keyPath, { key: true }) : read.positionOf(issue.path)
  const message = issue.path.length === 0 ? issue.message : `${issue.message} (at ${renderPath(issue.path)})`
  return { ok: false, refusals: [{ code: 'TRACE-SPEC-002', location: 'document', message, ...(position ? { position } : {}) }] }
}

/** Reads `trace-spec/1` text and throws a `TraceSpecError` carrying every refusal. */
export function readSpec(text: string, source?: string): TraceSpec {
  const result = parseSpec(text)
  if (!result.ok) throw new TraceSpecError(result.refusals, source)
  return result.spec
}

/** Reads a `trace-spec/1` file (YAML or JSON). */
export function readSpecFile(path: string): TraceSpec {
  const bytes = readBoundedFile(path, { maxBytes: INPUT_LIMITS.spec, what: 'specification' })
  if (!isUtf8(bytes)) throw new TraceSpecError([{ code: 'TRACE-SPEC-002', location: 'document', message: 'the specification is not UTF-8' }], path)
  return readSpec(bytes.toString('utf8'), path)
}
