import type { Capabilities } from '../../adapters/types.js'
import { EVENT_FORMAT } from '../events/format.js'
import { writeSortedJson } from '../events/json.js'
import type { VectorOutcome } from './outcome.js'

/**
 * The `contract_result` record: an adapter's conformance as a contract between the vendor (the
 * provider, with its pin) and `metaharness.event/1` (the consumer), in the shape AEP reads.
 */
export interface ContractResult {
  readonly kind: 'contract_result'
  readonly provider: string
  readonly consumer: typeof EVENT_FORMAT
  /** How many vectors ran; always > 0. */
  readonly checked: number
  /** Red vectors, any tier. */
  readonly failed: number
  /** Red vectors in the vendor-facing tiers (C1, C2): the vendor moved. A red C3 is the driver's own regression. */
  readonly breaking_changes: number
}

/** A `contract_result` that cannot be minted: nothing was checked. */
export class ContractResultError extends Error {
  readonly code = 'VH_NOTHING_CHECKED'

  constructor() {
    super('a contract that checked no vector asserts nothing: checked must be greater than 0, so no contract_result is minted')
    this.name = 'ContractResultError'
  }
}

/** `"<adapter> " + pins.join(", ")`, as upstream's provider field. */
export function providerOf(capabilities: Capabilities): string {
  return `${capabilities.adapter.id} ${capabilities.versions_pinned.join(', ')}`
}

/** The record for a run's outcomes. Refuses an empty run. */
export function contractResult(provider: string, outcomes: readonly VectorOutcome[]): ContractResult {
  if (outcomes.length === 0) throw new ContractResultError()
  const failed = outcomes.filter((outcome) => !outcome.passed)
  return {
    kind: 'contract_result',
    provider,
    consumer: EVENT_FORMAT,
    checked: outcomes.length,
    failed: failed.length,
    breaking_changes: failed.filter((outcome) => outcome.tier === 'c1' || outcome.tier === 'c2').length,
  }
}

/** The record's exact bytes: compact JSON, keys sorted, one trailing newline. */
export function renderContractResult(record: ContractResult): string {
  return `${writeSortedJson(record)}\n`
}
