import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { repoImport, runFixtureSuite, type ReportedTest } from '../helpers/run-suite.js'
import { tree } from '../helpers/tree.js'
import { copyVectors } from '../helpers/vectors.js'
import { firstStreamDifference } from '../../src/contract/compare.js'

// Issue 12: a byte comparison that fails names the JSON path and both values first, then the lines.

let failure: ReportedTest | undefined

beforeAll(async () => {
  const root = tree({
    'one-number.test.ts': [
      "import { fileURLToPath } from 'node:url'",
      `import { describeHarness } from ${repoImport('src', 'contract', 'describe-harness.ts')}`,
      "describeHarness('b10x', { name: 'one-number', vectors: fileURLToPath(new URL('vectors', import.meta.url)), only: ['golden-loop-record'] })",
      '',
    ].join('\n'),
  })
  const vectors = copyVectors('b10x', ['golden-loop-record'], join(root, 'vectors'))
  const expected = join(vectors, 'golden-loop-record', 'loop.expected.jsonl')
  const text = readFileSync(expected, 'utf8')
  expect(text).toContain('"input_tokens":42,')
  writeFileSync(expected, text.replace('"input_tokens":42,', '"input_tokens":43,'))
  const tests = await runFixtureSuite(root)
  failure = tests.get('one-number > C2 replay > golden-loop-record')
}, 120_000)

describe('a one-number change in an expected vector file', () => {
  it('fails the vector with the JSON path and both numbers on the first line of the message, then the lines', () => {
    expect(failure?.state).toBe('failed')
    const [first, second] = (failure?.errors[0]?.message ?? '').split('\n')
    expect(first).toBe('FAIL C2 golden-loop-record — $.usage.input_tokens: expected 43, got 42 (line 3)')
    expect(second).toMatch(/^line 3: expected \{.*"input_tokens":43,.*\}, observed \{.*"input_tokens":42,.*\}$/)
  })
})

describe('firstStreamDifference', () => {
  it('keeps upstream words alone where a line is not JSON or the stream ended', () => {
    expect(firstStreamDifference('a\nb\n', 'a\nc\n')).toBe('line 2: expected b, observed c')
    expect(firstStreamDifference('{"a":1}\n{"b":2}\n', '{"a":1}\n')).toBe('line 2: expected {"b":2}, observed <end of stream>')
    expect(firstStreamDifference('{"a":1}\n', '{"a":1}')).toBe('the streams differ only in trailing bytes')
    expect(firstStreamDifference('{"a":1}\n', '{"a":1}\n')).toBeUndefined()
  })

  it('says when two lines hold the same values spelled differently, and counts fields past three', () => {
    expect(firstStreamDifference('{"a":1,"b":2}\n', '{"b":2,"a":1}\n')?.split('\n')[0]).toBe('the same JSON values, spelled differently (key order, number form or whitespace) (line 1)')
    expect(firstStreamDifference('{"a":1,"b":1,"c":1,"d":1,"e":1}\n', '{"a":2,"b":2,"c":2,"d":2,"e":2}\n')?.split('\n')[0]).toBe(
      '$.a: expected 1, got 2; $.b: expected 1, got 2; $.c: expected 1, got 2; and 2 more field difference(s) (line 1)',
    )
  })
})
