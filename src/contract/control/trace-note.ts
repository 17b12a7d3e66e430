import type { Emission } from '../../events/types.js'

/**
 * One event as a control vector's trace names it: the name, plus what the control machinery
 * decided (`tool.requested decision_required=true`, `tool.decided deny by=deadline`,
 * `command.result refused TOO_LATE`, `session.ended allowed=1 denied=0 replaced=0 abstained=0`,
 * `warning PENDING_CALL_ABANDONED`). The notes upstream's C3 vectors compare.
 */
export function traceNote(emission: Emission): string {
  switch (emission.event) {
    case 'tool.requested':
      return `tool.requested decision_required=${String(emission.decision_required)}`
    case 'tool.decided':
      return `tool.decided ${emission.decision.decision} by=${emission.decided_by}`
    case 'command.result':
      return emission.outcome.result === 'ok' ? 'command.result ok' : `command.result refused ${emission.outcome.refused.code}`
    case 'session.ended': {
      const census = emission.census
      return `session.ended allowed=${census.allowed} denied=${census.denied} replaced=${census.replaced} abstained=${census.abstained}`
    }
    case 'warning':
      return `warning ${emission.code}`
    default:
      return emission.event
  }
}

/** A list as Rust's `{:?}` prints a `Vec<&str>`, which is how upstream's C3 details quote traces. */
export function debugList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(', ')}]`
}
