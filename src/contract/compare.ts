import { isDeepStrictEqual } from 'node:util'
import { describeJsonDifference, diffJson } from '../util/json-diff.js'

const END = '<end of stream>'

/** How many field differences lead a message before the rest are counted. */
const FIELDS_SHOWN = 3

/**
 * Where two streams first differ: the fields of the first differing line by JSON path with both
 * values (`$.usage.input_tokens: expected 42, got 43 (line 3)`), then, on the next line, the
 * line itself in upstream's words (`firstLineDifference`). When the lines are not both JSON, or
 * hold the same values spelled differently, only upstream's line. Undefined when the bytes are equal.
 */
export function firstStreamDifference(expected: string, observed: string): string | undefined {
  const found = locateFirstDifference(expected, observed)
  if (found === undefined) return undefined
  const fields = found.line === null ? undefined : describeFieldDifferences(found.expected, found.observed)
  return fields === undefined ? found.words : `${fields} (line ${found.line})\n${found.words}`
}

/**
 * Where two streams first differ, in upstream's words: `line N: expected …, observed …`, or
 * `the streams differ only in trailing bytes`. Undefined when the bytes are equal.
 */
export function firstLineDifference(expected: string, observed: string): string | undefined {
  return locateFirstDifference(expected, observed)?.words
}

/**
 * Two JSON texts compared field by field: `$.a.b: expected 1, got 2` (at most three, then how
 * many more), a sentence when they hold the same values spelled differently, or undefined when
 * either is not JSON.
 */
export function describeFieldDifferences(expected: string | undefined, observed: string | undefined): string | undefined {
  if (expected === undefined || observed === undefined) return undefined
  let want: unknown
  let got: unknown
  try {
    want = JSON.parse(expected)
    got = JSON.parse(observed)
  } catch {
    return undefined
  }
  return describeValueDifferences(want, got) ?? 'the same JSON values, spelled differently (key order, number form or whitespace)'
}

/** Two JSON values compared field by field, as `describeFieldDifferences` words it; undefined when equal. */
export function describeValueDifferences(expected: unknown, observed: unknown): string | undefined {
  const differences = diffJson(expected, observed, { limit: 1000 })
  if (differences.length === 0) return undefined
  const shown = differences.slice(0, FIELDS_SHOWN).map(describeJsonDifference).join('; ')
  return differences.length > FIELDS_SHOWN ? `${shown}; and ${differences.length - FIELDS_SHOWN} more field difference(s)` : shown
}

interface FirstDifference {
  /** 1-based line, or null when only trailing bytes differ. */
  line: number | null
  expected: string | undefined
  observed: string | undefined
  words: string
}

function locateFirstDifference(expected: string, observed: string): FirstDifference | undefined {
  if (expected === observed) return undefined
  const expectedLines = linesOf(expected)
  const observedLines = linesOf(observed)
  const count = Math.max(expectedLines.length, observedLines.length)
  for (let i = 0; i < count; i++) {
    const want = expectedLines[i]
    const got = observedLines[i]
    if (want !== got) return { line: i + 1, expected: want, observed: got, words: `line ${i + 1}: expected ${want ?? END}, observed ${got ?? END}` }
  }
  return { line: null, expected: undefined, observed: undefined, words: 'the streams differ only in trailing bytes' }
}

function linesOf(text: string): string[] {
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}

/** C1 comparison: parsed-JSON equality, key order irrelevant. */
export function launchRecordsEqual(expected: unknown, observed: unknown): boolean {
  return isDeepStrictEqual(normalize(expected), normalize(observed))
}

// JSON.parse output and built objects differ in prototype only; compare as plain JSON values.
function normalize(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null))
}
