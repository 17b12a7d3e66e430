import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseJsonLossless } from '../../src/events/json.js'
import { readKnownShape } from './known-shapes.js'

// Strings as the loop writes them (serde escapes) and as a hand-edited record might hold them.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', 'a"b', 'back\\slash', 'tab\there\n', '\u0000\u001f', '\ud800', '\u{1F600}', '{"path":"src/a.rs"}'))
const quoted = fc.oneof(text.map((value) => JSON.stringify(value)), fc.constantFrom('"\\u00e9"', '"\\/"', '"\\ud83d\\ude00"', '"\\uDC00"'))
const count = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
  fc.constantFrom('0', '-0', '999999999999999', '1000000000000000', '9007199254740993', '2.0', '1e3', '-1', '7.5', '"7"', 'null', 'true'),
)
const bool = fc.constantFrom('true', 'false', 'null', '0', '"true"')

// A line of one known shape, with fields of every JSON kind where the loop writes strings or counts.
const shaped = fc.oneof(
  quoted.map((t) => `{"kind":"text-delta","text":${t}}`),
  fc.tuple(quoted, quoted).map(([id, delta]) => `{"kind":"tool-arguments-delta","call_id":${id},"delta":${delta}}`),
  fc.tuple(quoted, bool).map(([id, failed]) => `{"kind":"tool-completed","call_id":${id},"failed":${failed}}`),
  fc.tuple(quoted, quoted).map(([code, message]) => `{"kind":"warning","code":${code},"message":${message}}`),
  count.map((turn) => `{"kind":"turn-started","turn":${turn}}`),
  fc.tuple(quoted, count, count, count).map(([model, i, o, c]) => `{"kind":"usage","model":${model},"input_tokens":${i},"output_tokens":${o},"cached_input_tokens":${c}}`),
  fc.tuple(quoted, count).map(([model, micro]) => `{"kind":"cost","model":${model},"micro_usd":${micro}}`),
)

// The same lines disturbed: whitespace, an extra or repeated field, a torn end, another kind.
const disturbed = fc.tuple(shaped, fc.nat(), fc.constantFrom(' ', '\t', ',"extra":1', ',"text":"again"', '}', '', '"', 'x')).map(([line, at, insert]) => {
  const position = at % (line.length + 1)
  return `${line.slice(0, position)}${insert}${line.slice(position)}`
})

function parsedAlike(line: string): void {
  const fast = readKnownShape(line)
  if (fast === undefined) return
  const parsed = JSON.parse(line) as unknown
  expect(isDeepStrictEqual(fast, parsed)).toBe(true)
  expect(Object.keys(fast)).toEqual(Object.keys(parsed as object))
  expect(isDeepStrictEqual(fast, parseJsonLossless(line))).toBe(true)
}

describe('readKnownShape', () => {
  it('reads a line of a known shape as JSON.parse and the lexeme-keeping parse do, or not at all', () => {
    let read = 0
    fc.assert(
      fc.property(fc.oneof(shaped, disturbed), (line) => {
        parsedAlike(line)
        if (readKnownShape(line) !== undefined) read += 1
      }),
      { numRuns: 5000, seed: 15 },
    )
    // Most shaped lines must take the fast path, or the property above proves little.
    expect(read).toBeGreaterThan(1500)
  })

  it('reads the loop’s own lines, and leaves a float, a long count and invalid JSON to the general parse', () => {
    expect(readKnownShape('{"kind":"text-delta","text":"a\\nb"}')).toEqual({ kind: 'text-delta', text: 'a\nb' })
    expect(readKnownShape('{"kind":"usage","model":"m","input_tokens":1,"output_tokens":2,"cached_input_tokens":3}')).toEqual({
      kind: 'usage',
      model: 'm',
      input_tokens: 1,
      output_tokens: 2,
      cached_input_tokens: 3,
    })
    expect(readKnownShape('{"kind":"turn-started","turn":2.0}')).toBeUndefined()
    expect(readKnownShape('{"kind":"cost","model":"m","micro_usd":18446744073709551615}')).toBeUndefined()
    expect(readKnownShape('{"kind":"text-delta","text":"\u0001"}')).toBeUndefined()
    expect(readKnownShape('{"kind":"text-delta","text":"a\\x"}')).toBeUndefined()
    expect(readKnownShape(JSON.stringify({ kind: 'text-delta', text: 'x'.repeat(20_000) }))).toBeUndefined()
  })
})
