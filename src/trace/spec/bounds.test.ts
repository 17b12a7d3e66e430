import { describe, expect, it } from 'vitest'
import { countHolds, decideCount, describeCount, describeRange } from './bounds.js'

const count = (at_least: number | null, at_most: number | null, exactly: number | null) => ({ at_least, at_most, exactly })

describe('bounds', () => {
  it('reads exactly before either side, so one number has one meaning', () => {
    expect(countHolds(count(null, null, 0), 0)).toBe(true)
    expect(countHolds(count(null, null, 0), 1)).toBe(false)
    expect(countHolds(count(1, null, null), 9)).toBe(true)
    expect(countHolds(count(1, null, null), 0)).toBe(false)
    expect(countHolds(count(null, 3, null), 3)).toBe(true)
    expect(countHolds(count(null, 3, null), 4)).toBe(false)
  })

  it('decides a count that unread events could only make larger, three ways', () => {
    expect(decideCount(count(1, null, null), 2, true)).toBe('holds')
    expect(decideCount(count(3, null, null), 2, true)).toBe('undecided')
    expect(decideCount(count(null, 2, null), 3, true)).toBe('fails')
    expect(decideCount(count(null, 2, null), 1, true)).toBe('undecided')
    expect(decideCount(count(null, null, 0), 1, true)).toBe('fails')
    expect(decideCount(count(null, null, 1), 1, true)).toBe('undecided')
    expect(decideCount(count(null, null, 1), 1, false)).toBe('holds')
    expect(decideCount(count(null, 2, null), 3, false)).toBe('fails')
  })

  it('describes bounds as upstream prints them, floats the Rust way', () => {
    expect(describeCount(count(null, null, 3))).toBe('exactly 3')
    expect(describeCount(count(1, 5, null))).toBe('between 1 and 5')
    expect(describeCount(count(1, null, null))).toBe('at least 1')
    expect(describeCount(count(null, 0, null))).toBe('at most 0')
    expect(describeRange({ at_least: null, at_most: 1 })).toBe('at most 1')
    expect(describeRange({ at_least: 0.9, at_most: null })).toBe('at least 0.9')
    expect(describeRange({ at_least: 0.25, at_most: 0.5 })).toBe('between 0.25 and 0.5')
  })
})
