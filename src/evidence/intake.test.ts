import { describe, expect, it } from 'vitest'
import { renderEvidenceDocument } from './document.js'
import { EVIDENCE_KINDS, PAYLOAD_FIELDS } from './intake-kinds.js'
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

  describe('review', () => {
    const review = (lines: string) => `- kind: review\n${lines}  ${ENVELOPE}\n`
    const base = '  subject: design:passkeys\n  reviewer: {reviewer: human, id: ada}\n  disposition: approved\n'

    it('accepts a ReviewResult: every reviewer variant, findings, the reviewed version and revision', () => {
      expect(codes(review(base))).toEqual([])
      for (const reviewer of ['{reviewer: team, name: platform}', '{reviewer: agent, id: claude}', '{reviewer: automated, tool: cargo-mutants}']) {
        expect(codes(review(base.replace('{reviewer: human, id: ada}', reviewer))), reviewer).toEqual([])
      }
      const full = `${base}  subject_kind: design\n  findings:\n  - {severity: high, summary: unbounded scope, location: 'docs/d.md#s', blocking: true}\n  - {severity: info, summary: typo}\n  reviewed_version: '3'\n  reviewed_revision: abc123\n`
      expect(validateEvidenceText(review(full), { now: NOW })).toMatchObject({ diagnostics: [], accepted: [1], refused: [] })
    })

    it.each([
      ['no subject', base.replace('  subject: design:passkeys\n', ''), 'MISSING_FIELD', 'subject'],
      ['no reviewer', base.replace('  reviewer: {reviewer: human, id: ada}\n', ''), 'MISSING_FIELD', 'reviewer'],
      ['an unknown disposition', base.replace('approved', 'lgtm'), 'INVALID_VALUE', 'disposition'],
      ['an untagged reviewer', base.replace('{reviewer: human, id: ada}', '{id: ada}'), 'INVALID_VALUE', 'reviewer'],
      ['an unknown reviewer variant', base.replace('{reviewer: human, id: ada}', '{reviewer: robot, id: r2}'), 'INVALID_VALUE', 'reviewer'],
      ['a team without its name', base.replace('{reviewer: human, id: ada}', '{reviewer: team, id: platform}'), 'INVALID_VALUE', 'reviewer'],
      ['a tool that is not a tool name', base.replace('{reviewer: human, id: ada}', '{reviewer: automated, tool: Cargo Mutants}'), 'INVALID_VALUE', 'reviewer'],
      ['a finding of unknown severity', `${base}  findings: [{severity: urgent, summary: x}]\n`, 'INVALID_VALUE', 'findings'],
      ['a finding without a summary', `${base}  findings: [{severity: low}]\n`, 'INVALID_VALUE', 'findings'],
      ['a finding with an undeclared field', `${base}  findings: [{severity: low, summary: x, owner: bob}]\n`, 'INVALID_VALUE', 'findings'],
      ['findings that are not a list', `${base}  findings: {severity: low, summary: x}\n`, 'INVALID_VALUE', 'findings'],
      ['blocking that is not a boolean', `${base}  findings: [{severity: low, summary: x, blocking: 'yes'}]\n`, 'INVALID_VALUE', 'findings'],
      ['an undeclared field', `${base}  verdict: fine\n`, 'UNKNOWN_FIELD', 'verdict'],
    ])('refuses %s', (_name, lines, code, path) => {
      const report = validateEvidenceText(review(lines), { now: NOW })
      expect(report.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([[code, path]])
      expect(report).toMatchObject({ documentRefused: true, accepted: [], refused: [1] })
    })

    it('says which nested field is wrong', () => {
      const [diagnostic] = validateEvidenceText(review(`${base}  findings: [{severity: low, summary: x}, {severity: urgent, summary: y}]\n`), { now: NOW }).diagnostics
      expect(diagnostic?.message).toBe('[1]: severity: unknown finding severity "urgent", expected one of info, low, medium, high, critical')
    })
  })

  describe('review_outcome', () => {
    const outcome = (lines: string) => `- kind: review_outcome\n${lines}  ${ENVELOPE}\n`

    it('accepts each of the three outcomes, naming the review', () => {
      for (const word of ['no-op', 'fixed', 'escalated']) expect(codes(outcome(`  review: review:first-look\n  outcome: ${word}\n`)), word).toEqual([])
    })

    it.each([
      ['an outcome outside the three', '  review: review:first-look\n  outcome: no_op\n', [['INVALID_VALUE', 'outcome']]],
      ['no outcome', '  review: review:first-look\n', [['MISSING_FIELD', 'outcome']]],
      ['no review', '  outcome: fixed\n', [['MISSING_FIELD', 'review']]],
      ['an undeclared field', '  review: review:first-look\n  outcome: fixed\n  note: x\n', [['UNKNOWN_FIELD', 'note']]],
    ])('refuses %s', (_name, lines, expected) => {
      const report = validateEvidenceText(outcome(lines), { now: NOW })
      expect(report.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual(expected)
      expect(report.accepted).toEqual([])
    })
  })

  describe('the ESS source carriers', () => {
    const report = JSON.stringify(JSON.stringify({ format: 'ess-conformance-report/2', completed_at: 1 }))
    const suiteJson = JSON.stringify(JSON.stringify({ format: 'ess-conformance/4', scenarios: [] }))
    const v2 = (lines: string, envelope = ENVELOPE) => `- kind: ess_conformance_v2\n${lines}  ${envelope}\n`
    const coverage = (lines: string, envelope: string) => `- kind: ess_conformance_coverage_v1\n${lines}  ${envelope}\n`
    const instant = 'observed_at: 1788220800000\n  producer: {producer: verifier, verifier: conformance-runner}'

    it('accepts each closed carrier holding two JSON documents', () => {
      expect(codes(v2(`  report_json: ${report}\n  suite_json: ${suiteJson}\n`))).toEqual([])
      expect(codes(coverage(`  report_json: ${report}\n  suite_input_json: ${suiteJson}\n`, instant))).toEqual([])
    })

    it.each([
      ['a v2 carrier without its suite', v2(`  report_json: ${report}\n`), [['MISSING_FIELD', 'suite_json']]],
      ['a v2 carrier with a coverage key', v2(`  report_json: ${report}\n  suite_json: ${suiteJson}\n  suite_input_json: ${suiteJson}\n`), [['UNKNOWN_FIELD', 'suite_input_json']]],
      ['a v2 carrier with an undeclared key', v2(`  report_json: ${report}\n  suite_json: ${suiteJson}\n  verified: true\n`), [['UNKNOWN_FIELD', 'verified']]],
      ['a report that is not JSON', v2(`  report_json: '{not json'\n  suite_json: ${suiteJson}\n`), [['INVALID_VALUE', 'report_json']]],
      ['a report that is JSON but not an object', v2(`  report_json: '[1]'\n  suite_json: ${suiteJson}\n`), [['INVALID_VALUE', 'report_json']]],
      ['a report given as a map, not its original text', v2(`  report_json: {completed_at: 1}\n  suite_json: ${suiteJson}\n`), [['INVALID_VALUE', 'report_json']]],
      ['a coverage carrier with the v2 suite key', coverage(`  report_json: ${report}\n  suite_json: ${suiteJson}\n`, instant), [['UNKNOWN_FIELD', 'suite_json'], ['MISSING_FIELD', 'suite_input_json']]],
      ['a coverage record observed on a day', coverage(`  report_json: ${report}\n  suite_input_json: ${suiteJson}\n`, ENVELOPE), [['INVALID_VALUE', 'observed_at']]],
    ])('refuses %s', (_name, text, expected) => {
      const result = validateEvidenceText(text, { now: NOW })
      expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual(expected)
      expect(result).toMatchObject({ documentRefused: true, accepted: [] })
    })
  })

  it('models every kind the engine accepts: no record is left neither accepted nor refused', () => {
    for (const kind of EVIDENCE_KINDS) expect(PAYLOAD_FIELDS[kind], kind).toBeDefined()
  })

  it('locates each problem by line, column, record and field', () => {
    const [diagnostic] = validateEvidenceText(`- kind: test_result\n  suite: unit\n  ${ENVELOPE}\n  provenance:\n    inputs: [a, [b]]\n`, { now: NOW }).diagnostics
    expect(diagnostic).toMatchObject({ code: 'INVALID_VALUE', record: 1, path: 'provenance.inputs', line: 6, column: 13 })
    expect(renderIntakeDiagnostic('e.yaml', diagnostic as never)).toMatch(/^e\.yaml:6:13: record 1: INVALID_VALUE at provenance\.inputs: /)
  })
})

