import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { millisToIso } from './fields.js'

describe('millisToIso', () => {
  it('agrees with Date#toISOString for any instant, in any order (the minute cache never leaks)', () => {
    const instant = fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: 1_790_000_000_000, max: 1_790_000_200_000 }))
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 50 }), (instants) => {
        for (const ms of instants) expect(millisToIso(ms)).toBe(new Date(ms).toISOString())
      }),
    )
  })

  it('crosses minute boundaries and handles fractions and nonsense', () => {
    for (const ms of [1_790_000_059_999, 1_790_000_060_000, 1_790_000_059_999, -1, 0, -60_001, 1.5, 1_790_000_000_000.25]) {
      expect(millisToIso(ms)).toBe(new Date(ms).toISOString())
    }
    expect(millisToIso('12')).toBeUndefined()
    expect(millisToIso(9e15)).toBeUndefined()
  })
})
