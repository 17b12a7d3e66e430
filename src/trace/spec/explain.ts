import type { z } from 'zod'
import { closestName } from '../../util/closest-name.js'
import { fieldNamesAt } from './field-names.js'
import { EXPECT_VARIANTS, MATCHER_NAMES, traceSpecDocumentSchema } from './schema.js'

/**
 * Turns the first zod issue of a document that did not read into one sentence in serde's words
 * (`unknown field \`toool\`, expected one of …`, `missing field \`id\``), so a `TRACE-SPEC-002`
 * reads as upstream's does, with the place it happened appended.
 */

type Issue = z.core.$ZodIssue

/** What went wrong, where (`path`), and — for an unknown name — the key the author wrote (`keyPath`), which is what a line and column point at. */
export interface ExplainedIssue {
  path: readonly PropertyKey[]
  message: string
  keyPath?: readonly PropertyKey[]
}

/** ` (did you mean \`tool.called\`?)`, or nothing when no known name is close. */
function didYouMean(word: string, known: readonly string[]): string {
  const near = closestName(word, known)
  return near === undefined ? '' : ` (did you mean \`${near}\`?)`
}

/** `expectations[2].expect.tool.called.count`: where a path points, dotted as upstream locates. */
export function renderPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}

/** serde's `Unexpected` rendering of a value it did not expect. */
function unexpected(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (typeof value === 'boolean') return `boolean \`${value}\``
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`
  if (Array.isArray(value)) return 'sequence'
  return 'map'
}

function expectedWord(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string'
    case 'boolean':
      return 'a boolean'
    case 'number':
      return 'a number'
    case 'int':
      return 'u64'
    case 'array':
      return 'a sequence'
    case 'object':
    case 'record':
      return 'a map'
    default:
      return expected
  }
}

function oneOf(names: readonly string[]): string {
  if (names.length === 1) return `\`${names[0]}\``
  if (names.length === 2) return `\`${names[0]}\` or \`${names[1]}\``
  return `one of ${names.map((name) => `\`${name}\``).join(', ')}`
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[part as string]
  }
  return value
}

/** Which externally tagged union sits at a path: the kind of `expect:`, or a matcher. */
function variantsAt(path: readonly PropertyKey[]): readonly string[] | 'api_error_status' {
  const last = path[path.length - 1]
  if (last === 'expect') return EXPECT_VARIANTS
  if (last === 'api_error_status') return 'api_error_status'
  return MATCHER_NAMES
}

function explainUnion(issue: Extract<Issue, { code: 'invalid_union' }>, root: unknown, base: readonly PropertyKey[]): ExplainedIssue {
  const path = [...base, ...issue.path]
  const input = valueAt(root, path)
  const variants = variantsAt(path)
  if (variants === 'api_error_status') {
    return { path, message: `invalid value: ${unexpected(input)}, expected \`absent\` or \`{equals: "<status>"}\`` }
  }
  const isKind = variants === EXPECT_VARIANTS
  if (typeof input === 'string' && isKind) {
    const message = variants.includes(input)
      ? `invalid type: unit variant, expected newtype variant — write \`expect: {${input}: {…}}\`, the kind as the one key of \`expect\``
      : `unknown variant \`${input}\`${didYouMean(input, variants)}, expected ${oneOf(variants)}`
    return { path, message }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { path, message: `invalid type: ${unexpected(input)}, expected ${isKind ? 'a map with the kind as its single key' : 'a matcher map with a single key'}` }
  }
  const keys = Object.keys(input)
  if (keys.length !== 1) return { path, message: 'invalid value: map, expected map with a single key' }
  const key = keys[0] as string
  const branch = variants.indexOf(key)
  if (branch === -1) return { path, message: `unknown variant \`${key}\`${didYouMean(key, variants)}, expected ${oneOf(variants)}`, keyPath: [...path, key] }
  const nested = issue.errors[branch]?.[0]
  if (!nested) return { path, message: 'invalid value' }
  return explain(nested, root, path)
}

function explain(issue: Issue, root: unknown, base: readonly PropertyKey[]): ExplainedIssue {
  const path = [...base, ...issue.path]
  switch (issue.code) {
    case 'invalid_union':
      return explainUnion(issue, root, base)
    case 'unrecognized_keys': {
      const schemaKeys = issue.keys
      const known = fieldNamesAt(traceSpecDocumentSchema, path)
      const first = schemaKeys[0] as string
      return { path, message: `unknown field ${schemaKeys.map((key) => `\`${key}\``).join(', ')}${schemaKeys.length === 1 ? didYouMean(first, known) : ''}`, keyPath: [...path, first] }
    }
    case 'invalid_type': {
      const input = valueAt(root, path)
      if (input === undefined) return { path: path.slice(0, -1), message: `missing field \`${String(path[path.length - 1])}\`` }
      return { path, message: `invalid type: ${unexpected(input)}, expected ${expectedWord(issue.expected)}` }
    }
    case 'too_small':
      return { path, message: `invalid value: ${unexpected(valueAt(root, path))}, expected u64` }
    case 'invalid_value':
      return { path, message: `unknown variant ${JSON.stringify(valueAt(root, path))}, expected ${oneOf(issue.values.map(String))}` }
    default:
      return { path, message: issue.message }
  }
}

/** The first issue of a failed parse, explained, with where it is. */
export function explainIssue(error: z.ZodError, root: unknown): ExplainedIssue {
  const first = error.issues[0]
  if (!first) return { path: [], message: 'the document does not read as trace-spec/1' }
  return explain(first, root, [])
}

/** The first issue of a failed parse, in serde's words with its place: `…(at expectations[0].expect)`. */
export function explainFirstIssue(error: z.ZodError, root: unknown): string {
  const { path, message } = explainIssue(error, root)
  return path.length === 0 ? message : `${message} (at ${renderPath(path)})`
}
