import { EVENT_FORMAT } from '../events/format.js'
import { writeSortedJson } from '../events/json.js'
import { EvidenceError } from './errors.js'
import { compactProvenance } from './provenance.js'
import type { ContractResultRecord, EvidenceProvenance, VerifierProducer } from './types.js'

/** The producer of every `contract_result` this package mints. */
export const CONTRACT_RUNNER: VerifierProducer = Object.freeze({ producer: 'verifier', verifier: 'contract-runner' })

/** What a harness contract is a contract with: the event stream its adapter must emit. */
export const CONTRACT_CONSUMER = EVENT_FORMAT

/** metaharness's `contract_result` line: what `metaharness conformance <kind> --contract` prints. */
export interface ContractResult {
  readonly kind: 'contract_result'
  readonly checked: number
  readonly failed: number
  readonly breaking_changes: number
  readonly consumer: string
  readonly provider: string
}

/** One vector's result, as far as the counts need it (a `VectorOutcome` fits). */
export interface CountedVector {
  readonly tier: string
  readonly passed: boolean
}

/**
 * The counts over a contract's vectors: `checked` every vector, `failed` the red ones,
 * `breaking_changes` the red ones in C1/C2 only (a red C3 control vector is a failure, not a break).
 * `provider` is `"<adapter> " + pins.join(", ")`.
 */
export function contractResult(vectors: readonly CountedVector[], provider: string, consumer: string = CONTRACT_CONSUMER): ContractResult {
  const red = vectors.filter((vector) => !vector.passed)
  return {
    kind: 'contract_result',
    checked: vectors.length,
    failed: red.length,
    breaking_changes: red.filter((vector) => vector.tier === 'c1' || vector.tier === 'c2').length,
    consumer,
    provider,
  }
}

/** The line itself: compact JSON, keys sorted, `\n`-terminated — byte for byte metaharness's. */
export function contractResultLine(result: ContractResult): string {
  return `${writeSortedJson(result)}\n`
}

/**
 * The evidence-document form (`aep observe contract evidence`): the counts, `observed_at`, the
 * contract runner as producer. Refused, as upstream refuses them: a run that checked nothing (it
 * would discharge the evidence obligation vacuously), and more breaking changes than failures
 * (counts no run produced).
 */
export function contractResultRecord(result: ContractResult, observedAt: number, provenance?: EvidenceProvenance, producer: VerifierProducer = CONTRACT_RUNNER): ContractResultRecord {
  if (result.checked === 0) {
    throw new EvidenceError('VH_EVIDENCE_RECORD', `the contract for ${result.provider} checked nothing, so it asserts nothing: a run that checked nothing also has zero failures and zero breaking changes`)
  }
  if (result.breaking_changes > result.failed) {
    throw new EvidenceError('VH_EVIDENCE_RECORD', `${result.breaking_changes} breaking change(s) out of ${result.failed} failure(s): a breaking change is a failure, so no run produced these counts`)
  }
  return {
    kind: 'contract_result',
    checked: result.checked,
    failed: result.failed,
    breaking_changes: result.breaking_changes,
    // An empty name is no name: a command step's exit status says nothing about either party.
    consumer: result.consumer || undefined,
    provider: result.provider || undefined,
    observed_at: observedAt,
    producer,
    provenance: compactProvenance(provenance),
  }
}
