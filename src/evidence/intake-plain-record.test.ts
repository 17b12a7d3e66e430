import { isDeepStrictEqual } from 'node:util'
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

})
