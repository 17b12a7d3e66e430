/**
 * Evidence records as AEP's engine reads them (`aep govern evaluate --evidence FILE`): the payload
 * flattened under `kind`, then `observed_at` (epoch ms), `producer`, `provenance`. Field order is
 * serialization order; an `undefined` field is omitted, as upstream's `skip_serializing_if` does.
 */

/** A verifier as a producer: the only producer this package ever stamps. */
export interface VerifierProducer {
  readonly producer: 'verifier'
  readonly verifier: 'trace-checker' | 'test-runner' | 'contract-runner'
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

export type EvidenceRecord = TraceConformanceRecord | TestResultRecord | ContractResultRecord
