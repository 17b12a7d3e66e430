import type { IntakeValue } from './intake-read.js'
import { isNamedVerifier } from './verifiers.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

/**
 * How a field's value is checked: the Rust type upstream deserializes it into, read with
 * serde_yaml's rules. Each returns why the value is refused, or `undefined`.
 */
export type ValueCheck = (value: IntakeValue) => string | undefined

function describe(value: IntakeValue): string {
  switch (value.type) {
    case 'null':
      return 'null'
    case 'bool':
      return `boolean \`${value.value}\``
    case 'int':
      return `integer \`${value.value}\``
    case 'float':
      return `floating point \`${value.source}\``
    case 'string':
      return `string ${JSON.stringify(value.value)}`
    case 'seq':
      return 'a sequence'
    case 'map':
      return 'a map'
  }
}

/** `String`: serde_yaml reads any scalar as a string, and refuses null, sequences and maps. */
export const text: ValueCheck = (value) => {
  if (value.type === 'seq' || value.type === 'map' || value.type === 'null') return `invalid type: ${describe(value)}, expected a string`
  return undefined
}

export function scalarText(value: IntakeValue): string | undefined {
  switch (value.type) {
    case 'string':
      return value.value
    case 'null':
    case 'bool':
    case 'int':
    case 'float':
      return value.source
    default:
      return undefined
  }
}

const U64_MAX = (1n << 64n) - 1n

/** `usize`/`u64`: a non-negative integer written as one. */
export const count: ValueCheck = (value) => {
  if (value.type !== 'int') return `invalid type: ${describe(value)}, expected a non-negative integer`
  if (value.value < 0n || value.value > U64_MAX) return `invalid value: ${value.value}, expected a non-negative integer`
  return undefined
}

export const bool: ValueCheck = (value) => (value.type === 'bool' ? undefined : `invalid type: ${describe(value)}, expected a boolean`)

/** AEP's `Number`: any finite number. */
export const number: ValueCheck = (value) => (value.type === 'int' || (value.type === 'float' && Number.isFinite(value.value)) ? undefined : `invalid type: ${describe(value)}, expected a number`)

export function oneOf(names: readonly string[], what: string): ValueCheck {
  return (value) => {
    const problem = text(value)
    if (problem) return problem
    const written = scalarText(value) as string
    return names.includes(written) ? undefined : `unknown ${what} ${JSON.stringify(written)}, expected one of ${names.join(', ')}`
  }
}

/** `Vec<String>`. */
export const texts: ValueCheck = (value) => {
  if (value.type !== 'seq') return `invalid type: ${describe(value)}, expected a sequence of strings`
  for (const item of value.items) {
    const problem = text(item)
    if (problem) return problem
  }
  return undefined
}

/** A sequence whose items this tool does not look inside (counterexamples). */
export const sequence: ValueCheck = (value) => (value.type === 'seq' ? undefined : `invalid type: ${describe(value)}, expected a sequence`)

/** `Option<T>`: null is absent. */
export function optional(check: ValueCheck): ValueCheck {
  return (value) => (value.type === 'null' ? undefined : check(value))
}

export function withText(rule: (written: string) => string | undefined): ValueCheck {
  return (value) => {
    const problem = text(value)
    if (problem) return problem
    return rule(scalarText(value) as string)
  }
}

const MAX_ID = 200

/** AEP's identifier rules (`aep-domain/src/ids.rs`): kebab and dotted. */
export function identifierProblem(written: string, rule: 'kebab' | 'dotted', kind: string): string | undefined {
  const reject = (reason: string): string => `invalid ${kind} ${JSON.stringify(written)}: ${reason}`
  if (written.length === 0) return reject('must not be empty')
  if (written.length > MAX_ID) return reject(`must be at most ${MAX_ID} characters, got ${written.length}`)
  const separators = rule === 'kebab' ? /-/ : /[./-]/
  for (const segment of written.split(separators)) {
    if (segment.length === 0) return reject(`has an empty segment; separators (${rule === 'kebab' ? '-' : './-'}) must not lead, trail or repeat`)
    const bad = /[^a-z0-9]/.exec(segment)
    if (bad) return reject(`contains disallowed character ${JSON.stringify(bad[0])}`)
  }
  if (!/^[a-z]/.test(written)) return reject(`must start with a letter, got ${JSON.stringify(written[0])}`)
  if (rule === 'dotted') {
    const last = written.split(/[./]/).pop() as string
    if (/^[0-9]+$/.test(last)) return reject(`must not end in a numeric segment (${JSON.stringify(last)}); that form is reserved for version references`)
  }
  return undefined
}

export const kebabId = (kind: string): ValueCheck => withText((written) => identifierProblem(written, 'kebab', kind))
export const dottedId = (kind: string): ValueCheck => withText((written) => identifierProblem(written, 'dotted', kind))

/** `Environment`: a deployment environment name (`aep-domain/src/capability.rs`). */
export const environment: ValueCheck = withText((written) => {
  if (['*', 'any', 'development', 'dev', 'test', 'staging', 'stage', 'production', 'prod'].includes(written)) return undefined
  return identifierProblem(written, 'kebab', 'environment') ? `invalid environment ${JSON.stringify(written)}: environment names must be lower-case kebab-case, such as \`staging\`` : undefined
})

