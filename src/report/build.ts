import { TraceChecker } from '../trace/check/checker.js'
import type { TranscriptChunk, TranscriptReadOptions } from '../trace/ir/read.js'
import { readThrough } from '../trace/read-through.js'
import type { TraceSpec } from '../trace/spec/model.js'
import type { TraceReport } from '../trace/report-types.js'
import { checkView } from './check-view.js'
import { REPORT_DATA_FORMAT, type ReportData } from './model.js'
import { TeeSink } from './tee-sink.js'
import { TimelineSink } from './timeline.js'

export interface BuildReportOptions extends TranscriptReadOptions {
  /** Checked in the same pass when given. */
  spec?: TraceSpec
  /** A check already run (a `trace-report/1`), shown beside the timeline. */
  traceReport?: TraceReport
  /** Names the transcript on the page and in errors. */
  source?: string
  /** The page's heading. Default: the spec id, else the source, else `run`. */
  title?: string
  /** Refuse (`VH_NOTHING_READ`) a transcript nothing of which was read, as the CLI does. Default: false. */
  requireRead?: boolean
}

/**
 * The report's data for a transcript streamed once through the trace reader: the timeline and,
 * with a spec, the check's verdicts. Throws `TraceTranscriptError` for a transcript the reader refuses.
 */
export async function buildRunReport(source: AsyncIterable<TranscriptChunk>, options: BuildReportOptions = {}): Promise<ReportData> {
  const timeline = new TimelineSink()
  const checker = options.spec ? new TraceChecker(options.spec) : undefined
  const result = await readThrough(source, new TeeSink(checker ? [timeline, checker] : [timeline]), options)
  const report = checker ? checker.report(result.digest) : options.traceReport
  return {
    format: REPORT_DATA_FORMAT,
    title: options.title ?? report?.spec_id ?? options.source ?? 'run',
    source: options.source ?? null,
    transcriptDigest: result.digest,
    adapter: result.adapter,
    session: timeline.session,
    closure: timeline.closure(),
    events: timeline.events,
    requests: timeline.requests,
    totals: timeline.totals(),
    check: report ? checkView(report) : null,
    contract: null,
    provider: null,
  }
}

/** A page with no run on it yet: what a contract or a provider log alone is shown on. */
export function blankReport(title: string, source: string | null = null): ReportData {
  return {
    format: REPORT_DATA_FORMAT,
    title,
    source,
    transcriptDigest: null,
    adapter: null,
    session: null,
    closure: null,
    events: [],
    requests: [],
    totals: { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUsd: null },
    check: null,
    contract: null,
    provider: null,
  }
}

/** The report's data for a `trace-report/1` alone: its verdicts, with no timeline to cite into. */
export function buildCheckOnlyReport(report: TraceReport, options: { source?: string; title?: string } = {}): ReportData {
  return {
    ...blankReport(options.title ?? report.spec_id, options.source ?? null),
    transcriptDigest: report.transcript_digest,
    adapter: report.adapter,
    check: checkView(report),
  }
}
