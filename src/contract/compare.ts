import { isDeepStrictEqual } from 'node:util'

const END = '<end of stream>'

/**
 * Where two streams first differ, in upstream's words: `line N: expected …, observed …`, or
 * `the streams differ only in trailing bytes`. Undefined when the bytes are equal.
 */
export function firstStreamDifference(expected: string, observed: string): string | undefined {
  if (expected === observed) return undefined
  const expectedLines = linesOf(expected)
  const observedLines = linesOf(observed)
  const count = Math.max(expectedLines.length, observedLines.length)
  for (let i = 0; i < count; i++) {
    const want = expectedLines[i]
    const got = observedLines[i]
    if (want !== got) return `line ${i + 1}: expected ${want ?? END}, observed ${got ?? END}`
  }
  return 'the streams differ only in trailing bytes'
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
