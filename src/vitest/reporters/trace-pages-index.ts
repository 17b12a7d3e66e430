import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { escapeHtml } from '../../report/html.js'
import type { TraceCheckMeta } from '../meta.js'
import { TRACE_PAGE_FILE, TRACE_PAGES_INDEX, tracePageName } from '../trace-page-name.js'
import { writeFileAtomic } from '../../util/atomic-write.js'

/** One test that checked a trace, as the index lists it. */
export interface IndexedTraceTest {
  /** The module path relative to the root. */
  readonly module: string
  readonly fullName: string
  /** The test's result state (`passed`, `failed`, `skipped`, `pending`). */
  readonly state: string
  readonly trace: TraceCheckMeta
}

/** Clears the pages an earlier run wrote (only files of this feature's names), so the folder shows this run alone. */
export function clearTracePages(dir: string): void {
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) if (TRACE_PAGE_FILE.test(name)) rmSync(join(dir, name), { force: true })
}

function verdictOf(trace: TraceCheckMeta): string {
  if (trace.expectationId === undefined) return trace.report.verdict
  return trace.report.expectations.find((row) => row.id === trace.expectationId)?.verdict ?? 'unknown'
}

const STYLE = [
  'body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24}',
  'table{border-collapse:collapse;width:100%}',
  'th,td{border-bottom:1px solid #d0d7de;padding:.35rem .6rem;text-align:left;vertical-align:top}',
  '.ok{color:#116329}.gap,.failed{color:#a40e26}.unknown,.skipped,.pending{color:#7d4e00}',
].join('')

/**
 * `index.html` of the pages folder: every test that checked a trace (its check proven the
 * checker's), its verdict and state in words, and a link to its check's page when one was written.
 * Static markup, every text escaped, no script. Returns the index's path.
 */
export function writeTracePagesIndex(dir: string, tests: readonly IndexedTraceTest[]): string {
  mkdirSync(dir, { recursive: true })
  const rows = tests.map((test) => {
    const page = tracePageName(test.trace.key)
    const link = existsSync(join(dir, page)) ? `<a href="${escapeHtml(page)}">${escapeHtml(test.trace.report.spec_id)}</a>` : `${escapeHtml(test.trace.report.spec_id)} (no page: not a describeTraceSpec suite)`
    const verdict = verdictOf(test.trace)
    return `<tr><td>${escapeHtml(test.module)}</td><td>${escapeHtml(test.fullName)}</td><td class="${escapeHtml(verdict)}">${escapeHtml(verdict)}</td><td class="${escapeHtml(test.state)}">${escapeHtml(test.state)}</td><td>${link}</td></tr>`
  })
  const body = tests.length === 0 ? '<p>No test of this run checked a trace.</p>' : `<table><thead><tr><th>file</th><th>test</th><th>verdict</th><th>state</th><th>report</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<title>Trace checks of this run</title>',
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>Trace checks of this run</h1>`,
    `<p>${tests.length} test(s) checked a trace.</p>`,
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n')
  const path = join(dir, TRACE_PAGES_INDEX)
  writeFileAtomic(path, html)
  return path
}
