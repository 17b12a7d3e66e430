import { EvidenceError } from './errors.js'
import { identifierProblem } from './intake-values.js'
import { compactProvenance } from './provenance.js'
import type { EvidenceProvenance, StaticAnalysisRecord, VerifierProducer } from './types.js'

/** The producer of a `static_analysis` record when nothing names another: the static analyzer. */
export const STATIC_ANALYZER: VerifierProducer = Object.freeze({ producer: 'verifier', verifier: 'static-analyzer' })

export interface StaticAnalysisCounts {
  readonly errors: number
  readonly warnings: number
  /** The analyzer, as a dotted kebab-case tool name (`clippy`, `eslint`). */
  readonly tool?: string
}

/**
 * A `static_analysis` record (`StaticAnalysisResult`): the analyzer's counts. Throws
 * `VH_EVIDENCE_RECORD` for a count that is not one and for a tool name the engine would refuse.
 */
export function staticAnalysisRecord(
  counts: StaticAnalysisCounts,
  observedAt: number,
  provenance?: EvidenceProvenance,
  producer: VerifierProducer = STATIC_ANALYZER,
): StaticAnalysisRecord {
  for (const [name, value] of [['errors', counts.errors], ['warnings', counts.warnings]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new EvidenceError('VH_EVIDENCE_RECORD', `${name} must be a count, got ${value}`)
  }
  const problem = counts.tool === undefined ? undefined : identifierProblem(counts.tool, 'dotted', 'tool')
  if (problem) throw new EvidenceError('VH_EVIDENCE_RECORD', problem)
  return {
    kind: 'static_analysis',
    tool: counts.tool,
    errors: counts.errors,
    warnings: counts.warnings,
    observed_at: observedAt,
    producer,
    provenance: compactProvenance(provenance),
  }
}
