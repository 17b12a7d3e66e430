import { contractResultRecord } from '../evidence/contract-result.js'
import { diffRecord } from '../evidence/diff.js'
import { staticAnalysisRecord } from '../evidence/static-analysis.js'
import { testResultRecord } from '../evidence/test-result.js'
import type { AnyEvidenceRecord, EvidenceProvenance, VerifierProducer } from '../evidence/types.js'
import { isNamedVerifier } from '../evidence/verifiers.js'
import type { EvidenceMapping } from './types.js'

/**
 * The record a command step's exit status establishes, for the four kinds an exit status can carry
 * (upstream's `mint`): the smallest result that carries the verdict — one test passing or failing,
 * one error or none, one contract checked — never counts nobody read. `diff` has no failing form,
 * so a failed observation of one is `undefined`: nothing was observed, and nothing is recorded.
 * The producer is the verifier the map names; provenance says which command ran.
 */
export function mintFromExitStatus(mapping: EvidenceMapping, passed: boolean, command: string, observedAt: number): AnyEvidenceRecord | undefined {
  const producer: VerifierProducer = { producer: 'verifier', verifier: mapping.verifier }
  const tool = mapping.tool ?? (isNamedVerifier(mapping.verifier) ? undefined : mapping.verifier)
  const provenance: EvidenceProvenance = { command, ...(tool === undefined ? {} : { tool }) }
  switch (mapping.kind) {
    case 'test_result':
      return testResultRecord({ suite: mapping.suite ?? 'unit', passed: passed ? 1 : 0, failed: passed ? 0 : 1, skipped: 0 }, observedAt, provenance, producer)
    case 'static_analysis':
      return staticAnalysisRecord({ errors: passed ? 0 : 1, warnings: 0, ...(mapping.tool === undefined ? {} : { tool: mapping.tool }) }, observedAt, provenance, producer)
    case 'contract_result':
      return contractResultRecord({ kind: 'contract_result', checked: 1, failed: passed ? 0 : 1, breaking_changes: 0, consumer: '', provider: '' }, observedAt, provenance, producer)
    case 'diff':
      return passed ? diffRecord({ filesChanged: 0, linesAdded: 0, linesRemoved: 0 }, observedAt, producer, provenance) : undefined
    default:
      return undefined
  }
}
