import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { globMatches } from './glob.js'

/** The definition, by exhaustive search over code points: the oracle for small inputs only. */
function globOracle(pattern: string, subject: string): boolean {
  const p = Array.from(pattern)
  const s = Array.from(subject)
  const memo = new Map<string, boolean>()
  const at = (pi: number, si: number): boolean => {
    const key = `${pi},${si}`
    const known = memo.get(key)
    if (known !== undefined) return known
    let result: boolean
    if (pi === p.length) result = si === s.length
    else if (p[pi] === '*') result = at(pi + 1, si) || (si < s.length && at(pi, si + 1))
    else result = si < s.length && (p[pi] === '?' || p[pi] === s[si]) && at(pi + 1, si + 1)
    memo.set(key, result)
    return result
  }
  return at(0, 0)
}

describe('globMatches', () => {
  it('agrees with the definition on arbitrary patterns and subjects', () => {
    const alphabet = fc.constantFrom('a', 'b', '*', '?', '😀', '/')
    const starOnly = fc.constantFrom('a', 'b', '*', '😀', '/')
    const text = fc.constantFrom('a', 'b', '😀', '/')
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }), fc.array(text, { maxLength: 16 }), (pattern, subject) => {
        expect(globMatches(pattern.join(''), subject.join(''))).toBe(globOracle(pattern.join(''), subject.join('')))
      }),
      { seed: 1117, numRuns: 5000 },
    )
    fc.assert(
      fc.property(fc.array(starOnly, { maxLength: 12 }), fc.array(text, { maxLength: 16 }), (pattern, subject) => {
        expect(globMatches(pattern.join(''), subject.join(''))).toBe(globOracle(pattern.join(''), subject.join('')))
      }),
      { seed: 1118, numRuns: 5000 },
    )
  })

  it('carries matches across the 32-position words of a long segment', () => {
    const segment = 'ab?'.repeat(40)
    expect(globMatches(`*${segment}*`, `zz${segment.replaceAll('?', 'q')}zz`)).toBe(true)
    expect(globMatches(`*${segment}*`, `zz${segment.replaceAll('?', 'q').slice(0, -1)}`)).toBe(false)
  })

  it('decides a 1,000-character segment over 8M characters without backtracking (the issue-17 pattern)', () => {
    const subject = 'a'.repeat(8_000_000)
    expect(globMatches(`*${'a'.repeat(1000)}b`, subject)).toBe(false)
    expect(globMatches(`*${'a'.repeat(1000)}*b`, subject)).toBe(false)
    expect(globMatches(`*${'a'.repeat(1000)}*`, subject)).toBe(true)
    // The whole subject scanned for a segment that is never there, by string search and by Shift-And.
    expect(globMatches(`*${'a'.repeat(999)}b*`, subject)).toBe(false)
    expect(globMatches(`*${'a'.repeat(998)}?b*`, subject)).toBe(false)
  })
})
