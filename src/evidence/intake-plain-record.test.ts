import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderEvidenceDocument } from './document.js'
import { readPlainRecord } from './intake-plain-record.js'
import { readIntakeText } from './intake-read.js'
import { splitEvidenceRecords } from './intake-split.js'
import { testResultRecord } from './test-result.js'

const NOW = Date.parse('2026-09-01T12:00:00Z')

/** Each record of a document, as the split hands it to the readers. */
function recordsOf(text: string) {
  const split = splitEvidenceRecords(text)
  if (split?.kind !== 'records') throw new Error('not a list of records')
  return split.records
}

/** The fast reader either declines (undefined) or builds exactly what `yaml` builds, positions included. */
function agrees(text: string): 'fast' | 'declined' {
  const results = recordsOf(text).map((record) => {
    const plain = readPlainRecord(record.text, record.line - 1)
    if (plain === undefined) return 'declined' as const
    const slow = readIntakeText(record.text, record.line - 1)
    expect(slow.problems).toEqual([])
    expect(isDeepStrictEqual(plain, slow.value), `record at line ${record.line}:\n${record.text}\nfast ${JSON.stringify(plain, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}\nyaml ${JSON.stringify(slow.value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`).toBe(true)
    return 'fast' as const
  })
  return results.every((result) => result === 'fast') ? 'fast' : 'declined'
}

describe('the plain-record reader', () => {
  it('reads a record this package writes exactly as yaml does', () => {
    const text = renderEvidenceDocument(
      [testResultRecord({ suite: 'unit-7', passed: 3, failed: 0, skipped: 1, selector: 'test/s7.test.ts' }, NOW - 1000, { command: 'npx vitest run --config vitest.config.ts test/s7.test.ts', tool: 'vitest-harness', environment: 'node-20-linux-x64', inputs: ['test/s7.test.ts', 'src/a.ts'] })],
      'yaml',
    )
    expect(agrees(text)).toBe('fast')
  })

  it('reads every scalar spelling as yaml and serde_yaml do: numbers, radix, leading zeros, nulls, booleans, days, instants', () => {
    const text = [
      '- kind: test_result',
      '  observed_at: 2026-09-01T10:00:00Z',
      '  day: 2026-09-01',
      '  passed: 34',
      '  negative: -3',
      '  hex: 0x1F',
      '  octal: 0o17',
      '  zeros: 0017',
      '  float: 1.5e3',
      '  inf: .inf',
      '  nothing: ~',
      '  word: null',
      '  yes: true',
      '  no: False',
      '  path: a/b:c',
      '  sentence: one two three',
      '  producer:',
      '    producer: verifier',
      '    nested:',
      '      deeper: 1',
      '    list:',
      '      - x',
      '      - -1',
      '  after: 2',
      '# a comment between records',
      '',
      '- kind: other',
      '  items:',
      '  - one',
      '  - 2',
      '',
    ].join('\n')
    expect(agrees(text)).toBe('fast')
  })

  it.each([
    ['a quoted value', '- kind: "test_result"\n'],
    ['a comment after a value', '- kind: test_result # why\n'],
    ['flow style', '- kind: test_result\n  inputs: [a, b]\n'],
    ['an empty value', '- kind: test_result\n  suite:\n  passed: 1\n'],
    ['a block scalar', '- kind: test_result\n  note: |\n    text\n'],
    ['a continuation line', '- kind: test_result\n  note: one\n    two\n'],
    ['a key written twice', '- kind: test_result\n  kind: other\n'],
    ['a sequence of mappings', '- kind: test_result\n  items:\n  - a: 1\n'],
    ['a value with `: ` inside', '- kind: a: b\n'],
    ['a tag', '- kind: !!str 12\n'],
    ['a trailing space', '- kind: test_result \n'],
  ])('declines %s, which yaml reads', (_what, text) => {
    expect(readPlainRecord(text, 0)).toBeUndefined()
  })


  it('agrees with yaml on arbitrary records built from the characters that matter (fixed seed)', () => {
    const chars = fc.constantFrom(...'aZ09 -_.:/#\'"{}[],&*!|>%@`?~=<\\\t\u0001\u00a0\ufeffé'.split(''))
    const plainChars = fc.constantFrom(...'aZ09 -.:/_'.split(''))
    // Mostly the characters records are written in, sometimes any that matters: both paths get exercised.
    const scalar = fc.oneof({ weight: 4, arbitrary: fc.string({ unit: plainChars, minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: chars, maxLength: 12 }) })
    const key = fc.constantFrom('kind', 'suite', 'a.b', 'x-y', 'observed_at', 'k', 'passed', 'producer', 'inputs', 'note', 'z_1', 'Q')
    const leaf = fc.tuple(key, scalar).map(([k, v]) => [`${k}: ${v}`])
    const list = fc.tuple(key, fc.array(scalar, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([k, items, deeper]) => [`${k}:`, ...items.map((item) => `${deeper ? '  ' : ''}- ${item}`)])
    const nested = fc.tuple(key, fc.array(leaf, { minLength: 1, maxLength: 3 })).map(([k, rows]) => [`${k}:`, ...rows.flat().map((row) => `  ${row}`)])
    const record = fc.array(fc.oneof(leaf, list, nested), { minLength: 1, maxLength: 5 }).map((fields) => {
      const rows = fields.flat().map((row) => `  ${row}`)
      return `- ${(rows[0] as string).slice(2)}\n${rows.slice(1).map((row) => `${row}\n`).join('')}`
    })
    let fast = 0
    fc.assert(
      fc.property(record, (text) => {
        const plain = readPlainRecord(text, 0)
        if (plain === undefined) return
        fast += 1
        const slow = readIntakeText(text, 0)
        expect(slow.problems, text).toEqual([])
        expect(isDeepStrictEqual(plain, slow.value), text).toBe(true)
      }),
      { seed: 4242, numRuns: 3000 },
    )
    // The property must have exercised the fast path, not only its refusals.
    expect(fast).toBeGreaterThan(100)
  })
})
