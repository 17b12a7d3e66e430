import { compareCodePoints } from '../../events/json.js'
import type { TraceSpec } from './model.js'

/**
 * Downgrades the named expectations to advisory, returning a new specification (the digest is the
 * document as authored and does not move) and the ids it does not declare, sorted: a caller refuses
 * those rather than relaxing nothing while looking as though it had.
 */
export function markAdvisory(spec: TraceSpec, ids: Iterable<string>): { spec: TraceSpec; unknown: string[] } {
  const requested = new Set(ids)
  const declared = new Set(spec.expectations.map((expectation) => expectation.id))
  const unknown = [...requested].filter((id) => !declared.has(id)).sort(compareCodePoints)
  const expectations = spec.expectations.map((expectation) =>
    requested.has(expectation.id) ? { ...expectation, severity: 'advisory' as const } : expectation,
  )
  return { spec: { ...spec, expectations }, unknown }
}