/** `Verifier`: a named class, or any other dotted name as an external tool. */
export const verifier: ValueCheck = withText((written) => (isNamedVerifier(written) ? undefined : identifierProblem(written, 'dotted', 'verifier')))

/** Lower-case hexadecimal of a length in `min..=max` (`SpecDigest`, `TranscriptDigest`). */
export function hexDigest(kind: string, min: number, max: number): ValueCheck {
  return withText((written) => {
    if (/[A-Z]/.test(written)) return `invalid ${kind} ${JSON.stringify(written)}: digests are written in lower case, so one value has one spelling`
    if (!/^[0-9a-f]*$/.test(written)) return `invalid ${kind} ${JSON.stringify(written)}: expected hexadecimal`
    if (written.length < min || written.length > max) return `invalid ${kind} ${JSON.stringify(written)}: expected ${min === max ? min : `${min} to ${max}`} hexadecimal characters, found ${written.length}`
    return undefined
  })
}

/** `TestSuite`: a named suite, `end_to_end`, or any kebab-case name. */
export const suite: ValueCheck = withText((written) => {
  if (written === 'end_to_end') return undefined
  return identifierProblem(written, 'kebab', 'test suite') ? `invalid test suite ${JSON.stringify(written)}: test suite names are lower-case kebab-case` : undefined
})

/** `Seed`: a number or a one-line string of at most 256 characters. */
export const seed: ValueCheck = (value) => {
  if (value.type !== 'string' && value.type !== 'int' && value.type !== 'float') return `invalid type: ${describe(value)}, expected a seed`
  const written = scalarText(value) as string
  if (written.trim().length === 0) return 'a blank seed claims a run can be reproduced and does not say how'
  if (/[\u0000-\u001f\u007f-\u009f]/.test(written)) return 'a seed is one line'
  return Array.from(written).length > 256 ? 'a seed is at most 256 characters' : undefined
}

/** One field of a nested struct: its check, and whether serde requires it. */
export interface NestedField {
  readonly check: ValueCheck
  readonly required?: boolean
}

/**
 * A nested struct with `deny_unknown_fields` (a review's `Finding`): a map holding only the
 * declared fields, each well-typed, the required ones present. The problem names the field.
 */
export function struct(fields: Readonly<Record<string, NestedField>>, what: string): ValueCheck {
  return (value) => {
    if (value.type !== 'map') return `invalid type: ${describe(value)}, expected ${what}`
    const seen = new Set<string>()
    for (const entry of value.entries) {
      const field = fields[entry.key]
      if (!field) return `unknown field \`${entry.key}\` in ${what}, expected one of ${Object.keys(fields).map((key) => `\`${key}\``).join(', ')}`
      seen.add(entry.key)
      const problem = field.check(entry.value)
      if (problem) return `${entry.key}: ${problem}`
    }
    const missing = Object.entries(fields).find(([key, field]) => field.required && !seen.has(key))
    return missing ? `missing field \`${missing[0]}\` in ${what}` : undefined
  }
}

/** `Vec<T>` (serde default, never null): a sequence whose every item passes `check`. */
export function sequenceOf(check: ValueCheck, what: string): ValueCheck {
  return (value) => {
    if (value.type !== 'seq') return `invalid type: ${describe(value)}, expected a sequence of ${what}`
    for (const [index, item] of value.items.entries()) {
      const problem = check(item)
      if (problem) return `[${index}]: ${problem}`
    }
    return undefined
  }
}

/**
 * An internally tagged enum of struct variants (`#[serde(tag = "...")]`, such as a review's
 * `Reviewer`): the tag names a variant, and the variant's one field is present and well-typed.
 * Other keys are ignored, as serde ignores them on an enum that does not deny unknown fields.
 */
export function tagged(tag: string, variants: Readonly<Record<string, readonly [string, ValueCheck]>>, what: string): ValueCheck {
  return (value) => {
    const expected = `${what} tagged by \`${tag}\` (${Object.keys(variants).join(', ')})`
    if (value.type !== 'map') return `invalid type: ${describe(value)}, expected ${expected}`
    const tagEntry = value.entries.find((entry) => entry.key === tag)
    if (!tagEntry) return `missing the tag \`${tag}\` of ${expected}`
    const name = scalarText(tagEntry.value)
    const variant = name === undefined ? undefined : variants[name]
    if (!variant) return `unknown variant ${JSON.stringify(name ?? null)}, expected one of ${Object.keys(variants).join(', ')}`
    const [field, check] = variant
    const entry = value.entries.find((candidate) => candidate.key === field)
    if (!entry) return `a ${name} ${what} names its \`${field}\``
    const problem = check(entry.value)
    return problem ? `${field}: ${problem}` : undefined
  }
}

/**
 * A `String` that carries an original JSON document (an ESS report or suite), as the engine's ESS
 * reader re-reads it: text that parses as one JSON object.
 */
export function jsonDocument(what: string): ValueCheck {
  return (value) => {
    if (value.type !== 'string') return `invalid type: ${describe(value)}, expected the ${what} as a JSON string`
    let parsed: unknown
    try {
      parsed = JSON.parse(value.value)
    } catch (error) {
      return `the ${what} is not JSON: ${describeJsonSyntaxError(error)}`
    }
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? undefined : `the ${what} is JSON but not an object`
  }
}
