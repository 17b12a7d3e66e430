import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonNumber, RustFloat } from './float.js'
import { compareCodePoints, parseJsonLossless, parseJsonLosslessScanned, quoteJsonString, writeSortedJson, writeSortedJsonByStack } from './json.js'

const WILD = join(import.meta.dirname, '../../test/fixtures/wild')

/** Every JSON and JSON-lines file under a folder. */
function wildFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return wildFiles(path)
    return /\.jsonl?$/.test(name) ? [path] : []
  })
}

describe('writeSortedJson (serde_json Value output)', () => {
  it('sorts keys at every depth and writes compactly', () => {
    expect(writeSortedJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}')
  })

  it('orders keys by code point (UTF-8 byte order), not by UTF-16 unit', () => {
    const astral = '\u{1F600}' // surrogate pair in UTF-16
    const highBmp = '\uFFFD'
    expect([astral, highBmp].sort()).toEqual([astral, highBmp]) // JS default order
    expect([astral, highBmp].sort(compareCodePoints)).toEqual([highBmp, astral])
    expect(writeSortedJson({ [astral]: 1, [highBmp]: 2 })).toBe(`{"${highBmp}":2,"${astral}":1}`)
  })

  it('prints non-integral numbers the Rust way and keeps integers as integers', () => {
    expect(writeSortedJson([1, 0.5, 0.000001])).toBe('[1,0.5,1e-6]')
  })

  it('escapes strings as serde_json does', () => {
    expect(writeSortedJson('a"b\\c\n\u0001\u007f')).toBe('"a\\"b\\\\c\\n\\u0001\u007f"')
  })
})

describe('parseJsonLossless', () => {
  it('keeps integral floats and long integers as written', () => {
    const value = parseJsonLossless('{"a":2.0,"b":1e2,"c":18446744073709551615,"d":0.5,"e":7}') as Record<string, unknown>
    expect(value['a']).toBeInstanceOf(JsonNumber)
    expect(writeSortedJson(value)).toBe('{"a":2.0,"b":100.0,"c":18446744073709551615,"d":0.5,"e":7}')
  })

  it('takes the fast path when no number needs care', () => {
    expect(parseJsonLossless('{"a":[1,2,"3.0"]}')).toEqual({ a: [1, 2, '3.0'] })
  })

  it('keeps a __proto__ key an ordinary key', () => {
    const value = parseJsonLossless('{"__proto__":{"x":1.0},"n":1.5}') as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['__proto__', 'n'])
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
  })

  it('throws SyntaxError on invalid JSON on both paths', () => {
    expect(() => parseJsonLossless('{"a":1.0')).toThrow(SyntaxError)
    expect(() => parseJsonLossless('{"a":')).toThrow(SyntaxError)
  })
})

