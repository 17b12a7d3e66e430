import { describe, expect, it } from 'vitest'
import { JsonNumber } from './float.js'
import { compareCodePoints, parseJsonLossless, writeSortedJson } from './json.js'

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
