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
  const tier = outcome.tier.toUpperCase()
  if (!outcome.passed) return `FAIL ${tier} ${outcome.id} — ${outcome.detail}`
  if (isWarning(outcome)) return `warn ${tier} ${outcome.id} — ${outcome.detail}`
  return `pass ${tier} ${outcome.id}`
}
