import type { TaskMeta } from 'vitest'
import type { TraceReport } from '../trace/report-types.js'
import { HARNESS_META_KEY, type TraceCheckMeta } from './meta.js'

/**
 * Groups the tests of one check: the specification, the transcript, the downgrades, and the
 * reader — the same file read as stream-json and converted by its adapter are two checks.
 */
export function traceCheckKey(report: TraceReport): string {
  return `trace:${report.spec_digest}:${report.transcript_digest}:${report.advisory_overrides.join(',')}:${report.adapter.name}`
}

/** Attaches a completed check to a test's meta, beside whatever else the harness put there. */
export function attachTraceMeta(meta: TaskMeta, trace: TraceCheckMeta): void {
  meta[HARNESS_META_KEY] = { ...meta[HARNESS_META_KEY], trace }
}
