import { sha256Hex } from '../../events/digest.js'
import { RustFloat } from '../../events/float.js'
import { writeSortedJson } from '../../events/json.js'
import type { ExpectationKind, RangeBound, TraceSpec } from './model.js'

/** A range bound's sides are `f64`s upstream, printed `1.0` where JavaScript would print `1`. */
function floats(bound: RangeBound): Record<string, unknown> {
  return {
    at_least: bound.at_least === null ? null : new RustFloat(bound.at_least),
    at_most: bound.at_most === null ? null : new RustFloat(bound.at_most),
  }
}

function kindView(kind: ExpectationKind): unknown {
  switch (kind.expect) {
    case 'tool.error_rate':
      return { ...kind, rate: floats(kind.rate) }
    case 'rate_limit.utilization':
      return { ...kind, utilization: floats(kind.utilization) }
    case 'cost.total':
      return { ...kind, usd: floats(kind.usd) }
    case 'cache.hit_ratio':
      return { ...kind, ratio: floats(kind.ratio) }
    case 'usage.share':
      return { ...kind, share: floats(kind.share) }
    default:
      return kind
  }
}

/**
 * The specification digest: sha256 of the key-sorted compact JSON of the validated document as
 * authored — `{format, id, title, expectations: [{id, statement, severity, on_unknown, kind}]}` —
 * exactly the bytes upstream's `serde_json::to_vec` of its model gives. `--advisory` never moves it.
 */
export function specDigest(spec: Omit<TraceSpec, 'digest'>): string {
  const view = {
    format: spec.format,
    id: spec.id,
    title: spec.title,
    expectations: spec.expectations.map((expectation) => ({
      id: expectation.id,
      statement: expectation.statement,
      severity: expectation.severity,
      on_unknown: expectation.on_unknown,
      kind: kindView(expectation.kind),
    })),
  }
  return sha256Hex(writeSortedJson(view))
}
