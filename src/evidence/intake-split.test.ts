import { describe, expect, it } from 'vitest'
import { renderEvidenceDocument } from './document.js'
import { validateEvidenceText } from './intake.js'
import { splitEvidenceRecords } from './intake-split.js'
import { testResultRecord } from './test-result.js'

const NOW = Date.parse('2026-09-01T12:00:00Z')
const ENVELOPE = 'observed_at: 2026-08-30\n  producer: {producer: verifier, verifier: test-runner}'
const record = testResultRecord({ suite: 'unit', passed: 2, failed: 0, skipped: 0, selector: 'a.test.ts' }, NOW - 1, { command: 'npx vitest run a.test.ts', tool: 'vitest-harness', environment: 'node-20-linux-x64', inputs: ['a.test.ts'] })

// A trailing comment holding `&` sends the same document (same lines) down the whole-document path.
const whole = (text: string) => validateEvidenceText(`${text}${text.endsWith('\n') ? '' : '\n'}# &\n`, { now: NOW })

describe('evidence intake, record by record', () => {
  it('splits a block list at each record and says where each starts', () => {
    const split = splitEvidenceRecords(`# evidence\n---\n- kind: a\n  x: 1\n\n- kind: b\n`)
    expect(split).toEqual({ kind: 'records', records: [{ text: '- kind: a\n  x: 1\n\n', line: 3 }, { text: '- kind: b\n', line: 6 }] })
  })

  it('leaves to the whole read what it cannot split for certain', () => {
    for (const text of ['- a: &x 1\n- b: *x\n', '[{kind: a}]\n', '- kind: a\n---\n- kind: b\n', '  - kind: a\n', '%YAML 1.2\n---\n- a\n', '']) {
      expect(splitEvidenceRecords(text)).toBeUndefined()
    }
    expect(splitEvidenceRecords('k0: 0\nk1: 1\n')).toEqual({ kind: 'mapping', line: 1 })
  })

  it.each([
    ['accepted records', renderEvidenceDocument([record, record, record], 'yaml')],
    ['a record with an unknown field and one in the future', `- kind: test_result\n  suite: unit\n  bogus: 1\n  ${ENVELOPE}\n- kind: test_result\n  suite: unit\n  observed_at: 2099-01-01\n  producer: {producer: verifier, verifier: test-runner}\n`],
    ['only a future record', `- kind: test_execution\n  suite: unit\n  ${ENVELOPE}\n- kind: test_execution\n  suite: unit\n  observed_at: 2099-01-01\n  producer: {producer: verifier, verifier: test-runner}\n`],
    ['a key written twice in the second record', `- kind: test_execution\n  suite: unit\n  ${ENVELOPE}\n- kind: test_result\n  suite: unit\n  suite: e2e\n`],
    ['a list item that is not a record', '- [1]\n- kind: test_result\n'],
    ['nesting past the limit in one record', `- kind: test_result\n  deep: ${'['.repeat(300)}${']'.repeat(300)}\n`],
  ])('gives the diagnostics a whole read gives: %s', (_name, text) => {
    expect(splitEvidenceRecords(text)?.kind).toBe('records')
    expect(validateEvidenceText(text, { now: NOW })).toEqual(whole(text))
  })

  it('names the record broken YAML is in, where a whole read names the list it broke', () => {
    const text = `- kind: a\n- kind: b\n- {kind: c\n- kind: d\n`
    const split = validateEvidenceText(text, { now: NOW })
    const read = whole(text)
    expect(split.diagnostics.map(({ code, message }) => ({ code, message }))).toEqual(read.diagnostics.map(({ code, message }) => ({ code, message })))
    expect(split.diagnostics.map(({ line }) => line)).toEqual([3])
    expect({ ...split, diagnostics: [] }).toEqual({ ...read, diagnostics: [] })
  })

  it('reads many records, numbering each and placing it on its line, numbering them across parses', () => {
    const text = Array.from({ length: 600 }, (_, index) => (index === 450 ? `- kind: test_result\n  suite: unit\n  bogus: 1\n  ${ENVELOPE}\n` : `- kind: test_execution\n  suite: unit\n  ${ENVELOPE}\n`)).join('')
    const report = validateEvidenceText(text, { now: NOW })
    expect(report).toEqual(whole(text))
    expect(report.diagnostics.map((diagnostic) => [diagnostic.record, diagnostic.line])).toEqual([[451, 450 * 4 + 3]])
  })

  it('refuses a mapping of 100k keys at its first line, without parsing it', () => {
    const text = Array.from({ length: 100_000 }, (_, index) => `k${index}: ${index}`).join('\n')
    const report = validateEvidenceText(text, { now: NOW })
    expect(report).toMatchObject({ documentRefused: true, records: 0 })
    expect(report.diagnostics).toEqual([{ code: 'NOT_A_LIST', path: '', line: 1, column: 1, message: 'an evidence file is a list of records, even of one' }])
  })
})
