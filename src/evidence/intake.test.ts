import { describe, expect, it } from 'vitest'
import { renderEvidenceDocument } from './document.js'
import { renderIntakeDiagnostic, validateEvidenceText, type IntakeCode } from './intake.js'
import { testResultRecord } from './test-result.js'

const NOW = Date.parse('2026-09-01T12:00:00Z')
const ENVELOPE = 'observed_at: 2026-08-30\n  producer: {producer: verifier, verifier: test-runner}'

function codes(text: string): IntakeCode[] {
  return validateEvidenceText(text, { now: NOW }).diagnostics.map((diagnostic) => diagnostic.code)
}

describe('evidence intake', () => {
  it('accepts what this package writes, in both spellings', () => {
    const record = testResultRecord({ suite: 'unit', passed: 2, failed: 0, skipped: 0, selector: 'a.test.ts' }, NOW - 1, { command: 'npx vitest run a.test.ts', tool: 'vitest-harness', environment: 'node-20-linux-x64', inputs: ['a.test.ts'] })
    for (const format of ['yaml', 'json'] as const) {
      const report = validateEvidenceText(renderEvidenceDocument([record, record], format), { now: NOW })
      expect(report.diagnostics).toEqual([])
      expect(report.accepted).toEqual([1, 2])
    }
  })

  it('accepts the older spellings a record is read under, and nothing else', () => {
    expect(codes(`- kind: test_execution\n  suite: unit\n  ${ENVELOPE}\n- kind: source_diff\n  files_changed: 1\n  ${ENVELOPE}\n`)).toEqual([])
    expect(codes(`- kind: artifact_evidence\n  ${ENVELOPE}\n`)).toEqual(['UNKNOWN_KIND'])
    expect(codes(`- suite: unit\n  ${ENVELOPE}\n`)).toEqual(['MISSING_FIELD'])
  })

  it.each([
    ['', 'NOT_A_LIST'],
    ['kind: test_result\n', 'NOT_A_LIST'],
    ['- [1]\n', 'NOT_A_RECORD'],
    ['- kind: test_result\n  suite: unit\n  suite: e2e\n', 'DUPLICATE_KEY'],
    ['- {kind: test_result\n', 'NOT_YAML'],
    ['- kind: test_result\n---\n- kind: test_result\n', 'MULTIPLE_DOCUMENTS'],
  ])('refuses the document %j with %s', (text, code) => {
    const report = validateEvidenceText(text, { now: NOW })
    expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toContain(code)
    expect(report.documentRefused).toBe(true)
    expect(report.accepted).toEqual([])
  })

  it('requires observed_at as a day or epoch milliseconds, never inferred', () => {
    expect(codes('- kind: test_result\n  suite: unit\n  producer: {producer: verifier, verifier: test-runner}\n')).toEqual(['MISSING_FIELD'])
    for (const bad of ["'1788220800000'", '2026-02-30', '-5', '1.5', 'true', '[1]']) {
      expect(codes(`- kind: test_result\n  suite: unit\n  observed_at: ${bad}\n  producer: {producer: verifier, verifier: test-runner}\n`), bad).toEqual(['INVALID_VALUE'])
    }
    for (const good of ['1788220800000', '"2026-08-30"', '1788220800000.0', '0']) {
      expect(codes(`- kind: test_result\n  suite: unit\n  observed_at: ${good}\n  producer: {producer: verifier, verifier: test-runner}\n`), good).toEqual([])
    }
  })

  it('requires a tagged producer', () => {
    const record = (producer: string): string => `- kind: test_result\n  suite: unit\n  observed_at: 2026-08-30\n${producer}`
    expect(codes(record(''))).toEqual(['MISSING_FIELD'])
    expect(codes(record('  producer: test-runner\n'))).toEqual(['INVALID_VALUE'])
    expect(codes(record('  producer: {verifier: test-runner}\n'))).toEqual(['MISSING_FIELD'])
    expect(codes(record('  producer: {producer: robot, id: r2}\n'))).toEqual(['INVALID_VALUE'])
    expect(codes(record('  producer: {producer: agent}\n'))).toEqual(['MISSING_FIELD'])
    expect(codes(record('  producer: {producer: verifier, verifier: Not A Tool}\n'))).toEqual(['INVALID_VALUE'])
    expect(codes(record('  producer: {producer: verifier, verifier: cargo-mutants}\n'))).toEqual([])
    expect(codes(record('  producer: {producer: agent, id: claude}\n'))).toEqual([])
  })

  it('refuses payload, provenance and envelope fields nobody declared, and badly typed values', () => {
    expect(codes(`- kind: test_result\n  suite: unit\n  flaky: 1\n  ${ENVELOPE}\n`)).toEqual(['UNKNOWN_FIELD'])
    expect(codes(`- kind: test_result\n  suite: unit\n  passed: '3'\n  ${ENVELOPE}\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: test_result\n  suite: Unit\n  ${ENVELOPE}\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  provenance: {command: x, host: y}\n`)).toEqual(['UNKNOWN_FIELD'])
    expect(codes(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  provenance: {environment: node 20.20}\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  provenance: {tool: vitest-harness/0.1.0}\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  about: task:A-1\n  envelope_subject: task:A-2\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: trace_conformance\n  specification: s\n  spec_digest: ABC\n  transcript_digest: ${'a'.repeat(64)}\n  status: passed\n  observed_at: 1\n  producer: {producer: verifier, verifier: trace-checker}\n`)).toEqual(['INVALID_VALUE'])
    expect(codes(`- kind: deployment_result\n  environment: prod\n  revision: abc\n  ${ENVELOPE}\n`)).toEqual(['MISSING_FIELD'])
  })

  it('refuses a future observation on its own and reads the rest', () => {
    const text = `- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n- kind: test_result\n  suite: unit\n  observed_at: ${NOW + 1}\n  producer: {producer: verifier, verifier: test-runner}\n`
    const report = validateEvidenceText(text, { now: NOW })
    expect(report.documentRefused).toBe(false)
    expect(report.accepted).toEqual([1])
    expect(report.refused).toEqual([2])
    expect(renderIntakeDiagnostic('verify.yaml', report.diagnostics[0] as never)).toBe(`verify.yaml: record 2: the observation time ${NOW + 1}ms has not happened yet; the clock reads 2026-09-01T12:00:00Z (${NOW}ms)`)
  })

  it('neither accepts nor refuses a payload it cannot check, and says so', () => {
    const report = validateEvidenceText(`- kind: review\n  subject: design:x\n  ${ENVELOPE}\n`, { now: NOW })
    expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['PAYLOAD_UNCHECKED'])
    expect(report).toMatchObject({ documentRefused: false, accepted: [], refused: [], unchecked: [1] })
    expect(codes(`- kind: ess_conformance_v2\n  report_json: '{}'\n  extra: 1\n  ${ENVELOPE}\n`)).toEqual(['UNKNOWN_FIELD', 'PAYLOAD_UNCHECKED'])
  })

  it('locates each problem by line, column, record and field', () => {
    const [diagnostic] = validateEvidenceText(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  provenance:\n    inputs: [a, [b]]\n`, { now: NOW }).diagnostics
    expect(diagnostic).toMatchObject({ code: 'INVALID_VALUE', record: 1, path: 'provenance.inputs', line: 6, column: 13 })
    expect(renderIntakeDiagnostic('e.yaml', diagnostic as never)).toMatch(/^e\.yaml:6:13: record 1: INVALID_VALUE at provenance\.inputs: /)
  })
})
