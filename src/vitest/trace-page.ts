import { inject, type TestContext } from 'vitest'
import { buildCheckOnlyReport, buildRunReport } from '../report/build.js'
import { renderReportHtml } from '../report/html.js'
import type { ReportData } from '../report/model.js'
import { transcriptLabel, transcriptPath, type TraceTranscript } from '../trace/check/input.js'
import { openTranscriptPath, openTranscriptText } from '../trace/ir/any-format.js'
import type { TraceReport } from '../trace/report-types.js'
import type { TranscriptChunk } from '../trace/ir/read.js'
import { writeFileAtomic } from '../util/atomic-write.js'
import { PROVIDED_TRACE_PAGES_KEY } from './provided.js'
import { tracePagePath } from './trace-page-name.js'

/** The annotation type a trace test's page is attached under. */
export const TRACE_PAGE_ANNOTATION = 'vitest-harness trace report'

/** The folder the evidence reporter's `html` option asked for, or `undefined` when it is off. */
export function tracePagesDir(): string | undefined {
  const dir = inject(PROVIDED_TRACE_PAGES_KEY)
  return typeof dir === 'string' && dir.length > 0 ? dir : undefined
}

async function* once(bytes: TranscriptChunk): AsyncGenerator<TranscriptChunk> {
  yield bytes
}

/**
 * The page's data: the transcript read again for its timeline beside the check's verdicts, or —
 * for events handed over in memory, already consumed by the check — the verdicts alone.
 */
async function pageData(report: TraceReport, transcript: TraceTranscript, title: string): Promise<ReportData> {
  const label = transcriptLabel(transcript)
  const path = transcriptPath(transcript)
  const from = typeof transcript === 'object' && 'from' in transcript ? transcript.from : undefined
  if (path !== undefined) {
    const opened = openTranscriptPath(path, from, label)
    return buildRunReport(opened.bytes, { ...opened.read, traceReport: report, source: label, title })
  }
  if (typeof transcript === 'object' && 'text' in transcript) {
    const opened = openTranscriptText(transcript.text, from, label)
    return buildRunReport(once(opened.bytes), { ...opened.read, traceReport: report, source: label, title })
  }
  return buildCheckOnlyReport(report, { title })
}

/**
 * Writes the page of one completed check (atomically: two suites of one check write the same
 * bytes to one file) and returns its path.
 */
export async function writeTracePage(dir: string, key: string, report: TraceReport, transcript: TraceTranscript, title: string): Promise<string> {
  const path = tracePagePath(dir, key)
  writeFileAtomic(path, renderReportHtml(await pageData(report, transcript, title)))
  return path
}

/** Attaches the page to the running test through Vitest's own annotation API (shown by its UI, HTML and JUnit reporters). */
export async function attachTracePage(context: TestContext, path: string): Promise<void> {
  await context.annotate('trace report', TRACE_PAGE_ANNOTATION, { path, contentType: 'text/html' })
}

/** A check's page as a suite holds it: written, refused with a reason, or not asked for. */
export type TracePage = { path: string } | { problem: string } | undefined

/** Writes the check's page when the run asked for pages; a page that cannot be written never hides the verdict. */
export async function tracePageFor(key: string, report: TraceReport, transcript: TraceTranscript, title: string): Promise<TracePage> {
  const dir = tracePagesDir()
  if (dir === undefined) return undefined
  try {
    return { path: await writeTracePage(dir, key, report, transcript, title) }
  } catch (error) {
    return { problem: `the trace report page was not written: ${(error as Error).message}` }
  }
}

/** Attaches a suite's page to one of its tests, or notes why there is none. */
export async function annotateTracePage(context: TestContext, page: TracePage): Promise<void> {
  if (page === undefined) return
  if ('path' in page) await attachTracePage(context, page.path)
  else await context.annotate(page.problem, 'warning')
}