describe('hostile documents (issue 17)', () => {
  const codes = (text: string) => validateEvidenceText(text, { now: Date.UTC(2026, 11, 1) }).diagnostics.map((diagnostic) => diagnostic.code)

  it('refuses a 521-byte alias bomb as not YAML instead of expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for (let level = 1; level <= 8; level++) {
      const name = String.fromCharCode(97 + level)
      const previous = String.fromCharCode(96 + level)
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`)
    }
    const report = validateEvidenceText(`- kind: test_result\n  ${levels.join('\n  ')}\n`, { now: Date.UTC(2026, 11, 1) })
    expect(report.documentRefused).toBe(true)
    expect(report.diagnostics.map((diagnostic) => [diagnostic.code, /alias bomb/.test(diagnostic.message)])).toEqual([['NOT_YAML', true]])
  })

  it('refuses nesting deeper than any evidence document, with a code', () => {
    expect(codes(`- kind: test_result\n  extra: ${'['.repeat(300)}${']'.repeat(300)}\n`)).toEqual(['NOT_YAML'])
  })

  it('finds a duplicate among 40,000 keys of one mapping in one pass', () => {
    const keys = Array.from({ length: 40_000 }, (_, index) => `  k${index}: ${index}`)
    expect(codes(`- kind: test_result\n${keys.join('\n')}\n  k7: again\n`)).toContain('DUPLICATE_KEY')
  })
})

describe('keys named like Object.prototype members', () => {
  // Found by the CI-size fuzz: `kind: toString` resolved to Object.prototype's function and the
  // field check then threw a TypeError instead of refusing the record.
  it('are unknown kinds, fields and producers like any other name, never a crash', () => {
    const text = ['- kind: toString', '  type: x', '- kind: test_result', '  observed_at: 2026-09-01', '  constructor: 1', '  producer:', '    producer: hasOwnProperty', ''].join('\n')
    const report = validateEvidenceText(text, { now: Date.parse('2026-09-02T00:00:00Z') })
    expect(report.documentRefused).toBe(true)
    expect(report.diagnostics.map((diagnostic) => [diagnostic.record, diagnostic.code, diagnostic.path])).toEqual(
      expect.arrayContaining([
        [1, 'UNKNOWN_KIND', 'kind'],
        [2, 'UNKNOWN_FIELD', 'constructor'],
        [2, 'INVALID_VALUE', 'producer.producer'],
      ]),
    )
  })
})
