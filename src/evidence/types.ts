/**
 * Evidence records as AEP's engine reads them (`aep govern evaluate --evidence FILE`): the payload
 * flattened under `kind`, then `observed_at` (epoch ms), `producer`, `provenance`. Field order is
 * serialization order; an `undefined` field is omitted, as upstream's `skip_serializing_if` does.
 */

/**
 * A verifier as a producer: the only producer this package ever stamps. `verifier` is one of AEP's
 * named classes (`trace-checker`, `test-runner`, `contract-runner`, …) or, for a step map's command
 * step, the external tool the map names (`git`, `protocol`).
 */
export interface VerifierProducer {
  readonly producer: 'verifier'
  readonly verifier: string
}

/**
 * How a record was obtained (`aep_domain::evidence::Provenance`), keys in upstream's order.
 * The engine refuses any other key.
 */
export interface EvidenceProvenance {
  /** The command that reproduces the observation. */
  readonly command?: string
  /** The tool that produced it: a dotted kebab-case name such as `vitest-harness`. */
  readonly tool?: string
  /** The source revision it describes (a commit; `-dirty` when the tracked tree had changes). */
  readonly revision?: string
  /** Where it was produced. */
  readonly workspace?: string
  /** The environment it describes: a kebab-case name. */
  readonly environment?: string
  /** A digest for tamper detection. */
  readonly digest?: string
  /** The files the observation depended on. */
  readonly inputs?: readonly string[]
}

export type VerificationStatus = 'passed' | 'failed' | 'inconclusive'

/** `kind: trace_conformance`, as `aep observe trace evidence` writes it. */
export interface TraceConformanceRecord {
  readonly kind: 'trace_conformance'
  readonly specification: string
  readonly spec_digest: string
  readonly transcript_digest: string
  readonly status: VerificationStatus
  readonly expectations_total: number
  readonly expectations_gapped: number
  readonly expectations_unknown: number
  readonly advisory_overrides?: readonly string[]
  readonly adapter?: string
  readonly gapped_expectations?: readonly string[]
  readonly observed_at: number
  readonly producer: VerifierProducer
  readonly provenance?: EvidenceProvenance
}

/** `kind: test_result`: one suite run's counts. */
export interface TestResultRecord {
  readonly kind: 'test_result'
  readonly suite: string
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  readonly duration_ms?: number
  readonly selector?: string
  readonly observed_at: number
  readonly producer: VerifierProducer
  readonly provenance?: EvidenceProvenance
}

/** `kind: contract_result`, the evidence-document form of a contract runner's line. */
export interface ContractResultRecord {
  readonly kind: 'contract_result'
  readonly checked: number
  readonly failed: number
  readonly breaking_changes: number
  readonly consumer?: string
  readonly provider?: string
  readonly observed_at: number
  readonly producer: VerifierProducer
  readonly provenance?: EvidenceProvenance
}

/** `kind: static_analysis`: an analyzer's error and warning counts. */
export interface StaticAnalysisRecord {
  readonly kind: 'static_analysis'
  readonly tool?: string
  readonly errors: number
  readonly warnings: number
  readonly observed_at: number
  readonly producer: VerifierProducer
  readonly provenance?: EvidenceProvenance
}

/** `kind: diff` (`ChangeSet`): that the working tree changed, with whatever counts were read. */
export interface DiffRecord {
  readonly kind: 'diff'
  readonly files_changed: number
  readonly lines_added: number
  readonly lines_removed: number
  readonly revision_before?: string
  readonly revision_after?: string
  readonly paths?: readonly string[]
  readonly observed_at: number
  readonly producer: VerifierProducer
  readonly provenance?: EvidenceProvenance
}

/** The records the evidence reporter mints. */
export type EvidenceRecord = TraceConformanceRecord | TestResultRecord | ContractResultRecord

/** Every record this package writes: the reporter's, plus what a step map's command steps mint. */
export type AnyEvidenceRecord = EvidenceRecord | StaticAnalysisRecord | DiffRecord
