import { describe, expect, it } from 'vitest'
import { formatRustF64 } from './float.js'

describe('formatRustF64 prints an f64 as serde_json does', () => {
  it.each([
    [0, '0.0'],
    [-0, '-0.0'],
    [1, '1.0'],
    [-3, '-3.0'],
    [0.01, '0.01'],
    [0.5216, '0.5216'],
    [123.456, '123.456'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e16'],
    [1.5e16, '1.5e16'],
    [1e21, '1e21'],
    [0.0001, '0.0001'],
    [0.00001, '0.00001'],
    [0.0000123, '0.0000123'],
    [0.00000123, '1.23e-6'],
    [0.000001, '1e-6'],
    [1.25e-7, '1.25e-7'],
    [Number.MAX_VALUE, '1.7976931348623157e308'],
    [Number.NaN, 'null'],
    [Number.POSITIVE_INFINITY, 'null'],
  ])('%s → %s', (value, text) => {
    expect(formatRustF64(value)).toBe(text)
  })

  it('differs from JavaScript exactly where Rust does', () => {
    expect(String(0.000001)).toBe('0.000001')
    expect(formatRustF64(0.000001)).not.toBe(String(0.000001))
    expect(formatRustF64(0.25)).toBe(String(0.25))
  })
})
