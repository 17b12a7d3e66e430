import type { z } from 'zod'
import type { StepMapDiagnostic } from './diagnostics.js'

/** A path inside a document, rendered the way AEP writes locations: `.states.implement.steps[1].run`. */
export function renderPath(path: readonly PropertyKey[]): string {
  return path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`)).join('')
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a sequence'
  if (typeof value === 'object') return 'a map'
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`
  return `${typeof value} \`${String(value)}\``
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let here = root
  for (const segment of path) {
    if (here === null || typeof here !== 'object') return undefined
    here = (here as Record<PropertyKey, unknown>)[segment]
  }
  return here
}

/**
 * Turns zod's issues into refusals, serde-style: `unknown field`, `missing field`, `invalid type`.
 * `expected(path)` names the keys an object at `path` declares, for the unknown-field hint.
 */
export function zodDiagnostics(
  error: z.ZodError,
  input: unknown,
  location: (path: readonly PropertyKey[]) => string,
  expected: (path: readonly PropertyKey[]) => readonly string[] = () => [],
): StepMapDiagnostic[] {
  const diagnostics: StepMapDiagnostic[] = []
  for (const issue of error.issues) {
    const path = issue.path
    if (issue.code === 'unrecognized_keys') {
      const keys = expected(path)
      for (const key of issue.keys) {
        diagnostics.push({
          code: 'unknown_field',
          location: location([...path, key]),
          message: `unknown field \`${key}\``,
          hint: keys.length > 0 ? `expected one of ${keys.map((name) => `\`${name}\``).join(', ')}` : undefined,
        })
      }
      continue
    }
    const value = valueAt(input, path)
    if (issue.code === 'invalid_type' && value === undefined) {
      diagnostics.push({ code: 'missing_field', location: location(path), message: `missing field \`${String(path[path.length - 1])}\`` })
      continue
    }
    if (issue.code === 'invalid_type') {
      diagnostics.push({ code: 'invalid_value', location: location(path), message: `invalid type: ${describeValue(value)}, expected ${issue.expected === 'array' ? 'a sequence' : issue.expected === 'object' ? 'a map' : `a ${issue.expected}`}` })
      continue
    }
    if (issue.code === 'invalid_value') {
      diagnostics.push({ code: 'invalid_value', location: location(path), message: `unknown variant ${describeValue(value)}, expected one of ${issue.values.map((option) => `\`${String(option)}\``).join(', ')}` })
      continue
    }
    diagnostics.push({ code: 'invalid_value', location: location(path), message: `invalid value ${describeValue(value)}: ${issue.message}` })
  }
  return diagnostics
}
