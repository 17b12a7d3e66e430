import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareBodies } from '../../recorders/provider/match.js'
import { canonicalJson, type JsonValue } from '../../recorders/provider/json.js'
import { parseJsonLossless, writeSortedJson } from '../../src/events/json.js'

// Fixed seed; `VH_FUZZ_RUNS` raises the count for the CI run (10,000+ per property).
const RUNS = Number(process.env['VH_FUZZ_RUNS'] ?? 500)
const SETTINGS = { seed: 17, numRuns: RUNS }

const PROTOTYPE_KEYS = ['constructor', 'hasOwnProperty', '__proto__', 'toString', 'valueOf', 'isPrototypeOf', '__defineGetter__']
const key = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ unit: 'binary' }))
const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.constantFrom(-0, 1e308, Number.MIN_VALUE, 2 ** 53 + 1), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'binary' }), fc.constantFrom('\uD800', '\uDFFF', 'a\uD800b'))
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('json'), { maxLength: 4 }), fc.dictionary(key, tie('json'), { maxKeys: 4 })) as fc.Arbitrary<JsonValue>,
}))

/** `[[[…]]]` or `{"a":{"a":…}}`, `depth` levels, built without recursion. */
function nested(depth: number, kind: 'array' | 'object'): JsonValue {
  let value: JsonValue = 1
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value }
  return value
}

describe('total functions over arbitrary JSON', () => {
  it('compareBodies answers any pair (type changes, prototype-named keys) and finds a difference exactly when the canonical texts differ', () => {
    fc.assert(
      fc.property(json, json, (recorded, received) => {
        const result = compareBodies(recorded, received)
        expect(result.distance === 0).toBe(canonicalJson(recorded) === canonicalJson(received))
      }),
      SETTINGS,
    )
  })

  it('a key named constructor or hasOwnProperty is an ordinary key, not the prototype', () => {
    expect(compareBodies({ model: 'm' }, { model: 'm', constructor: 1 })).toMatchObject({ path: '$.constructor', received: 1, distance: 1 })
    expect(compareBodies({ hasOwnProperty: 'x' }, {})).toMatchObject({ path: '$.hasOwnProperty', recorded: 'x', distance: 1 })
  })

  it('canonical writers agree with JSON.parse on the value they wrote, for any JSON', () => {
    fc.assert(
      fc.property(json, (value) => {
        const sorted = writeSortedJson(value)
        const canonical = canonicalJson(value)
        // -0 prints as 0 and a lone surrogate as itself: parsing back gives the value JSON.stringify would.
        expect(JSON.parse(canonical)).toEqual(JSON.parse(JSON.stringify(value)))
        expect(() => parseJsonLossless(sorted)).not.toThrow()
      }),
      SETTINGS,
    )
  })

  it('handles 8,000 levels of nesting without exhausting the stack', () => {
    for (const kind of ['array', 'object'] as const) {
      const deep = nested(8000, kind)
      expect(canonicalJson(deep).length).toBeGreaterThan(8000)
      expect(writeSortedJson(deep).length).toBeGreaterThan(8000)
      expect(compareBodies(deep, nested(8000, kind)).distance).toBe(0)
      expect(compareBodies(deep, nested(7999, kind)).distance).toBe(1)
    }
  })

  it('the lossless parser refuses 8,000 levels as a SyntaxError, not a RangeError', () => {
    const text = `${'['.repeat(8000)}1.0${']'.repeat(8000)}`
    expect(() => parseJsonLossless(text)).toThrow(SyntaxError)
  })
})
