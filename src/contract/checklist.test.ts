import { describe, expect, it } from 'vitest'
import { B10X_OBLIGATIONS } from '../../adapters/b10x/contract.js'
import { CHECKLIST_ROWS, checkRow, providerProblem, unmetObligations, type NamedVector } from './checklist.js'
import type { VectorOutcome } from './outcome.js'

const row = CHECKLIST_ROWS[0] as (typeof CHECKLIST_ROWS)[number]

function pass(id: string, tier: VectorOutcome['tier']): VectorOutcome {
  return { id, tier, passed: true, detail: '' }
}

const B10X_SEVEN: VectorOutcome[] = [
  pass('c1-observe-launch', 'c1'),
  pass('golden-loop-record', 'c2'),
  pass('provider-emulated-unpublished-tool', 'c2'),
  pass('provider-emulated-approval-denied', 'c2'),
  pass('provider-emulated-budget-stop', 'c2'),
  pass('provider-emulated-cancellation', 'c2'),
  pass('golden-version-pair', 'c2'),
]

describe('a checklist row', () => {
  it('is met when every named vector exists, is in the row tier and passed', () => {
    const vectors = new Map<string, NamedVector>([['c1-a', { tier: 'c1', outcome: pass('c1-a', 'c1') }]])
    expect(checkRow(row, { filled: ['c1-a'] }, vectors)).toEqual({ status: 'met', ids: ['c1-a'] })
  })

  it('names every way a filled row is unmet', () => {
    const vectors = new Map<string, NamedVector>([
      ['wrong-tier', { tier: 'c2', outcome: pass('wrong-tier', 'c2') }],
      ['red', { tier: 'c1', outcome: { id: 'red', tier: 'c1', passed: false, detail: 'expected a, observed b' } }],
      ['not-run', { tier: 'c1' }],
    ])
    expect(checkRow(row, { filled: ['missing', 'wrong-tier', 'red', 'not-run'] }, vectors)).toEqual({
      status: 'unmet',
      problems: [
        'at least one launch vector: the declaration names `missing`, and the run has no such vector',
        'at least one launch vector: `wrong-tier` is declared as C1 and the run reports it as C2',
        'at least one launch vector: `red` failed — expected a, observed b',
        'at least one launch vector: `not-run` did not run, so nothing shows it passes',
      ],
    })
  })

  it('is a gap only with a reason; an empty reason or an empty list is unmet', () => {
    expect(checkRow(row, { gap: 'not applicable: no launch' }, new Map())).toEqual({ status: 'gap', reason: 'not applicable: no launch' })
    expect(checkRow(row, { gap: '  ' }, new Map())).toEqual({ status: 'unmet', problems: ['at least one launch vector: declared unfilled without saying why'] })
    expect(checkRow(row, { filled: [] }, new Map())).toEqual({ status: 'unmet', problems: ['at least one launch vector: declared filled by no vector at all'] })
  })
})

describe('unmetObligations', () => {
  it("is empty for b10x's seven vectors under its declaration", () => {
    expect(unmetObligations('b10x', B10X_OBLIGATIONS, B10X_SEVEN, 'b10x 0.12.1')).toEqual([])
  })

  it('flags an empty run, a missing vector and a provider without a pin', () => {
    expect(unmetObligations('b10x', B10X_OBLIGATIONS, [], 'b10x')).toEqual([
      'checked is 0: a run that checked nothing also has zero failures, so it asserts nothing',
      'at least one launch vector: the declaration names `c1-observe-launch`, and the run has no such vector',
      ...['golden-loop-record', 'provider-emulated-unpublished-tool', 'provider-emulated-approval-denied', 'provider-emulated-budget-stop', 'provider-emulated-cancellation'].map(
        (id) => `a recorded transcript/rollout vector: the declaration names \`${id}\`, and the run has no such vector`,
      ),
      'a golden-version-pair vector: the declaration names `golden-version-pair`, and the run has no such vector',
      'provider is "b10x"; the record must carry `b10x <pinned version>`, or a consumer cannot tell which binary the contract is about',
    ])
  })

  it('accepts only `<adapter> <pin>` as the provider', () => {
    expect(providerProblem('b10x', 'b10x 0.12.1')).toBeUndefined()
    expect(providerProblem('b10x', 'claude 2.1.240')).toMatch(/^provider is "claude 2.1.240"/)
    expect(providerProblem('b10x', 'b10x ')).toMatch(/^provider is "b10x "/)
  })
})
