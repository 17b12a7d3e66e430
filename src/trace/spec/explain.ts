import type { z } from 'zod'
import { EXPECT_VARIANTS, MATCHER_NAMES } from './schema.js'

/**
 * Turns the first zod issue of a document that did not read into one sentence in serde's words
 * (`unknown field \`toool\`, expected one of …`, `missing field \`id\``), so a `TRACE-SPEC-002`
 * reads as upstream's does, with the place it happened appended.
 */

type Issue = z.core.$ZodIssue

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

function explainUnion(issue: Extract<Issue, { code: 'invalid_union' }>, root: unknown, base: readonly PropertyKey[]): { path: readonly PropertyKey[]; message: string } {
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
      : `unknown variant \`${input}\`, expected ${oneOf(variants)}`
    return { path, message }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { path, message: `invalid type: ${unexpected(input)}, expected ${isKind ? 'a map with the kind as its single key' : 'a matcher map with a single key'}` }
  }
  const keys = Object.keys(input)
  if (keys.length !== 1) return { path, message: 'invalid value: map, expected map with a single key' }
  const key = keys[0] as string
  const branch = variants.indexOf(key)
  if (branch === -1) return { path, message: `unknown variant \`${key}\`, expected ${oneOf(variants)}` }
  const nested = issue.errors[branch]?.[0]
  if (!nested) return { path, message: 'invalid value' }
  return explain(nested, root, path)
}

function explain(issue: Issue, root: unknown, base: readonly PropertyKey[]): { path: readonly PropertyKey[]; message: string } {
  const path = [...base, ...issue.path]
  switch (issue.code) {
    case 'invalid_union':
      return explainUnion(issue, root, base)
    case 'unrecognized_keys': {
      const schemaKeys = issue.keys
      return { path, message: `unknown field ${schemaKeys.map((key) => `\`${key}\``).join(', ')}` }
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

/** The first issue of a failed parse, in serde's words with its place: `…(at expectations[0].expect)`. */
export function explainFirstIssue(error: z.ZodError, root: unknown): string {
  const first = error.issues[0]
  if (!first) return 'the document does not read as trace-spec/1'
  const { path, message } = explain(first, root, [])
  return path.length === 0 ? message : `${message} (at ${renderPath(path)})`
}
