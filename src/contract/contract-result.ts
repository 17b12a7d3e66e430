import type { Capabilities } from '../../adapters/types.js'
import { contractResult, type ContractResult } from '../evidence/contract-result.js'
import type { VectorOutcome } from './outcome.js'

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

/**
 * The `contract_result` of a contract run's outcomes (the counting lives in `src/evidence`, which
 * also writes the line and the evidence document). Refuses an empty run.
 */
export function contractResultOf(provider: string, outcomes: readonly VectorOutcome[]): ContractResult {
  if (outcomes.length === 0) throw new ContractResultError()
  return contractResult(outcomes, provider)
}
