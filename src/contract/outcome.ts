import { escapeForTerminal } from '../util/terminal-text.js'
import type { VectorTier } from './manifest.js'

/**
 * One vector's result, as upstream's `VectorOutcome`: passed with an empty detail is a pass,
 * passed with a detail is a pass with a warning, not passed is a failure with its detail.
 */
export interface VectorOutcome {
  readonly id: string
  readonly tier: VectorTier
  readonly passed: boolean
  readonly detail: string
}

export function isWarning(outcome: VectorOutcome): boolean {
  return outcome.passed && outcome.detail.length > 0
}

/** The human line: `pass C1 id`, `FAIL C2 id — detail`, `warn C2 id — detail`. */
export function renderOutcome(outcome: VectorOutcome): string {
  // A detail quotes the record, the manifest and the adapter's output.
  return escapeForTerminal(renderOutcomeText(outcome))
}

function renderOutcomeText(outcome: VectorOutcome): string {
  const tier = outcome.tier.toUpperCase()
  if (!outcome.passed) return `FAIL ${tier} ${outcome.id} — ${outcome.detail}`
  if (isWarning(outcome)) return `warn ${tier} ${outcome.id} — ${outcome.detail}`
  return `pass ${tier} ${outcome.id}`
}
