import { describe, expect, it } from 'vitest'
import { rustDebugString, rustDisplayF64, rustFixed } from './rust-format.js'

describe("Rust's renderings", () => {
  it('prints an f64 with {} in plain decimals, without a trailing .0', () => {
    expect(rustDisplayF64(1)).toBe('1')
    expect(rustDisplayF64(0.1)).toBe('0.1')
    expect(rustDisplayF64(0.5216)).toBe('0.5216')
    expect(rustDisplayF64(1e21)).toBe('1000000000000000000000')
    expect(rustDisplayF64(1e-7)).toBe('0.0000001')
    expect(rustDisplayF64(-2.5)).toBe('-2.5')
    expect(rustDisplayF64(Infinity)).toBe('inf')
  })

  it('rounds {:.N} on an exact tie to even, as Rust does', () => {
    expect(rustFixed(0.125, 2)).toBe('0.12')
    expect(rustFixed(0.375, 2)).toBe('0.38')
    expect(rustFixed(0.5216, 4)).toBe('0.5216')
    expect(rustFixed(1 / 3, 3)).toBe('0.333')
    expect(rustFixed(2 / 3, 5)).toBe('0.66667')
    expect(rustFixed(0, 3)).toBe('0.000')
  })

  it('quotes a string with {:?} escapes', () => {
    expect(rustDebugString('say "hi"\n')).toBe('"say \\"hi\\"\\n"')
    expect(rustDebugString("it's é")).toBe('"it\'s é"')
    expect(rustDebugString('\u0001')).toBe('"\\u{1}"')
  })
})
