import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { alignSequences, type AlignStep } from './align.js'

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] as number)
      diagonal = above
    }
  }
  return row[b.length] as number
}

/** Replays a script: the `a` side must come out as `a`, the `b` side as `b`. */
function sides(steps: AlignStep[], a: readonly string[], b: readonly string[]): { left: string[]; right: string[] } {
  const left: string[] = []
  const right: string[] = []
  for (const step of steps) {
    if (step.op === 'same') {
      expect(a[step.a]).toBe(b[step.b])
      left.push(a[step.a] as string)
      right.push(b[step.b] as string)
    } else if (step.op === 'removed') left.push(a[step.a] as string)
    else right.push(b[step.b] as string)
  }
  return { left, right }
}

const equal = (x: string, y: string) => x === y

describe('alignSequences', () => {
  it('gives a script that rebuilds both sequences and keeps a longest common subsequence', () => {
    const word = fc.array(fc.constantFrom('read', 'edit', 'run', 'grep'), { maxLength: 14 })
    fc.assert(
      fc.property(word, word, (a, b) => {
        const steps = alignSequences(a, b, equal)
        const { left, right } = sides(steps, a, b)
        expect(left).toEqual(a)
        expect(right).toEqual(b)
        expect(steps.filter((step) => step.op === 'same').length).toBe(lcsLength(a, b))
      }),
      { numRuns: 400 },
    )
  })

  it('reads one inserted element as one addition, not as everything after it changed', () => {
    const a = ['read', 'edit', 'run', 'run', 'grep']
    const b = ['read', 'edit', 'grep', 'run', 'run', 'grep']
    const steps = alignSequences(a, b, equal)
    expect(steps.filter((step) => step.op !== 'same')).toEqual([{ op: 'added', b: 2 }])
  })

  it('aligns two empty sequences, and one empty against another', () => {
    expect(alignSequences([], [], equal)).toEqual([])
    expect(alignSequences(['a'], [], equal)).toEqual([{ op: 'removed', a: 0 }])
    expect(alignSequences([], ['a', 'b'], equal)).toEqual([
      { op: 'added', b: 0 },
      { op: 'added', b: 1 },
    ])
  })
})
