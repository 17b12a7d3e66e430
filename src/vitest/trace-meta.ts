import { inject, type TaskMeta } from 'vitest'
import type { TraceReport } from '../trace/report-types.js'
import { HARNESS_META_KEY, type TraceCheckMeta } from './meta.js'
import { PROVIDED_TRACE_PROOF_KEY } from './provided.js'
import { TRACE_PROOF_KEY_ENV, traceReportProof } from './trace-proof.js'

/**
 * Groups the tests of one check: the specification, the transcript, the downgrades, and the
 * reader — the same file read as stream-json and converted by its adapter are two checks.
 */
export function traceCheckKey(report: TraceReport): string {
  return `trace:${report.spec_digest}:${report.transcript_digest}:${report.advisory_overrides.join(',')}:${report.adapter.name}`
}

/**
 * The run's proof key in a worker: provided by the evidence reporter, or — in a shard, whose run
 * has no evidence reporter — the one the environment shares with the `--merge-reports` run.
 */
function proofKey(): string | undefined {
  const provided = inject(PROVIDED_TRACE_PROOF_KEY)
  if (typeof provided === 'string' && provided.length > 0) return provided
  const shared = process.env[TRACE_PROOF_KEY_ENV]
  return shared === undefined || shared === '' ? undefined : shared
}

/**
 * Attaches a completed check to a test's meta, beside whatever else the harness put there, with
 * the proof that the checker attached it. With no key (no evidence reporter in the run) it
 * carries none, and no reporter would mint from it.
 */
export function attachTraceMeta(meta: TaskMeta, trace: Omit<TraceCheckMeta, 'proof'>): void {
  const key = proofKey()
  meta[HARNESS_META_KEY] = { ...meta[HARNESS_META_KEY], trace: key === undefined ? trace : { ...trace, proof: traceReportProof(key, trace.report) } }
}
