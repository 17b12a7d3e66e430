import { describe, expect, it } from 'vitest'
import { contractResultRecord } from './contract-result.js'
import { ADP_1_EVIDENCE_KINDS, AEP_1_EVIDENCE_KINDS } from './declared-kinds.js'
import { diffRecord } from './diff.js'
import { renderEvidenceDocument } from './document.js'
import { EvidenceError } from './errors.js'
import { EVIDENCE_KINDS, parseEvidenceKind } from './intake-kinds.js'
import { validateEvidenceText } from './intake.js'
import { staticAnalysisRecord } from './static-analysis.js'
import { testResultRecord } from './test-result.js'
import { DEFAULT_VERIFIERS, isNamedVerifier, kindsEstablishedBy } from './verifiers.js'

const AT = 1_787_270_400_000
const GIT = { producer: 'verifier', verifier: 'git' } as const

describe('the records a step map mints', () => {
  it('writes static_analysis in the intake format, the tool omitted when unnamed', () => {
    const text = renderEvidenceDocument([staticAnalysisRecord({ errors: 1, warnings: 0 }, AT, { command: 'cargo clippy' })], 'yaml')
    expect(text).toBe(
      ['- kind: static_analysis', '  errors: 1', '  warnings: 0', `  observed_at: ${AT}`, '  producer:', '    producer: verifier', '    verifier: static-analyzer', '  provenance:', '    command: cargo clippy', ''].join('\n'),
    )
    expect(validateEvidenceText(text, { now: AT }).accepted).toEqual([1])
  })

  it('refuses a static_analysis tool name the engine would refuse, and a count that is not one', () => {
    expect(() => staticAnalysisRecord({ errors: 0, warnings: 0, tool: 'Clippy!' }, AT)).toThrow(EvidenceError)
    expect(() => staticAnalysisRecord({ errors: -1, warnings: 0 }, AT)).toThrow(/errors must be a count/)
  })

  it('writes diff with zero counts and an external tool as its verifier, accepted by the intake rules', () => {
    const text = renderEvidenceDocument([diffRecord({ filesChanged: 0, linesAdded: 0, linesRemoved: 0 }, AT, GIT)], 'yaml')
    expect(text).toContain('  verifier: git\n')
    expect(text).not.toContain('paths')
    expect(validateEvidenceText(text, { now: AT }).accepted).toEqual([1])
  })

  it('stamps the verifier a map names on test_result and contract_result, and leaves unnamed contract parties out', () => {
    const test = testResultRecord({ suite: 'contract', passed: 1, failed: 0, skipped: 0 }, AT, undefined, { producer: 'verifier', verifier: 'protocol' })
    expect(test.producer.verifier).toBe('protocol')
    const contract = contractResultRecord({ kind: 'contract_result', checked: 1, failed: 1, breaking_changes: 0, consumer: '', provider: '' }, AT)
    expect(contract).not.toHaveProperty('consumer', '')
    const text = renderEvidenceDocument([test, contract], 'yaml')
    expect(text).not.toMatch(/consumer|provider:/)
    expect(validateEvidenceText(text, { now: AT }).accepted).toEqual([1, 2])
  })
})

describe('kinds, aliases and verifiers', () => {
  it('reads every older spelling a document may name a kind by', () => {
    expect(parseEvidenceKind('test_execution')).toBe('test_result')
    expect(parseEvidenceKind('ess_conformance_result')).toBe('ess_conformance')
    expect(parseEvidenceKind('specification_record')).toBe('specification')
    expect(parseEvidenceKind('tests')).toBeUndefined()
  })

  it('declares aep/1 without review_outcome and the ESS and trace kinds, and adp/1 with ess_conformance and trace_conformance', () => {
    expect(AEP_1_EVIDENCE_KINDS).toEqual(['test_result', 'static_analysis', 'contract_result', 'property_test_result', 'deployment_result', 'metric_observation', 'health_observation', 'approval', 'diff', 'artifact', 'review', 'verification', 'specification'])
    expect(ADP_1_EVIDENCE_KINDS.slice(-2)).toEqual(['ess_conformance', 'trace_conformance'])
  })

  it('has a default-verifier row for every kind, naming only named verifiers', () => {
    expect(Object.keys(DEFAULT_VERIFIERS).sort()).toEqual([...EVIDENCE_KINDS].sort())
    for (const verifiers of Object.values(DEFAULT_VERIFIERS)) for (const verifier of verifiers) expect(isNamedVerifier(verifier)).toBe(true)
    expect(kindsEstablishedBy('trace-checker')).toEqual(['trace_conformance'])
    expect(kindsEstablishedBy('compiler')).toEqual(['static_analysis', 'diff'])
    expect(isNamedVerifier('git')).toBe(false)
  })
})