describe('parseJsonLossless: its first native test', () => {
  // Number lexemes of every shape the lossless parser treats apart, with the whitespace JSON allows.
  const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''))
  const lexeme = fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), fc.oneof(digits(0, 2), digits(13, 21))).map(([lead, rest]) => `${lead}${rest}`)),
      fc.option(fc.oneof(digits(1, 4), digits(8, 20), fc.constantFrom('0', '00', '000', '9999999')), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)), { nil: undefined }),
    )
    .map(([sign, whole, fraction, exponent]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : exponent.join('')}`)
  const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n')
  // Strings that look like numbers to a character scan: timestamps, ids, `key:1.0,` text.
  const text = fc.oneof(fc.string(), fc.constantFrom('2026-09-18T15:08:50.000Z', '4e2a91c0-1e5f', ':1.0,', '[2.0]', '12345678901234567', 'a\\"b'), lexeme)
  const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      lexeme,
      text.map((s) => JSON.stringify(s)),
      fc.constantFrom('true', 'false', 'null'),
      fc.tuple(space, fc.array(tie('value'), { maxLength: 4 }), space).map(([a, items, b]) => `[${a}${items.join(`${b},${a}`)}${b}]`),
      fc.tuple(space, fc.array(fc.tuple(text, tie('value')), { maxLength: 4 }), space).map(([a, entries, b]) => `{${a}${entries.map(([k, v]) => `${JSON.stringify(k)}${b}:${a}${v}`).join(`${b},${a}`)}${b}}`),
    ),
  })).value
  const document = fc.tuple(space, value, space).map(([a, v, b]) => `${a}${v}${b}`)

  it('parses every document exactly as the scan alone decides', () => {
    fc.assert(
      fc.property(document, (json) => {
        const fast = parseJsonLossless(json)
        const scanned = parseJsonLosslessScanned(json)
        expect(fast).toEqual(scanned)
        expect(writeSortedJson(fast)).toBe(writeSortedJson(scanned))
      }),
      { numRuns: 3000, seed: 15 },
    )
  })

  it('reads every line of the wild transcripts exactly as the scan alone does', () => {
    let lines = 0
    for (const file of wildFiles(WILD)) {
      const text = readFileSync(file, 'utf8')
      // A JSON document is read whole; a JSON-lines file line by line.
      for (const line of file.endsWith('.json') ? [text] : text.split('\n')) {
        if (line.trim() === '') continue
        let scanned: unknown
        try {
          scanned = parseJsonLosslessScanned(line)
        } catch {
          expect(() => parseJsonLossless(line)).toThrow(SyntaxError)
          continue
        }
        expect(writeSortedJson(parseJsonLossless(line))).toBe(writeSortedJson(scanned))
        lines += 1
      }
    }
    expect(lines).toBeGreaterThan(10_000)
  })

  it('finds a number past a look-alike run in a string, and each kind of lexeme in arrays', () => {
    expect(parseJsonLossless('{"id":"12345678901234567890","n":12345678901234567890}')).toMatchObject({ n: expect.any(JsonNumber) })
    expect(parseJsonLossless('{"id":"v9e9","n":[7, -1E+5]}')).toMatchObject({ n: [7, expect.any(JsonNumber)] })
    expect(parseJsonLossless('{"at":"x.0","n":[1,\t2.00 ]}')).toMatchObject({ n: [1, expect.any(JsonNumber)] })
    expect(parseJsonLossless('{"n":0.99999999999999999}')).toMatchObject({ n: expect.any(JsonNumber) })
  })

  it('keeps the lexeme of a number whose digits follow whitespace, and skips look-alikes in strings', () => {
    expect(writeSortedJson(parseJsonLossless('{"a":\n 2.0 ,"b":[ 1e2]}'))).toBe('{"a":2.0,"b":[100.0]}')
    expect(parseJsonLossless('{"at":"2026-09-18T15:08:50.000Z","n":7}')).toEqual({ at: '2026-09-18T15:08:50.000Z', n: 7 })
    expect(parseJsonLossless('-0.0')).toBeInstanceOf(JsonNumber)
  })
})

describe('writeSortedJson: the recursive writer and the stack', () => {
  // Values as readers hand them over: JSON, the lossless numbers, undefined members, odd strings.
  const strings = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\ud800', 'a\udc00b', '\u2028', '"\\', '\u001f\u007f'))
  const leaf = fc.oneof(
    strings,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constantFrom(new JsonNumber(2, '2.0'), new JsonNumber(2 ** 64, '18446744073709551616'), new RustFloat(1)),
  )
  const value = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(strings, tie('value'), { maxKeys: 5 })),
  })).value

  it('write the same text for every value', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(writeSortedJson(input)).toBe(writeSortedJsonByStack(input))
      }),
      { numRuns: 3000, seed: 15 },
    )
  })

  it('write a value nested past the recursion depth, and one thousands deep, as the stack does', () => {
    for (const depth of [63, 64, 65, 200, 20_000]) {
      let nested: unknown = { b: [1, 'x'], a: 2.5 }
      for (let i = 0; i < depth; i++) nested = i % 2 === 0 ? [nested, i] : { z: nested, y: i }
      expect(writeSortedJson(nested)).toBe(writeSortedJsonByStack(nested))
    }
  })

  it('quotes a string exactly as JSON.stringify does', () => {
    fc.assert(fc.property(strings, (text) => {
        expect(quoteJsonString(text)).toBe(JSON.stringify(text))
      }), { numRuns: 3000, seed: 15 })
  })
})
