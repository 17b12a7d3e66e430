import { describe, expect, it } from 'vitest'
import { describeJsonDifference, diffJson } from './json-diff.js'

describe('diffJson', () => {
  it('names a changed number by its JSON path, with both values', () => {
    const differences = diffJson({ usage: { input_tokens: 42, output_tokens: 8 } }, { usage: { input_tokens: 43, output_tokens: 8 } })
    expect(differences).toEqual([{ kind: 'changed', path: '$.usage.input_tokens', expected: 42, actual: 43 }])
    expect(describeJsonDifference(differences[0]!)).toBe('$.usage.input_tokens: expected 42, got 43')
  })

  it('names added and removed keys and array entries, and quotes keys that are not identifiers', () => {
    expect(diffJson({ a: [1, 2, 3], 'odd key': true }, { a: [1, 2], b: null })).toEqual([
      { kind: 'removed', path: '$.a[2]', expected: 3 },
      { kind: 'removed', path: '$["odd key"]', expected: true },
      { kind: 'added', path: '$.b', actual: null },
    ])
  })

  it('finds nothing between equal values, and tells a type change from a value change', () => {
    expect(diffJson({ a: [{ b: 'x' }] }, { a: [{ b: 'x' }] })).toEqual([])
    expect(diffJson({ a: 1 }, { a: '1' })).toEqual([{ kind: 'changed', path: '$.a', expected: 1, actual: '1' }])
    expect(diffJson({ a: {} }, { a: [] })).toEqual([{ kind: 'changed', path: '$.a', expected: {}, actual: [] }])
  })
})
