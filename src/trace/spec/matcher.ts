import { RE2JS } from 're2js'
import { writeSortedJson } from '../../events/json.js'
import { rustDebugString } from '../rust-format.js'
import { globMatches } from './glob.js'
import type { FieldMatcher } from './model.js'

export { globMatches }

/**
 * Field matchers: `exact`, `contains`, anchored `glob`, unanchored `regex`, typed `equals`.
 *
 * `regex` runs on RE2 (the `re2js` port): linear time in the subject, never backtracking, the same
 * guarantee upstream takes from Rust's `regex` crate, whose syntax RE2's is close to. A pattern
 * such as `(a+)+$` cannot hang the checker whatever a transcript holds.
 */

const compiled = new WeakMap<object, RE2JS>()

/** Compiles a pattern, or returns the engine's own complaint. */
export function compilePattern(pattern: string): { ok: true; regex: RE2JS } | { ok: false; complaint: string } {
  try {
    return { ok: true, regex: RE2JS.compile(pattern) }
  } catch (error) {
    return { ok: false, complaint: (error as Error).message }
  }
}

function regexOf(matcher: { regex: string }): RE2JS {
  let regex = compiled.get(matcher)
  if (!regex) {
    const result = compilePattern(matcher.regex)
    // Validation compiled it once already; a model built by hand still fails loudly here.
    if (!result.ok) throw new Error(`the regex ${JSON.stringify(matcher.regex)} does not compile: ${result.complaint}`)
    regex = result.regex
    compiled.set(matcher, regex)
  }
  return regex
}

/** Whether the pattern is found anywhere in the subject (a search, like `contains`). */
export function regexFinds(matcher: { regex: string }, subject: string): boolean {
  return regexOf(matcher).matcher(subject).find()
}

/** A recorded value as text: a string as itself, anything else as its key-sorted compact JSON. */
export function textOf(recorded: unknown): string {
  return typeof recorded === 'string' ? recorded : writeSortedJson(recorded)
}

function equalsRecorded(expected: boolean | number | string, recorded: unknown): boolean {
  // Typed, never textual: `false` does not match the string "false".
  if (typeof expected === 'boolean') return recorded === expected
  if (typeof expected === 'number') return typeof recorded === 'number' && Number.isInteger(recorded) && recorded === expected
  return recorded === expected
}

/** Whether a recorded JSON value satisfies the matcher (textual matchers read it through `textOf`). */
export function matchesRecorded(matcher: FieldMatcher, recorded: unknown): boolean {
  if ('exact' in matcher) return textOf(recorded) === matcher.exact
  if ('contains' in matcher) return textOf(recorded).includes(matcher.contains)
  if ('glob' in matcher) return globMatches(matcher.glob, textOf(recorded))
  if ('regex' in matcher) return regexFinds(matcher, textOf(recorded))
  return equalsRecorded(matcher.equals, recorded)
}

/** Whether a plain text satisfies the matcher; `equals` holds only for a string equal to it. */
export function matchesText(matcher: FieldMatcher, text: string): boolean {
  if ('exact' in matcher) return text === matcher.exact
  if ('contains' in matcher) return text.includes(matcher.contains)
  if ('glob' in matcher) return globMatches(matcher.glob, text)
  if ('regex' in matcher) return regexFinds(matcher, text)
  return typeof matcher.equals === 'string' && text === matcher.equals
}

/** Upstream's rendering: `= "x"`, `~ "x"`, `glob "x"`, `regex "x"`, `== x`. */
export function describeMatcher(matcher: FieldMatcher): string {
  if ('exact' in matcher) return `= ${rustDebugString(matcher.exact)}`
  if ('contains' in matcher) return `~ ${rustDebugString(matcher.contains)}`
  if ('glob' in matcher) return `glob ${rustDebugString(matcher.glob)}`
  if ('regex' in matcher) return `regex ${rustDebugString(matcher.regex)}`
  return `== ${String(matcher.equals)}`
}

/** The probe a regex is tried against to tell a vacuous pattern from `^$`. */
const VACUITY_PROBE = '\u0000'

/** Whether every text there is, the empty one included, satisfies the matcher. */
export function matchesEveryText(matcher: FieldMatcher): boolean {
  if ('contains' in matcher) return matcher.contains === ''
  if ('glob' in matcher) return matcher.glob !== '' && [...matcher.glob].every((c) => c === '*')
  if ('regex' in matcher) return regexFinds(matcher, '') && regexFinds(matcher, VACUITY_PROBE)
  return false
}
